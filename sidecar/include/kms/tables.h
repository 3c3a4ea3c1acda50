/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decoded tables of a kallmodsyms blob (FORMAT.md 3): what
 * kms_blob_decode() (kms/blob.h) hands out, the image and the paths images
 * (3.9), and the questions asked of them (sidecar/lib/tables.c).
 *
 * Contract: the tables were validated whole when decoded, so the
 * accessors and queries below check no bounds and cannot fail; an index
 * passed to them must be below its count (nr_ranges, nr_objects, ...), a
 * module list one an object entry or kms_modlist_count() gave.  Offsets
 * count from a class's base (kms_class_base()).  Nothing here allocates
 * or prints; kms_tables_destroy() frees what the decoder allocated.
 */
#ifndef KMS_TABLES_H
#define KMS_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/format.h>	/* KMS_NR_PATHS */
#include <kms/util.h>	/* kms_get_le32() */

/*
 * A section (FORMAT.md 3.2), as the decoder found it: @start is its first
 * range's start, @first the index of that range.  Offsets count from the
 * class's base (kms_class_base()).
 */
struct kms_section {
	uint32_t cls;
	uint32_t first;
	uint32_t nr_ranges;
	uint32_t start;
	uint32_t end;
};

/*
 * A paths image (FORMAT.md 3.9), decoded and validated, its columns
 * restored; one that the blob does not have is all zero (nr_pieces 0).
 */
struct kms_paths {
	unsigned char *image;		/* owned */
	size_t image_size;
	size_t frame_size;		/* its zstd frame in the blob */
	uint32_t nr_pieces;
	uint32_t nr_paths;
	uint32_t end;			/* of the last piece, from _text */
	unsigned int width;		/* of piece paths: 2 or 4 */
	const unsigned char *starts;
	const unsigned char *paths;
	char *strings;			/* owned: the paths decoded, each */
	uint32_t *offsets;		/* owned: where it starts there */
};

/* A decoded, validated image. */
struct kms_tables {
	unsigned char *image;		/* owned */
	size_t image_size;
	size_t blob_size;		/* the note descriptor, padding included */
	size_t payload_size;		/* of it, the image's zstd frame */
	uint32_t nr_sections;
	struct kms_section *sections;	/* owned, nr_sections entries */
	uint32_t nr_ranges;
	uint32_t nr_objects;
	uint32_t nr_modlist_words;
	uint32_t strtab_size;
	uint32_t nr_modules;
	unsigned int object_width;	/* of range objects: 2 or 4 */
	const unsigned char *starts;
	const unsigned char *range_objects;
	const unsigned char *objects;
	const unsigned char *modlists;
	const char *strtab;
	/* The paths image and the init paths image (KMS_PATHS_*). */
	struct kms_paths paths[KMS_NR_PATHS];
};

/* Free @tables and what they own; NULL is allowed. */
void kms_tables_destroy(struct kms_tables *tables);

static inline uint32_t kms_range_start(const struct kms_tables *t, uint32_t i)
{
	return kms_get_le32(t->starts + 4 * (size_t)i);
}

/*
 * Index @i of a column of @width-byte indexes (range objects, piece
 * paths), all ones (none) as KMS_NONE (0xffffffff) whatever the width.
 */
static inline uint32_t kms_column_index(const unsigned char *col,
					unsigned int width, uint32_t i)
{
	const unsigned char *p;
	uint32_t v;

	if (width == 4)
		return kms_get_le32(col + 4 * (size_t)i);
	p = col + 2 * (size_t)i;
	v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
	return v == 0xffffu ? 0xffffffffu : v;
}

/* The object of range @i, or KMS_NONE. */
static inline uint32_t kms_range_object(const struct kms_tables *t, uint32_t i)
{
	return kms_column_index(t->range_objects, t->object_width, i);
}

/* The section range @i belongs to (binary search). */
uint32_t kms_range_section(const struct kms_tables *t, uint32_t i);

/* Where range @i ends: the next range's start, or its section's end. */
uint32_t kms_range_end(const struct kms_tables *t, uint32_t i);

/* The class of range @i's section (FORMAT.md 3.1). */
static inline uint32_t kms_range_class(const struct kms_tables *t, uint32_t i)
{
	return t->sections[kms_range_section(t, i)].cls;
}

