#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan
#
# kallmodsyms-gen --dwarf -S SRCTREE [--config FILE] on the synthetic
# tree: which objects make each multi-object module, from Makefiles this
# test writes for the fixture's objects (foo-y, foo-objs, foo-$(CONFIG_X),
# an object shared by two modules, a composite that is core code) and a
# config, without a modules.builtin.ranges file; the tree's version
# against the image's linux_banner; the rejections.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

fx=$(fixture relocatable)
cd "$tmp" || exit 1

# The fixture with a linux_banner, as a kernel has one in .rodata.
printf 'Linux version 6.12.118+kms1-amd64 (kms@example.org) (gcc) #1 SMP\n\0' > banner
objcopy --add-section .rodata.banner=banner \
	--set-section-flags .rodata.banner=alloc,load,readonly,data \
	--change-section-address .rodata.banner=0xffffffff82000000 \
	--add-symbol linux_banner=.rodata.banner:0,global,object \
	"$fx/vmlinux" vmlinux 2> objcopy.err || fail "objcopy: $(cat objcopy.err)"

# The sources' Makefiles, as kbuild reads them.
mk() { mkdir -p "$(dirname "src/$1")"; cat > "src/$1"; }
mk Makefile <<'MK'
# SPDX-License-Identifier: GPL-2.0
VERSION = 6
PATCHLEVEL = 12
SUBLEVEL = 118
EXTRAVERSION =
NAME = Test
core-y		:=
drivers-y	:= drivers/
libs-y		:= lib/
MK
mk Kbuild <<'MK'
obj-y += init/ kernel/ fs/
obj-y += $(ARCH_CORE) $(ARCH_LIB) $(ARCH_DRIVERS)
MK
mk arch/x86/Makefile <<'MK'
core-y += arch/x86/
MK
echo 'obj-y += kernel/' | mk arch/x86/Kbuild
echo 'obj-y += smp.o' | mk arch/x86/kernel/Makefile
echo 'obj-y += main.o' | mk init/Makefile
echo 'obj-y += smp.o sched/ events/' | mk kernel/Makefile
echo 'obj-y += core.o' | mk kernel/sched/Makefile
echo 'obj-y += core.o' | mk kernel/events/Makefile
echo 'obj-$(CONFIG_SORT) += sort.o' | mk lib/Makefile
mk drivers/Makefile <<'MK'
obj-y += base/ dup/
obj-$(CONFIG_MOD_A) += a/
obj-$(CONFIG_MOD_B) += b/
obj-y += net/
obj-$(CONFIG_NOTBUILTIN) += notbuiltin/
MK
echo 'obj-y += core.o' | mk drivers/base/Makefile
mk drivers/a/Makefile <<'MK'
obj-$(CONFIG_MOD_A) += mod_a.o
mod_a-y := core.o
MK
mk drivers/b/Makefile <<'MK'
obj-$(CONFIG_MOD_B) += mod-b.o
mod-b-objs := core.o
MK
# A composite that is core code: modules.builtin does not list it.
mk drivers/dup/Makefile <<'MK'
obj-y += dup.o
dup-y := dup1.o dup2.o
MK
echo 'obj-$(CONFIG_LIQUID) += liquid/' | mk drivers/net/Makefile
# common.o is in both modules; liquid_vf has it by a config symbol.
mk drivers/net/liquid/Makefile <<'MK'
obj-$(CONFIG_LIQUID) += liquid.o
obj-$(CONFIG_LIQUID_VF) += liquid_vf.o
liquid-y := main.o common.o
liquid_vf-y := vf_main.o
liquid_vf-$(CONFIG_LIQUID_COMMON) += common.o
MK
mk drivers/notbuiltin/Makefile <<'MK'
obj-$(CONFIG_NOTBUILTIN) += notbuiltin.o
notbuiltin-y := helper.o
MK
echo 'obj-$(CONFIG_EXT9) += ext9/' | mk fs/Makefile
mk fs/ext9/Makefile <<'MK'
obj-$(CONFIG_EXT9) += ext9.o
ext9-y := inode.o
ext9-$(CONFIG_EXT9_SUPER) += super.o
MK
cat > config <<'EOF'
#
# Automatically generated file; DO NOT EDIT.
# Linux/x86 6.12.118 Kernel Configuration
#
CONFIG_MOD_A=y
CONFIG_MOD_B=y
CONFIG_LIQUID=y
CONFIG_LIQUID_VF=y
CONFIG_LIQUID_COMMON=y
CONFIG_EXT9=y
CONFIG_EXT9_SUPER=y
CONFIG_NOTBUILTIN=m
CONFIG_SORT=y
EOF
printf 'sort.file=lib/sort\0sort.license=GPL\0' > modinfo

# The build tree's tables, from the .cmd files, for the image with a
# banner: what DWARF mode with -S is to give.
kms_gen -q -f sidecar -o build.kms -b "$fx" -m "$fx/vmlinux.map" \
	-M "$fx/vmlinux.o.map" vmlinux || fail "generate (build tree)"
kms list -t build.kms vmlinux > build.list || fail "list (build tree)"

