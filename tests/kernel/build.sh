#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a Linux test kernel from Debian's linux-source-6.12 (or -6.1) outside
# the checkout, with the kernel-patches/VERSION series applied, cached by a key of
# source version + series + config fragment (+ the generator's sources, whose
# change only relinks), and print the build directory on stdout.  Progress
# goes to stderr.  A new series or config is patched and configured in
# place: only what it touches is rebuilt.
#
# usage: tests/kernel/build.sh CONFIG   (CONFIG: a name in tests/kernel/configs)
#
# A fragment line "#make VAR=VALUE" passes VAR=VALUE to every make (LLVM=-16
# builds with clang); "#include NAME.config" starts from another fragment;
# "#arch arm64" cross-builds for arm64 (default: x86_64); "#series none"
# builds the source as it comes, without any patch (vanilla, the peer of
# a kernel with the series and CONFIG_KALLMODSYMS=n).
#
# Environment:
#   KALLMODSYMS_CACHE  cache root (default: ~/.cache/kallmodsyms, one for
#                      every checkout; tests/kernel/env.sh says how to give
#                      a checkout its own)
#   KMS_KERNEL         kernel version, 6.12 (default) or 6.1
#   KERNEL_TARBALL     source tarball (default: /usr/src/linux-source-VERSION.tar.xz)
#   JOBS               make -j value (default: nproc)
#   KALLMODSYMS_CCACHE ccache's directory (default: CCACHE_DIR, else
#                      ~/.cache/kallmodsyms/ccache, whatever the cache root)
#   KMS_NO_CCACHE      set: compile without ccache
#
# Each build directory records the checkout that last patched, built or
# relinked it (.checkout); when that was another one, a line says so
# before this one changes it.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
config_name=${1:?usage: build.sh CONFIG}
fragment=$here/configs/$config_name.config
version=${KMS_KERNEL:-6.12}
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-$version.tar.xz}
# shellcheck source=SCRIPTDIR/env.sh
. "$here/env.sh"
cache=$kms_cache
jobs=${JOBS:-$(nproc)}
series_dir=$top/kernel-patches/$version

log() { printf 'kernel-build: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ -f "$fragment" ] || die "$fragment: no such config fragment"

# A fragment may start from another one: "#include NAME.config".
expand_fragment() {
	local line
	while IFS= read -r line; do
		case "$line" in
		'#include '*)
			[ -f "$here/configs/${line#\#include }" ] ||
				die "$1: no such fragment ${line#\#include }"
			expand_fragment "$here/configs/${line#\#include }"
			;;
		*) printf '%s\n' "$line" ;;
		esac
	done < "$1"
}
expanded=$(expand_fragment "$fragment")
# "#make VAR=VALUE" lines are make variables for the whole build (LLVM=-16).
mapfile -t make_vars < <(sed -n 's/^#make[[:space:]]\+//p' <<< "$expanded")
# "#arch ARCH": another architecture than x86_64, cross-built with Debian's
# GCC for it; the image QEMU boots.
arch=$(sed -n 's/^#arch[[:space:]]\+//p' <<< "$expanded" | tail -n 1)
case ${arch:-x86_64} in
x86_64) make_arch=(ARCH=x86_64) image=bzImage ;;
arm64) make_arch=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) image=Image ;;
*) die "$fragment: no cross compiler known for #arch $arch" ;;
esac
# "#series none": no patch at all, so none of their code either.
series=$(sed -n 's/^#series[[:space:]]\+//p' <<< "$expanded" | tail -n 1)
case ${series:-applied} in
applied) [ -f "$series_dir/series" ] ||
	die "$series_dir/series: no series for Linux $version" ;;
none) ;;
*) die "$fragment: #series takes none, not $series" ;;
esac
[ -f "$tarball" ] || die "$tarball: missing (apt-get install linux-source-$version)"

src_version=$(dpkg-query -W -f '${Version}' "linux-source-$version" 2>/dev/null ||
	stat -c %s:%Y "$tarball")

