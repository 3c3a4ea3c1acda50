#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan kernels=6.12 toolchains=gcc configs=small
#
# The modularity analysis (kms/modularity.h) and kallmodsyms-audit: on a
# synthetic tree whose Kconfig and Makefiles this test writes, one rule
# per object, then on the small test kernel.  kconfig's conf comes from the
# test kernel's build.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/mini-tree.sh
. "$tests_dir/modularity/mini-tree.sh"

need_kernel small
cd "$tmp" || exit 1
mini_tree_configured MODULES A_TRI B_BOOL C_DEFTRI D_DEFBOOL E_LATE \
	DIR_TRI DIR_BOOL COMP_TRI MEMBER_BOOL F_NEEDS_Y
echo '# CONFIG_UNSET is not set' >> obj/.config

# Every object as kbuild would link it with every tristate at m.
testrun_compare audit -b obj -S src --objects <<'EOF'
a/b_bool.o	builtin
a/always.o	builtin
a/d_defbool.o	builtin
a/f_needs_y.o	builtin
a/a_tri.o	module	a/a_tri.o
a/c_deftri.o	module	a/c_deftri.o
a/e_late.o	module	a/e_late.o
arch/x86/archcore.o	builtin
arch/x86/head_64.o	builtin
arch/x86/archmod.o	module	arch/x86/archmod.o
arch/x86/drv/drvmod.o	module	arch/x86/drv/drvmod.o
arch/x86/drv2/drv2.o	builtin
arch/x86/lib/archlib.o	lib
b/bcomp_x.o	builtin
b/bcomp_y.o	builtin
b/both.o	builtin
b/comp_main.o	module	b/comp.o
b/sub/comp_sub.o	module	b/comp.o
b/comp_member.o	module	b/comp.o
dbool/dbool_mod.o	module	dbool/dbool_mod.o
dtri/in_tri_dir.o	builtin
dtri/dtri_mod.o	module	dtri/dtri_mod.o
lib/libobj.o	builtin
lib/libthing.o	lib
toplib/toplib_x.o	lib
cond/cond_y.o	while-y
EOF
# toplib/ comes from the top-level Makefile's libs-y, head_$(BITS).o from
# a variable of the arch Makefile, whose rules, recipes, define blocks and
# $(shell) assignments are not read.  cond/cond_y.o, under
# ifeq ($(CONFIG_A_TRI),y), is linked only while a tristate is y: the audit
# classifies it (while-y), the generator leaves it to modules.builtin.

# The configuration stays the user's: nothing is written into either tree.
find src obj -newer obj/.config -type f > written
testrun_empty cat written

# The audit: sources with MODULE_LICENSE() that can never be modules.
license() { # FILE SPDX LICENSE
	mkdir -p "$(dirname "src/$1")"
	{
		[ -n "$2" ] && echo "// SPDX-License-Identifier: $2"
		echo '#include <linux/module.h>'
		echo "MODULE_LICENSE(\"$3\");"
		echo 'MODULE_DESCRIPTION("test");'
	} > "src/$1"
}
license a/b_bool.c GPL-2.0 GPL
license a/always.c MIT GPL
license a/a_tri.c GPL-2.0 GPL
license b/bcomp_x.c '' 'GPL v2'
license dtri/in_tri_dir.c 'GPL-2.0 OR BSD-2-Clause' 'Dual BSD/GPL'
license lib/libthing.c GPL-2.0+ 'Dual MIT/GPL'
license b/sub/comp_sub.c GPL-2.0 GPL
license a/f_needs_y.c GPL-2.0 GPL
license cond/cond_y.c GPL-2.0 GPL
testrun_compare audit -b obj -S src <<'EOF'
a/b_bool.c	CONFIG_B_BOOL is bool	MODULE_LICENSE("GPL")	GPL-2.0	agree	MODULE_DESCRIPTION
a/always.c	always built (obj-y)	MODULE_LICENSE("GPL")	MIT	differ	MODULE_DESCRIPTION
a/f_needs_y.c	CONFIG_F_NEEDS_Y is bool, needs a tristate at y	MODULE_LICENSE("GPL")	GPL-2.0	agree	MODULE_DESCRIPTION
b/bcomp_x.c	CONFIG_B_BOOL is bool (part of b/bcomp.o)	MODULE_LICENSE("GPL v2")	-	no SPDX	MODULE_DESCRIPTION
dtri/in_tri_dir.c	always built (obj-y)	MODULE_LICENSE("Dual BSD/GPL")	GPL-2.0 OR BSD-2-Clause	agree	MODULE_DESCRIPTION
lib/libthing.c	lib-y: in lib.a, never a module	MODULE_LICENSE("Dual MIT/GPL")	GPL-2.0+	differ	MODULE_DESCRIPTION
cond/cond_y.c	linked only while a tristate is y	MODULE_LICENSE("GPL")	GPL-2.0	agree	MODULE_DESCRIPTION
EOF
testrun_compare audit -b obj -S src -c <<'EOF'
7
EOF
audit -b obj -S src -j > audit.json || fail "audit -j"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(len(d), d[1]["source"], d[1]["why"], d[1]["spdx"], d[1]["agreement"],
      " ".join(e["class"] for e in d))' audit.json > json-summary
