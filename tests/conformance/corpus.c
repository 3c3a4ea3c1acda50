// SPDX-License-Identifier: GPL-2.0
/*
 * kms-mkcorpus's writer (corpus.h): images from table specs, their
 * stored form, zstd frames, blobs, note records, the case files and the
 * verdict lines.  Paths images and their stored form are paths.c's.  The cases themselves are in the other files.
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include <kms/blob.h>
#include <kms/note.h>
#include <kms/format.h>
#include <kms/util.h>

#include "corpus.h"

static const char *outdir;
static FILE *verdicts;
static char *verdicts_path;

void corpus_open(const char *dir)
{
	char *path;

	outdir = dir;
	if (asprintf(&path, "%s/corpus", outdir) < 0)
		die("out of memory");
	if (mkdir(path, 0755) && errno != EEXIST)
		die("%s: %s", path, strerror(errno));
	free(path);
	if (asprintf(&verdicts_path, "%s/verdicts", outdir) < 0)
		die("out of memory");
	verdicts = fopen(verdicts_path, "w");
	if (!verdicts)
		die("%s: %s", verdicts_path, strerror(errno));
	fputs("# Written by kms-mkcorpus (tests/conformance/mkcorpus.c): the verdict\n"
	      "# every reader reaches on each corpus/NAME.kms, and after an accept\n"
	      "# its annotation lines (FORMAT.md section 7).\n",
	      verdicts);
}

void corpus_close(void)
{
	if (fclose(verdicts))
		die("%s: %s", verdicts_path, strerror(errno));
	free(verdicts_path);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("kms-mkcorpus: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

void check(struct kms_error *err)
{
	if (err)
		die("%s", err->message);
}

void buf_append(struct buf *b, const void *data, size_t len)
{
	check(KMS_RESERVE(b->p, b->cap, b->len + len + 1));
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
}

void buf_append_le32(struct buf *b, uint32_t v)
{
	unsigned char w[4];

	kms_put_le32(w, v);
	buf_append(b, w, 4);
}

void buf_pad4(struct buf *b)
{
	static const unsigned char zero[4];

	buf_append(b, zero, (4 - b->len % 4) % 4);
}

void buf_put_le32(struct buf *b, size_t off, uint32_t v)
{
	if (off + 4 > b->len)
		die("internal error: patch at %zu past %zu bytes", off, b->len);
	kms_put_le32(b->p + off, v);
}

struct buf buf_copy(const struct buf *b)
{
	struct buf c = { 0 };

	buf_append(&c, b->p, b->len);
	return c;
}

void buf_release(struct buf *b)
{
	free(b->p);
	*b = (struct buf){ 0 };
}

static const unsigned int offset_field[NR_ARRAYS] = {
	KMS_IMG_SECTIONS_OFF, KMS_IMG_STARTS_OFF, KMS_IMG_RANGE_OBJECTS_OFF,
	KMS_IMG_OBJECTS_OFF, KMS_IMG_MODLISTS_OFF, KMS_IMG_STRTAB_OFF
};

static void append_range_objects(struct buf *img, const struct spec *s,
				 unsigned int width)
{
	unsigned char w[2];
	uint32_t i;

	for (i = 0; i < s->nr_ranges; i++) {
		uint32_t obj = s->ranges[2 * i + 1];

		if (width == 4) {
			buf_append_le32(img, obj);
			continue;
		}
		w[0] = obj;
		w[1] = obj >> 8;
		buf_append(img, w, 2);
	}
}

static void append_array(struct buf *img, const struct spec *s, int which,
			 unsigned int width)
{
	uint32_t i;

	switch (which) {
	case SECTIONS:
		for (i = 0; i < 3 * s->nr_sections; i++)
			buf_append_le32(img, s->sections[i]);
		break;
	case STARTS:
		for (i = 0; i < s->nr_ranges; i++)
			buf_append_le32(img, s->ranges[2 * i]);
		break;
	case RANGE_OBJECTS:
		append_range_objects(img, s, width);
		break;
	case OBJECTS:
		for (i = 0; i < 2 * s->nr_objects; i++)
			buf_append_le32(img, s->objects[i]);
		break;
	case MODLISTS:
		for (i = 0; i < s->nr_words; i++)
			buf_append_le32(img, s->words[i]);
		break;
	case STRTAB:
		buf_append(img, s->strtab, s->strtab_size);
		break;
	}
}

/*
 * The image of @s, arrays in the order @order (the writer's: sections,
 * starts, range objects, objects, module lists, strings), @gap zero bytes
 * between them.
 */
