// SPDX-License-Identifier: GPL-2.0
/*
 * The blob decoder (kms/blob.h).  Written for hostile input: the fixed
 * header and the padding are checked, then each of the payload's parts
 * (two, or three with the init paths) must be exactly one zstd frame
 * declaring its image's size and carrying a checksum; the image the first
 * gives is checked whole (blob_check.c), then the paths images the others
 * give (blob_paths.c), before the tables are handed out.
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

/* What the header says (FORMAT.md 2), in host order. */
struct header {
	uint32_t payload_size, image_size, paths_size, paths_image_size;
	uint32_t init_paths_size;
};

/* The padding after the frames (FORMAT.md 2): zero bytes. */
static struct kms_error *check_padding(const unsigned char *desc, size_t size,
				       size_t frames, const char *origin)
{
	size_t i;

	for (i = KMS_HEADER_SIZE + frames; i < size; i++)
		if (desc[i])
			return kms_error_path(KMS_ERR_BAD_HEADER, origin,
					      "note: padding byte %zu after the payload is not zero",
					      i - KMS_HEADER_SIZE - frames);
	return NULL;
}

/* The fixed fields: magic, version, header size, flags. */
static struct kms_error *check_fixed(const unsigned char *hdr, size_t size,
				     const char *origin)
{
	uint32_t flags;
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
	return NULL;
}

/* The header of @size bytes at @hdr, and what it says, into @h. */
static struct kms_error *check_header(const unsigned char *hdr, size_t size,
				      const char *origin, struct header *h)
{
	struct kms_error *err = check_fixed(hdr, size, origin);

	if (err)
		return err;
	h->payload_size = kms_get_le32(hdr + KMS_HDR_PAYLOAD_SIZE);
	h->image_size = kms_get_le32(hdr + KMS_HDR_IMAGE_SIZE);
	h->paths_size = kms_get_le32(hdr + KMS_HDR_PATHS_SIZE);
	h->paths_image_size = kms_get_le32(hdr + KMS_HDR_PATHS_IMAGE_SIZE);
	h->init_paths_size = kms_get_le32(hdr + KMS_HDR_INIT_PATHS_SIZE);
	if (h->payload_size > size - KMS_HEADER_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: header says %u payload bytes, the note holds %zu",
				      h->payload_size, size - KMS_HEADER_SIZE);
	if (h->paths_size > size - KMS_HEADER_SIZE - h->payload_size)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: header says %u paths bytes after %u payload bytes, the note holds %zu",
				      h->paths_size, h->payload_size,
				      size - KMS_HEADER_SIZE);
	if (h->init_paths_size >
	    size - KMS_HEADER_SIZE - h->payload_size - h->paths_size)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: header says %u init paths bytes after %u payload and %u paths bytes, the note holds %zu",
				      h->init_paths_size, h->payload_size,
				      h->paths_size, size - KMS_HEADER_SIZE);
	if (h->image_size < KMS_IMAGE_HEADER_SIZE ||
	    h->image_size > KMS_IMAGE_MAX_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: implausible image size %u",
				      h->image_size);
	if (h->paths_image_size < KMS_PATHS_HEADER_SIZE ||
	    h->paths_image_size > KMS_PATHS_MAX_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: implausible paths image size %u",
				      h->paths_image_size);
	return check_padding(hdr, size, (size_t)h->payload_size +
			     h->paths_size + h->init_paths_size, origin);
}

/*
 * The content size the zstd frame of @size bytes at @frame declares, or
 * ZSTD_CONTENTSIZE_UNKNOWN, into @ret.  A skippable frame (RFC 8878
 * 3.1.2, magic 0x184D2A5?) is refused here by name: libzstd reports its
 * content size as 0, which would read as a frame of the wrong size.
 */
static struct kms_error *frame_content_size(const char *origin,
					    const char *what,
					    const unsigned char *frame,
					    size_t size,
					    unsigned long long *ret)
{
	if (size >= 4 && (kms_get_le32(frame) & 0xfffffff0) == 0x184d2a50)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %s is a skippable frame, not a zstd frame",
				      what);
	*ret = ZSTD_getFrameContentSize(frame, size);
	if (*ret == ZSTD_CONTENTSIZE_ERROR)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %s is not a zstd frame", what);
	return NULL;
}

/*
 * Decompress the one zstd frame of @size bytes at @frame into @out, of
 * @out_size bytes; @what names the frame: "payload" (the image's), "paths
 * frame", "init paths frame".
 */
