// SPDX-License-Identifier: GPL-2.0
/*
 * The blob encoder (kms/blob.h): the image laid out in FORMAT.md 3's
 * order and the paths images in 3.9's, each turned into its stored form
 * (blob_stored.c) and compressed into one zstd frame with its size and
 * checksum, behind the fixed header.
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

/* @v as an index of @width bytes (FORMAT.md 3.3, 3.9): 2 keep its low bits. */
static void put_index(unsigned char *at, unsigned int width, uint32_t v)
{
	if (width == 4) {
		kms_put_le32(at, v);
		return;
	}
	at[0] = v;
	at[1] = v >> 8;
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
		kms_put_le32(img + off[A_STARTS] + 4 * i, in->range_start[i]);
		put_index(img + off[A_RANGE_OBJECTS] + width * i, width,
			  in->range_object[i]);
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

/*
 * How many leading bytes path @k of @in shares with the path before it,
 * as front coding stores it (FORMAT.md 3.9): one byte holds it plus one.
 */
static size_t shared_prefix(const struct kms_encode_paths *in, uint32_t k)
{
	const char *a, *b;
	size_t n = 0;

	if (!k)
		return 0;
	a = in->paths[k - 1];
	b = in->paths[k];
	while (n < 254 && a[n] && a[n] == b[n])
		n++;
	return n;
}

/* The bytes of the paths image @in (FORMAT.md 3.9), before storing. */
static uint64_t paths_layout(const struct kms_encode_paths *in,
			     unsigned int width)
{
	uint64_t size = KMS_PATHS_HEADER_SIZE +
		(uint64_t)in->nr_pieces * (KMS_START_SIZE + width);
	uint32_t k;

	for (k = 0; k < in->nr_paths; k++)
		size += 1 + strlen(in->paths[k]) - shared_prefix(in, k) + 1;
	return size;
}

/* @size zeroed bytes, if @what of that size is within the format's @limit. */
static struct kms_error *alloc_image(uint64_t size, uint32_t limit,
				     const char *what, unsigned char **ret)
{
	if (size > limit)
		return kms_error_fmt("%s of %llu bytes exceed the format's %u-byte limit",
				     what, (unsigned long long)size, limit);
	*ret = calloc(1, size);
	return *ret ? NULL : &kms_error_nomem;
}

/*
 * The paths image @in, in its stored form, into *@ret (*@ret_size bytes),
 * which the caller frees, also on failure.
 */
static struct kms_error *paths_image(const struct kms_encode_paths *in,
				     unsigned char **ret, uint64_t *ret_size)
{
	unsigned int width = KMS_PATH_WIDTH(in->nr_paths);
	uint64_t size = paths_layout(in, width);
	struct kms_error *err;
	unsigned char *at;
	uint32_t i;

	if (!in->nr_pieces || !in->nr_paths)
		return kms_error_new(KMS_ERR_INPUT,
				     "no executable code with a path: a paths image needs a piece and a path");
	err = alloc_image(size, KMS_PATHS_MAX_SIZE, "paths", ret);
	if (err)
		return err;
	at = *ret;
	kms_put_le32(at + KMS_PATHS_NR_PIECES, in->nr_pieces);
	kms_put_le32(at + KMS_PATHS_NR_PATHS, in->nr_paths);
	kms_put_le32(at + KMS_PATHS_END, in->pieces_end);
	at += KMS_PATHS_HEADER_SIZE;
	for (i = 0; i < in->nr_pieces; i++, at += KMS_START_SIZE)
		kms_put_le32(at, in->piece_start[i]);
	for (i = 0; i < in->nr_pieces; i++, at += width)
		put_index(at, width, in->piece_path[i]);
	for (i = 0; i < in->nr_paths; i++) {
		size_t shared = shared_prefix(in, i);

		*at++ = shared + 1;
		at = (unsigned char *)stpcpy((char *)at,
					     in->paths[i] + shared) + 1;
	}
	*ret_size = size;
	return kms_paths_convert(*ret, size, true);
}

/*
 * The image of @in, in its stored form, into *@ret (*@ret_size bytes),
 * which the caller frees, also on failure.
 */
static struct kms_error *image(const struct kms_encode_input *in,
			       unsigned char **ret, uint64_t *ret_size)
{
	unsigned int width = KMS_OBJECT_WIDTH(in->nr_objects);
	uint64_t off[NR_ARRAYS], size;
	struct kms_error *err;

	size = encode_layout(in, width, off);
	err = alloc_image(size, KMS_IMAGE_MAX_SIZE, "tables", ret);
	if (err)
		return err;
	encode_fill(in, width, off, *ret);
	*ret_size = size;
	return kms_image_store(*ret, size);
}

/* The blob's frames: the image's, the paths image's, the init paths'. */
enum { F_IMAGE, F_PATHS, F_INIT_PATHS, NR_FRAMES };

/* The header of a blob whose frames are @size bytes, of @raw_size. */
static void encode_header(unsigned char *blob, const size_t *size,
			  const uint64_t *raw_size)
{
	memcpy(blob + KMS_HDR_MAGIC, KMS_MAGIC, 4);
	blob[KMS_HDR_VERSION] = KMS_VERSION;
	blob[KMS_HDR_HEADER_SIZE] = KMS_HEADER_SIZE;
	kms_put_le32(blob + KMS_HDR_FLAGS, KMS_FLAGS_REQUIRED);
	kms_put_le32(blob + KMS_HDR_PAYLOAD_SIZE, size[F_IMAGE]);
	kms_put_le32(blob + KMS_HDR_IMAGE_SIZE, raw_size[F_IMAGE]);
	kms_put_le32(blob + KMS_HDR_PATHS_SIZE, size[F_PATHS]);
	kms_put_le32(blob + KMS_HDR_PATHS_IMAGE_SIZE, raw_size[F_PATHS]);
	kms_put_le32(blob + KMS_HDR_INIT_PATHS_SIZE, size[F_INIT_PATHS]);
}

/* Each frame's bytes before compression, in *@raw (NULL: no such frame). */
static struct kms_error *raw_frames(const struct kms_encode_input *in,
				    unsigned char **raw, uint64_t *raw_size)
{
	const struct kms_encode_paths *init = &in->paths[KMS_PATHS_INIT];
	uint32_t text_end = in->paths[KMS_PATHS_TEXT].pieces_end;
	struct kms_error *err;

	if (init->nr_pieces && init->piece_start[0] < text_end)
		/* The paths images would overlap. */
		return kms_error_fmt("init text at %#x starts before text ends at %#x",
				     init->piece_start[0], text_end);
	err = image(in, &raw[F_IMAGE], &raw_size[F_IMAGE]);
	if (!err)
		err = paths_image(&in->paths[KMS_PATHS_TEXT], &raw[F_PATHS],
				  &raw_size[F_PATHS]);
	/* Init text whose pieces have no path needs no frame (3.9). */
	if (!err && init->nr_pieces && init->nr_paths)
		err = paths_image(init, &raw[F_INIT_PATHS],
				  &raw_size[F_INIT_PATHS]);
	return err;
}

struct kms_error *kms_blob_encode(const struct kms_encode_input *in,
				  void **ret_blob, size_t *ret_size)
{
	unsigned char *raw[NR_FRAMES] = { NULL }, *blob = NULL;
	uint64_t raw_size[NR_FRAMES] = { 0 };
	size_t size[NR_FRAMES] = { 0 }, bound = 0, at = KMS_HEADER_SIZE;
	struct kms_error *err;
	unsigned int f;

	err = raw_frames(in, raw, raw_size);
	for (f = 0; !err && f < NR_FRAMES; f++)
		bound += raw[f] ? ZSTD_compressBound(raw_size[f]) : 0;
	if (!err) {
		blob = calloc(1, KMS_HEADER_SIZE + bound);
		if (!blob)
			err = &kms_error_nomem;
	}
	for (f = 0; !err && f < NR_FRAMES; f++) {
		if (raw[f])
			err = encode_frame(raw[f], raw_size[f], blob + at,
					   KMS_HEADER_SIZE + bound - at,
					   &size[f]);
		at += size[f];
	}
	for (f = 0; f < NR_FRAMES; f++)
		free(raw[f]);
	if (err) {
		free(blob);
		return err;
	}
	encode_header(blob, size, raw_size);
	*ret_blob = blob;
	*ret_size = at;
	return NULL;
}