struct buf build_image(const struct spec *s,
		       const int order[NR_ARRAYS], unsigned int gap,
		       struct layout *l)
{
	static const int writer_order[NR_ARRAYS] = {
		SECTIONS, STARTS, RANGE_OBJECTS, OBJECTS, MODLISTS, STRTAB
	};
	struct buf img = { 0 };
	unsigned char hdr[KMS_IMAGE_HEADER_SIZE] = { 0 };
	uint32_t i;
	int k;

	if (!order)
		order = writer_order;
	l->width = s->nr_objects <= KMS_NARROW_OBJECTS_MAX ? 2 : 4;
	buf_append(&img, hdr, sizeof(hdr));
	for (k = 0; k < NR_ARRAYS; k++) {
		for (i = 0; i < gap; i++)
			buf_append(&img, "", 1);
		l->off[order[k]] = img.len;
		append_array(&img, s, order[k], l->width);
		buf_pad4(&img);
	}
	buf_put_le32(&img, KMS_IMG_NR_SECTIONS, s->nr_sections);
	buf_put_le32(&img, KMS_IMG_NR_RANGES, s->nr_ranges);
	buf_put_le32(&img, KMS_IMG_NR_OBJECTS, s->nr_objects);
	buf_put_le32(&img, KMS_IMG_NR_MODLIST, s->nr_words);
	buf_put_le32(&img, KMS_IMG_STRTAB_SIZE, s->strtab_size);
	buf_put_le32(&img, KMS_IMG_NR_MODULES, s->nr_modules);
	for (k = 0; k < NR_ARRAYS; k++)
		buf_put_le32(&img, offset_field[k], l->off[k]);
	return img;
}

struct buf sample_image(struct layout *l)
{
	return build_image(&sample, NULL, 0, l);
}

/* Set stored value @i of a column of @n values of @width bytes in planes. */
void plane_put(unsigned char *col, uint32_t n, unsigned int width,
	       uint32_t i, uint32_t v)
{
	unsigned int p;

	for (p = 0; p < width; p++)
		col[(size_t)p * n + i] = v >> (8 * p);
}

void to_planes(unsigned char *col, uint32_t n, unsigned int width)
{
	unsigned char *t = malloc((size_t)n * width + 1);
	uint32_t i;

	if (!t)
		die("out of memory");
	for (i = 0; i < n; i++) {
		uint32_t v = width == 4 ? kms_get_le32(col + 4 * (size_t)i) :
			(uint32_t)col[2 * (size_t)i] |
			(uint32_t)col[2 * (size_t)i + 1] << 8;

		plane_put(t, n, width, i, v);
	}
	memcpy(col, t, (size_t)n * width);
	free(t);
}

/*
 * The stored form of an image (FORMAT.md 3.8), written here apart from
 * the library's encoder: each section's starts as differences from the
 * one before, both range columns in byte planes.  An image whose arrays
 * or sections readers refuse before they restore is stored as it is.
 */
struct buf stored_form(const void *data, size_t size)
{
	const unsigned char *h = data;
	struct buf b = { 0 };
	uint32_t nr_sections, nr, first = 0, k, i;
	uint64_t sec_off, starts_off, robj_off, sum = 0;
	unsigned int width;

	buf_append(&b, data, size);
	if (size < KMS_IMAGE_HEADER_SIZE)
		return b;
	nr_sections = kms_get_le32(h + KMS_IMG_NR_SECTIONS);
	nr = kms_get_le32(h + KMS_IMG_NR_RANGES);
	sec_off = kms_get_le32(h + KMS_IMG_SECTIONS_OFF);
	starts_off = kms_get_le32(h + KMS_IMG_STARTS_OFF);
	robj_off = kms_get_le32(h + KMS_IMG_RANGE_OBJECTS_OFF);
	width = kms_get_le32(h + KMS_IMG_NR_OBJECTS) <= KMS_NARROW_OBJECTS_MAX ?
		2 : 4;
	if (sec_off + 12 * (uint64_t)nr_sections > size ||
	    starts_off + 4 * (uint64_t)nr > size ||
	    robj_off + width * (uint64_t)nr > size)
		return b;
	for (k = 0; k < nr_sections; k++)
		sum += kms_get_le32(h + sec_off + 12 * k + 4);
	if (sum != nr)
		return b;
	for (k = 0; k < nr_sections; k++) {
		uint32_t n = kms_get_le32(h + sec_off + 12 * k + 4);

		for (i = first + n - 1; i > first; i--)
			buf_put_le32(&b, starts_off + 4 * i,
				 kms_get_le32(h + starts_off + 4 * i) -
				 kms_get_le32(h + starts_off + 4 * (i - 1)));
		first += n;
	}
	to_planes(b.p + starts_off, nr, 4);
	to_planes(b.p + robj_off, nr, width);
	return b;
}

