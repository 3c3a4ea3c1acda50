#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind kernels=6.12 toolchains=gcc configs=small
#
# kallmodsyms-audit --patches: the MODULE_LICENSE() removal series on the
# synthetic tree of mini-tree.sh, with a MAINTAINERS file and the test
# kernel's own scripts/get_maintainer.pl.  Each patch must apply alone to
# the pristine tree (patch -p1 --dry-run), and once all are applied the
# audit finds only the files it refused to rewrite.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/mini-tree.sh
. "$tests_dir/modularity/mini-tree.sh"

need_kernel small
cd "$tmp" || exit 1
mini_tree_configured MODULES A_TRI B_BOOL C_DEFTRI D_DEFBOOL E_LATE \
	DIR_TRI DIR_BOOL COMP_TRI MEMBER_BOOL

# One source per case.  b_bool.c: between two blank lines; always.c: over
# two lines; libthing.c: last, after a blank line; bcomp_x.c: under
# #ifdef MODULE; in_tri_dir.c: in a macro; comp_sub.c: a real module;
# d_defbool.c: tags only in a comment (drivers/char/hpet.c), not a finding.
cat > src/a/b_bool.c <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int x;

MODULE_LICENSE("GPL");

MODULE_DESCRIPTION("b");
C
cat > src/a/always.c <<'C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
/* MODULE_LICENSE("in a comment") */
MODULE_AUTHOR("someone");
MODULE_LICENSE(
	"GPL");
static const char *s = "MODULE_LICENSE(\"in a string\")";
C
cat > src/lib/libthing.c <<'C'
// SPDX-License-Identifier: GPL-2.0
int libthing;

MODULE_LICENSE("Dual MIT/GPL");
C
cat > src/b/bcomp_x.c <<'C'
// SPDX-License-Identifier: GPL-2.0
#ifdef MODULE
MODULE_LICENSE("GPL");
#endif
C
cat > src/dtri/in_tri_dir.c <<'C'
// SPDX-License-Identifier: GPL-2.0
#define TAGS \
	MODULE_LICENSE("GPL")
TAGS;
C
cat > src/a/d_defbool.c <<'C'
// SPDX-License-Identifier: GPL-2.0
/*
MODULE_LICENSE("GPL");
*/
C
cat > src/b/sub/comp_sub.c <<'C'
MODULE_LICENSE("GPL");
C
cp -r src bare

# What get_maintainer.pl needs to take the tree for a kernel tree.
mkdir -p src/scripts src/Documentation src/include src/drivers src/fs \
	src/init src/ipc src/kernel
touch src/COPYING src/CREDITS src/Makefile src/README
cp "$kbuild/source/scripts/get_maintainer.pl" src/scripts/
cat > src/MAINTAINERS <<'EOF_M'
List of maintainers

A DRIVERS
M:	Ann Maintainer <ann@example.org>
L:	a-list@example.org
S:	Maintained
F:	a/

B AND LIB
M:	Bob Maintainer <bob@example.org>
S:	Maintained
F:	b/
F:	lib/
X:	b/sub/

LIBTHING
M:	Lib Thing <libthing@example.org>
S:	Maintained
N:	libth[a-z]+
EOF_M
cp -r src pristine

expected_warnings="kallmodsyms-audit: b/bcomp_x.c: MODULE_LICENSE() inside #ifdef MODULE: not rewritten
kallmodsyms-audit: dtri/in_tri_dir.c: MODULE_LICENSE() inside a macro: not rewritten"
export GIT_AUTHOR_NAME='Env Author' GIT_AUTHOR_EMAIL='env@example.org'
series() { # DIR TREE: write the series, check what is said on the way
	audit -b obj -S "$2" --patches "$1" --author 'A U Thor <author@example.org>' \
		> "$tmp/out" 2> "$tmp/err" || fail "--patches $1 exited $?"
	[ "$(cat "$tmp/out")" = "$1: $3" ] ||
		fail "--patches $1: said $(cat "$tmp/out")"
	[ "$(cat "$tmp/err")" = "$4" ] ||
		fail "--patches $1: warned $(cat "$tmp/err")"
}

# patch_head N/M SUBJECT FILE...: the head every patch of the series opens
# with, the commit message's first paragraph included, then the FILEs
# (cat's: - for stdin), the rest of the patch.
patch_head() {
	cat <<EOF_H
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: A U Thor <author@example.org>
Date: Thu, 1 Jan 1970 00:00:00 +0000
Subject: [PATCH $1] $2

modules.builtin is made from the file= records in
modules.builtin.modinfo, which MODULE_LICENSE() writes for built-in
code (include/linux/module.h: MODULE_LICENSE() is MODULE_FILE there),
and modules.builtin.ranges follows it.  Code that can never be a
module but declares MODULE_LICENSE() is therefore listed as a
built-in module, and modprobe and every tool that reads
modules.builtin or modules.builtin.ranges then believe that a module
exists where there is none.

EOF_H
	shift 2
	cat "$@"
}

series s1 src "2 patches, 3 files, 2 left alone" "$expected_warnings"
testrun_compare ls s1 <<'EOF_L'
0000-cover-letter.patch
0001-kbuild-a-remove-MODULE_LICENSE-in-non-modules.patch
0002-kbuild-lib-remove-MODULE_LICENSE-in-non-modules.patch
series
EOF_L
patch_head 1/2 'kbuild, a: remove MODULE_LICENSE in non-modules' - <<'EOF_P' | testrun_compare cat s1/0001-kbuild-a-remove-MODULE_LICENSE-in-non-modules.patch
None of these files can be built as a module, so remove their
MODULE_LICENSE():

  a/always.c: always built (obj-y)
  a/b_bool.c: CONFIG_B_BOOL is bool

