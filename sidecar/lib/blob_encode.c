// SPDX-License-Identifier: GPL-2.0
/*
 * The blob encoder (kms/blob.h): the image laid out in FORMAT.md 3's
 * order, turned into its stored form (blob_stored.c), compressed into one
 * zstd frame with its size and checksum, behind the fixed header.
 * Deterministic: equal input gives equal bytes.
 */
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_c_useBlockSplitter */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/util.h>

#include "blob_image.h"

static uint64_t align4(uint64_t v)
{
	return (v + 3) & ~(uint64_t)3;
}

/* Where the writer puts the arrays: in FORMAT.md 3's order, aligned. */
static uint64_t encode_layout(const struct kms_encode_input *in,
			      unsigned int width, uint64_t off[NR_ARRAYS])
{
	off[A_SECTIONS] = KMS_IMAGE_HEADER_SIZE;
	off[A_STARTS] = off[A_SECTIONS] +
		(uint64_t)in->nr_sections * KMS_SECTION_SIZE;
	off[A_RANGE_OBJECTS] = off[A_STARTS] +
		(uint64_t)in->nr_ranges * KMS_START_SIZE;
	off[A_OBJECTS] = align4(off[A_RANGE_OBJECTS] +
				(uint64_t)in->nr_ranges * width);
	off[A_MODLISTS] = off[A_OBJECTS] +
		(uint64_t)in->nr_objects * KMS_OBJECT_SIZE;
	off[A_STRTAB] = off[A_MODLISTS] + (uint64_t)in->nr_modlist_words * 4;
	return align4(off[A_STRTAB] + in->strtab_size);
}

static void encode_fill(const struct kms_encode_input *in, unsigned int width,
			const uint64_t off[NR_ARRAYS], unsigned char *img)
{
	unsigned int k;
	uint32_t i;

	kms_put_le32(img + KMS_IMG_NR_SECTIONS, in->nr_sections);
	kms_put_le32(img + KMS_IMG_NR_RANGES, in->nr_ranges);
	kms_put_le32(img + KMS_IMG_NR_OBJECTS, in->nr_objects);
	kms_put_le32(img + KMS_IMG_NR_MODLIST, in->nr_modlist_words);
	kms_put_le32(img + KMS_IMG_STRTAB_SIZE, in->strtab_size);
	kms_put_le32(img + KMS_IMG_NR_MODULES, in->nr_modules);
	for (k = 0; k < NR_ARRAYS; k++)
		kms_put_le32(img + array_desc[k].offset_field, off[k]);
	for (i = 0; i < in->nr_sections; i++) {
		unsigned char *e = img + off[A_SECTIONS] + KMS_SECTION_SIZE * i;

		kms_put_le32(e, in->sections[i].cls);
		kms_put_le32(e + 4, in->sections[i].nr_ranges);
		kms_put_le32(e + 8, in->sections[i].end);
	}
	for (i = 0; i < in->nr_ranges; i++) {
		unsigned char *o = img + off[A_RANGE_OBJECTS] + width * i;

		kms_put_le32(img + off[A_STARTS] + 4 * i, in->range_start[i]);
		if (width == 4) {
			kms_put_le32(o, in->range_object[i]);
		} else {
			o[0] = in->range_object[i];
			o[1] = in->range_object[i] >> 8;
		}
	}
	for (i = 0; i < in->nr_objects; i++) {
		kms_put_le32(img + off[A_OBJECTS] + 8 * i, in->object_modlist[i]);
		kms_put_le32(img + off[A_OBJECTS] + 8 * i + 4, in->object_name[i]);
	}
	for (i = 0; i < in->nr_modlist_words; i++)
		kms_put_le32(img + off[A_MODLISTS] + 4 * i, in->modlists[i]);
	if (in->strtab_size)
		memcpy(img + off[A_STRTAB], in->strtab, in->strtab_size);
}

/* One zstd frame of @img: level KMS_ZSTD_LEVEL, content size, checksum. */
static struct kms_error *encode_frame(const unsigned char *img, size_t size,
				      unsigned char *out, size_t cap,
				      size_t *ret_size)
{
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	size_t n;

	if (!cctx)
		return &kms_error_nomem;
	n = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel,
				   KMS_ZSTD_LEVEL);
	if (!ZSTD_isError(n))
		n = ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
#ifdef ZSTD_c_useBlockSplitter
	/*
	 * The block splitter (libzstd 1.5.1 and later; a compressor's choice,
	 * any zstd decodes the frame): 4-6% smaller notes.  Where libzstd
	 * refuses it, the frame is as without.
	 */
	if (!ZSTD_isError(n))
		(void)ZSTD_CCtx_setParameter(cctx, ZSTD_c_useBlockSplitter,
					     ZSTD_ps_enable);
#endif
	if (!ZSTD_isError(n))
		n = ZSTD_compress2(cctx, out, cap, img, size);
	ZSTD_freeCCtx(cctx);
	if (ZSTD_isError(n))
		return kms_error_fmt("zstd: %s", ZSTD_getErrorName(n));
	*ret_size = n;
	return NULL;
}

struct kms_error *kms_blob_encode(const struct kms_encode_input *in,
				  void **ret_blob, size_t *ret_size)
{
	unsigned int width = KMS_OBJECT_WIDTH(in->nr_objects);
	uint64_t off[NR_ARRAYS], image_size;
	unsigned char *img, *blob;
	struct kms_error *err;
	size_t bound, csize = 0;

	image_size = encode_layout(in, width, off);
	if (image_size > KMS_IMAGE_MAX_SIZE)
		return kms_error_fmt("tables of %llu bytes exceed the format's %u-byte limit",
				     (unsigned long long)image_size,
				     KMS_IMAGE_MAX_SIZE);
	img = calloc(1, image_size);
	if (!img)
		return &kms_error_nomem;
	encode_fill(in, width, off, img);
	err = kms_image_store(img, image_size);
	if (err) {
		free(img);
		return err;
	}

	bound = ZSTD_compressBound(image_size);
	blob = calloc(1, KMS_HEADER_SIZE + bound);
	if (!blob) {
		free(img);
		return &kms_error_nomem;
	}
	err = encode_frame(img, image_size, blob + KMS_HEADER_SIZE, bound,
			   &csize);
	free(img);
	if (err) {
		free(blob);
		return err;
	}
	memcpy(blob + KMS_HDR_MAGIC, KMS_MAGIC, 4);
	blob[KMS_HDR_VERSION] = KMS_VERSION;
	blob[KMS_HDR_HEADER_SIZE] = KMS_HEADER_SIZE;
	kms_put_le32(blob + KMS_HDR_FLAGS, KMS_FLAGS_REQUIRED);
	kms_put_le32(blob + KMS_HDR_PAYLOAD_SIZE, csize);
	kms_put_le32(blob + KMS_HDR_IMAGE_SIZE, image_size);
	*ret_blob = blob;
	*ret_size = KMS_HEADER_SIZE + csize;
	return NULL;
}