struct buf zstd_frame(const void *image, size_t size, int level,
		      int opts)
{
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	struct buf f = { 0 }, stored = { 0 };
	const void *data = image;
	size_t n;

	if (!cctx)
		die("out of memory");
	if (!(opts & AS_IS)) {
		stored = opts & PATHS ? paths_stored_form(image, size) :
			stored_form(image, size);
		data = stored.p ? stored.p : image;
	}
	check(KMS_RESERVE(f.p, f.cap, ZSTD_compressBound(size)));
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag,
			       !(opts & NO_CHECKSUM));
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag,
			       !(opts & NO_CONTENT_SIZE));
	if (opts & NO_CONTENT_SIZE) {
		/* Streamed: the size is not known when the header is written. */
		ZSTD_inBuffer in = { data, size, 0 };
		ZSTD_outBuffer out = { f.p, f.cap, 0 };

		do
			n = ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_end);
		while (n && !ZSTD_isError(n));
		f.len = out.pos;
	} else {
		n = ZSTD_compress2(cctx, f.p, f.cap, data, size);
		f.len = n;
	}
	if (ZSTD_isError(n))
		die("zstd: %s", ZSTD_getErrorName(n));
	ZSTD_freeCCtx(cctx);
	buf_release(&stored);
	return f;
}

struct buf blob_with_paths(const struct buf *img, const struct buf *payload,
			   const struct buf *paths, size_t paths_image_size,
			   const struct buf *init, uint32_t flags)
{
	unsigned char hdr[KMS_HEADER_SIZE] = { 0 };
	struct buf b = { 0 };

	memcpy(hdr + KMS_HDR_MAGIC, KMS_MAGIC, 4);
	hdr[KMS_HDR_VERSION] = KMS_VERSION;
	hdr[KMS_HDR_HEADER_SIZE] = KMS_HEADER_SIZE;
	kms_put_le32(hdr + KMS_HDR_FLAGS, flags);
	kms_put_le32(hdr + KMS_HDR_PAYLOAD_SIZE, payload->len);
	kms_put_le32(hdr + KMS_HDR_IMAGE_SIZE, img->len);
	kms_put_le32(hdr + KMS_HDR_PATHS_SIZE, paths->len);
	kms_put_le32(hdr + KMS_HDR_PATHS_IMAGE_SIZE, paths_image_size);
	kms_put_le32(hdr + KMS_HDR_INIT_PATHS_SIZE, init->len);
	buf_append(&b, hdr, sizeof(hdr));
	buf_append(&b, payload->p, payload->len);
	buf_append(&b, paths->p, paths->len);
	buf_append(&b, init->p, init->len);
	return b;
}

struct buf blob_of(const struct buf *img, const struct buf *payload,
		   uint32_t flags)
{
	size_t size, init_size;
	struct buf paths = paths_frame(sample_paths.text, &size);
	struct buf init = paths_frame(sample_paths.init, &init_size);
	struct buf b = blob_with_paths(img, payload, &paths, size, &init,
				       flags);

	buf_release(&init);
	buf_release(&paths);
	return b;
}

/* The writer's blob of @img: one frame, level 19, checksum, size. */
struct buf zstd_blob(const struct buf *img)
{
	struct buf frame = zstd_frame(img->p, img->len, KMS_ZSTD_LEVEL, 0);
	struct buf b = blob_of(img, &frame, KMS_FLAG_ZSTD);

	buf_release(&frame);
	return b;
}

/* The payload (the image's zstd frame) of a blob from zstd_blob(). */
struct buf payload_of(const struct buf *blob)
{
	struct buf p = { 0 };

	buf_append(&p, blob->p + KMS_HEADER_SIZE,
		   kms_get_le32(blob->p + KMS_HDR_PAYLOAD_SIZE));
	return p;
}

void write_case(const char *name, const struct buf *b)
{
	char *path;
	FILE *f;

	if (asprintf(&path, "%s/corpus/%s.kms", outdir, name) < 0)
		die("out of memory");
	f = fopen(path, "wb");
	if (!f || (b->len && fwrite(b->p, 1, b->len, f) != b->len) || fclose(f))
		die("%s: %s", path, strerror(errno));
	free(path);
}