Only MODULE_LICENSE() goes.  The other MODULE_*() tags still here
write no file= record, so they make no module of a file;
taking them out too is another cleanup.  <linux/module.h> stays
included: it declares those tags and module_init() and the like,
which built-in code uses as well.

Signed-off-by: A U Thor <author@example.org>
Cc: Ann Maintainer <ann@example.org>
Cc: a-list@example.org
---
 a/always.c | 2 --
 a/b_bool.c | 2 --
 2 files changed, 4 deletions(-)

diff --git a/a/always.c b/a/always.c
--- a/a/always.c
+++ b/a/always.c
@@ -2,6 +2,4 @@
 #include <linux/module.h>
 /* MODULE_LICENSE("in a comment") */
 MODULE_AUTHOR("someone");
-MODULE_LICENSE(
-	"GPL");
 static const char *s = "MODULE_LICENSE(\"in a string\")";
diff --git a/a/b_bool.c b/a/b_bool.c
--- a/a/b_bool.c
+++ b/a/b_bool.c
@@ -2,6 +2,4 @@
 #include <linux/module.h>
 static int x;
 
-MODULE_LICENSE("GPL");
-
 MODULE_DESCRIPTION("b");
-- 
kallmodsyms-audit 0.1

EOF_P
patch_head 2/2 'kbuild, lib: remove MODULE_LICENSE in non-modules' - <<'EOF_P' | testrun_compare cat s1/0002-kbuild-lib-remove-MODULE_LICENSE-in-non-modules.patch
This file cannot be built as a module, so remove its
MODULE_LICENSE():

  lib/libthing.c: lib-y: in lib.a, never a module

Signed-off-by: A U Thor <author@example.org>
Cc: Bob Maintainer <bob@example.org>
Cc: Lib Thing <libthing@example.org>
---
 lib/libthing.c | 2 --
 1 file changed, 2 deletions(-)

diff --git a/lib/libthing.c b/lib/libthing.c
--- a/lib/libthing.c
+++ b/lib/libthing.c
@@ -1,4 +1,2 @@
 // SPDX-License-Identifier: GPL-2.0
 int libthing;
-
-MODULE_LICENSE("Dual MIT/GPL");
-- 
kallmodsyms-audit 0.1

EOF_P
patch_head 0/2 'kbuild: remove MODULE_LICENSE in non-modules' - <<'EOF_P' | testrun_compare cat s1/0000-cover-letter.patch
This series removes MODULE_LICENSE() from 3 files that can never
be modules, in 2 patches, one per MAINTAINERS section:

  their Kconfig symbol is bool   1
  always built in (obj-y)        1
  in lib.a (lib-y)               1

2 files are left alone, to be changed by hand:

  b/bcomp_x.c: MODULE_LICENSE() inside #ifdef MODULE
  dtri/in_tri_dir.c: MODULE_LICENSE() inside a macro

  kbuild, a: remove MODULE_LICENSE in non-modules (2 files)
  kbuild, lib: remove MODULE_LICENSE in non-modules (1 file)

-- 
kallmodsyms-audit 0.1

EOF_P

# Each patch alone on the pristine tree.  The check itself must be able
# to fail: a patch whose context is changed is refused.
applies_alone() { # PATCH
	patch -p1 --dry-run -F0 -s -f -d pristine < "$1" > /dev/null 2>&1
}
for p in s1/0*-kbuild-*.patch; do
	applies_alone "$p" || fail "$p does not apply to the pristine tree alone"
done
sed 's/^ static int x;/ static int y;/' s1/0001-*.patch > broken.patch
applies_alone broken.patch && fail "a patch with wrong context applied"

# All of them: the files as they should be, and the audit finds only the
# two it left alone.
cp -r pristine applied
while read -r p; do
	patch -p1 -s -d applied < "s1/$p" || fail "$p does not apply"
done < s1/series
testrun_compare cat applied/a/b_bool.c <<'EOF_C'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int x;

MODULE_DESCRIPTION("b");
EOF_C
testrun_compare cat applied/lib/libthing.c <<'EOF_C'
// SPDX-License-Identifier: GPL-2.0
int libthing;
EOF_C
testrun_compare audit -b obj -S applied -c <<'EOF_C'
2
EOF_C

# The same bytes every time.
series s2 src "2 patches, 3 files, 2 left alone" "$expected_warnings"
diff -r s1 s2 > /dev/null || fail "two runs wrote different series"

# A tree without MAINTAINERS and get_maintainer.pl: by directory, one
# warning more, no Cc lines.
series s3 bare "2 patches, 3 files, 2 left alone" "kallmodsyms-audit: $tmp/bare/MAINTAINERS: missing: one patch per directory, without Cc lines
$expected_warnings"
grep -q '^Cc:' s3/*.patch && fail "Cc lines without MAINTAINERS"

# Without --author: $GIT_AUTHOR_NAME and _EMAIL.
audit -b obj -S src --patches s5 > /dev/null 2>&1 || fail "--patches s5"
testrun_compare sed -n 2p s5/0000-cover-letter.patch <<'EOF_A'
From: Env Author <env@example.org>
EOF_A

# Bad input: one line, nothing written.
testrun_error 1 "kallmodsyms-audit: s1: exists; the series goes into a new directory" \
	audit -b obj -S src --patches s1
testrun_error 1 "kallmodsyms-audit: none/s: cannot create a directory beside it: No such file or directory" \
	audit -b obj -S src --patches none/s
assert_absent none
testrun_error 2 "kallmodsyms-audit: --patches goes with none of --objects, -j, -c" \
	audit -b obj -S src --patches s4 -j
assert_absent s4
ls -d ./*.tmp.* > /dev/null 2>&1 && fail "a temporary directory was left behind"

finish
