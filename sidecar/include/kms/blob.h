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

/* A decoded, validated image. */
struct kms_tables {
	unsigned char *image;		/* owned */
	size_t image_size;
	size_t blob_size;		/* compressed blob, header included */
	uint32_t text_size;
	uint32_t nr_ranges;
	uint32_t nr_objects;
	uint32_t nr_modlist_words;
	uint32_t strtab_size;
	uint32_t nr_modules;
	const unsigned char *ranges;
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
	return kms_get_le32(t->ranges + 8 * (size_t)i);
}

static inline uint32_t kms_range_end(const struct kms_tables *t, uint32_t i)
{
	return i + 1 < t->nr_ranges ? kms_range_start(t, i + 1) : t->text_size;
}

static inline uint32_t kms_range_object(const struct kms_tables *t, uint32_t i)
{
	return kms_get_le32(t->ranges + 8 * (size_t)i + 4);
}

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
 * The range holding @offset (from _text), or KMS_NONE.  Binary search;
 * callers walking addresses in order should keep a cursor instead.
 */
uint32_t kms_tables_find_range(const struct kms_tables *t, uint32_t offset);

/* Input of the encoder, in host byte order. */
struct kms_encode_input {
	uint32_t text_size;
	uint32_t nr_ranges;
	const uint32_t *range_start;
	const uint32_t *range_object;
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

/* Build the blob (header + zstd frame); *ret_blob is malloc()ed. */
struct kms_error *kms_blob_encode(const struct kms_encode_input *in,
				  void **ret_blob, size_t *ret_size);

/* Wrap a blob in an ELF note record (FORMAT.md 1.1); *ret is malloc()ed. */
struct kms_error *kms_note_wrap(const void *blob, size_t size, void **ret,
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
