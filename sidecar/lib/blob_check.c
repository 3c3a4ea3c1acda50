// SPDX-License-Identifier: GPL-2.0
/*
 * The image's rules (FORMAT.md 3), checked on a decompressed image before
 * any reader walks it (kms_image_validate(), blob_image.h): the arrays
 * inside the image and apart, strings, module lists, objects, sections,
 * then the ranges once restored from their stored form.  Written for
 * hostile input: every size is checked against what is left before it is
 * used, in 64-bit arithmetic so that no sum can wrap.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

#include "blob_image.h"

static struct kms_error *check_array(const char *origin, const char *what,
				     const unsigned char *img, size_t img_size,
				     uint64_t count, uint64_t elem_size,
				     uint32_t offset, const unsigned char **ret)
{
	uint64_t end = (uint64_t)offset + count * elem_size;

	if (offset % 4)
		return kms_error_path(KMS_ERR_BAD_OFFSET, origin,
				      "note: %s offset %u is not aligned",
				      what, offset);
	if (offset < KMS_IMAGE_HEADER_SIZE || end > img_size)
		return kms_error_path(KMS_ERR_BAD_OFFSET, origin,
				      "note: %s (offset %u, %llu bytes) lie outside the %zu-byte image",
				      what, offset,
				      (unsigned long long)(count * elem_size),
				      img_size);
	*ret = img + offset;
	return NULL;
}

struct array_extent {
	uint64_t start, end;
	const char *what;
};

/*
 * By start, then by end: an empty array at the start of another sorts
 * first, whatever order qsort() leaves equal keys in (the kernel's
 * cmp_extent() breaks ties the same way).
 */
