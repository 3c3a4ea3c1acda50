/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Link maps (-Map=FILE) of GNU ld and ld.lld, told apart by content: the
 * input sections each output section was made of, with their addresses,
 * sizes and source files.
 *
 * Of a GNU ld map only the "Linker script and memory map" part is read.  A
 * piece is one input section with a non-zero size; fill, assignments,
 * symbol lines and ld.lld's own "<internal>" sections are skipped.  Files
 * are kept as GNU ld spells them: "kernel/fork.o", "vmlinux.o",
 * "arch/x86/lib/lib.a(delay.o)" (a regular archive's member); a thin
 * archive's member by its path ("lib/sort.o"), as ld.lld's
 * "lib/lib.a(sort.o)" is rewritten.
 */
#ifndef KMS_LINKER_MAP_H
#define KMS_LINKER_MAP_H

#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>

struct kms_map_piece {
	const char *output_section;
	uint64_t output_address;	/* of the output section */
	const char *input_section;
	const char *file;
	uint64_t address;
	uint64_t size;
};

struct kms_linker_map {
	struct kms_map_piece *pieces;	/* in map order */
	size_t nr_pieces;
	/* GNU ld's "OUTPUT(vmlinux elf64-x86-64)": the BFD name; NULL in lld's */
	const char *output_format;
	char **strings;			/* owned copies the pieces point into */
	size_t nr_strings, strings_cap;
};

struct kms_error *kms_linker_map_read(const char *path,
				      struct kms_linker_map **ret);

void kms_linker_map_destroy(struct kms_linker_map *map);

/*
 * The object file a map spells @file as: "lib/lib.a(lib/sort.o)" becomes
 * "lib/sort.o" (thin archives name members by path), "arch/x.a(y.o)" becomes
 * "arch/y.o".  Returns a malloc()ed string, NULL when out of memory.
 */
char *kms_map_object_path(const char *file);

#endif /* KMS_LINKER_MAP_H */