static struct kms_error *decompress(const char *origin, const char *what,
				    const unsigned char *frame, size_t size,
				    unsigned char *out, size_t out_size)
{
	unsigned long long content;
	struct kms_error *err;
	size_t got;

	err = frame_content_size(origin, what, frame, size, &content);
	if (err)
		return err;
	if (content != out_size)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %s: zstd frame does not declare the size %zu",
				      what, out_size);
	/*
	 * The frame header descriptor's Content_Checksum_flag (RFC 8878
	 * 3.1.1.1.1, bit 2): the frame checksum is the blob's checksum.
	 */
	if (!(frame[4] & 0x04))
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %s is not a zstd frame with a content checksum",
				      what);
	/*
	 * One frame (FORMAT.md 2): nothing after it, not even an
	 * empty or skippable frame, and all of it.
	 */
	got = ZSTD_findFrameCompressedSize(frame, size);
	if (ZSTD_isError(got))
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %s is not one whole zstd frame: %s",
				      what, ZSTD_getErrorName(got));
	if (got != size)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %s: %zu bytes after the zstd frame",
				      what, size - got);
	got = ZSTD_decompress(out, out_size, frame, size);
	if (ZSTD_isError(got))
		return kms_error_path(KMS_ERR_BAD_ZSTD, origin,
				      "note: %s: zstd: %s",
				      what, ZSTD_getErrorName(got));
	if (got != out_size)
		return kms_error_path(KMS_ERR_BAD_ZSTD, origin,
				      "note: %s decompressed to %zu bytes, expected %zu",
				      what, got, out_size);
	return NULL;
}

/*
 * The size of the paths image in the @size-byte frame at @frame, which
 * only its frame header declares: the init paths frame's (FORMAT.md 2).
 */
static struct kms_error *declared_size(const char *origin, const char *what,
				       const unsigned char *frame, size_t size,
				       size_t *ret)
{
	unsigned long long content;
	struct kms_error *err;

	err = frame_content_size(origin, what, frame, size, &content);
	if (err)
		return err;
	if (content == ZSTD_CONTENTSIZE_UNKNOWN)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %s: zstd frame does not declare its size",
				      what);
	if (content < KMS_PATHS_HEADER_SIZE || content > KMS_PATHS_MAX_SIZE)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %s: implausible declared size %llu",
				      what, content);
	*ret = content;
	return NULL;
}

/* Paths image @k (KMS_PATHS_*) from its zstd frame at @frame; check it. */
static struct kms_error *decode_paths(struct kms_tables *t, unsigned int k,
				      const unsigned char *frame,
				      const char *origin)
{
	static const char *const frame_name[KMS_NR_PATHS] = {
		"paths frame", "init paths frame"
	};
	static const char *const image_name[KMS_NR_PATHS] = {
		"paths image", "init paths image"
	};
	struct kms_paths *p = &t->paths[k];
	struct kms_error *err = NULL;

	/* The header gives the paths image's size, the frame the other's. */
	if (k == KMS_PATHS_INIT)
		err = declared_size(origin, frame_name[k], frame,
				    p->frame_size, &p->image_size);
	if (err)
		return err;
	p->image = malloc(p->image_size);
	if (!p->image)
		return &kms_error_nomem;
	err = decompress(origin, frame_name[k], frame, p->frame_size,
			 p->image, p->image_size);
	return err ? err : kms_paths_validate(p, image_name[k], origin);
}

/* The image frame, then the paths frames, each decompressed and checked. */
static struct kms_error *decode_frames(struct kms_tables *t,
				       const unsigned char *payload,
				       const char *origin)
{
	struct kms_error *err;

	t->image = malloc(t->image_size);
	if (!t->image)
		return &kms_error_nomem;
	err = decompress(origin, "payload", payload, t->payload_size,
			 t->image, t->image_size);
	if (!err)
		err = kms_image_validate(t, origin);
	payload += t->payload_size;
	if (!err)
		err = decode_paths(t, KMS_PATHS_TEXT, payload, origin);
	if (!err && t->paths[KMS_PATHS_INIT].frame_size)
		err = decode_paths(t, KMS_PATHS_INIT,
				   payload + t->paths[KMS_PATHS_TEXT].frame_size,
				   origin);
	return err ? err : kms_paths_check_order(t, origin);
}

struct kms_error *kms_blob_decode(const void *blob, size_t size,
				  const char *origin, struct kms_tables **ret)
{
	const unsigned char *hdr = blob;
	struct kms_tables *t;
	struct header h;
	struct kms_error *err;

	err = check_header(hdr, size, origin, &h);
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return &kms_error_nomem;
	t->blob_size = size;
	t->payload_size = h.payload_size;
	t->image_size = h.image_size;
	t->paths[KMS_PATHS_TEXT].frame_size = h.paths_size;
	t->paths[KMS_PATHS_TEXT].image_size = h.paths_image_size;
	t->paths[KMS_PATHS_INIT].frame_size = h.init_paths_size;
	err = decode_frames(t, hdr + KMS_HEADER_SIZE, origin);
	if (err) {
		kms_tables_destroy(t);
		return err;
	}
	*ret = t;
	return NULL;
}
