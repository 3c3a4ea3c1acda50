#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# kallmodsyms-audit is exact about "never a module": a file is listed
# only when every Makefile line that builds its object is non-modular,
# whichever architecture's allyesconfig turns the line on.  The fake tree
# of run-treewide.sh (a stand-in conf calls every CONFIG_*_BOOL bool),
# with Kconfig files for the types of the symbols no allyesconfig sets:
#   shared.o  drivers/scsi/wd33c93.o: a bool line and a tristate line, both
#             on; kbuild drops it from obj-m, yet it is a module when the
#             bool is off;
#   sti.o     drivers/video/console/sticore.o (6.1): a bool line on, a
#             tristate line no allyesconfig here turns on;
#   member.o  in a composite that a tristate line builds;
#   forced.o  obj-$(CONFIG_TRI:m=y): y whenever it is built (listed);
#   a_bool.o  a commented-out tristate line, and "tristate" in a bool's
#             help text, count for nothing (listed);
#   comment.o MODULE_LICENSE() only in a comment (not a finding).
# Then --findings checks an old listing again, and --patches says what a
# file under "#if 0" has.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

cd "$tmp" || exit 1

mkdir -p src/{drv,arch/good,arch/other}
for a in good other; do
	echo "core-y += arch/$a/" > "src/arch/$a/Makefile"
	echo 'obj-y += setup.o' > "src/arch/$a/Kbuild"
done
echo 'source "drv/Kconfig"' > src/arch/good/Kconfig
cat > src/arch/other/Kconfig <<'KCONFIG'
source "drv/Kconfig"
config ELSEWHERE
	tristate "only this architecture's, never set by allyesconfig here"
KCONFIG
cat > src/drv/Kconfig <<'KCONFIG'
config A_BOOL
	bool "a"
	help
	  A bool whose help says
	  tristate at the start of a line.
config SHARED_BOOL
	bool "one machine's"
config TRI
	tristate "another machine's"
config OLD
	tristate "no longer builds a_bool.o"
KCONFIG
echo 'obj-y += drv/ $(ARCH_CORE)' > src/Kbuild
cat > src/Makefile <<'MK'
core-y		:=
allyesconfig:
	@mkdir -p $(O)/scripts/kconfig
	@cp $(CURDIR)/fakeconf $(O)/scripts/kconfig/conf
	@printf 'CONFIG_%s=y\n' MODULES A_BOOL SHARED_BOOL TRI > $(O)/.config
MK
cat > src/fakeconf <<'SH'
#!/bin/sh
sed -n 's/^CONFIG_\([A-Z_]*_BOOL\)=m$/symbol value '"'m'"' invalid for \1/p' \
	"$KCONFIG_CONFIG" >&2
SH
chmod +x src/fakeconf
# shellcheck disable=SC2016 # make's $(...), not the shell's
cat > src/drv/Makefile <<'MK'
obj-$(CONFIG_A_BOOL) += a_bool.o
# obj-$(CONFIG_OLD) += a_bool.o
obj-$(CONFIG_SHARED_BOOL) += shared.o sti.o
obj-$(CONFIG_TRI) += shared.o
obj-$(CONFIG_ELSEWHERE) += sti.o # a tristate no allyesconfig sets
obj-$(CONFIG_SHARED_BOOL) += comp.o
obj-$(CONFIG_TRI) += comp.o
comp-y := member.o
obj-$(CONFIG_TRI:m=y) += forced.o
obj-y += comment.o
MK
for f in a_bool shared sti member forced; do
	printf '// SPDX-License-Identifier: GPL-2.0\nMODULE_LICENSE("GPL");\n' > "src/drv/$f.c"
done
printf '/*\nMODULE_LICENSE("GPL");\n */\n' > src/drv/comment.c

# The command's notes (stderr) into the file notes, to compare on their own.
with_notes() { "$@" 2> notes; }

testrun_compare with_notes audit --tree-wide -S src -o scratch <<'END'
drv/a_bool.c	bool	CONFIG_A_BOOL is bool	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
drv/forced.c	other	obj-$(CONFIG_TRI:m=y): y when CONFIG_TRI is m	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
END
# shellcheck disable=SC2016
testrun_compare cat notes <<'END'
kallmodsyms-audit: note: drv/member.c left out: part of drv/comp.o: obj-$(CONFIG_TRI) in drv, CONFIG_TRI is tristate
kallmodsyms-audit: note: drv/shared.c left out: obj-$(CONFIG_TRI) in drv, CONFIG_TRI is tristate
kallmodsyms-audit: note: drv/sti.c left out: obj-$(CONFIG_ELSEWHERE) in drv, CONFIG_ELSEWHERE is tristate
END

# A listing made before these rules, checked again: the lines that hold
# are printed as they were.
cat > old <<'END'
drv/a_bool.c	bool	CONFIG_A_BOOL is bool	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
drv/comment.c	always	always built (obj-y)	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
drv/shared.c	other	CONFIG_TRI is y	good	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
END
testrun_compare with_notes audit --findings old -S src <<'END'
drv/a_bool.c	bool	CONFIG_A_BOOL is bool	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
END
# shellcheck disable=SC2016
testrun_compare cat notes <<'END'
kallmodsyms-audit: note: drv/comment.c left out: no MODULE_LICENSE() outside comments
kallmodsyms-audit: note: drv/shared.c left out: obj-$(CONFIG_TRI) in drv, CONFIG_TRI is tristate
END

# "#if 0" is said as such, even with a comment that says MODULE
# (drivers/tty/serial/sunhv.c); "#else" of it is compiled.
cat > src/drv/a_bool.c <<'C'
#if 0 /* ...def MODULE ; never supported as such */
MODULE_LICENSE("GPL");
#endif
C
cat > src/drv/forced.c <<'C'
#if 0
#else
MODULE_LICENSE("GPL");
#endif
C
sed -n 's/shared/forced/p' old > old2
sed -n '/a_bool/p' old >> old2
printf '  drv/shared.c left out: a tristate line builds it too\n' > changes
audit --findings old2 -S src --patches series --changes changes > out 2> err ||
	fail "--findings --patches exited $?"
testrun_compare cat out <<'END'
series: 1 patches, 1 files, 1 left alone
END
testrun_compare sed -n '/left alone/,/^  kbuild/p' series/0000-cover-letter.patch <<'END'
1 file is left alone, to be changed by hand:

  drv/a_bool.c: MODULE_LICENSE() under #if 0

Changes since the previous version:

  drv/shared.c left out: a tristate line builds it too

  kbuild, drv: remove MODULE_LICENSE in non-modules (1 file)
END
testrun_compare grep '^-[^-]' series/0001-*.patch <<'END'
-MODULE_LICENSE("GPL");
END

testrun_error 2 "kallmodsyms-audit: --findings goes with -S SRCTREE and --patches alone" \
	audit --findings old -S src -c
testrun_error 2 "kallmodsyms-audit: --changes goes with --patches" \
	audit --findings old -S src --changes changes
testrun_error 1 "kallmodsyms-audit: nochanges: cannot open: No such file or directory" \
	audit --findings old2 -S src --patches series2 --changes nochanges
assert_absent series2
printf 'drv/sti.c\tnot a listing\n' > bad
testrun_error 1 "kallmodsyms-audit: bad: line 1: not a line of kallmodsyms-audit's listing" \
	audit --findings bad -S src
finish
