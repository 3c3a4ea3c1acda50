/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a vmlinux with DWARF says about where its text came from, for
 * kernels without a build tree (a distribution's debug vmlinux): the
 * compile units, each one's source file turned into the object file
 * kbuild would have made of it ("drivers/foo/bar.c" or ".S" ->
 * "drivers/foo/bar.o"), and its code address ranges (dwarf_ranges() on
 * the unit DIE, so DW_AT_low_pc/high_pc and DW_AT_ranges alike).  Which
 * built-in modules the objects belong to is read from the files
 * distributions install beside the kernel: kms/module_ranges.h,
 * kms/modinfo.h.
 *
 * Source paths are made relative to the top of the kernel tree: a
 * relative DW_AT_name is taken as is (DW_AT_comp_dir is the top of the
 * build); an absolute one loses DW_AT_comp_dir, or else the source tree
 * prefix, found as what precedes "init/main.c" in that unit's name (every
 * kernel has one) or the first component that names a top-level kernel
 * directory.  Units whose name gives no object (LTO "<artificial>", no
 * name, an unknown extension) are counted and skipped.
 *
 * Static-call trampolines (__SCT__name: every tracepoint has one) are
 * top-level asm that no unit's ranges hold; the unit that defines the
 * trampoline also defines its key, the variable __SCK__name, so the keys'
 * units are listed too.
 *
 * On request, the units' variables too: the storage of every
 * DW_TAG_variable (at the top of a unit, or a function's static inside
 * subprograms and lexical blocks) whose DW_AT_location is one DW_OP_addr
 * or DW_OP_addrx,
 * sized by its type: DW_AT_byte_size through typedefs and qualifiers, an
 * array's element size times its subranges' DW_AT_count or
 * DW_AT_upper_bound + 1 (an upper bound of -1: an empty array).  A
 * variable whose size DWARF does not give (an incomplete type, a flexible
 * array) counts as one byte; one of size 0 holds no byte.  Address 0 is
 * where the linker leaves the variables of discarded sections
 * (.discard.addressable, one per EXPORT_SYMBOL); x86-64 links its per-CPU
 * section there too, so a variable at 0 is taken only where the symbol
 * table defines its name at 0 (the first per-CPU variable).
 *
 * What DWARF cannot tell: code of objects built without debug info (some
 * assembler files) has no unit, nor has other top-level asm; data
 * without a DWARF variable (string literals, compiler-made tables,
 * assembler data, top-level asm's __ksymtab entries) has none either;
 * which objects make up a multi-object module is only known from
 * modules.builtin.ranges (kms/module_ranges.h).
 */
#ifndef KMS_DWARF_UNITS_H
#define KMS_DWARF_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include <kms/elf_file.h>
#include <kms/error.h>

struct kms_dwarf_range {
	uint64_t start, end;	/* [start, end), link-time addresses */
	uint32_t unit;		/* index into units */
};

struct kms_dwarf_static_call {
	char *name;		/* "foo" of the key __SCK__foo */
	uint32_t unit;		/* the unit defining the key */
};

struct kms_dwarf_units {
	char **objects;		/* by unit: "drivers/foo/bar.o" */
	size_t nr_units;
	struct kms_dwarf_range *ranges;	/* unit order, then DWARF order */
	size_t nr_ranges;
	struct kms_dwarf_static_call *static_calls;	/* sorted by name */
	size_t nr_static_calls;
	size_t skipped_units;	/* no usable name */
	size_t empty_ranges;	/* zero-sized, or at address 0 (discarded) */
	/* Variables' storage (when asked for), unit order, then DWARF order */
	struct kms_dwarf_range *variables;
	size_t nr_variables;
	size_t unsized_variables;	/* no size in DWARF: one byte */
	size_t discarded_variables;	/* at 0, no symbol there */
};

/*
 * Fails when @path has no DWARF compile units.  With @elf (@path opened),
 * the variables too, its symbol table telling a variable at address 0
 * from a discarded one; NULL: the code alone.
 */
struct kms_error *kms_dwarf_units_read(const char *path, struct kms_elf *elf,
				       struct kms_dwarf_units **ret);
void kms_dwarf_units_destroy(struct kms_dwarf_units *units);

#endif /* KMS_DWARF_UNITS_H */