static int compare_extent(const void *a, const void *b)
{
	const struct array_extent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/*
 * A refusal of @class (a module list's, an object's) unless @off starts a
 * string.
 */
static struct kms_error *check_strtab_offset(const struct kms_tables *t,
					     const char *origin,
					     enum kms_error_class class,
					     const char *what, uint32_t i,
					     uint32_t off)
{
	if (off >= t->strtab_size)
		return kms_error_path(class, origin,
				      "note: %s %u names string offset %u past the %u-byte string table",
				      what, i, off, t->strtab_size);
	if (t->strtab[off] == '\0' || (off > 0 && t->strtab[off - 1] != '\0'))
		return kms_error_path(class, origin,
				      "note: %s %u names offset %u, which is not the start of a string",
				      what, i, off);
	return NULL;
}

/* The header's counts, and where each array lies: inside, apart. */
static struct kms_error *check_arrays(struct kms_tables *t,
				      const char *origin)
{
	const unsigned char *img = t->image, *at[NR_ARRAYS];
	struct array_extent ext[NR_ARRAYS];
	uint64_t bytes[NR_ARRAYS];
	struct kms_error *err;
	uint32_t i;

	t->nr_sections = kms_get_le32(img + KMS_IMG_NR_SECTIONS);
	t->nr_ranges = kms_get_le32(img + KMS_IMG_NR_RANGES);
	t->nr_objects = kms_get_le32(img + KMS_IMG_NR_OBJECTS);
	t->nr_modlist_words = kms_get_le32(img + KMS_IMG_NR_MODLIST);
	t->strtab_size = kms_get_le32(img + KMS_IMG_STRTAB_SIZE);
	t->nr_modules = kms_get_le32(img + KMS_IMG_NR_MODULES);
	t->object_width = KMS_OBJECT_WIDTH(t->nr_objects);

	bytes[A_SECTIONS] = (uint64_t)t->nr_sections * KMS_SECTION_SIZE;
	bytes[A_STARTS] = (uint64_t)t->nr_ranges * KMS_START_SIZE;
	bytes[A_RANGE_OBJECTS] = (uint64_t)t->nr_ranges * t->object_width;
	bytes[A_OBJECTS] = (uint64_t)t->nr_objects * KMS_OBJECT_SIZE;
	bytes[A_MODLISTS] = (uint64_t)t->nr_modlist_words * 4;
	bytes[A_STRTAB] = t->strtab_size;
	for (i = 0; i < NR_ARRAYS; i++) {
		uint32_t off = kms_get_le32(img + array_desc[i].offset_field);

		err = check_array(origin, array_desc[i].what, img,
				  t->image_size, bytes[i], 1, off, &at[i]);
		if (err)
			return err;
		ext[i] = (struct array_extent){ off, off + bytes[i],
						array_desc[i].what };
	}
	t->starts = at[A_STARTS];
	t->range_objects = at[A_RANGE_OBJECTS];
	t->objects = at[A_OBJECTS];
	t->modlists = at[A_MODLISTS];
	t->strtab = (const char *)at[A_STRTAB];

	qsort(ext, NR_ARRAYS, sizeof(ext[0]), compare_extent);
	for (i = 1; i < NR_ARRAYS; i++)
		if (ext[i].start < ext[i - 1].end)
			return kms_error_path(KMS_ERR_OVERLAP, origin,
					      "note: %s overlap %s",
					      ext[i].what, ext[i - 1].what);
	return NULL;
}

/* Strings: NUL-terminated, printable, no white space. */
static struct kms_error *check_strings(const struct kms_tables *t,
				       const char *origin)
{
	uint32_t i;

	if (t->strtab_size == 0 || t->strtab[t->strtab_size - 1] != '\0')
		return kms_error_path(KMS_ERR_BAD_STRTAB, origin,
				      "note: string table is empty or not NUL-terminated");
	for (i = 0; i < t->strtab_size; i++) {
		unsigned char c = t->strtab[i];

		if (c && (c <= ' ' || c >= 0x7f))
			return kms_error_path(KMS_ERR_BAD_STRTAB, origin,
					      "note: string table byte %u is not a printable character",
					      i);
	}
	return NULL;
}

/*
 * Module lists, walked from the start: each one a count and names, sorted.
 * Where each starts is marked in the bitmap @list_starts, so that objects
 * can be checked in one pass.
 */
static struct kms_error *check_modlists(const struct kms_tables *t,
					const char *origin,
					unsigned char *list_starts)
{
	struct kms_error *err;
	uint32_t i, k;

	for (i = 0; i < t->nr_modlist_words;) {
		uint32_t n = kms_modlist_count(t, i);

		if (n == 0)
			return kms_error_path(KMS_ERR_BAD_MODLIST, origin,
					      "note: module list at word %u is empty",
					      i);
		if (n > t->nr_modlist_words - i - 1)
			return kms_error_path(KMS_ERR_BAD_MODLIST, origin,
					      "note: module list at word %u claims %u modules, more than the array holds",
					      i, n);
		list_starts[i / 8] |= 1 << (i % 8);
		for (k = 0; k < n; k++) {
			uint32_t off = kms_get_le32(t->modlists + 4 * (i + 1 + k));

			err = check_strtab_offset(t, origin, KMS_ERR_BAD_MODLIST,
						  "module list", i, off);
			if (err)
				return err;
			if (k > 0 && strcmp(kms_modlist_name(t, i, k - 1),
					    t->strtab + off) >= 0)
				return kms_error_path(KMS_ERR_BAD_MODLIST, origin,
						      "note: module list at word %u is not sorted",
						      i);
		}
		i += n + 1;
	}
	return NULL;
}

/* Objects: a module list's start (in @list_starts) and a string each. */
static struct kms_error *check_objects(const struct kms_tables *t,
				       const char *origin,
				       const unsigned char *list_starts)
{
	uint32_t i;

	for (i = 0; i < t->nr_objects; i++) {
		uint32_t list = kms_object_modlist(t, i);
		uint32_t name = kms_get_le32(t->objects + 8 * i + 4);

		if (list != KMS_NONE && (list >= t->nr_modlist_words ||
					 !(list_starts[list / 8] & 1 << (list % 8))))
			return kms_error_path(KMS_ERR_BAD_OBJECT, origin,
					      "note: object %u points at word %u, not at a module list",
					      i, list);
		if (name != KMS_NONE) {
			struct kms_error *err;

			err = check_strtab_offset(t, origin, KMS_ERR_BAD_OBJECT,
						  "object", i, name);
			if (err)
				return err;
		}
	}
	return NULL;
}

/*
 * Sections (FORMAT.md 3.2): known classes, each with ranges, the counts
 * adding up.  Decoded into t->sections; their starts are read once the
 * ranges are known to be in the image.
 */
static struct kms_error *check_sections(struct kms_tables *t,
					const char *origin)
{
	uint64_t first = 0;
	uint32_t k;

	t->sections = calloc(t->nr_sections ? t->nr_sections : 1,
			     sizeof(*t->sections));
	if (!t->sections)
		return &kms_error_nomem;
	for (k = 0; k < t->nr_sections; k++) {
		const unsigned char *e = t->image + kms_get_le32(t->image +
			KMS_IMG_SECTIONS_OFF) + (size_t)KMS_SECTION_SIZE * k;
		struct kms_section *sec = &t->sections[k];

		sec->cls = kms_get_le32(e);
		sec->nr_ranges = kms_get_le32(e + 4);
		sec->end = kms_get_le32(e + 8);
		if (sec->cls >= KMS_NR_CLASSES)
			return kms_error_path(KMS_ERR_UNKNOWN_CLASS, origin,
					      "note: section %u has unknown class %u (this reader knows 0-%u)",
					      k, sec->cls, KMS_NR_CLASSES - 1);
		if (sec->nr_ranges == 0)
			return kms_error_path(KMS_ERR_BAD_SECTION, origin,
					      "note: section %u has no ranges", k);
		sec->first = first;
		first += sec->nr_ranges;
	}
	if (first != t->nr_ranges)
		return kms_error_path(KMS_ERR_BAD_SECTION, origin,
				      "note: sections hold %llu ranges, the header says %u",
				      (unsigned long long)first, t->nr_ranges);
	return NULL;
}

/* The ranges of section @k: ascending below its end, known objects, merged. */
static struct kms_error *check_section_ranges(const struct kms_tables *t,
					      const char *origin, uint32_t k)
{
	const struct kms_section *sec = &t->sections[k];
	uint32_t i, prev = 0;

	for (i = sec->first; i < sec->first + sec->nr_ranges; i++) {
		uint32_t start = kms_range_start(t, i);
		uint32_t obj = kms_range_object(t, i);

		if (i > sec->first && start <= prev)
			return kms_error_path(KMS_ERR_BAD_RANGE, origin,
					      "note: range %u starts at %#x, not after range %u at %#x",
					      i, start, i - 1, prev);
		if (start >= sec->end)
			return kms_error_path(KMS_ERR_BAD_RANGE, origin,
					      "note: range %u starts at %#x, past the end %#x of section %u",
					      i, start, sec->end, k);
		if (obj != KMS_NONE && obj >= t->nr_objects)
			return kms_error_path(KMS_ERR_BAD_RANGE, origin,
					      "note: range %u names object %u of %u",
					      i, obj, t->nr_objects);
		if (i > sec->first && obj == kms_range_object(t, i - 1))
			return kms_error_path(KMS_ERR_BAD_RANGE, origin,
					      "note: ranges %u and %u have the same object and are not merged",
					      i - 1, i);
		prev = start;
	}
	return NULL;
}

/* Every section's ranges, then the sections' order within each base. */
static struct kms_error *check_ranges(struct kms_tables *t,
				      const char *origin)
{
	uint32_t prev[KMS_NR_BASES], k;
	bool seen[KMS_NR_BASES] = { false };
	struct kms_error *err;

	for (k = 0; k < t->nr_sections; k++) {
		struct kms_section *sec = &t->sections[k];
		unsigned int base = kms_class_base(sec->cls);

		err = check_section_ranges(t, origin, k);
		if (err)
			return err;
		sec->start = kms_range_start(t, sec->first);
		if (seen[base] && sec->start < t->sections[prev[base]].end)
			return kms_error_path(KMS_ERR_BAD_SECTION, origin,
					      "note: section %u starts at %#x, before the end %#x of section %u",
					      k, sec->start,
					      t->sections[prev[base]].end,
					      prev[base]);
		seen[base] = true;
		prev[base] = k;
	}
	return NULL;
}

struct kms_error *kms_image_validate(struct kms_tables *t, const char *origin)
{
	unsigned char *list_starts;
	struct kms_error *err;

	err = check_arrays(t, origin);
	if (!err)
		err = check_strings(t, origin);
	if (err)
		return err;
	list_starts = calloc(t->nr_modlist_words / 8 + 1, 1);
	if (!list_starts)
		return &kms_error_nomem;
	err = check_modlists(t, origin, list_starts);
	if (!err)
		err = check_objects(t, origin, list_starts);
	free(list_starts);
	if (!err)
		err = check_sections(t, origin);
	/* Its arrays are in the image and its sections add up: it converts. */
	if (!err)
		err = kms_image_restore(t->image, t->image_size);
	if (!err)
		err = check_ranges(t, origin);
	return err;
}
