/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The image's arrays (FORMAT.md 3), private to the format library: the
 * header field that says where each one lies, shared by the validator
 * (blob_check.c), which finds them, and the encoder (blob_encode.c), which
 * places them; and the validator's entry point, called by the decoder
 * (blob.c); the paths image's validator (blob_paths.c) and the stored
 * forms' steps (blob_stored.c).
 */
#ifndef KMS_LIB_BLOB_IMAGE_H
#define KMS_LIB_BLOB_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include <kms/error.h>
#include <kms/format.h>
#include <kms/tables.h>

/* The arrays of the image: where each one lies (FORMAT.md 3). */
enum {
	A_SECTIONS, A_STARTS, A_RANGE_OBJECTS, A_OBJECTS, A_MODLISTS,
	A_STRTAB, NR_ARRAYS
};

static const struct {
	const char *what;
	unsigned int offset_field;
} array_desc[NR_ARRAYS] = {
	{ "sections", KMS_IMG_SECTIONS_OFF },
	{ "range starts", KMS_IMG_STARTS_OFF },
	{ "range objects", KMS_IMG_RANGE_OBJECTS_OFF },
	{ "objects", KMS_IMG_OBJECTS_OFF },
	{ "module lists", KMS_IMG_MODLISTS_OFF },
	{ "string table", KMS_IMG_STRTAB_OFF },
};

/*
 * Check every rule of FORMAT.md 3 on the decompressed image t->image
 * (t->image_size bytes), filling in the rest of @t: the counts, where each
 * array lies, the sections; the range columns are restored from their
 * stored form (kms_image_restore()) in place.  Messages name @origin.
 * On failure @t holds what was filled in so far, for kms_tables_destroy().
 */
struct kms_error *kms_image_validate(struct kms_tables *t, const char *origin);

/*
 * Check every rule of FORMAT.md 3.9 on the decompressed paths image
 * p->image (p->image_size bytes), in its stored form, and fill in the
 * rest of @p: the counts, the columns, restored in place, and where each
 * string starts.  Messages name @origin and the image, @what ("paths
 * image", "init paths image").  On failure @p holds what was filled in
 * so far, for kms_tables_destroy().
 */
struct kms_error *kms_paths_validate(struct kms_paths *p, const char *what,
				     const char *origin);

/* The rule between the two, once each is valid: no overlap (3.9). */
struct kms_error *kms_paths_check_order(const struct kms_tables *t,
					const char *origin);

/*
 * The stored forms' two steps (blob_stored.c), for the image's columns
 * and the paths image's: transpose @n values of @width bytes at @col into
 * @width planes of @n bytes (@to_planes), or back, through @scratch (@n *
 * @width bytes); turn @n 4-byte starts at @starts into differences from
 * the one before, the first from 0 (@store), or back by summing them,
 * wrapping as 32-bit numbers do.
 */
void kms_transpose(unsigned char *col, unsigned char *scratch, uint32_t n,
		   unsigned int width, bool to_planes);
void kms_difference(unsigned char *starts, uint32_t n, bool store);

#endif /* KMS_LIB_BLOB_IMAGE_H */
