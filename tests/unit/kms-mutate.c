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

/* The note being mutated: its blob, and its image restored. */
struct mutant {
	unsigned char *blob;		/* header and frames, no padding */
	size_t blob_size;
	uint32_t payload_size, paths_size, init_size;
	unsigned char *img, *orig;	/* the image, edited and as read */
	size_t img_size;
};

/* What the edits after the header and image edits ask for. */
struct finish {
	long truncate_to, pad, tailxor;
	int fixsize, raw;
};

/*
 * Read the note record in @path into @m: the header and the frames (the
 * input's padding, --pad-to's, dropped), and the image restored twice.
 */
static void read_input(const char *path, struct mutant *m)
{
	const unsigned char *desc;
	const void *d;
	size_t file_size, desc_size;
	char *file;

	if (kms_read_file(path, 0, &file, &file_size))
		die("cannot read input");
	if (kms_note_find(file, file_size, path, &d, &desc_size) || !d)
		die("input is not a kallmodsyms note");
	desc = d;
	if (desc_size < KMS_HEADER_SIZE)
		die("input has a bad header");
	m->payload_size = kms_get_le32(desc + KMS_HDR_PAYLOAD_SIZE);
	m->paths_size = kms_get_le32(desc + KMS_HDR_PATHS_SIZE);
	m->init_size = kms_get_le32(desc + KMS_HDR_INIT_PATHS_SIZE);
	if ((uint64_t)m->payload_size + m->paths_size + m->init_size >
	    desc_size - KMS_HEADER_SIZE)
		die("input has a bad header");
	m->blob_size = KMS_HEADER_SIZE + m->payload_size + m->paths_size +
		       m->init_size;
	m->blob = malloc(m->blob_size);
	m->img_size = kms_get_le32(desc + KMS_HDR_IMAGE_SIZE);
	m->img = malloc(m->img_size);
	m->orig = malloc(m->img_size);
	if (!m->blob || !m->img || !m->orig)
		die("out of memory");
	memcpy(m->blob, desc, m->blob_size);
	free(file);
	if (ZSTD_decompress(m->img, m->img_size, m->blob + KMS_HEADER_SIZE,
			    m->payload_size) != m->img_size)
		die("input does not decompress");
	if (kms_image_restore(m->img, m->img_size))
		die("input's image does not restore");
	memcpy(m->orig, m->img, m->img_size);
}

/* img:OFF=VAL or imgbyte:OFF=VAL (@byte) at @spec, the text after "img:". */
static void edit_image(struct mutant *m, const char *spec, int byte)
{
	unsigned long off, val;
	char *end;

	off = image_offset(m->img, spec, &end);
	if (*end != '=')
		die("bad image edit");
	val = strtoul(end + 1, NULL, 0);
	if (off + (byte ? 1 : 4) > m->img_size)
		die("image offset out of range");
	if (byte)
		m->img[off] = val;
	else
		kms_put_le32(m->img + off, val);
}

/* hdr:OFF=VAL or hdr16:OFF=VAL (@width 4 or 2). */
static void edit_header(struct mutant *m, unsigned long off,
			unsigned long val, unsigned int width)
{
	if (off + width > KMS_HEADER_SIZE)
		die("header offset out of range");
	if (width == 2) {
		m->blob[off] = val;
		m->blob[off + 1] = val >> 8;
	} else {
		kms_put_le32(m->blob + off, val);
	}
}

/*
 * Apply @edit to @m, or note it in @fin for later: 1 if it was an image
 * edit (the image is then compressed again).
 */
static int apply_edit(struct mutant *m, struct finish *fin, const char *edit)
{
	long off, val;

	if (!strncmp(edit, "img:", 4) || !strncmp(edit, "imgbyte:", 8)) {
		edit_image(m, strchr(edit, ':') + 1, edit[3] == 'b');
		return 1;
	}
	if (!strcmp(edit, "raw"))
		fin->raw = 1;
	else if (!strcmp(edit, "fixsize"))
		fin->fixsize = 1;
	else if (sscanf(edit, "hdr16:%li=%li", &off, &val) == 2)
		edit_header(m, off, val, 2);
	else if (sscanf(edit, "hdr:%li=%li", &off, &val) == 2)
		edit_header(m, off, val, 4);
	else if (sscanf(edit, "truncate=%li", &fin->truncate_to) != 1 &&
		 sscanf(edit, "pad=%li", &fin->pad) != 1 &&
		 sscanf(edit, "tailxor=%li", &fin->tailxor) != 1)
		die("unknown edit");
	return 0;
}