# Every module known, each object's from the Makefiles.
kms_gen --dwarf -s -e -B "$fx/modules.builtin" --modinfo modinfo \
	-S src --config config -f sidecar -o srctree.kms vmlinux \
	> explain 2> stats || fail "generate --dwarf -S"
testrun_compare grep -e '^modules-from' -e warning stats <<'EOF'
modules-from makefiles by-path 1 by-makefiles 7 unknown 0
EOF
testrun_compare grep -e '^drivers' -e '^fs' -e '^lib' -e '^module' explain <<'EOF'
drivers/base/core.o	{base/core.o}
drivers/a/core.o	[mod_a]
drivers/b/core.o	[mod_b]
drivers/net/liquid/common.o	[liquid] [liquid_vf]
drivers/net/liquid/main.o	[liquid]
drivers/net/liquid/vf_main.o	[liquid_vf]
drivers/notbuiltin/helper.o
drivers/dup/dup1.o	{dup1.o}
drivers/dup/dup2.o	{dup2.o}
fs/ext9/inode.o	[ext9] {inode.o}
fs/ext9/super.o	[ext9] {super.o}
lib/sort.o	[sort]
EOF

# Against the build tree, only what DWARF cannot know differs (as in
# run-dwarf.sh): the top-level asm at _text has no compile unit, the
# parts of the ld -r composite dup.o are told apart by their own units.
# And lib/sort.o is a module here, by modinfo: its event_show, and so
# kernel/events/core.o's, need no {name}.
kms list -t srctree.kms vmlinux > srctree.list || fail "list --dwarf -S"
testrun_compare sh -c 'diff build.list srctree.list; true' <<'EOF'
1,3c1,3
< ffffffff81000000 t ext9_iget.cold	[ext9] {inode.o}
< ffffffff81000000 T _stext	[ext9] {inode.o}
< ffffffff81000000 T _text	[ext9] {inode.o}
---
> ffffffff81000000 t ext9_iget.cold
> ffffffff81000000 T _stext
> ffffffff81000000 T _text
10c10
< ffffffff81000025 t event_show	{core.o}
---
> ffffffff81000025 t event_show
21,22c21,22
< ffffffff8100006b t dup_fn
< ffffffff8100006f t dup_fn
---
> ffffffff8100006b t dup_fn	{dup1.o}
> ffffffff8100006f t dup_fn	{dup2.o}
28c28
< ffffffff81000092 t event_show	{sort.o}
---
> ffffffff81000092 t event_show	[sort]
EOF

# The config decides: without CONFIG_EXT9_SUPER, super.o is not ext9's
# (a tree of the same version but another config), and the same run again
# gives the same bytes.  The tree's own .config is the default.
sed '/EXT9_SUPER/d' config > src/.config
kms_gen --dwarf -s -e -B "$fx/modules.builtin" -S src -f sidecar \
	-o other.kms vmlinux > other.explain 2> other.stats ||
	fail "generate --dwarf -S (the tree's .config)"
testrun_compare grep -e '^fs' -e '^modules-from' other.explain other.stats <<'EOF'
other.explain:fs/ext9/inode.o	[ext9]
other.explain:fs/ext9/super.o
other.stats:modules-from makefiles by-path 0 by-makefiles 6 unknown 0
EOF
kms_gen -q --dwarf -B "$fx/modules.builtin" --modinfo modinfo -S src \
	--config config -f sidecar -o again.kms vmlinux || fail "generate again"
assert_same srctree.kms again.kms "two runs with -S"
rm src/.config

# A module whose composite has no member with code stays unknown, named.
cp -r src nocode
echo 'obj-$(CONFIG_EXT9) += ext9.o' > nocode/fs/ext9/Makefile
echo 'ext9-y := nosuch.o' >> nocode/fs/ext9/Makefile
kms_gen --dwarf -e -B "$fx/modules.builtin" -S nocode --config config \
	-f sidecar -o nocode.kms vmlinux > nocode.explain 2> nocode.stats ||
	fail "generate --dwarf -S (no code)"
testrun_compare grep -e '^module' -e warning nocode.explain nocode.stats <<'EOF'
nocode.explain:module fs/ext9/ext9: objects unknown (neither fs/ext9/ext9.o nor a member the Makefiles give it has text)
nocode.stats:kallmodsyms-gen: warning: 1 of 5 built-in modules have no object with text, of their own name or in the Makefiles' composite of that name
EOF

# Versions: the tree's must begin the image's release (6.12.118 of
# 6.12.118+kms1-amd64), and not as 6.12.1 or 6.12 would.
version_tree() { # DIR SUBLEVEL EXTRAVERSION
	cp -r src "$1"
	sed -i "s/^SUBLEVEL = .*/SUBLEVEL = $2/; s/^EXTRAVERSION =.*/EXTRAVERSION = $3/" \
		"$1/Makefile"
}
version_tree old 117 ''
version_tree prefix 1 ''
version_tree rc 118 -rc1
for t in old:6.12.117 prefix:6.12.1 rc:6.12.118-rc1; do
	testrun_error 1 "kallmodsyms-gen: ${t%%:*}: the sources of Linux ${t#*:}, but vmlinux is Linux 6.12.118+kms1-amd64 (#1 SMP): -S needs the sources it was built from" \
		kms_gen --dwarf -B "$fx/modules.builtin" -S "${t%%:*}" \
		--config config -f sidecar -o out.kms vmlinux
