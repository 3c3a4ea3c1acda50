/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Encode and decode the kallmodsyms blob (FORMAT.md, sections 2 and 3).
 *
 * The decoder validates every field before use and never reads outside the
 * bytes it was given; a blob it accepts can be walked with the accessors
 * below without further bounds checks.  The encoder is deterministic: equal
 * input gives equal bytes.
 */
#ifndef KMS_BLOB_H
#define KMS_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>

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

/* A decoded, validated image. */
struct kms_tables {
	unsigned char *image;		/* owned */
	size_t image_size;
	size_t blob_size;		/* the note descriptor, padding included */
	size_t payload_size;		/* of it, the zstd frame */
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
};

/*
 * Validate and decompress @blob (@size bytes: the note descriptor).  @origin
 * names where the blob came from, for messages ("vmlinux: note: bad magic").
 */
struct kms_error *kms_blob_decode(const void *blob, size_t size,
				  const char *origin, struct kms_tables **ret);

void kms_tables_destroy(struct kms_tables *tables);

/*
 * The stored form of an image (FORMAT.md 3.8), in place: kms_image_store()
 * turns the image of @size bytes into the bytes a payload holds (each
 * section's starts as differences, both range columns in byte planes),
 * kms_image_restore() turns them back.  Neither validates more than it
 * needs: they refuse an image whose header or sections do not place its
 * range columns inside it.  The encoder and decoder call them; so may
 * tools that edit images.
 */
struct kms_error *kms_image_store(unsigned char *img, size_t size);
struct kms_error *kms_image_restore(unsigned char *img, size_t size);

static inline uint32_t kms_get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void kms_put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static inline uint32_t kms_range_start(const struct kms_tables *t, uint32_t i)
{
	return kms_get_le32(t->starts + 4 * (size_t)i);
}

/* The object of range @i, or KMS_NONE (0xffffffff) whatever the width. */
static inline uint32_t kms_range_object(const struct kms_tables *t, uint32_t i)
{
	const unsigned char *p;
	uint32_t v;

	if (t->object_width == 4)
		return kms_get_le32(t->range_objects + 4 * (size_t)i);
	p = t->range_objects + 2 * (size_t)i;
	v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
	return v == 0xffffu ? 0xffffffffu : v;
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
 * in order should keep a cursor instead.
 */
uint32_t kms_tables_find(const struct kms_tables *t, unsigned int base,
			 uint32_t offset, uint32_t *ret_section);

/* kms_tables_find() in the _text-based sections. */
static inline uint32_t kms_tables_find_range(const struct kms_tables *t,
					     uint32_t offset)
{
	return kms_tables_find(t, 0, offset, NULL);
}

/* Input of the encoder, in host byte order. */
struct kms_encode_section {
	uint32_t cls;
	uint32_t nr_ranges;
	uint32_t end;
};

struct kms_encode_input {
	uint32_t nr_sections;
	const struct kms_encode_section *sections;
	uint32_t nr_ranges;
	const uint32_t *range_start;
	const uint32_t *range_object;	/* KMS_NONE: no object */
	uint32_t nr_objects;
	const uint32_t *object_modlist;
	const uint32_t *object_name;
	uint32_t nr_modlist_words;
	const uint32_t *modlists;
	uint32_t strtab_size;
	const char *strtab;
	uint32_t nr_modules;
};

/*
 * The zstd level of the blob's frame.  Tools that rewrite a blob use it
 * too, so that a rewritten note fits where the original was linked.
 */
#define KMS_ZSTD_LEVEL 19

/*
 * Build the blob (header + zstd frame, with content size and checksum);
 * *ret_blob is malloc()ed.
 */
struct kms_error *kms_blob_encode(const struct kms_encode_input *in,
				  void **ret_blob, size_t *ret_size);

/*
 * Wrap a blob in an ELF note record (FORMAT.md 1.1); *ret is malloc()ed.
 * @desc_size: the descriptor's size, the blob then zero padding (FORMAT.md
 * 2), at least @size; 0 for no padding.
 */
struct kms_error *kms_note_wrap(const void *blob, size_t size,
				size_t desc_size, void **ret,
				size_t *ret_size);

/*
 * Find the kallmodsyms note among the note records in @buf and return its
 * descriptor.  Returns an error only for malformed records; *ret_desc is
 * NULL when the records are well formed but none is ours.
 */
struct kms_error *kms_note_find(const void *buf, size_t size,
				const char *origin, const void **ret_desc,
				size_t *ret_desc_size);

#endif /* KMS_BLOB_H */
