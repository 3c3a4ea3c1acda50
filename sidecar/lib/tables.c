// SPDX-License-Identifier: GPL-2.0
/*
 * Questions asked of decoded, validated tables (kms/tables.h): section
 * classes, the section of a range and where a range ends, the range
 * holding an offset (with or without a cursor's hint), the piece and
 * path of a text offset (FORMAT.md 3.9); and their end.  Nothing here
 * checks bounds: kms_blob_decode() has.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

void kms_tables_destroy(struct kms_tables *tables)
{
	unsigned int k;

	if (!tables)
		return;
	for (k = 0; k < KMS_NR_PATHS; k++) {
		free(tables->paths[k].offsets);
		free(tables->paths[k].strings);
		free(tables->paths[k].image);
	}
	free(tables->sections);
	free(tables->image);
	free(tables);
}

static const char *const class_names[KMS_NR_CLASSES] = {
	[KMS_CLASS_TEXT] = "text",
	[KMS_CLASS_INIT_TEXT] = "init-text",
	[KMS_CLASS_RODATA] = "rodata",
	[KMS_CLASS_RO_AFTER_INIT] = "ro-after-init",
	[KMS_CLASS_DATA] = "data",
	[KMS_CLASS_INIT_DATA] = "init-data",
	[KMS_CLASS_BSS] = "bss",
	[KMS_CLASS_PERCPU] = "percpu",
};

const char *kms_class_name(uint32_t cls)
{
	return cls < KMS_NR_CLASSES ? class_names[cls] : "unknown";
}

unsigned int kms_class_base(uint32_t cls)
{
	return cls == KMS_CLASS_PERCPU ? KMS_BASE_PERCPU : KMS_BASE_TEXT;
}

/* @key, a range index, against a section: before its first range or not. */
static int compare_section_first(const void *key, const void *element)
{
	const struct kms_section *sec = element;

	return *(const uint32_t *)key < sec->first ? -1 : 1;
}

uint32_t kms_range_section(const struct kms_tables *t, uint32_t i)
{
	return kms_upper_bound(&i, t->sections, t->nr_sections,
			       sizeof(*t->sections), compare_section_first) - 1;
}

/* Where range @i, of section @sec, ends. */
static uint32_t range_end_in(const struct kms_tables *t,
			     const struct kms_section *sec, uint32_t i)
{
	return i + 1 < sec->first + sec->nr_ranges ?
		kms_range_start(t, i + 1) : sec->end;
}

uint32_t kms_range_end(const struct kms_tables *t, uint32_t i)
{
	return range_end_in(t, &t->sections[kms_range_section(t, i)], i);
}

uint32_t kms_tables_find_section(const struct kms_tables *t,
				 unsigned int base, uint32_t offset)
{
	uint32_t k;

	/* At most a few sections a class: a linear scan. */
	for (k = 0; k < t->nr_sections; k++) {
		const struct kms_section *sec = &t->sections[k];

		if (kms_class_base(sec->cls) == base && sec->start <= offset &&
		    offset < sec->end)
			return k;
	}
	return KMS_NONE;
}

/* @key, an offset, against a range start: before it or not. */
static int compare_range_start(const void *key, const void *element)
{
	return *(const uint32_t *)key < kms_get_le32(element) ? -1 : 1;
}

uint32_t kms_tables_find(const struct kms_tables *t, unsigned int base,
			 uint32_t offset, uint32_t *ret_section)
{
	uint32_t k = kms_tables_find_section(t, base, offset);
	const struct kms_section *sec;

	if (ret_section)
		*ret_section = k;
	if (k == KMS_NONE)
		return KMS_NONE;
	sec = &t->sections[k];
	/* The last range of the section whose start is <= offset. */
	return sec->first + kms_upper_bound(&offset,
					    t->starts + 4 * (size_t)sec->first,
					    sec->nr_ranges, KMS_START_SIZE,
					    compare_range_start) - 1;
}

/* Range @r exists, is in a section of @base and holds @offset. */
static bool range_holds(const struct kms_tables *t, unsigned int base,
			uint32_t r, uint32_t offset)
{
	const struct kms_section *sec;

	if (r >= t->nr_ranges)
		return false;
	sec = &t->sections[kms_range_section(t, r)];
	return kms_class_base(sec->cls) == base &&
	       kms_range_start(t, r) <= offset &&
	       offset < range_end_in(t, sec, r);
}

uint32_t kms_tables_find_hinted(const struct kms_tables *t, unsigned int base,
				uint32_t offset, uint32_t *cursor)
{
	uint32_t r = cursor ? *cursor : KMS_NONE;

	if (r != KMS_NONE && range_holds(t, base, r, offset))
		return r;
	if (r != KMS_NONE && range_holds(t, base, r + 1, offset))
		r++;
	else
		r = kms_tables_find(t, base, offset, NULL);
	if (r != KMS_NONE && cursor)
		*cursor = r;
	return r;
}

uint32_t kms_paths_piece_at(const struct kms_paths *p, uint32_t text_offset)
{
	if (!p->nr_pieces || text_offset < kms_piece_start(p, 0) ||
	    text_offset >= p->end)
		return KMS_NONE;
	/* The last piece whose start is <= the offset. */
	return kms_upper_bound(&text_offset, p->starts, p->nr_pieces,
			       KMS_START_SIZE, compare_range_start) - 1;
}

const char *kms_tables_path_at(const struct kms_tables *t,
			       uint32_t text_offset)
{
	unsigned int k;

	/* The images do not overlap (FORMAT.md 3.9): one holds it, or none. */
	for (k = 0; k < KMS_NR_PATHS; k++) {
		const struct kms_paths *p = &t->paths[k];
		uint32_t i = kms_paths_piece_at(p, text_offset), path;

		if (i == KMS_NONE)
			continue;
		path = kms_piece_path(p, i);
		return path == KMS_NONE ? NULL : kms_path(p, path);
	}
	return NULL;
}

bool kms_path_has_suffix(const char *path, const char *name)
{
	size_t plen = strlen(path), nlen = strlen(name);

	if (!nlen || nlen > plen || strcmp(path + plen - nlen, name))
		return false;
	return nlen == plen || path[plen - nlen - 1] == '/';
}
