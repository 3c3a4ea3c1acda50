#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# kallmodsyms-audit --tree-wide on a fake source tree: its top-level
# Makefile's allyesconfig writes a config and a stand-in for kconfig's conf
# (which calls every CONFIG_*_BOOL bool and turns CONFIG_NEEDY_BOOL off
# once the tristates are m), or fails for arch "bad".  The answers of the
# architectures are merged per file, whatever order they end in.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

cd "$tmp" || exit 1

mkdir -p src/{drv,lib,arch/good,arch/other,arch/bad}
for a in good other bad; do
	echo "# $a" > "src/arch/$a/Kconfig"
	echo "core-y += arch/$a/" > "src/arch/$a/Makefile"
	echo 'obj-y += setup.o' > "src/arch/$a/Kbuild"
done
# shellcheck disable=SC2016 # make's $(...), not the shell's
echo 'obj-$(CONFIG_OTHER_BOOL) += other_only.o' >> src/arch/other/Kbuild
cat > src/Kbuild <<'MK'
obj-y += drv/ $(ARCH_CORE) $(ARCH_LIB)
MK
cat > src/Makefile <<'MK'
core-y		:=
libs-y		:= lib/
allyesconfig:
	@if [ "$(ARCH)" = bad ]; then echo "bad: no compiler" >&2; exit 1; fi
	@mkdir -p $(O)/scripts/kconfig
	@cp $(CURDIR)/fakeconf $(O)/scripts/kconfig/conf
	@printf 'CONFIG_%s=y\n' MODULES A_BOOL NEEDY_BOOL TRI OTHER_BOOL > $(O)/.config
	@[ "$(ARCH)" = good ] || echo CONFIG_SPLIT=y >> $(O)/.config
	@[ "$(ARCH)" != good ] || echo CONFIG_SPLIT_BOOL=y >> $(O)/.config
MK
cat > src/fakeconf <<'SH'
#!/bin/sh
# conf --olddefconfig Kconfig, as far as the audit asks it.
sed -n 's/^CONFIG_\([A-Z_]*_BOOL\)=m$/symbol value '"'m'"' invalid for \1/p' \
	"$KCONFIG_CONFIG" >&2
sed -i '/^CONFIG_NEEDY_BOOL=y$/d' "$KCONFIG_CONFIG"
SH
chmod +x src/fakeconf
cat > src/drv/Makefile <<'MK'
obj-$(CONFIG_A_BOOL) += a_bool.o
obj-$(CONFIG_NEEDY_BOOL) += needy.o
obj-$(CONFIG_TRI) += tri.o
obj-$(CONFIG_SPLIT) += split.o
obj-$(CONFIG_SPLIT_BOOL) += split.o
obj-y += always.o
ifeq ($(CONFIG_TRI),y)
obj-y += only_y.o
endif
MK
echo 'lib-y += libthing.o' > src/lib/Makefile
for f in drv/a_bool drv/needy drv/tri drv/split drv/always drv/only_y \
	lib/libthing arch/other/other_only; do
	printf '// SPDX-License-Identifier: GPL-2.0\nMODULE_LICENSE("GPL");\n' > "src/$f.c"
done

# split.o is bool on good but a module on other: not listed.
testrun_compare audit --tree-wide -S src --arch good,other -o scratch <<'END'
arch/other/other_only.c	bool	CONFIG_OTHER_BOOL is bool	other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
drv/a_bool.c	bool	CONFIG_A_BOOL is bool	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
drv/always.c	always	always built (obj-y)	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
drv/needy.c	bool-needs-y	CONFIG_NEEDY_BOOL is bool, needs a tristate at y	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
drv/only_y.c	while-y	linked only while a tristate is y	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
lib/libthing.c	lib	lib-y: in lib.a, never a module	good,other	MODULE_LICENSE("GPL")	GPL-2.0	agree	-
END

# Every architecture: bad gets one note, and -c counts.
audit --tree-wide -S src -o scratch -c --jobs 3 > counts 2> notes ||
	fail "--tree-wide -c"
testrun_compare cat counts <<'END'
files	6
bool	2
bool-needs-y	1
always	1
lib	1
while-y	1
other	0
not-x86	6
END
testrun_compare cat notes <<END
kallmodsyms-audit: note: bad left out: make ARCH=bad allyesconfig in $tmp/src failed: bad: no compiler
END
audit --tree-wide -S src -j --jobs 1 > tw.json 2> /dev/null || fail "--tree-wide -j"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(len(d), d[0]["source"], d[0]["arches"], d[0]["why"][0]["class"])' tw.json > json-summary
testrun_compare cat json-summary <<'END'
6 arch/other/other_only.c ['other'] bool
END

# -j's strings: UTF-8 as it is, a backslash and control bytes escaped,
# so that a JSON reader gets the file's own bytes back; one file a line.
echo 'obj-y += naïve.o' >> src/drv/Makefile
printf 'MODULE_LICENSE("GPL \\ é\t\001");\n' > src/drv/naïve.c
audit --tree-wide -S src --arch good -j > utf8.json 2> /dev/null ||
	fail "--tree-wide -j, UTF-8"
python3 -c 'import json, sys
raw = open(sys.argv[1], "rb").read()
d = {e["source"]: e for e in json.loads(raw.decode("utf-8"))}
print(len(d), raw.count(b"\n"), "drv/naïve.c" in d,
      d["drv/naïve.c"]["license"] == "GPL \\ é\t\x01",
      "naïve".encode() in raw, b"\\\\ \xc3\xa9\\u0009\\u0001" in raw)' utf8.json > utf8-summary
testrun_compare cat utf8-summary <<'END'
7 8 True True True True
END

testrun_error 1 "kallmodsyms-audit: --arch: no architecture nonesuch in $tmp/src/arch" \
	audit --tree-wide -S src --arch good,nonesuch
testrun_error 1 "kallmodsyms-audit: note: bad left out: make ARCH=bad allyesconfig in $tmp/src failed: bad: no compiler
kallmodsyms-audit: $tmp/src: no architecture could be configured and analysed" \
	audit --tree-wide -S src --arch bad
testrun_error 2 "kallmodsyms-audit: --jobs 0: not a number from 1 to 1024" \
	audit --tree-wide -S src --jobs 0
testrun_error 2 "kallmodsyms-audit: --tree-wide needs -S SRCTREE, and no --allmodconfig or --objects" \
	audit --tree-wide
testrun_error 2 "kallmodsyms-audit: --arch and --jobs go with --tree-wide" \
	audit -b . --arch good
finish
