// SPDX-License-Identifier: GPL-2.0
/*
 * kms-mutate: make malformed kallmodsyms notes for the rejection tests.
 *
 * usage: kms-mutate IN OUT EDIT...
 *
 * IN and OUT are sidecar (note record) files.  Each EDIT changes the blob:
 *   hdr:OFF=VAL      store le32 VAL at header offset OFF
 *   hdr16:OFF=VAL    store le16 VAL at header offset OFF
 *   img:OFF=VAL      store le32 VAL at image offset OFF of the image as
 *                    readers restore it (FORMAT.md 3.8); the range columns
 *                    are then stored again where and as the input's header
 *                    and sections place them (edits to those must not
 *                    change how the columns compress), the image
 *                    recompressed with its frame checksum and its sizes
 *                    recomputed, so only the validation of the image itself
 *                    can catch it.  OFF may be ARRAY+N, ARRAY one
 *                    of sections, starts, range_objects, objects,
 *                    modlists, strtab (from the image header)
 *   imgbyte:OFF=VAL  the same for one byte
 *   truncate=N       keep only the first N bytes of the blob (descsz too);
 *                    negative N drops -N bytes from the end
 *   fixsize          set the last frame's size (init_paths_size, or
 *                    paths_size if it is 0) to what is left after
 *                    truncation
 *   pad=N            append N zero bytes to the descriptor (padding,
 *                    FORMAT.md 2), after any truncation
 *   tailxor=V        xor the descriptor's last byte with V, after padding
 *   raw              write the bare blob, not a note record
 * Offsets and values are C integers (0x.. accepted).
 */
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_c_useBlockSplitter */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <kms/blob.h>
#include <kms/note.h>
#include <kms/format.h>
#include <kms/util.h>

static void die(const char *msg)
{
	fprintf(stderr, "kms-mutate: %s\n", msg);
	exit(2);
}

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		die("cannot read input");
	buf = malloc(n ? n : 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n)
		die("cannot read input");
	fclose(f);
	*size = n;
	return buf;
}

/*
 * Store the range columns of the edited image @img (FORMAT.md 3.8) by the
 * layout of @orig, the input's restored image of the same size: the
 * columns' bytes go through a copy of @orig, which kms_image_store() reads
 * the layout of, and come back in their stored form.
 */
static void store_as(unsigned char *img, const unsigned char *orig,
		     size_t size)
{
	unsigned int width =
		KMS_OBJECT_WIDTH(kms_get_le32(orig + KMS_IMG_NR_OBJECTS));
	size_t n = kms_get_le32(orig + KMS_IMG_NR_RANGES);
	size_t col[2][2] = {
		{ kms_get_le32(orig + KMS_IMG_STARTS_OFF), 4 * n },
		{ kms_get_le32(orig + KMS_IMG_RANGE_OBJECTS_OFF), width * n },
	};
	unsigned char *tmp = malloc(size);
	int k;

	if (!tmp)
		die("out of memory");
	memcpy(tmp, orig, size);
	for (k = 0; k < 2; k++)
		memcpy(tmp + col[k][0], img + col[k][0], col[k][1]);
	if (kms_image_store(tmp, size))
		die("input's image does not store");
	for (k = 0; k < 2; k++)
		memcpy(img + col[k][0], tmp + col[k][0], col[k][1]);
	free(tmp);
}

static unsigned long image_offset(const unsigned char *img, const char *spec,
				  char **end)
{
	static const struct {
		const char *name;
		unsigned int field;
	} arrays[] = {
		{ "sections", KMS_IMG_SECTIONS_OFF },
		{ "starts", KMS_IMG_STARTS_OFF },
		{ "range_objects", KMS_IMG_RANGE_OBJECTS_OFF },
		{ "objects", KMS_IMG_OBJECTS_OFF },
		{ "modlists", KMS_IMG_MODLISTS_OFF },
		{ "strtab", KMS_IMG_STRTAB_OFF },
	};
	size_t i;

	for (i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		size_t len = strlen(arrays[i].name);

		if (!strncmp(spec, arrays[i].name, len) && spec[len] == '+')
			return kms_get_le32(img + arrays[i].field) +
			       strtoul(spec + len + 1, end, 0);
	}
	return strtoul(spec, end, 0);
}

