#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto configs=small
#
# A build whose linked tables do not describe the final vmlinux must fail.
# In a copy of the small kernel's build tree, relink vmlinux with a
# generator that writes its objects from a doctored modules.builtin (as if
# the tables were stale), while the final check reads the real one.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

need_kernel small
src=$(cd "$kbuild/../src" && pwd)

copy=$tmp/build
cp -a "$kbuild" "$copy"
grep -v ext4 "$copy/modules.builtin" > "$tmp/stale.builtin"
cat > "$tmp/stale-gen" <<EOF
#!/bin/sh
# Objects from stale inputs; everything else (--version, --verify) as is.
case " \$* " in
*" -f object "*) exec "$KMS_BUILD/kallmodsyms-gen" -B "$tmp/stale.builtin" "\$@" ;;
esac
exec "$KMS_BUILD/kallmodsyms-gen" "\$@"
EOF
chmod +x "$tmp/stale-gen"

rm -f "$copy/vmlinux"
status=0
make -C "$src" O="$copy" ARCH=x86_64 KALLMODSYMS_GEN="$tmp/stale-gen" \
	${kmake_vars[@]+"${kmake_vars[@]}"} \
	vmlinux > "$tmp/make.log" 2>&1 || status=$?
[ "$status" != 0 ] || fail "the build with stale tables succeeded"
# (An LTO build also says what DWARF could not place: a warning.)
testrun_compare sh -c "grep -E '^(kallmodsyms-gen: |Inconsistent kallmodsyms)' '$tmp/make.log' | grep -v '^kallmodsyms-gen: warning: '" <<'EOF'
kallmodsyms-gen: vmlinux: the linked kallmodsyms tables do not match this image (stale note?)
Inconsistent kallmodsyms data
EOF

# And the same tree relinks fine with the real generator.
make -C "$src" O="$copy" ARCH=x86_64 KALLMODSYMS_GEN="$KMS_BUILD/kallmodsyms-gen" \
	${kmake_vars[@]+"${kmake_vars[@]}"} \
	vmlinux > "$tmp/make2.log" 2>&1 ||
	{ fail "relinking with the real generator"; tail -20 "$tmp/make2.log" >&2; }

finish