# The patches, in the order they apply: the series that removes
# MODULE_LICENSE() from non-modules (where there is one), then ours, then
# the test fixture (kernel-patches/VERSION-fixture: modules the tests
# need, never posted).
patch_stack() {
	local d p
	[ "$series" != none ] || return 0
	for d in "$top/kernel-patches/$version-module-license" "$series_dir" \
		"$top/kernel-patches/$version-fixture"; do
		[ -f "$d/series" ] || continue
		while read -r p; do
			case "$p" in ''|'#'*) continue ;; esac
			echo "$d/$p"
		done < "$d/series"
	done
}
mapfile -t stack < <(patch_stack)

# The key covers everything that changes the build's output.
key=$( {
	echo "source $src_version"
	# (Only a build without the series says so: the keys of the
	# others stay those of the kernels already cached.)
	[ "$series" != none ] || echo "series none"
	echo "config $config_name"
	echo "$expanded"
	cat ${stack[@]+"${stack[@]}"}
} | sha256sum | cut -c1-16)

# One directory per version and config, at a path that does not change
# with the key: a new series or config rebuilds there, and ccache, which
# hashes the compilers' absolute paths, hits for every unchanged file.
# (CCACHE_BASEDIR would share objects between paths too, but it rewrites
# the source paths the compiler sees, and with them __FILE__ and DWARF's
# file names.)
dir=$cache/linux-$version-$config_name
src=$dir/src
out=$dir/build

# The series builds its own generator, scripts/kallmodsyms, from its
# kbuild patch, and so it is in the key (scripts/lint checks that it is
# scripts/export-kernel-gen.sh's copy of these sources).  The stamp still
# records the sources: a build whose series predates a change to them is
# relinked (by the series' own program, which the next series replaces).
gen_hash=$(cat "$top"/sidecar/*/*.[ch] "$top"/sidecar/*/*.mk \
	"$top"/sidecar/include/kms/*.h | sha256sum | cut -c1-16)
# Without the series, no generator runs: its sources change nothing.
[ "$series" != none ] || gen_hash=none

# cached: the build is there for this key and generator; say so and stop.
cached() {
	if [ "$(cat "$dir/.key" 2> /dev/null)" = "$key" ] && [ -f "$dir/.built" ] &&
		[ "$(cat "$dir/.built")" = "$gen_hash" ]; then
		log "cached: $out"
		echo "$out"
		exit 0
	fi
}
cached

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9
# Another run may have built it while this one waited for the lock; it
# may be reading vmlinux now, which a second relink would remove.
cached
# From here on the directory changes: another checkout's kernel (its
# series, its generator) becomes this one's.
last=$(cat "$dir/.checkout" 2> /dev/null || true)
[ -z "$last" ] || [ "$last" = "$top" ] ||
	log "$dir: last patched by $last, now by $top (KALLMODSYMS_CACHE: a cache of its own)"
echo "$top" > "$dir/.checkout"

# repatch: bring $src from the patches it has ($dir/applied, copies in
# order) to ${stack[@]}: reverse those from the first that differs, apply
# the rest.  Only the files they touch get new times, so make rebuilds
# only those (and ccache makes even that cheap).  False if a patch does not
# reverse or apply: $src is then in no known state.
repatch() {
	local old i=0 j

	[ -d "$dir/applied" ] || return 1
	mapfile -t old < <(find "$dir/applied" -type f | LC_ALL=C sort)
	while [ "$i" -lt "${#old[@]}" ] && [ "$i" -lt "${#stack[@]}" ] &&
		cmp -s "${old[$i]}" "${stack[$i]}"; do
		i=$((i + 1))
	done
	for ((j = ${#old[@]} - 1; j >= i; j--)); do
		log "reversing ${old[$j]##*/}"
		patch -d "$src" -p1 -R -s -E < "${old[$j]}" || return 1
		rm -f "${old[$j]}"
	done
	apply_from "$i"
}

