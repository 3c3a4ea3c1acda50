#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the synthetic kernel tree of tests/unit/fixture into OUTDIR: objects
# in kernel-like directories, fake .cmd files with KBUILD_MODFILE, a
# modules.builtin, and a "vmlinux" linked at kernel addresses with maps.
#
# usage: build-fixture.sh OUTDIR relocatable|archive|direct
#   relocatable: ld -r into vmlinux.o, then the final link (as with IBT);
#   archive:     the same from a thin vmlinux.a, as kbuild links vmlinux.o
#                (five members named core.o);
#   direct:      the objects straight into vmlinux.
#
# LD_FIXTURE=ld.lld-16 links with ld.lld, CC_FIXTURE picks the compiler,
# LTO_FIXTURE=thin (with clang and ld.lld) compiles to bitcode for ThinLTO.

set -euo pipefail

src=$(cd "$(dirname "$0")/fixture" && pwd)
out=$1
mode=$2
CC=${CC_FIXTURE:-gcc}
LD=${LD_FIXTURE:-ld}
# GNU ar's plugin cannot index Debian 12's clang-16 bitcode.
AR='ar'
[ -z "${LTO_FIXTURE:-}" ] || AR=llvm-ar-16
# ld.lld has no such warning to silence.
case "$LD" in
*lld*) final_flags= ;;
*) final_flags=--no-warn-rwx-segments ;;
esac

mkdir -p "$out"
cd "$out"

cflags="-O1 -fno-pic -fno-pie -mcmodel=kernel -ffreestanding
	-fno-asynchronous-unwind-tables -fno-stack-protector -fcf-protection=none
	-g -fdebug-prefix-map=$src/="
case "$CC" in
# The order the code is written in; no inlining of the little functions.
gcc*) cflags="$cflags -fno-toplevel-reorder -fno-reorder-functions
	-fno-inline-small-functions" ;;
# Clang: the same through noinline functions; LTO_FIXTURE=thin for ThinLTO.
clang*) cflags="$cflags -fno-inline-functions ${LTO_FIXTURE:+-flto=$LTO_FIXTURE}" ;;
esac

# object  module-paths (space separated; "-" for none)
objects="
init/main.o -
kernel/smp.o -
kernel/sched/core.o -
kernel/events/core.o -
arch/x86/kernel/smp.o -
drivers/base/core.o -
drivers/a/core.o drivers/a/mod_a
drivers/b/core.o drivers/b/mod-b
drivers/net/liquid/common.o drivers/net/liquid/liquid drivers/net/liquid/liquid_vf
drivers/net/liquid/main.o drivers/net/liquid/liquid
drivers/net/liquid/vf_main.o drivers/net/liquid/liquid_vf
drivers/notbuiltin/helper.o drivers/notbuiltin/notbuiltin
drivers/dup/dup1.o -
drivers/dup/dup2.o -
lib/sort.o -
fs/ext9/inode.o fs/ext9/ext9
fs/ext9/super.o fs/ext9/ext9
"

echo "$objects" | while read -r obj mods; do
	[ -n "$obj" ] || continue
	mkdir -p "$(dirname "$obj")"
	# kbuild defines KBUILD_MODFILE for built-in core code too.
	[ "$mods" = - ] && mods=${obj%.o}
	modflag="-DKBUILD_MODFILE='\"$mods\"'"
	# shellcheck disable=SC2086
	$CC $cflags -c -o "$obj" "$src/${obj%.o}.c"
	printf "savedcmd_%s := %s %s -Wp,-MMD,%s -c -o %s %s\n\n" "$obj" "$CC" \
		"$modflag" "$(dirname "$obj")/.$(basename "$obj").d" "$obj" \
		"${obj%.o}.c" > "$(dirname "$obj")/.$(basename "$obj").cmd"
done

# A composite object made with ld -r, as kbuild did for multi-part objects.
$LD -r -o drivers/dup/dup.o drivers/dup/dup1.o drivers/dup/dup2.o
echo "savedcmd_drivers/dup/dup.o := $LD -r -o drivers/dup/dup.o drivers/dup/dup1.o drivers/dup/dup2.o" \
	> drivers/dup/.dup.o.cmd

# lib objects come from a thin archive, as lib-y code does.
rm -f lib/lib.a
$AR rcsT lib/lib.a lib/sort.o

cat > modules.builtin <<'MB'
kernel/fs/ext9/ext9.ko
kernel/drivers/net/liquid/liquid.ko
kernel/drivers/net/liquid/liquid_vf.ko
kernel/drivers/a/mod_a.ko
kernel/drivers/b/mod-b.ko
MB

link_objs="init/main.o kernel/smp.o kernel/sched/core.o kernel/events/core.o
	arch/x86/kernel/smp.o drivers/base/core.o drivers/a/core.o
	drivers/b/core.o drivers/net/liquid/common.o drivers/net/liquid/main.o
	drivers/net/liquid/vf_main.o drivers/notbuiltin/helper.o
	drivers/dup/dup.o fs/ext9/inode.o fs/ext9/super.o"

rm -f vmlinux.o vmlinux.o.map vmlinux.a
case "$mode" in
relocatable)
	# shellcheck disable=SC2086
	$LD -r -o vmlinux.o -Map=vmlinux.o.map $link_objs \
		--whole-archive lib/lib.a --no-whole-archive
	$LD $final_flags -T "$src/vmlinux.lds" -o vmlinux -Map=vmlinux.map vmlinux.o
	;;
archive)
	# shellcheck disable=SC2086
	$AR cDPrST vmlinux.a $link_objs
	$LD -r -o vmlinux.o -Map=vmlinux.o.map --whole-archive vmlinux.a \
		lib/lib.a --no-whole-archive
	$LD $final_flags -T "$src/vmlinux.lds" -o vmlinux -Map=vmlinux.map vmlinux.o
	;;
direct)
	# shellcheck disable=SC2086
	$LD $final_flags -T "$src/vmlinux.lds" -o vmlinux -Map=vmlinux.map $link_objs \
		--whole-archive lib/lib.a --no-whole-archive
	;;
*)
	echo "build-fixture.sh: unknown mode $mode" >&2
	exit 2
	;;
esac
