#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64 configs=small
#
# A build whose linked tables do not describe the final vmlinux must fail.
# In a copy of the small kernel's build tree, relink vmlinux with a
# stand-in for the tree's scripts/kallmodsyms that writes the tables with
# kallmodsyms-gen (the same bytes from the same inputs,
# tests/unit/run-kbuild-gen.sh) from a doctored modules.builtin, as if
# they were stale, and checks with the real program, which reads the real
# one.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

need_kernel small
src=$(cd "$kbuild/../src" && pwd)
copy=$tmp/build
cp -a "$kbuild" "$copy"
grep -v ext4 "$copy/modules.builtin" > "$tmp/stale.builtin"
program=$copy/scripts/kallmodsyms/kallmodsyms
[ -x "$program" ] || { fail "$program: not built"; finish; }

relink() { # LOG
	kms_make -C "$src" O="$copy" ${kmake_vars[@]+"${kmake_vars[@]}"} \
		vmlinux > "$1" 2>&1
}

# The stand-in is newer than the program's objects: make keeps it.
mv "$program" "$tmp/program"
cat > "$program" <<EOF
#!/bin/sh
case " \$* " in
*" --verify "*) exec "$tmp/program" "\$@" ;;
esac
exec "$KMS_BUILD/kallmodsyms-gen" -f asm -B "$tmp/stale.builtin" "\$@"
EOF
chmod +x "$program"
rm -f "$copy/vmlinux"
status=0
relink "$tmp/make.log" || status=$?
[ "$status" != 0 ] || fail "the build with stale tables succeeded"
# (An LTO build also says what DWARF could not place: a warning.)
testrun_compare sh -c "grep -E '^(kallmodsyms: |Inconsistent kallmodsyms)' '$tmp/make.log' | grep -v '^kallmodsyms: warning: '" <<'EOF'
kallmodsyms: vmlinux: the linked kallmodsyms tables do not match this image (stale note?)
Inconsistent kallmodsyms data
EOF

# And the same tree relinks fine with the real program.
mv "$tmp/program" "$program"
relink "$tmp/make2.log" ||
	{ fail "relinking with the real program"; tail -20 "$tmp/make2.log" >&2; }
grep -qx 'CONFIG_KALLMODSYMS=y' "$copy/.config" || fail "CONFIG_KALLMODSYMS is gone"
finish