/*
 * Section classes (FORMAT.md 3.1): the name ("text", "percpu", ...) and
 * the base offsets count from (KMS_BASE_TEXT: _text, KMS_BASE_PERCPU:
 * __per_cpu_start).  @cls must be below KMS_NR_CLASSES.
 */
const char *kms_class_name(uint32_t cls);
unsigned int kms_class_base(uint32_t cls);

static inline uint32_t kms_object_modlist(const struct kms_tables *t,
					  uint32_t i)
{
	return kms_get_le32(t->objects + 8 * (size_t)i);
}

/* The object-file name to print, or NULL. */
static inline const char *kms_object_name(const struct kms_tables *t,
					  uint32_t i)
{
	uint32_t off = kms_get_le32(t->objects + 8 * (size_t)i + 4);

	return off == 0xffffffffu ? NULL : t->strtab + off;
}

static inline uint32_t kms_modlist_count(const struct kms_tables *t,
					 uint32_t list)
{
	return kms_get_le32(t->modlists + 4 * (size_t)list);
}

static inline const char *kms_modlist_name(const struct kms_tables *t,
					   uint32_t list, uint32_t k)
{
	return t->strtab + kms_get_le32(t->modlists + 4 * ((size_t)list + 1 + k));
}

/*
 * The section holding @offset from @base (KMS_BASE_TEXT or KMS_BASE_PERCPU),
 * or KMS_NONE: an address in no section is in no class.  Binary search.
 */
uint32_t kms_tables_find_section(const struct kms_tables *t,
				 unsigned int base, uint32_t offset);

/*
 * The range holding @offset from @base, or KMS_NONE; *@ret_section (if not
 * NULL) is set to its section.  Binary search; callers walking addresses
 * in order should use kms_tables_find_hinted().
 */
uint32_t kms_tables_find(const struct kms_tables *t, unsigned int base,
			 uint32_t offset, uint32_t *ret_section);

/*
 * kms_tables_find() with a hint: *@cursor (may be NULL) is the range found
 * last, KMS_NONE to start with.  When that range, or the one after it,
 * lies in a section of @base and holds @offset, it is the answer without
 * a search: walking offsets in order costs O(1) each.  *@cursor becomes
 * the range found, and is left alone when none is.
 */
uint32_t kms_tables_find_hinted(const struct kms_tables *t, unsigned int base,
				uint32_t offset, uint32_t *cursor);

/* kms_tables_find() in the _text-based sections. */
static inline uint32_t kms_tables_find_range(const struct kms_tables *t,
					     uint32_t offset)
{
	return kms_tables_find(t, 0, offset, NULL);
}

/* Piece @i's start (FORMAT.md 3.9), an offset from _text. */
static inline uint32_t kms_piece_start(const struct kms_paths *p, uint32_t i)
{
	return kms_get_le32(p->starts + 4 * (size_t)i);
}

/* Where piece @i ends: the next piece's start, or the pieces' end. */
static inline uint32_t kms_piece_end(const struct kms_paths *p, uint32_t i)
{
	return i + 1 < p->nr_pieces ? kms_piece_start(p, i + 1) : p->end;
}

/* Piece @i's path number, or KMS_NONE (no path). */
static inline uint32_t kms_piece_path(const struct kms_paths *p, uint32_t i)
{
	return kms_column_index(p->paths, p->width, i);
}

/*
 * Path number @k (below nr_paths): the paths in the order of their first
 * piece, each once; iterate them with k from 0 to nr_paths - 1.
 */
static inline const char *kms_path(const struct kms_paths *p, uint32_t k)
{
	return p->strings + p->offsets[k];
}

/*
 * The piece of @p holding @text_offset (from _text), or KMS_NONE if it
 * lies outside every piece.  Binary search.
 */
uint32_t kms_paths_piece_at(const struct kms_paths *p, uint32_t text_offset);

/*
 * The full path of the object file of the code at @text_offset (from
 * _text), in whichever paths image has a piece that holds it, or NULL
 * where no piece, or a piece without a path, holds it.
 */
const char *kms_tables_path_at(const struct kms_tables *t,
			       uint32_t text_offset);

/*
 * Whether @name is a component suffix of @path (FORMAT.md 3.9): the path
 * itself or what follows one of its '/'.
 */
bool kms_path_has_suffix(const char *path, const char *name);

#endif /* KMS_TABLES_H */