int main(int argc, char **argv)
{
	unsigned char *file, *blob, *img, *orig, *out;
	size_t file_size, blob_size, img_size, out_size;
	uint32_t payload_size, paths_size, init_size, frames_size;
	const void *desc;
	size_t desc_size, cap;
	struct kms_error *err;
	int i, raw = 0, image_edited = 0, fixsize = 0;
	long truncate_to = 0x7fffffff, pad = 0, tailxor = 0;
	FILE *f;

	if (argc < 3)
		die("usage: kms-mutate IN OUT EDIT...");
	file = slurp(argv[1], &file_size);
	err = kms_note_find(file, file_size, argv[1], &desc, &desc_size);
	if (err || !desc)
		die("input is not a kallmodsyms note");
	/*
	 * The header and the frames; the input's padding (--pad-to) is
	 * dropped.
	 */
	if (desc_size < KMS_HEADER_SIZE)
		die("input has a bad header");
	payload_size = kms_get_le32((const unsigned char *)desc +
				    KMS_HDR_PAYLOAD_SIZE);
	paths_size = kms_get_le32((const unsigned char *)desc +
				  KMS_HDR_PATHS_SIZE);
	init_size = kms_get_le32((const unsigned char *)desc +
				 KMS_HDR_INIT_PATHS_SIZE);
	frames_size = paths_size + init_size;
	if ((uint64_t)payload_size + paths_size + init_size >
	    desc_size - KMS_HEADER_SIZE)
		die("input has a bad header");
	blob_size = KMS_HEADER_SIZE + payload_size + frames_size;
	blob = malloc(blob_size);
	if (!blob)
		die("out of memory");
	memcpy(blob, desc, blob_size);

	img_size = kms_get_le32(blob + KMS_HDR_IMAGE_SIZE);
	img = malloc(img_size);
	if (ZSTD_decompress(img, img_size, blob + KMS_HEADER_SIZE,
			    payload_size) != img_size)
		die("input does not decompress");
	if (kms_image_restore(img, img_size))
		die("input's image does not restore");
	orig = malloc(img_size);
	if (!orig)
		die("out of memory");
	memcpy(orig, img, img_size);

	for (i = 3; i < argc; i++) {
		unsigned long off, val;

		if (!strcmp(argv[i], "raw")) {
			raw = 1;
		} else if (sscanf(argv[i], "truncate=%li", &truncate_to) == 1 ||
			   sscanf(argv[i], "pad=%li", &pad) == 1 ||
			   sscanf(argv[i], "tailxor=%li", &tailxor) == 1) {
			continue;
		} else if (!strcmp(argv[i], "fixsize")) {
			fixsize = 1;
		} else if (!strncmp(argv[i], "img:", 4) ||
			   !strncmp(argv[i], "imgbyte:", 8)) {
			int byte = argv[i][3] == 'b';
			char *end;

			off = image_offset(img, strchr(argv[i], ':') + 1, &end);
			if (*end != '=')
				die("bad image edit");
			val = strtoul(end + 1, NULL, 0);
			if (off + (byte ? 1 : 4) > img_size)
				die("image offset out of range");
			if (byte)
				img[off] = val;
			else
				kms_put_le32(img + off, val);
			image_edited = 1;
		} else if (sscanf(argv[i], "hdr16:%li=%li", (long *)&off,
				  (long *)&val) == 2) {
			if (off + 2 > KMS_HEADER_SIZE)
				die("header offset out of range");
			blob[off] = val;
			blob[off + 1] = val >> 8;
		} else if (sscanf(argv[i], "hdr:%li=%li", (long *)&off,
				  (long *)&val) == 2) {
			if (off + 4 > KMS_HEADER_SIZE)
				die("header offset out of range");
			kms_put_le32(blob + off, val);
		} else {
			die("unknown edit");
		}
	}

	if (image_edited) {
		ZSTD_CCtx *cctx = ZSTD_createCCtx();
		unsigned char *nb;
		size_t csize;

		store_as(img, orig, img_size);
		cap = ZSTD_compressBound(img_size);
		nb = malloc(KMS_HEADER_SIZE + cap + frames_size);
		if (!cctx || !nb)
			die("out of memory");
		memcpy(nb, blob, KMS_HEADER_SIZE);
		ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel,
				       KMS_ZSTD_LEVEL);
		ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
#ifdef ZSTD_c_useBlockSplitter
		/* As the writer compresses: an edited note fits its room. */
		ZSTD_CCtx_setParameter(cctx, ZSTD_c_useBlockSplitter,
				       ZSTD_ps_enable);
#endif
		csize = ZSTD_compress2(cctx, nb + KMS_HEADER_SIZE, cap, img,
				       img_size);
		ZSTD_freeCCtx(cctx);
		if (ZSTD_isError(csize))
			die("cannot compress");
		kms_put_le32(nb + KMS_HDR_PAYLOAD_SIZE, csize);
		/* The paths frames as they were, after the new image frame. */
		memcpy(nb + KMS_HEADER_SIZE + csize,
		       blob + KMS_HEADER_SIZE + payload_size, frames_size);
		free(blob);
		blob = nb;
		payload_size = csize;
		blob_size = KMS_HEADER_SIZE + csize + frames_size;
	}
	if (truncate_to < 0 && (size_t)-truncate_to < blob_size)
		blob_size -= -truncate_to;
	else if (truncate_to >= 0 && (size_t)truncate_to < blob_size)
		blob_size = truncate_to;
	if (fixsize && init_size &&
	    blob_size >= KMS_HEADER_SIZE + payload_size + paths_size)
		kms_put_le32(blob + KMS_HDR_INIT_PATHS_SIZE, blob_size -
			     KMS_HEADER_SIZE - payload_size - paths_size);
	else if (fixsize && blob_size >= KMS_HEADER_SIZE + payload_size)
		kms_put_le32(blob + KMS_HDR_PATHS_SIZE,
			     blob_size - KMS_HEADER_SIZE - payload_size);

	if (pad > 0) {
		blob = realloc(blob, blob_size + pad);
		if (!blob)
			die("out of memory");
		memset(blob + blob_size, 0, pad);
		blob_size += pad;
	}
	if (tailxor && blob_size)
		blob[blob_size - 1] ^= tailxor;

	if (raw) {
		out = blob;
		out_size = blob_size;
	} else {
		void *note;

		if (kms_note_wrap(blob, blob_size, 0, &note, &out_size))
			die("cannot wrap");
		out = note;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, out_size, f) != out_size || fclose(f))
		die("cannot write output");
	if (out != blob)
		free(out);
	free(blob);
	free(img);
	free(orig);
	free(file);
	return 0;
}