/*
 * The edited image stored and compressed again as the writer compresses
 * (so an edited note fits its room), in a new blob with the input's
 * header and paths frames.
 */
static void recompress(struct mutant *m)
{
	size_t frames_size = m->paths_size + m->init_size;
	size_t cap = ZSTD_compressBound(m->img_size), csize;
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	unsigned char *nb = malloc(KMS_HEADER_SIZE + cap + frames_size);

	if (!cctx || !nb)
		die("out of memory");
	store_as(m->img, m->orig, m->img_size);
	memcpy(nb, m->blob, KMS_HEADER_SIZE);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, KMS_ZSTD_LEVEL);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
#ifdef ZSTD_c_useBlockSplitter
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_useBlockSplitter, ZSTD_ps_enable);
#endif
	csize = ZSTD_compress2(cctx, nb + KMS_HEADER_SIZE, cap, m->img,
			       m->img_size);
	ZSTD_freeCCtx(cctx);
	if (ZSTD_isError(csize))
		die("cannot compress");
	kms_put_le32(nb + KMS_HDR_PAYLOAD_SIZE, csize);
	memcpy(nb + KMS_HEADER_SIZE + csize,
	       m->blob + KMS_HEADER_SIZE + m->payload_size, frames_size);
	free(m->blob);
	m->blob = nb;
	m->payload_size = csize;
	m->blob_size = KMS_HEADER_SIZE + csize + frames_size;
}

/* truncate=, then fixsize, then pad=, then tailxor=. */
static void finish_blob(struct mutant *m, const struct finish *fin)
{
	size_t before_init = KMS_HEADER_SIZE + m->payload_size + m->paths_size;
	size_t before_paths = KMS_HEADER_SIZE + m->payload_size;

	if (fin->truncate_to < 0 && (size_t)-fin->truncate_to < m->blob_size)
		m->blob_size -= -fin->truncate_to;
	else if (fin->truncate_to >= 0 &&
		 (size_t)fin->truncate_to < m->blob_size)
		m->blob_size = fin->truncate_to;
	if (fin->fixsize && m->init_size && m->blob_size >= before_init)
		kms_put_le32(m->blob + KMS_HDR_INIT_PATHS_SIZE,
			     m->blob_size - before_init);
	else if (fin->fixsize && m->blob_size >= before_paths)
		kms_put_le32(m->blob + KMS_HDR_PATHS_SIZE,
			     m->blob_size - before_paths);
	if (fin->pad > 0) {
		m->blob = realloc(m->blob, m->blob_size + fin->pad);
		if (!m->blob)
			die("out of memory");
		memset(m->blob + m->blob_size, 0, fin->pad);
		m->blob_size += fin->pad;
	}
	if (fin->tailxor && m->blob_size)
		m->blob[m->blob_size - 1] ^= fin->tailxor;
}

/* The blob to @path, bare (@raw) or as a note record. */
static void write_output(const char *path, const struct mutant *m, int raw)
{
	void *note = NULL;
	const void *out = m->blob;
	size_t out_size = m->blob_size;
	FILE *f;

	if (!raw) {
		if (kms_note_wrap(m->blob, m->blob_size, 0, &note, &out_size))
			die("cannot wrap");
		out = note;
	}
	f = fopen(path, "wb");
	if (!f || fwrite(out, 1, out_size, f) != out_size || fclose(f))
		die("cannot write output");
	free(note);
}

int main(int argc, char **argv)
{
	struct finish fin = { .truncate_to = 0x7fffffff };
	struct mutant m;
	int i, image_edited = 0;

	if (argc < 3)
		die("usage: kms-mutate IN OUT EDIT...");
	read_input(argv[1], &m);
	for (i = 3; i < argc; i++)
		image_edited |= apply_edit(&m, &fin, argv[i]);
	if (image_edited)
		recompress(&m);
	finish_blob(&m, &fin);
	write_output(argv[2], &m, fin.raw);
	free(m.blob);
	free(m.img);
	free(m.orig);
	return 0;
}
