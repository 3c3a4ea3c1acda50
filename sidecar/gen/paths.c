// SPDX-License-Identifier: GPL-2.0
/*
 * A paths image's pieces (FORMAT.md 3.9), gathered by the image phase
 * (image.c) as it walks the sorted pieces, one builder for text and one
 * for init text: each executable piece's object file by its path,
 * before attributions merge objects; adjacent pieces of one file merge
 * with the padding between them when they share an output section or
 * touch; the linker's alignment padding before a piece belongs to the
 * piece before it; any other bytes between two are a piece without a
 * path.  Paths are numbered in the order of their first piece.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/util.h>

#include "state.h"

/*
 * Whether @path may be stored (FORMAT.md 3.9): printable ASCII without
 * space, no leading or trailing '/', no "//".  The objects' paths are
 * relative to the top of the tree, so this holds but for odd inputs
 * (DWARF of a unit compiled outside it), whose pieces get no path.
 */
static bool path_storable(const char *path)
{
	size_t i, len = strlen(path);

	for (i = 0; i < len; i++)
		if ((unsigned char)path[i] <= ' ' ||
		    (unsigned char)path[i] >= 0x7f)
			return false;
	return len && path[0] != '/' && path[len - 1] != '/' &&
	       !strstr(path, "//");
}

/*
 * Whether the @gap bytes before the piece at offset @start are alignment
 * padding: fewer than the largest power of two that divides @start, so
 * that the linker may have put them there to align it.  Half the pieces
 * of a defconfig kernel would otherwise be such gaps (FORMAT.md 10.3).
 */
static bool is_alignment_padding(uint32_t gap, uint32_t start)
{
	return gap < (start & -start);
}

/* A piece at @start with path number @path, unless it merges. */
static struct kms_error *push_piece(struct paths_builder *pb, uint32_t start,
				    uint32_t path)
{
	struct kms_error *err;

	if (pb->nr && pb->path[pb->nr - 1] == path)
		return NULL;
	err = KMS_RESERVE(pb->start, pb->start_cap, pb->nr + 1);
	if (!err)
		err = KMS_RESERVE(pb->path, pb->path_cap, pb->nr + 1);
	if (err)
		return err;
	pb->start[pb->nr] = start;
	pb->path[pb->nr++] = path;
	return NULL;
}

struct kms_error *gen_paths_add(struct gen *g, struct paths_builder *pb,
				const struct piece *p, uint64_t base)
{
	const char *path = g->objects[p->object].path;
	uint32_t number = KMS_NONE;
	struct kms_error *err;

	if (pb->nr && p->object == pb->last_object &&
	    (p->section == pb->last_section || p->start == base + pb->end)) {
		pb->end = p->end - base;
		pb->last_section = p->section;
		return NULL;
	}
	if (pb->nr && p->start > base + pb->end &&
	    !is_alignment_padding(p->start - base - pb->end, p->start - base)) {
		err = push_piece(pb, pb->end, KMS_NONE);
		if (err)
			return err;
	}
	if (path_storable(path)) {
		err = kms_strmap_intern(&pb->paths, path, &number, NULL);
		if (err)
			return err;
	}
	err = push_piece(pb, p->start - base, number);
	if (err)
		return err;
	pb->end = p->end - base;
	pb->last_object = p->object;
	pb->last_section = p->section;
	return NULL;
}

void gen_paths_input(const struct paths_builder *pb,
		     struct kms_encode_paths *in)
{
	in->nr_pieces = pb->nr;
	in->piece_start = pb->start;
	in->piece_path = pb->path;
	in->pieces_end = pb->end;
	in->nr_paths = pb->paths.nr;
	in->paths = (const char *const *)pb->paths.keys;
}

void gen_paths_release(struct paths_builder *pb)
{
	free(pb->start);
	free(pb->path);
	kms_strmap_release(&pb->paths);
}
