#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12,6.1 toolchains=gcc,llvm,thinlto,arm64 configs=small
#
# A build whose linked tables do not describe the final vmlinux must fail.
# In a copy of the small kernel's build tree, relink vmlinux with a
# generator that writes its objects from a doctored modules.builtin (as if
# the tables were stale), while the final check reads the real one.  A
# series that carries the generator (6.12: scripts/kallmodsyms/) gets a
# stand-in for its program that writes with kallmodsyms-gen (the same
# bytes from the same inputs, tests/unit/run-kbuild-gen.sh) from the
# doctored file and checks with the real program.  One that runs the
# external kallmodsyms-gen (6.1) gets a tool that does the same, and must
# fail too when the tool is replaced by one of another format version.
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

# One tool name throughout, its behaviour changed between the links: a new
# KALLMODSYMS_GEN makes Kconfig run again (it asks the tool its format
# version), and on 6.1 that recompiles the whole tree: through ccache, as
# build.sh compiles, that is cheap.  (A tree with the program ignores it.)
tool=$tmp/tool
relink() { # LOG
	kms_make -C "$src" O="$copy" KALLMODSYMS_GEN="$tool" \
		${kmake_vars[@]+"${kmake_vars[@]}"} vmlinux > "$1" 2>&1
}

if [ -x "$program" ]; then
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
	writer=kallmodsyms
else
	# Objects from stale inputs; everything else (--format-version,
	# --verify) as is.
	cat > "$tool" <<EOF
#!/bin/sh
case " \$* " in
*" -f asm "*) exec "$KMS_BUILD/kallmodsyms-gen" -B "$tmp/stale.builtin" "\$@" ;;
esac
exec "$KMS_BUILD/kallmodsyms-gen" "\$@"
EOF
	chmod +x "$tool"
	writer=kallmodsyms-gen
fi
rm -f "$copy/vmlinux"
status=0
relink "$tmp/make.log" || status=$?
[ "$status" != 0 ] || fail "the build with stale tables succeeded"
# (An LTO build also says what DWARF could not place: a warning.)
testrun_compare sh -c "grep -E '^($writer: |Inconsistent kallmodsyms)' '$tmp/make.log' | grep -v '^$writer: warning: '" <<EOF
$writer: vmlinux: the linked kallmodsyms tables do not match this image (stale note?)
Inconsistent kallmodsyms data
EOF

# And the same tree relinks fine with the real generator.
if [ -x "$tmp/program" ]; then
	mv "$tmp/program" "$program"
else
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$KMS_BUILD/kallmodsyms-gen" > "$tool"
fi
relink "$tmp/make2.log" ||
	{ fail "relinking with the real generator"; tail -20 "$tmp/make2.log" >&2; }
grep -qx 'CONFIG_KALLMODSYMS=y' "$copy/.config" || fail "the tool was not accepted"
[ "$writer" = kallmodsyms-gen ] || finish

# The generator replaced, after the tree was configured, by one that
# writes another format version (Kconfig is not asked again: the tool's
# name is the same): the link fails before it starts, naming both.
printf '#!/bin/sh\ncase "$1" in --format-version) echo 4 ;; *) exit 1 ;; esac\n' > "$tool"
status=0
relink "$tmp/make4.log" || status=$?
[ "$status" != 0 ] || fail "the build with a tool of format version 4 succeeded"
testrun_compare sh -c "grep 'kallmodsyms format' '$tmp/make4.log' | sed 's|$tmp|TMP|'" <<'EOF'
TMP/tool writes kallmodsyms format version 4, this kernel reads version 3.
EOF

finish