# apply_from N: apply ${stack[@]} from the Nth on, recording each in
# $dir/applied.
apply_from() {
	local i

	mkdir -p "$dir/applied"
	for ((i = $1; i < ${#stack[@]}; i++)); do
		log "applying ${stack[$i]##*/}"
		patch -d "$src" -p1 -s < "${stack[$i]}" || return 1
		cp "${stack[$i]}" "$dir/applied/$(printf %04d "$i")-${stack[$i]##*/}"
	done
}

if [ "$(cat "$dir/.key" 2> /dev/null)" != "$key" ]; then
	rm -f "$dir/.built"
	if [ -f "$dir/.extracted" ] &&
		[ "$(cat "$dir/.source" 2> /dev/null)" = "$src_version" ] && repatch; then
		log "series or config changed: patched in place, rebuilding what changed in $dir"
	else
		[ ! -e "$dir/.key" ] || log "source, series or config changed: rebuilding in $dir"
		rm -rf "$src" "$out" "$dir/.extracted" "$dir/applied"
	fi
	echo "$key" > "$dir/.key"
fi

if [ ! -f "$dir/.extracted" ]; then
	rm -rf "$src" "$out" "$dir/applied"
	mkdir -p "$src"
	log "extracting $tarball"
	tar -xf "$tarball" -C "$src" --strip-components=1
	apply_from 0 || die "the series does not apply to $tarball"
	echo "$src_version" > "$dir/.source"
	touch "$dir/.extracted"
fi

mkdir -p "$out"
kmake() {
	kms_make -C "$src" O="$out" "${make_arch[@]}" \
		${make_vars[@]+"${make_vars[@]}"} \
		-j"$jobs" "$@"
}

# The kernel's own gdb helpers (vmlinux-gdb.py), where configured: "make
# all" would link them; the tests build only what they use.
gdb_scripts() {
	if grep -qx 'CONFIG_GDB_SCRIPTS=y' "$out/.config"; then
		kmake scripts_gdb >&2
	fi
}

if [ -f "$dir/.built" ]; then
	log "the generator changed: relinking vmlinux in $out"
	rm -f "$out/vmlinux"
	kmake vmlinux "$image" >&2
	gdb_scripts
	echo "$gen_hash" > "$dir/.built"
	echo "$out"
	exit 0
fi

log "configuring ($config_name)"
case "$config_name" in
defconfig*) kmake defconfig >&2 ;;
*) kmake tinyconfig >&2 ;;
esac
echo "$expanded" > "$dir/fragment.config"
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
	"$dir/fragment.config" >&2
kmake olddefconfig >&2

# merge_config only warns; a dropped option would silently weaken the tests.
# The last word on each symbol counts.  An option this kernel version does
# not have at all (CONFIG_BUILTIN_MODULE_RANGES in 6.1) is only noted.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) want=$line ;;
	"# CONFIG_"*" is not set") want=$line ;;
	*) continue ;;
	esac
	sym=${want#\# }
	sym=${sym%%[= ]*}
	last=$(grep -E "^(# )?${sym}[= ]" <<< "$expanded" | tail -n 1)
	[ "$last" = "$want" ] || continue
	case "$want" in
	'#'*) ! grep -qE "^$sym=" "$out/.config" ;;
	*) grep -qxF "$want" "$out/.config" ;;
	esac && continue
	if ! grep -rqsE "^(menu)?config ${sym#CONFIG_}\$" --include='Kconfig*' "$src"; then
		log "Linux $version has no $sym: ignored"
		continue
	fi
	log "config option not taken: $want"
	missing=1
done <<< "$expanded"
[ "$missing" = 0 ] || die "$fragment: options above were not accepted"

log "building in $out with -j$jobs"
start=$(date +%s)
kmake vmlinux "$image" modules.builtin >&2
gdb_scripts
[ -f "$out/modules.builtin.ranges" ] || kmake modules.builtin.ranges >&2 || true
log "built in $(( $(date +%s) - start ))s"
echo "$gen_hash" > "$dir/.built"
echo "$out"
