#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=distro
#
# kallmodsyms-gen --dwarf on a distribution's own kernel (make check-full:
# KMS_DISTRO=1; one run per line of tests/distro/kernels, KMS_KERNEL the
# release): Debian's debug vmlinux and the files installed beside it,
# downloaded once into the cache by tests/distro/fetch.sh.  For the text
# tables and for every class (--all-classes), tests/distro/check-units.py
# holds the tables against the DWARF as binutils reads it:
#   - each text symbol's object is its compile unit's (the unit holding
#     its first byte, or the one it reaches into): all of them;
#   - no text symbol lacks the [module] its unit's other symbols carry;
#   - no two text symbols share (name, modules, object);
# and prints the ambiguous data triples and how many modules.builtin
# entries carry a [module].  That every module is known (in the text
# tables, every module with text) is held only where the kernel's line
# in tests/distro/kernels gives the source tree (-S): without it
# multi-object modules are unknown by design (4.7).
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

release=${KMS_KERNEL:?the kernel release, as tests/run-tests.sh sets it}
line=$(awk -v r="$release" '$1 == r' "$tests_dir/distro/kernels")
[ -n "$line" ] || { fail "$release: not in tests/distro/kernels"; finish; }
read -r _ arch args <<< "$line"
dir=$("$tests_dir/distro/fetch.sh" "$release" "$arch") ||
	{ fail "cannot fetch $release"; finish; }
args=${args//@DIR@/$dir}
# @SRC-X.Y@: Debian's linux-source-X.Y (apt), unpacked once into the cache.
while [[ $args =~ @SRC-([0-9.]+)@ ]]; do
	v=${BASH_REMATCH[1]}
	src=$("$tests_dir/distro/fetch.sh" --source "$v") ||
		{ fail "cannot unpack linux-source-$v"; finish; }
	args=${args//@SRC-$v@/$src}
done
vmlinux=$dir/usr/lib/debug/boot/vmlinux-$release
builtin=$dir/lib/modules/$release/modules.builtin
cd "$tmp" || exit 1

# The DWARF as binutils reads it, once for both runs.
readelf --debug-dump=aranges "$vmlinux" > aranges || fail "readelf aranges"
readelf --debug-dump=info --dwarf-depth=1 "$vmlinux" > units ||
	fail "readelf info"
nm -S --defined-only "$vmlinux" > symbols || fail "nm"

for run in text all; do
	classes=
	[ "$run" = all ] && classes=--all-classes
	# shellcheck disable=SC2086 # the table's arguments, word by word
	kms_gen --dwarf $classes -s -ee -B "$builtin" \
		--modinfo "$builtin.modinfo" $args -f sidecar -o "$run.kms" \
		"$vmlinux" > "$run.explain" 2> "$run.stats" ||
		{ fail "$run: generate"; cat "$run.stats" >&2; continue; }
	kms list -t "$run.kms" "$vmlinux" > "$run.list" ||
		fail "$run: list"
	echo "== $release, ${classes:---dwarf}: $(grep -E '^(pieces|dwarf units|modules-from)' "$run.stats" | tr '\n' ';')"
	"$tests_dir/distro/check-units.py" "$vmlinux" aranges units symbols \
		"$run.list" "$run.explain" "$builtin" > "$run.check" ||
		fail "$run: the tables disagree with the DWARF"
	cat "$run.check"
	# With the sources, every module is known; in the text tables only
	# a module none of whose objects has text may be missing, and
	# --explain must say so.
	case " $args " in
	*" -S "*)
		without=$(sed -n 's/^modules.builtin: .* without \([0-9]*\)$/\1/p' "$run.check")
		textless=0
		[ "$run" = text ] && textless=$(grep -c '^module .*: objects unknown (neither .* has text)$' "$run.explain")
		[ "$without" = "$textless" ] ||
			fail "$run: $without modules.builtin entries without a [module], $textless of them without text"
		;;
	esac
done

finish
