#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain,asan,valgrind
#
# {objfile} names among many objects of one basename: 21 util.o, each with
# a static show(), more than the generator compares pairwise (16), so the
# names come from its sorted path suffixes.  Each name is the shortest
# path suffix that no other util.o's path ends with; d01/util.o, a suffix
# of two others, keeps its whole path and they grow past it.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

cd "$tmp" || exit 1
CC=${CC_FIXTURE:-gcc}
LD=${LD_FIXTURE:-ld}
cflags="-O1 -fno-pic -fno-pie -mcmodel=kernel -ffreestanding
	-fno-asynchronous-unwind-tables -fno-stack-protector -fcf-protection=none"

objects="init/main.o"
for i in $(seq -w 1 17); do
	objects="$objects drivers/d$i/util.o"
done
objects="$objects fs/d01/util.o d01/util.o net/core/util.o kernel/core/util.o"
n=0
for obj in $objects; do
	n=$((n + 1))
	mkdir -p "$(dirname "$obj")"
	case $obj in
	init/main.o) echo 'void _start(void) { }' ;;
	*) echo "__attribute__((noinline, used)) static int show(int x) { return x + $n; }" ;;
	esac > "${obj%.o}.c"
	# shellcheck disable=SC2086
	$CC $cflags -c -o "$obj" "${obj%.o}.c" || fail "compile $obj"
	printf "savedcmd_%s := %s -DKBUILD_MODFILE='\"%s\"' -c -o %s %s\n" \
		"$obj" "$CC" "${obj%.o}" "$obj" "${obj%.o}.c" \
		> "$(dirname "$obj")/.$(basename "$obj").cmd"
done
: > modules.builtin
# shellcheck disable=SC2086
$LD -r -o vmlinux.o -Map=vmlinux.o.map $objects || fail "ld -r"
$LD --no-warn-rwx-segments -T "$tests_dir/unit/fixture/vmlinux.lds" \
	-o vmlinux -Map=vmlinux.map vmlinux.o || fail "ld"

kms_gen -q -f sidecar -o t.kms vmlinux || fail "generate"
testrun_compare sh -c "kms() { $KMS_WRAP '$KMS_BUILD/kallmodsyms' \"\$@\"; }
	kms list -t t.kms vmlinux | grep ' show	' | cut -d' ' -f2-" <<'EOF'
t show	{drivers/d01/util.o}
t show	{d02/util.o}
t show	{d03/util.o}
t show	{d04/util.o}
t show	{d05/util.o}
t show	{d06/util.o}
t show	{d07/util.o}
t show	{d08/util.o}
t show	{d09/util.o}
t show	{d10/util.o}
t show	{d11/util.o}
t show	{d12/util.o}
t show	{d13/util.o}
t show	{d14/util.o}
t show	{d15/util.o}
t show	{d16/util.o}
t show	{d17/util.o}
t show	{fs/d01/util.o}
t show	{d01/util.o}
t show	{net/core/util.o}
t show	{kernel/core/util.o}
EOF

finish
