// SPDX-License-Identifier: GPL-2.0
/*
 * An LTO link (ld.lld, ThinLTO): its maps give the code compiled from
 * bitcode to "lto.tmp", not to object files.  That text is kept aside
 * while the maps are read, the compile units of the vmlinux's DWARF
 * (dwarf.c) place it, the map's own objects winning where both claim
 * bytes (gen_compare_pieces()), and what no unit holds is counted.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>

#include "state.h"

/*
 * ld.lld names the object that LTO made of the bitcode "lto.tmp": the map
 * no longer says which object file any of its code came from.
 */
bool gen_is_lto_output(const char *file)
{
	return !strcmp(file, "lto.tmp");
}

static bool lto_is_code(const struct gen *g, const struct piece *p)
{
	return g->sections[p->section].flags & SHF_EXECINSTR;
}

/*
 * Keep LTO's output aside: DWARF will say whose it is (its data too, with
 * --all-classes: the storage of the units' variables).
 */
struct kms_error *gen_add_lto_piece(struct gen *g, uint32_t section,
				    uint64_t start, uint64_t size)
{
	struct piece *p;

	p = gen_append_piece(&g->lto, &g->nr_lto, &g->lto_cap, section, start,
			     size);
	if (!p)
		return &kms_error_nomem;
	p->object = KMS_NONE;
	if (lto_is_code(g, p))
		g->stats.lto_bytes += size;
	else
		g->stats.lto_data_bytes += size;
	return NULL;
}

/*
 * Objects compiled to machine code (assembler files) are still in the map
 * (@map_path, the one that named lto.tmp); the compile units of the
 * image's DWARF place the rest.
 */
struct kms_error *gen_place_lto(struct gen *g, const char *map_path)
{
	struct kms_error *err = gen_read_dwarf(g);

	if (err)
		err = kms_error_prefix(err,
				       "%s: the link used LTO (ld.lld's lto.tmp, not object files), so objects come from DWARF",
				       map_path);
	return err;
}

/*
 * What DWARF could not place of an LTO link's output: code in no compile
 * unit's ranges (top-level asm, functions the compiler made up) counts as
 * core kernel, with a warning; data no variable describes (string
 * literals, switch tables) is a gap, as in --dwarf mode, and only counted.
 * @g->pieces are sorted and do not overlap.
 */
void gen_check_lto_coverage(struct gen *g)
{
	size_t i, j, k = 0;

	qsort(g->lto, g->nr_lto, sizeof(*g->lto), gen_compare_pieces);
	for (i = 0; i < g->nr_lto; i++) {
		uint64_t at = g->lto[i].start, end = g->lto[i].end, unplaced = 0;

		while (k < g->nr_pieces && g->pieces[k].end <= at)
			k++;
		for (j = k; j < g->nr_pieces && at < end; j++) {
			const struct piece *p = &g->pieces[j];

			if (p->start >= end)
				break;
			if (p->start > at)
				unplaced += p->start - at;
			if (p->end > at)
				at = p->end;
		}
		if (at < end)
			unplaced += end - at;
		if (lto_is_code(g, &g->lto[i]))
			g->stats.lto_unplaced += unplaced;
		else
			g->stats.lto_data_unplaced += unplaced;
	}
	if (g->stats.lto_unplaced)
		gen_warn(g, "%zu of %zu bytes of LTO code lie in no compile unit's ranges; they count as core kernel",
			 g->stats.lto_unplaced, g->stats.lto_bytes);
}