done
# A release candidate's tree says -rcN; a release's tree does not make
# an -rc kernel.
printf 'Linux version 6.12.118-rc2 (kms@example.org) #1\n\0' > banner-rc
objcopy --update-section .rodata.banner=banner-rc vmlinux vmlinux-rc 2> /dev/null ||
	fail "objcopy (rc)"
testrun_error 1 "kallmodsyms-gen: src: the sources of Linux 6.12.118, but vmlinux-rc is Linux 6.12.118-rc2 (#1): -S needs the sources it was built from" \
	kms_gen --dwarf -B "$fx/modules.builtin" -S src --config config \
	-f sidecar -o out.kms vmlinux-rc
# Debian 12's own kernels have an ABI name for a release (6.1.0-57-amd64)
# and say their version in UTS_VERSION, the banner's end.
printf 'Linux version 6.12.0-57-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld 2.40) # SMP PREEMPT_DYNAMIC Debian 6.12.118-3 (2026-11-26)\n\0' > banner-abi
objcopy --update-section .rodata.banner=banner-abi vmlinux vmlinux-abi 2> /dev/null ||
	fail "objcopy (ABI name)"
kms_gen -q --dwarf -B "$fx/modules.builtin" --modinfo modinfo -S src \
	--config config -f sidecar -o abi.kms vmlinux-abi ||
	fail "generate --dwarf -S (ABI name)"
testrun_compare sh -c "$KMS_WRAP '$KMS_BUILD/kallmodsyms' list -t abi.kms vmlinux-abi | diff - srctree.list; true" < /dev/null
testrun_error 1 "kallmodsyms-gen: prefix: the sources of Linux 6.12.1, but vmlinux-abi is Linux 6.12.0-57-amd64 (# SMP PREEMPT_DYNAMIC Debian 6.12.118-3 (2026-11-26)): -S needs the sources it was built from" \
	kms_gen --dwarf -B "$fx/modules.builtin" -S prefix --config config \
	-f sidecar -o out.kms vmlinux-abi

# Rejections: one line, the right status, nothing left behind.
testrun_error 1 "kallmodsyms-gen: $fx/vmlinux: no linux_banner: which kernel version it is cannot be told" \
	kms_gen --dwarf -B "$fx/modules.builtin" -S src --config config \
	-f sidecar -o out.kms "$fx/vmlinux"
testrun_error 1 "kallmodsyms-gen: src: no .config: give the kernel's own with --config (a distribution's /boot/config-RELEASE)" \
	kms_gen --dwarf -B "$fx/modules.builtin" -S src -f sidecar \
	-o out.kms vmlinux
testrun_error 1 "kallmodsyms-gen: nosuch: cannot open: No such file or directory" \
	kms_gen --dwarf -B "$fx/modules.builtin" -S nosuch -f sidecar \
	-o out.kms vmlinux
testrun_error 1 "kallmodsyms-gen: nosuch: cannot open: No such file or directory" \
	kms_gen --dwarf -B "$fx/modules.builtin" -S src --config nosuch \
	-f sidecar -o out.kms vmlinux
mkdir empty
testrun_error 1 "kallmodsyms-gen: empty/Makefile: cannot open: No such file or directory" \
	kms_gen --dwarf -B "$fx/modules.builtin" -S empty --config config \
	-f sidecar -o out.kms vmlinux
echo 'NAME = none' > empty/Makefile
testrun_error 1 "kallmodsyms-gen: empty/Makefile: no VERSION line: not a kernel source tree" \
	kms_gen --dwarf -B "$fx/modules.builtin" -S empty --config config \
	-f sidecar -o out.kms vmlinux
cp -r src broken
echo '$(error broken Makefile)' >> broken/fs/ext9/Makefile
testrun_error_match 1 "kallmodsyms-gen: make: evaluating the Makefiles of .*/broken failed: .*fs/ext9/Makefile:4: \*\*\* broken Makefile.  Stop." \
	kms_gen --dwarf -B "$fx/modules.builtin" -S broken --config config \
	-f sidecar -o out.kms vmlinux
testrun_error 2 "kallmodsyms-gen: --config goes with --dwarf -S" \
	kms_gen --dwarf -B "$fx/modules.builtin" --config config -f sidecar \
	-o out.kms vmlinux
testrun_error 2 "kallmodsyms-gen: --config goes with --dwarf -S" \
	kms_gen -S src --config config -f sidecar -o out.kms vmlinux
testrun_error 2 "kallmodsyms-gen: --dwarf takes modules from --ranges or from -S, not both" \
	kms_gen --dwarf --ranges /dev/null -S src -f sidecar -o out.kms vmlinux
assert_absent out.kms

finish