/* Note records (FORMAT.md 1.1) of other owners, as in a kernel's .notes. */
void append_note(struct buf *b, const char *name, uint32_t namesz,
		 uint32_t type, const void *desc, uint32_t descsz)
{
	buf_append_le32(b, namesz);
	buf_append_le32(b, descsz);
	buf_append_le32(b, type);
	buf_append(b, name, namesz);
	buf_pad4(b);
	buf_append(b, desc, descsz);
	buf_pad4(b);
}

void append_kms_note(struct buf *b, const struct buf *blob)
{
	void *note;
	size_t size;

	/* An empty descriptor has no bytes, but memcpy() wants a pointer. */
	check(kms_note_wrap(blob->p ? blob->p : (unsigned char *)"", blob->len, 0,
			    &note, &size));
	buf_append(b, note, size);
	free(note);
}

/* The verdict's fields of paths image @p (0 for none): " NAMEpieces=..." */
static void verdict_paths(const char *name, const struct paths_spec *p)
{
	struct buf b = { 0 };

	if (p)
		b = build_paths(p);
	fprintf(verdicts, " %spieces=%u %spaths=%u %spaths-image=%zu", name,
		p ? p->nr_pieces : 0, name, p ? p->nr_paths : 0, name, b.len);
	buf_release(&b);
}

/*
 * The verdict of an accepted case: what its image header and paths
 * images say, then the @annotations of its spec and the path lines of @p.
 * Readers print the counts of the tables they decoded, and their own
 * annotations and paths.
 */
void verdict_accept_paths(const char *name, const struct buf *img,
			  const char *const *annotations,
			  const struct paths_set *p)
{
	const unsigned char *h = img->p;
	const char *const *line;

	fprintf(verdicts,
		"%s accept sections=%u ranges=%u attributions=%u modules=%u modlist-words=%u strtab=%u image=%zu",
		name, kms_get_le32(h + KMS_IMG_NR_SECTIONS),
		kms_get_le32(h + KMS_IMG_NR_RANGES),
		kms_get_le32(h + KMS_IMG_NR_OBJECTS),
		kms_get_le32(h + KMS_IMG_NR_MODULES),
		kms_get_le32(h + KMS_IMG_NR_MODLIST),
		kms_get_le32(h + KMS_IMG_STRTAB_SIZE), img->len);
	verdict_paths("", p->text);
	verdict_paths("init-", p->init);
	fputc('\n', verdicts);
	while (annotations && *annotations)
		fprintf(verdicts, "%s at %s\n", name, *annotations++);
	for (line = p->lines; line && *line; line++)
		fprintf(verdicts, "%s path %s\n", name, *line);
}

void verdict_accept(const char *name, const struct buf *img,
		    const char *const *annotations)
{
	verdict_accept_paths(name, img, annotations, &sample_paths);
}

void verdict_refuse(const char *name, const char *reason)
{
	fprintf(verdicts, "%s refuse %s\n", name, reason);
}

/* The blob as the only note of the file. */
void emit_blob(const char *name, struct buf blob)
{
	struct buf note = { 0 };

	append_kms_note(&note, &blob);
	write_case(name, &note);
	buf_release(&note);
	buf_release(&blob);
}

/* The same with @payload (a zstd frame, or not) in place of the frame. */
void emit_payload_case(const char *name, const struct buf *img,
		       struct buf payload, const char *reason)
{
	verdict_refuse(name, reason);
	emit_blob(name, blob_of(img, &payload, KMS_FLAG_ZSTD));
	buf_release(&payload);
}

/* An accepted blob of the image of @s (build_image()'s @order, @gap). */
void emit_valid(const char *name, const struct spec *s,
		const int order[NR_ARRAYS], unsigned int gap, int level)
{
	struct layout l;
	struct buf img = build_image(s, order, gap, &l), frame;

	verdict_accept(name, &img, s->annotations);
	frame = zstd_frame(img.p, img.len, level, 0);
	emit_blob(name, blob_of(&img, &frame, KMS_FLAG_ZSTD));
	buf_release(&frame);
	buf_release(&img);
}

/* A blob of the image of @s, refused for @reason. */
void emit_invalid(const char *name, const struct spec *s,
		  const char *reason)
{
	struct layout l;
	struct buf img = build_image(s, NULL, 0, &l);

	verdict_refuse(name, reason);
	emit_blob(name, zstd_blob(&img));
	buf_release(&img);
}