testrun_compare cat json-summary <<'EOF'
7 a/always.c always built (obj-y) MIT differ bool always bool-needs-y bool always lib while-y
EOF

# Errors: one line, naming the file.
testrun_error 1 "kallmodsyms-audit: none: cannot open: No such file or directory" \
	audit -b none -S src
mkdir -p bare
cp obj/.config bare/.config
testrun_error 1 "kallmodsyms-audit: $tmp/bare/scripts/kconfig/conf: missing: the tree is not configured" \
	audit -b bare -S src
mkdir -p noconfig
testrun_error 1 "kallmodsyms-audit: $tmp/noconfig/.config: cannot open: No such file or directory" \
	audit -b noconfig -S src
cp -r src broken
echo '$(error this Makefile is broken)' >> broken/b/Makefile
testrun_error 1 "kallmodsyms-audit: make: evaluating the Makefiles of $tmp/broken failed: $tmp/broken/b/Makefile:9: *** this Makefile is broken.  Stop." \
	audit -b obj -S broken
testrun_error 2 "$KMS_BUILD/kallmodsyms-audit: unrecognized option '--nonsense'
see kallmodsyms-audit --help" audit --nonsense
testrun_error 2 "kallmodsyms-audit: unexpected argument extra; see kallmodsyms-audit --help" \
	audit -b obj extra
testrun_error 2 "kallmodsyms-audit: --allmodconfig needs -S SRCTREE" \
	audit --allmodconfig

# The small test kernel, its tree fixed by kernel-patches/6.12-module-license
# (n_null.c, vgacon.c and lib/glob.c said MODULE_LICENSE() before it): the
# samples' bool object is left, which says it on purpose.
testrun_compare audit -b "$kbuild" <<'EOF'
samples/kallmodsyms/bool_notmod.c	CONFIG_SAMPLE_KALLMODSYMS_BOOL is bool, needs a tristate at y	MODULE_LICENSE("GPL")	GPL-2.0	agree	MODULE_DESCRIPTION
EOF

# kconfig's answer is kept in the build tree for the next --modularity run
# on the same config; a cache of another key is not used.  Other tests, and
# this test's other modes, run --modularity on the same build at the same
# time: this part works in a view of the build tree of its own (the
# generator keeps the cache in the directory it is given).
mkdir kb
ln -s "$kbuild"/* "$kbuild"/.[!.]* kb/ || exit 1
cache=$tmp/kb/.tmp_kallmodsyms_bools
modularity_line() {
	kms_gen -s --modularity -f sidecar -o "$tmp/$1.kms" "$tmp/kb/vmlinux" 2>&1 |
		grep '^modularity'
}
rm -f "$cache"
testrun_compare modularity_line first <<'EOF'
modularity kconfig+makefiles not-modules 1
EOF
testrun_compare modularity_line second <<'EOF'
modularity kconfig(cached)+makefiles not-modules 1
EOF
cmp "$tmp/first.kms" "$tmp/second.kms" || fail "the cached run's tables differ"
sed -i '1s/key .*/key 0123456789abcdef/' "$cache"
testrun_compare modularity_line third <<'EOF'
modularity kconfig+makefiles not-modules 1
EOF
# ...and replaced by the answer for this config.
testrun_empty sed -n '1{/key 0123456789abcdef$/p}' "$cache"

finish
