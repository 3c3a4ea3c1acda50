#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write kbuild's copy of the generator into a kernel tree, as
# scripts/kallmodsyms/: the host program link-vmlinux.sh runs for the
# kallmodsyms note (sidecar/gen/kbuild_main.c, kms_generate_kbuild()), its
# sources copied from sidecar/, a kernel Makefile for them.  The project's
# sources are the one home of that code: the copy is derived, never edited
# (scripts/lint checks that each series' copy is what this writes).
#
# The copy is mechanical: the files kbuild_main.c links (the list below,
# which tests/unit/run-kernel-gen.sh builds and runs) and the public headers
# they include, in one folder (the public headers under include/kallmod/);
# the kms_/KMS_ prefix becomes kallmod_/KALLMOD_ on word boundaries (kms
# is DRM's word in the kernel), kms/ headers kallmod/ ones, FORMAT.md the
# kernel's copy, kallmodsyms-format.rst (its Documentation/kbuild/ named
# once, in the Makefile: the whole path would take the comments that cite
# the format past checkpatch.pl's 100 columns).  The longer names move
# open parentheses to the right, and scripts/realign-parens.py moves the
# lines aligned with them as far, so that the copy keeps the kernel's
# alignment.
#
# usage: scripts/export-kernel-gen.sh KERNEL_TREE
#   (replaces KERNEL_TREE/scripts/kallmodsyms; prints the files written)

set -euo pipefail
tree=${1:?usage: export-kernel-gen.sh KERNEL_TREE}
top=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$tree/scripts" ] || { echo "export-kernel-gen.sh: $tree: no scripts/ folder: not a kernel tree" >&2; exit 1; }
out=$tree/scripts/kallmodsyms

# What kbuild_main.c links, layer by layer: the format, what is read from a
# build, the generator's kbuild mode.  Not --dwarf, --modularity,
# --explain or the sidecar and append outputs: kallmodsyms-gen's alone.
# dwarf.c and dwarf_units.c place an LTO link's code by the DWARF compile
# units (hence libdw).
declare -A files=(
	[lib]="blob.c blob_check.c blob_encode.c blob_paths.c blob_stored.c
		error.c note.c strmap.c tables.c util.c blob_image.h"
	[inputs]="dwarf_units.c elf_file.c kallsyms_tables.c kallsyms_tables.h
		kbuild.c linker_map.c source.c symbols.c"
	[gen]="kbuild_main.c cli.c gen.c dwarf.c emit.c image.c lto.c maps.c
		modules.c naming.c paths.c pieces.c services.c cli.h emit.h state.h"
)

# rename FILE: the copy's text of FILE.
rename() {
	sed -e 's/\bkms_/kallmod_/g' -e 's/\bKMS_/KALLMOD_/g' \
		-e 's|\bkms/|kallmod/|g' \
		-e 's|\bFORMAT\.md\b|kallmodsyms-format.rst|g' "$1" |
		"$top/scripts/realign-parens.py" "$1"
}

rm -rf "$out"
mkdir -p "$out/include/kallmod"
sources=()
for layer in lib inputs gen; do
	for f in ${files[$layer]}; do
		rename "$top/sidecar/$layer/$f" > "$out/$f"
		sources+=("$f")
	done
done

# The public headers the copied files include, and those they include.
headers=()
want=$(cat "$out"/*.[ch] | sed -n 's|^#include <kallmod/\([^>]*\)>.*|\1|p' | sort -u)
while [ -n "$want" ]; do
	for h in $want; do
		[ -f "$top/sidecar/include/kms/$h" ] || {
			echo "export-kernel-gen.sh: no sidecar/include/kms/$h" >&2; exit 1; }
		rename "$top/sidecar/include/kms/$h" > "$out/include/kallmod/$h"
		headers+=("$h")
	done
	want=$(cat "$out"/include/kallmod/*.h | sed -n 's|^#include <kallmod/\([^>]*\)>.*|\1|p' |
		sort -u | while read -r h; do
			[ -f "$out/include/kallmod/$h" ] || echo "$h"
		done)
done

objs=$(printf '%s\n' "${sources[@]}" | sed -n 's/\.c$/.o/p' | LC_ALL=C sort | tr '\n' ' ')
{
	cat <<'MAKEFILE'
# SPDX-License-Identifier: GPL-2.0
#
# kallmodsyms: the kallmodsyms note of vmlinux, which scripts/link-vmlinux.sh
# writes with it (Documentation/kbuild/kallmodsyms.rst).  It needs libelf,
# libdw (elfutils; an LTO link's code is placed by its DWARF) and libzstd.
#
# These sources are the kallmodsyms project's generator (its kbuild mode),
# copied with their prefix renamed kallmod_: changes are made there and copied
# again, so that the distributions' tool and this one write the same bytes.
# Their comments cite the format by its sections in kallmodsyms-format.rst,
# Documentation/kbuild/kallmodsyms-format.rst.
hostprogs-always-y += kallmodsyms

MAKEFILE
	printf 'kallmodsyms-objs := %s\n' "${objs% }" | fold -s -w 72 | sed '2,$s/^/\t/; $!s/ *$/ \\/'
	cat <<'MAKEFILE'

HOST_EXTRACFLAGS += -D_GNU_SOURCE -I$(srctree)/scripts/kallmodsyms/include \
	$(shell $(HOSTPKG_CONFIG) --cflags libelf libdw libzstd 2> /dev/null)
HOSTLDLIBS_kallmodsyms = $(shell $(HOSTPKG_CONFIG) --libs libdw libelf libzstd \
	2> /dev/null || echo -ldw -lelf -lzstd)

# Say what to install, before the first source fails to compile (as the
# tools under tools/ do for their libraries): an allyesconfig selects this.
kallmodsyms-probe := printf '%s\n' '\#include <libelf.h>' \
	'\#include <elfutils/libdw.h>' '\#include <zstd.h>' 'int main(void) { return 0; }'
ifeq ($(call try-run,$(kallmodsyms-probe) | $(HOSTCC) $(HOST_EXTRACFLAGS) \
	-xc -o "$$TMP" - $(HOSTLDLIBS_kallmodsyms),y,n),n)
$(error CONFIG_KALLMODSYMS: please install the development files of \
	libelf, libdw (elfutils) and libzstd)
endif
MAKEFILE
} > "$out/Makefile"
printf '%s\n' '# SPDX-License-Identifier: GPL-2.0-only' /kallmodsyms > "$out/.gitignore"

cd "$tree"
find scripts/kallmodsyms -type f | LC_ALL=C sort
