/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The order of the records of modules.builtin.ranges when vmlinux was
 * linked from vmlinux.o (IBT, LTO), for export_ranges.c: the awk script
 * reads vmlinux.o's sections in the order of vmlinux.o's map (awk lines
 * 432-490), each where vmlinux.map places it.  That order is in no table
 * and not in vmlinux: it takes both maps, which is why --map exists;
 * without it, or when vmlinux.map shows no vmlinux.o, the records go in
 * address order, vmlinux.map's (lines 338-392).
 */
#ifndef KMS_MAP_ORDER_H
#define KMS_MAP_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>

/*
 * An output section the awk script writes lines for (awk lines 214-231):
 * allocated, named ".something", not at address 0, not .orc_*, *_sites or
 * *.percpu*.
 */
struct osect {
	const char *name;
	uint64_t addr, size, align;
	size_t index;			/* in the ELF section headers */
	bool used;			/* has a range line: gets an anchor */
};

/* A section of vmlinux.o where vmlinux has it. */
struct chunk {
	const struct osect *sect;
	uint64_t addr, size;
	size_t rank;			/* in vmlinux.o's map */
};

/*
 * vmlinux.o's sections in the order the awk script reads them, each in
 * the output section of @sects (@nr_sects of them, by address) that holds
 * it: *@ret_chunks, to be freed, *@ret_nr of them (merged constants and
 * the sections vmlinux.o's map does not list left out).  *@ret_nr is 0
 * when vmlinux.map, @map_path, shows no vmlinux.o: the order is then the
 * addresses'.  @o_map_path, vmlinux.o's map, NULL for vmlinux.o.map
 * beside @map_path.  An error when a map cannot be read, or when
 * vmlinux.o's map lists none of vmlinux.o's sections.
 */
struct kms_error *map_order(const struct osect *sects, size_t nr_sects,
			    const char *map_path, const char *o_map_path,
			    struct chunk **ret_chunks, size_t *ret_nr);

#endif /* KMS_MAP_ORDER_H */
