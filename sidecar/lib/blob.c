// SPDX-License-Identifier: GPL-2.0
/*
 * The blob decoder (kms/blob.h).  Written for hostile input: the fixed
 * header and the padding are checked, then the payload must be exactly one
 * zstd frame declaring the image's size and carrying a checksum; the image
 * it gives is checked whole (blob_check.c) before the tables are handed
 * out.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

#include "blob_image.h"

static uint16_t get_le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

/* The padding after the payload (FORMAT.md 2): zero bytes. */
static struct kms_error *check_padding(const unsigned char *desc, size_t size,
				       uint32_t payload_size,
				       const char *origin)
{
	size_t i;

	for (i = KMS_HEADER_SIZE + (size_t)payload_size; i < size; i++)
		if (desc[i])
			return kms_error_path(KMS_ERR_BAD_HEADER, origin,
					      "note: padding byte %zu after the payload is not zero",
					      i - KMS_HEADER_SIZE - payload_size);
	return NULL;
}

/* The fixed header of @size bytes at @hdr, and what it says. */
static struct kms_error *check_header(const unsigned char *hdr, size_t size,
				      const char *origin,
				      uint32_t *ret_payload_size,
				      uint32_t *ret_image_size)
{
	uint32_t flags, payload_size, image_size, i;
	uint16_t version;

	if (size < KMS_HEADER_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: %zu bytes, shorter than the %u-byte header",
				      size, KMS_HEADER_SIZE);
	if (memcmp(hdr + KMS_HDR_MAGIC, KMS_MAGIC, 4))
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: bad magic");
	version = get_le16(hdr + KMS_HDR_VERSION);
	if (version != KMS_VERSION)
		return kms_error_path(KMS_ERR_BAD_VERSION, origin,
				      "note: format version %u, this reader knows version %u",
				      version, KMS_VERSION);
	if (get_le16(hdr + KMS_HDR_HEADER_SIZE) != KMS_HEADER_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: header size %u, expected %u",
				      get_le16(hdr + KMS_HDR_HEADER_SIZE),
				      KMS_HEADER_SIZE);
	flags = kms_get_le32(hdr + KMS_HDR_FLAGS);
	if (flags != KMS_FLAGS_REQUIRED)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: flags %#x, expected %#x",
				      flags, KMS_FLAGS_REQUIRED);
	for (i = 0; i < KMS_HDR_RESERVED_SIZE; i++)
		if (hdr[KMS_HDR_RESERVED + i])
			return kms_error_path(KMS_ERR_BAD_HEADER, origin,
					      "note: reserved header fields are not zero");
	payload_size = kms_get_le32(hdr + KMS_HDR_PAYLOAD_SIZE);
	if (payload_size > size - KMS_HEADER_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: header says %u payload bytes, the note holds %zu",
				      payload_size, size - KMS_HEADER_SIZE);
	image_size = kms_get_le32(hdr + KMS_HDR_IMAGE_SIZE);
	if (image_size < KMS_IMAGE_HEADER_SIZE || image_size > KMS_IMAGE_MAX_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: implausible image size %u",
				      image_size);
	*ret_payload_size = payload_size;
	*ret_image_size = image_size;
	return check_padding(hdr, size, payload_size, origin);
}

/* Decompress the one zstd frame of @payload into t->image. */
static struct kms_error *decompress(struct kms_tables *t, const char *origin,
				    const unsigned char *payload,
				    uint32_t payload_size)
{
	unsigned long long content;
	size_t got;

	content = ZSTD_getFrameContentSize(payload, payload_size);
	if (content == ZSTD_CONTENTSIZE_ERROR)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: payload is not a zstd frame");
	if (content != t->image_size)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: zstd frame does not declare the image size %zu",
				      t->image_size);
	/* The frame header descriptor's Content_Checksum_flag (RFC 8878
	 * 3.1.1.1.1, bit 2): the frame checksum is the blob's checksum. */
	if (!(payload[4] & 0x04))
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: payload is not a zstd frame with a content checksum");
	/* One frame (FORMAT.md 2): nothing after it, not even an
	 * empty or skippable frame, and all of it. */
	got = ZSTD_findFrameCompressedSize(payload, payload_size);
	if (ZSTD_isError(got))
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: payload is not one whole zstd frame: %s",
				      ZSTD_getErrorName(got));
	if (got != payload_size)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %zu bytes after the zstd frame",
				      payload_size - got);
	got = ZSTD_decompress(t->image, t->image_size, payload, payload_size);
	if (ZSTD_isError(got))
		return kms_error_path(KMS_ERR_BAD_ZSTD, origin,
				      "note: zstd: %s",
				      ZSTD_getErrorName(got));
	if (got != t->image_size)
		return kms_error_path(KMS_ERR_BAD_ZSTD, origin,
				      "note: decompressed to %zu bytes, expected %zu",
				      got, t->image_size);
	return NULL;
}

struct kms_error *kms_blob_decode(const void *blob, size_t size,
				  const char *origin, struct kms_tables **ret)
{
	const unsigned char *hdr = blob;
	struct kms_tables *t;
	/* Set by check_header(), which gcc cannot see through. */
	uint32_t payload_size = 0, image_size = 0;
	struct kms_error *err;

	err = check_header(hdr, size, origin, &payload_size, &image_size);
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return &kms_error_nomem;
	t->blob_size = size;
	t->payload_size = payload_size;
	t->image_size = image_size;
	t->image = malloc(image_size);
	if (!t->image) {
		free(t);
		return &kms_error_nomem;
	}
	err = decompress(t, origin, hdr + KMS_HEADER_SIZE, payload_size);
	if (!err)
		err = kms_image_validate(t, origin);
	if (err) {
		kms_tables_destroy(t);
		return err;
	}
	*ret = t;
	return NULL;
}
