// SPDX-License-Identifier: GPL-2.0
/*
 * Write the conformance corpus (FORMAT.md section 7): note files that every
 * reader must judge the same way, and the verdict file that says how.
 *
 *   kms-mkcorpus OUTDIR [REGRESSION.kms...]
 *
 * writes OUTDIR/corpus/NAME.kms and OUTDIR/verdicts.  Each case breaks at
 * most one rule of FORMAT.md, so that its reason class is unambiguous; an
 * accepted case's verdict carries the counts of its image header, then
 * its annotation lines, written out by hand in its spec.  The
 * REGRESSION files (inputs that once split the readers) are copied in as
 * fuzz-NAME.kms, refused as bad-frame.  The same libzstd gives the same
 * bytes: run-conformance.sh regenerates the corpus and compares.
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include <kms/blob.h>
#include <kms/crc32.h>
#include <kms/format.h>
#include <kms/util.h>

/* A growable byte buffer. */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

static const char *outdir;
static FILE *verdicts;

static void die(const char *fmt, ...) KMS_PRINTF(1, 2) __attribute__((noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("kms-mkcorpus: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void check(struct kms_error *err)
{
	if (err)
		die("%s", err->message);
}

static void append(struct buf *b, const void *data, size_t len)
{
	check(KMS_RESERVE(b->p, b->cap, b->len + len + 1));
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
}

static void append_le32(struct buf *b, uint32_t v)
{
	unsigned char w[4];

	kms_put_le32(w, v);
	append(b, w, 4);
}

static void pad4(struct buf *b)
{
	static const unsigned char zero[4];

	append(b, zero, (4 - b->len % 4) % 4);
}

static void put_le32(struct buf *b, size_t off, uint32_t v)
{
	if (off + 4 > b->len)
		die("internal error: patch at %zu past %zu bytes", off, b->len);
	kms_put_le32(b->p + off, v);
}

static struct buf copy(const struct buf *b)
{
	struct buf c = { 0 };

	append(&c, b->p, b->len);
	return c;
}

static void release(struct buf *b)
{
	free(b->p);
	*b = (struct buf){ 0 };
}

/*
 * The tables of the images, in host byte order, and where the arrays go.
 * Every array is placed in the writer's order unless an order is given.
 * Range objects are KMS_NONE for "no object" whatever their width; other
 * values are written as they are, truncated to the width.
 */
struct spec {
	uint32_t nr_sections;
	const uint32_t *sections;	/* class, nr_ranges, end triples */
	uint32_t nr_ranges;
	const uint32_t *ranges;		/* start, object pairs */
	uint32_t nr_objects;
	const uint32_t *objects;	/* modlist, name pairs */
	uint32_t nr_words;
	const uint32_t *words;
	uint32_t strtab_size;
	const char *strtab;
	uint32_t nr_modules;
	/*
	 * The annotation lines every reader prints after accepting the image
	 * (FORMAT.md 7), without "NAME at ", NULL-terminated; NULL: none.
	 */
	const char *const *annotations;
};

/* The image's arrays, and their offset fields in the image header. */
enum { SECTIONS, STARTS, RANGE_OBJECTS, OBJECTS, MODLISTS, STRTAB,
       NR_ARRAYS };
static const unsigned int offset_field[NR_ARRAYS] = {
	KMS_IMG_SECTIONS_OFF, KMS_IMG_STARTS_OFF, KMS_IMG_RANGE_OBJECTS_OFF,
	KMS_IMG_OBJECTS_OFF, KMS_IMG_MODLISTS_OFF, KMS_IMG_STRTAB_OFF
};

/*
 * The strings of the sample tables.  Offsets: ext4 0, jbd2 5,
 * crc32c_generic 10, one/util.o 25, two/util.o 36, fs/inode.o 47.
 */
static const char sample_strtab[] =
	"ext4\0jbd2\0crc32c_generic\0one/util.o\0two/util.o\0fs/inode.o";
#define S_EXT4 0
#define S_JBD2 5
#define S_CRC 10
#define S_ONE 25
#define S_TWO 36
#define S_INODE 47

/* Lists: [ext4] at 0, [ext4] [jbd2] at 2, [crc32c_generic] at 5. */
static const uint32_t sample_words[] = {
	1, S_EXT4, 2, S_EXT4, S_JBD2, 1, S_CRC,
};

/* Every kind of attribution, the last with neither list nor name. */
static const uint32_t sample_objects[] = {
	0, KMS_NONE,		/* [ext4] */
	2, S_ONE,		/* [ext4] [jbd2] {one/util.o} */
	KMS_NONE, S_TWO,	/* {two/util.o} */
	5, KMS_NONE,		/* [crc32c_generic] */
	KMS_NONE, S_INODE,	/* {fs/inode.o} */
	KMS_NONE, KMS_NONE,	/* nothing to print */
};

/*
 * Sections of several classes, in address order per base: a class with
 * two sections and another between them (x86-64's init text, init data,
 * exit text), a section starting where the previous one ends, with the
 * same object on both sides, and per-CPU data whose offsets overlap the
 * text's numbers in its own address space.
 */
static const uint32_t sample_sections[] = {
	KMS_CLASS_TEXT, 5, 0x200,
	KMS_CLASS_INIT_TEXT, 1, 0x900,
	KMS_CLASS_DATA, 2, 0x1100,
	KMS_CLASS_INIT_TEXT, 1, 0x1180,
	KMS_CLASS_BSS, 1, 0x2040,
	KMS_CLASS_PERCPU, 3, 0x100,
};
#define SEC_PERCPU 5

/* Ranges, with gaps (no object) and objects used more than once. */
static const uint32_t sample_ranges[] = {
	0x10, 0, 0x40, KMS_NONE, 0x80, 1, 0x100, 2, 0x180, 0,	/* text */
	0x800, 4,						/* init */
	0x1000, 3, 0x1080, 0,					/* data */
	0x1100, 0,						/* exit */
	0x2000, 5,						/* bss */
	0x0, 2, 0x40, KMS_NONE, 0x80, 1,			/* percpu */
};

/*
 * FORMAT.md 7's probes of the sample, by FORMAT.md 4, _text at 0 and
 * __per_cpu_start at 0x40: the per-CPU section [0x40, 0x140) decides over
 * the text below it, its gap [0x80, 0xc0) included.
 */
static const char *const sample_annotations[] = {
	"0xf -",
	"0x10 t [ext4]",
	"0x3f t [ext4]",
	"0x40 tdA {two/util.o}",
	"0x80 -",
	"0xc0 tdA [ext4] [jbd2] {one/util.o}",
	"0x100 tdA [ext4] [jbd2] {one/util.o}",
	"0x13f tdA [ext4] [jbd2] {one/util.o}",
	"0x140 t {two/util.o}",
	"0x180 t [ext4]",
	"0x1ff t [ext4]",
	"0x200 -",
	"0x7ff -",
	"0x800 t {fs/inode.o}",
	"0x8ff t {fs/inode.o}",
	"0x900 -",
	"0xfff -",
	"0x1000 td [crc32c_generic]",
	"0x1080 td [ext4]",
	"0x10ff td [ext4]",
	"0x1100 t [ext4]",
	"0x117f t [ext4]",
	"0x1180 -",
	"0x1fff -",
	"0x2000 -",		/* an entry with nothing to print */
	"0x203f -",
	"0x2040 -",
	NULL
};

static const struct spec sample = {
	.nr_sections = sizeof(sample_sections) / 12,
	.sections = sample_sections,
	.nr_ranges = sizeof(sample_ranges) / 8,
	.ranges = sample_ranges,
	.nr_objects = sizeof(sample_objects) / 8,
	.objects = sample_objects,
	.nr_words = sizeof(sample_words) / 4,
	.words = sample_words,
	.strtab_size = sizeof(sample_strtab),
	.strtab = sample_strtab,
	.nr_modules = 3,
	.annotations = sample_annotations,
};

/* Where build_image() put the arrays, and the range objects' width. */
struct layout {
	uint32_t off[NR_ARRAYS];
	unsigned int width;
};

static void append_range_objects(struct buf *img, const struct spec *s,
				 unsigned int width)
{
	unsigned char w[2];
	uint32_t i;

	for (i = 0; i < s->nr_ranges; i++) {
		uint32_t obj = s->ranges[2 * i + 1];

		if (width == 4) {
			append_le32(img, obj);
			continue;
		}
		w[0] = obj;
		w[1] = obj >> 8;
		append(img, w, 2);
	}
}

static void append_array(struct buf *img, const struct spec *s, int which,
			 unsigned int width)
{
	uint32_t i;

	switch (which) {
	case SECTIONS:
		for (i = 0; i < 3 * s->nr_sections; i++)
			append_le32(img, s->sections[i]);
		break;
	case STARTS:
		for (i = 0; i < s->nr_ranges; i++)
			append_le32(img, s->ranges[2 * i]);
		break;
	case RANGE_OBJECTS:
		append_range_objects(img, s, width);
		break;
	case OBJECTS:
		for (i = 0; i < 2 * s->nr_objects; i++)
			append_le32(img, s->objects[i]);
		break;
	case MODLISTS:
		for (i = 0; i < s->nr_words; i++)
			append_le32(img, s->words[i]);
		break;
	case STRTAB:
		append(img, s->strtab, s->strtab_size);
		break;
	}
}

/*
 * The image of @s, arrays in the order @order (the writer's: sections,
 * starts, range objects, objects, module lists, strings), @gap zero bytes
 * between them.
 */
static struct buf build_image(const struct spec *s,
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
	append(&img, hdr, sizeof(hdr));
	for (k = 0; k < NR_ARRAYS; k++) {
		for (i = 0; i < gap; i++)
			append(&img, "", 1);
		l->off[order[k]] = img.len;
		append_array(&img, s, order[k], l->width);
		pad4(&img);
	}
	put_le32(&img, KMS_IMG_NR_SECTIONS, s->nr_sections);
	put_le32(&img, KMS_IMG_NR_RANGES, s->nr_ranges);
	put_le32(&img, KMS_IMG_NR_OBJECTS, s->nr_objects);
	put_le32(&img, KMS_IMG_NR_MODLIST, s->nr_words);
	put_le32(&img, KMS_IMG_STRTAB_SIZE, s->strtab_size);
	put_le32(&img, KMS_IMG_NR_MODULES, s->nr_modules);
	for (k = 0; k < NR_ARRAYS; k++)
		put_le32(&img, offset_field[k], l->off[k]);
	return img;
}

static struct buf sample_image(struct layout *l)
{
	return build_image(&sample, NULL, 0, l);
}

/* Set stored value @i of a column of @n values of @width bytes in planes. */
static void plane_put(unsigned char *col, uint32_t n, unsigned int width,
		      uint32_t i, uint32_t v)
{
	unsigned int p;

	for (p = 0; p < width; p++)
		col[(size_t)p * n + i] = v >> (8 * p);
}

/* Transpose @n values of @width bytes at @col into @width planes. */
static void to_planes(unsigned char *col, uint32_t n, unsigned int width)
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
static struct buf stored_form(const void *data, size_t size)
{
	const unsigned char *h = data;
	struct buf b = { 0 };
	uint32_t nr_sections, nr, first = 0, k, i;
	uint64_t sec_off, starts_off, robj_off, sum = 0;
	unsigned int width;

	append(&b, data, size);
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
			put_le32(&b, starts_off + 4 * i,
				 kms_get_le32(h + starts_off + 4 * i) -
				 kms_get_le32(h + starts_off + 4 * (i - 1)));
		first += n;
	}
	to_planes(b.p + starts_off, nr, 4);
	to_planes(b.p + robj_off, nr, width);
	return b;
}

/*
 * One zstd frame of the stored form of @data (content size and checksum
 * as the writer), or of @data itself with AS_IS.
 */
enum { NO_CHECKSUM = 1, NO_CONTENT_SIZE = 2, AS_IS = 4 };

static struct buf zstd_frame(const void *image, size_t size, int level,
			     int opts)
{
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	struct buf f = { 0 }, stored = { 0 };
	const void *data = image;
	size_t n;

	if (!cctx)
		die("out of memory");
	if (!(opts & AS_IS)) {
		stored = stored_form(image, size);
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
	release(&stored);
	return f;
}

/* A blob (FORMAT.md 2) of @img whose payload is @payload. */
static struct buf blob_of(const struct buf *img, const struct buf *payload,
			  uint32_t flags)
{
	unsigned char hdr[KMS_HEADER_SIZE] = { 0 };
	struct buf b = { 0 };

	memcpy(hdr + KMS_HDR_MAGIC, KMS_MAGIC, 4);
	hdr[KMS_HDR_VERSION] = KMS_VERSION;
	hdr[KMS_HDR_HEADER_SIZE] = KMS_HEADER_SIZE;
	kms_put_le32(hdr + KMS_HDR_FLAGS, flags);
	kms_put_le32(hdr + KMS_HDR_PAYLOAD_SIZE, payload->len);
	kms_put_le32(hdr + KMS_HDR_IMAGE_SIZE, img->len);
	append(&b, hdr, sizeof(hdr));
	append(&b, payload->p, payload->len);
	return b;
}

/* The writer's blob of @img: one frame, level 19, checksum, size. */
static struct buf zstd_blob(const struct buf *img)
{
	struct buf frame = zstd_frame(img->p, img->len, KMS_ZSTD_LEVEL, 0);
	struct buf b = blob_of(img, &frame, KMS_FLAG_ZSTD);

	release(&frame);
	return b;
}

/* The payload (the zstd frame) of a blob from zstd_blob(). */
static struct buf payload_of(const struct buf *blob)
{
	struct buf p = { 0 };

	append(&p, blob->p + KMS_HEADER_SIZE, blob->len - KMS_HEADER_SIZE);
	return p;
}

static void write_file(const char *name, const struct buf *b)
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
static void append_note(struct buf *b, const char *name, uint32_t namesz,
			uint32_t type, const void *desc, uint32_t descsz)
{
	append_le32(b, namesz);
	append_le32(b, descsz);
	append_le32(b, type);
	append(b, name, namesz);
	pad4(b);
	append(b, desc, descsz);
	pad4(b);
}

static void append_kms_note(struct buf *b, const struct buf *blob)
{
	void *note;
	size_t size;

	/* An empty descriptor has no bytes, but memcpy() wants a pointer. */
	check(kms_note_wrap(blob->p ? blob->p : (unsigned char *)"", blob->len, 0,
			    &note, &size));
	append(b, note, size);
	free(note);
}

/*
 * The verdict of an accepted case: what its image header says, then the
 * @annotations of its spec.  Readers print the counts of the tables they
 * decoded, and their own annotations.
 */
static void accept(const char *name, const struct buf *img,
		   const char *const *annotations)
{
	const unsigned char *h = img->p;

	fprintf(verdicts,
		"%s accept sections=%u ranges=%u attributions=%u modules=%u modlist-words=%u strtab=%u image=%zu\n",
		name, kms_get_le32(h + KMS_IMG_NR_SECTIONS),
		kms_get_le32(h + KMS_IMG_NR_RANGES),
		kms_get_le32(h + KMS_IMG_NR_OBJECTS),
		kms_get_le32(h + KMS_IMG_NR_MODULES),
		kms_get_le32(h + KMS_IMG_NR_MODLIST),
		kms_get_le32(h + KMS_IMG_STRTAB_SIZE), img->len);
	while (annotations && *annotations)
		fprintf(verdicts, "%s at %s\n", name, *annotations++);
}

static void refuse(const char *name, const char *reason)
{
	fprintf(verdicts, "%s refuse %s\n", name, reason);
}

/* The blob as the only note of the file. */
static void emit_blob(const char *name, struct buf blob)
{
	struct buf note = { 0 };

	append_kms_note(&note, &blob);
	write_file(name, &note);
	release(&note);
	release(&blob);
}

/* A blob of the sample image with @img_fix applied to the image. */
typedef void img_fix_fn(struct buf *img, const struct layout *l);

static void emit_image_case(const char *name, img_fix_fn *fix,
			    const char *reason)
{
	struct layout l;
	struct buf img = sample_image(&l);

	fix(&img, &l);
	if (reason)
		refuse(name, reason);
	else
		accept(name, &img, sample.annotations);
	emit_blob(name, zstd_blob(&img));
	release(&img);
}

/* The same with a header field of the blob set to @value. */
static void emit_header_case(const char *name, unsigned int field,
			     uint32_t value, int width, const char *reason)
{
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf blob = zstd_blob(&img);

	if (width == 2) {
		blob.p[field] = value;
		blob.p[field + 1] = value >> 8;
	} else {
		put_le32(&blob, field, value);
	}
	refuse(name, reason);
	emit_blob(name, blob);
	release(&img);
}

/* The same with @payload (a zstd frame, or not) in place of the frame. */
static void emit_payload_case(const char *name, const struct buf *img,
			      struct buf payload, const char *reason)
{
	refuse(name, reason);
	emit_blob(name, blob_of(img, &payload, KMS_FLAG_ZSTD));
	release(&payload);
}

/* Image cases: each breaks one rule of FORMAT.md 3. */
#define IMAGE_CASE(fn, field_or_expr)					\
	static void fn(struct buf *img, const struct layout *l)	\
	{								\
		(void)l;						\
		field_or_expr;						\
	}

IMAGE_CASE(fix_none, (void)img)
IMAGE_CASE(fix_starts_unaligned,
	   put_le32(img, KMS_IMG_STARTS_OFF, l->off[STARTS] + 2))
IMAGE_CASE(fix_starts_in_header, put_le32(img, KMS_IMG_STARTS_OFF, 40))
IMAGE_CASE(fix_range_objects_unaligned,
	   put_le32(img, KMS_IMG_RANGE_OBJECTS_OFF, l->off[RANGE_OBJECTS] + 2))
IMAGE_CASE(fix_sections_past_end,
	   put_le32(img, KMS_IMG_SECTIONS_OFF, img->len - 4))
IMAGE_CASE(fix_strtab_past_end,
	   put_le32(img, KMS_IMG_STRTAB_OFF, l->off[STRTAB] + 4))
IMAGE_CASE(fix_objects_offset_past_end,
	   put_le32(img, KMS_IMG_OBJECTS_OFF, 0xfffffff0u))
/* The sections agree with the count, the arrays cannot hold it. */
IMAGE_CASE(fix_nr_ranges_max,
	   (put_le32(img, KMS_IMG_NR_RANGES, KMS_NONE),
	    put_le32(img, l->off[SECTIONS] + 12 * SEC_PERCPU + 4,
		     KMS_NONE - (sample.nr_ranges - 3))))
IMAGE_CASE(fix_nr_sections_max,
	   put_le32(img, KMS_IMG_NR_SECTIONS, KMS_NONE))
IMAGE_CASE(fix_nr_words_max, put_le32(img, KMS_IMG_NR_MODLIST, KMS_NONE))
IMAGE_CASE(fix_overlap_starts_objects,
	   put_le32(img, KMS_IMG_OBJECTS_OFF, l->off[STARTS] + 8))
IMAGE_CASE(fix_overlap_range_objects,
	   put_le32(img, KMS_IMG_RANGE_OBJECTS_OFF, l->off[STARTS] + 4))
IMAGE_CASE(fix_overlap_strtab,
	   put_le32(img, KMS_IMG_STRTAB_OFF, l->off[MODLISTS] + 4))
IMAGE_CASE(fix_strtab_unterminated,
	   img->p[l->off[STRTAB] + sample.strtab_size - 1] = 'x')
IMAGE_CASE(fix_strtab_tab, img->p[l->off[STRTAB] + S_INODE + 2] = '\t')
IMAGE_CASE(fix_strtab_space, img->p[l->off[STRTAB] + S_INODE + 2] = ' ')
IMAGE_CASE(fix_strtab_del, img->p[l->off[STRTAB] + S_INODE + 2] = 0x7f)
IMAGE_CASE(fix_strtab_high, img->p[l->off[STRTAB] + S_INODE + 2] = 0xe9)
IMAGE_CASE(fix_strtab_size_zero,
	   put_le32(img, KMS_IMG_STRTAB_SIZE, 0))
IMAGE_CASE(fix_modlist_empty, put_le32(img, l->off[MODLISTS] + 4 * 5, 0))
IMAGE_CASE(fix_modlist_overrun, put_le32(img, l->off[MODLISTS] + 4 * 5, 2))
IMAGE_CASE(fix_modlist_unsorted,
	   (put_le32(img, l->off[MODLISTS] + 4 * 3, S_JBD2),
	    put_le32(img, l->off[MODLISTS] + 4 * 4, S_EXT4)))
IMAGE_CASE(fix_modlist_duplicate,
	   put_le32(img, l->off[MODLISTS] + 4 * 4, S_EXT4))
IMAGE_CASE(fix_modlist_mid_string,
	   put_le32(img, l->off[MODLISTS] + 4 * 6, S_CRC + 1))
IMAGE_CASE(fix_modlist_at_nul,
	   put_le32(img, l->off[MODLISTS] + 4 * 6, S_CRC - 1))
IMAGE_CASE(fix_modlist_past_strtab,
	   put_le32(img, l->off[MODLISTS] + 4 * 6, sample.strtab_size))
IMAGE_CASE(fix_object_mid_list, put_le32(img, l->off[OBJECTS] + 8, 3))
IMAGE_CASE(fix_object_list_past, put_le32(img, l->off[OBJECTS] + 8,
					   sample.nr_words))
IMAGE_CASE(fix_object_name_mid_string,
	   put_le32(img, l->off[OBJECTS] + 8 * 2 + 4, S_TWO + 4))
IMAGE_CASE(fix_object_name_past,
	   put_le32(img, l->off[OBJECTS] + 8 * 2 + 4, 0x7fffffff))

/* Section cases: section k's fields at off[SECTIONS] + 12 * k. */
#define SEC_FIELD(k, f) (l->off[SECTIONS] + 12 * (k) + 4 * (f))
IMAGE_CASE(fix_class_unknown, put_le32(img, SEC_FIELD(1, 0), KMS_NR_CLASSES))
IMAGE_CASE(fix_class_unknown_max, put_le32(img, SEC_FIELD(4, 0), KMS_NONE))
/* Init text's one range given to the data section after it. */
IMAGE_CASE(fix_section_empty,
	   (put_le32(img, SEC_FIELD(1, 1), 0),
	    put_le32(img, SEC_FIELD(2, 1), 3)))
IMAGE_CASE(fix_section_counts_short, put_le32(img, SEC_FIELD(SEC_PERCPU, 1), 2))
IMAGE_CASE(fix_section_counts_long, put_le32(img, SEC_FIELD(SEC_PERCPU, 1), 4))
/* The exit text starts inside the data section before it. */
IMAGE_CASE(fix_section_overlap,
	   put_le32(img, l->off[STARTS] + 4 * 8, 0x10f0))
/* The first init text section starts inside the text. */
IMAGE_CASE(fix_section_before_previous,
	   put_le32(img, l->off[STARTS] + 4 * 5, 0x100))
/* The bss made per-CPU: per-CPU offsets 0x2000.. then 0x0.. */
IMAGE_CASE(fix_section_percpu_order,
	   put_le32(img, SEC_FIELD(4, 0), KMS_CLASS_PERCPU))
/* Per-CPU data made text: text offsets go back to 0. */
IMAGE_CASE(fix_section_base_other,
	   put_le32(img, SEC_FIELD(SEC_PERCPU, 0), KMS_CLASS_DATA))

/* Range cases: starts at off[STARTS], 2-byte objects at off[RANGE_OBJECTS]. */
static void set_object16(struct buf *img, const struct layout *l,
			 uint32_t i, uint32_t obj)
{
	img->p[l->off[RANGE_OBJECTS] + 2 * i] = obj;
	img->p[l->off[RANGE_OBJECTS] + 2 * i + 1] = obj >> 8;
}

IMAGE_CASE(fix_range_unsorted, put_le32(img, l->off[STARTS] + 4 * 3, 0x70))
IMAGE_CASE(fix_range_same_start, put_le32(img, l->off[STARTS] + 4 * 3, 0x80))
IMAGE_CASE(fix_range_at_section_end, put_le32(img, SEC_FIELD(0, 2), 0x180))
IMAGE_CASE(fix_range_past_section_end,
	   put_le32(img, l->off[STARTS] + 4 * 12, 0x100))
IMAGE_CASE(fix_range_object_past, set_object16(img, l, 2, sample.nr_objects))
IMAGE_CASE(fix_range_object_almost_none, set_object16(img, l, 0, 0xfffe))
IMAGE_CASE(fix_range_unmerged, set_object16(img, l, 2, 2))
IMAGE_CASE(fix_range_unmerged_gap, set_object16(img, l, 2, KMS_NONE16))
IMAGE_CASE(fix_range_unmerged_percpu, set_object16(img, l, 12, KMS_NONE16))

/* A skippable frame (magic 0x184d2a50..5f) of @n zero bytes. */
static void append_skippable(struct buf *b, uint32_t n)
{
	uint32_t i;

	append_le32(b, 0x184d2a50);
	append_le32(b, n);
	for (i = 0; i < n; i++)
		append(b, "", 1);
}

static void zstd_cases(void)
{
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf blob = zstd_blob(&img), frame = payload_of(&blob), p, q;
	unsigned int fhd, fcs_size, fcs_pos, i;
	uint32_t fcs;

	/* Not a frame at all: the image itself. */
	emit_payload_case("zstd-not-a-frame", &img, copy(&img), "bad-frame");

	p = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, NO_CONTENT_SIZE);
	emit_payload_case("zstd-no-content-size", &img, p, "bad-frame");

	/* A frame of a longer image: it declares another size. */
	q = copy(&img);
	append_le32(&q, 0);
	p = zstd_frame(q.p, q.len, KMS_ZSTD_LEVEL, 0);
	emit_payload_case("zstd-content-size-other", &img, p, "bad-frame");
	release(&q);

	p = copy(&frame);
	p.len -= 5;
	emit_payload_case("zstd-truncated", &img, p, "bad-frame");

	p = copy(&frame);
	p.len = 3;
	emit_payload_case("zstd-truncated-magic", &img, p, "bad-frame");

	p = copy(&frame);
	append(&p, "\0\0\0", 3);
	emit_payload_case("zstd-trailing-bytes", &img, p, "bad-frame");

	p = copy(&frame);
	q = zstd_frame("", 0, KMS_ZSTD_LEVEL, 0);
	append(&p, q.p, q.len);
	emit_payload_case("zstd-trailing-empty-frame", &img, p, "bad-frame");
	release(&q);

	/* The image split in two frames: each declares part of the size. */
	p = zstd_frame(img.p, img.len / 2, KMS_ZSTD_LEVEL, 0);
	q = zstd_frame(img.p + img.len / 2, img.len - img.len / 2,
		       KMS_ZSTD_LEVEL, 0);
	append(&p, q.p, q.len);
	emit_payload_case("zstd-split-in-two-frames", &img, p, "bad-frame");
	release(&q);

	p = copy(&frame);
	append(&p, frame.p, frame.len);
	emit_payload_case("zstd-same-frame-twice", &img, p, "bad-frame");

	p = copy(&frame);
	append_skippable(&p, 4);
	emit_payload_case("zstd-trailing-skippable", &img, p, "bad-frame");

	/* A skippable frame first, of the image's size, as a decoy. */
	p = (struct buf){ 0 };
	append_skippable(&p, img.len);
	append(&p, frame.p, frame.len);
	emit_payload_case("zstd-leading-skippable", &img, p, "bad-frame");

	p = (struct buf){ 0 };
	append_skippable(&p, 0);
	emit_payload_case("zstd-only-skippable", &img, p, "bad-frame");

	/* The frame header's reserved bit (FHD bit 3). */
	p = copy(&frame);
	p.p[4] |= 0x08;
	emit_payload_case("zstd-reserved-bit", &img, p, "bad-frame");

	/* A damaged content checksum: the frame is whole but wrong. */
	p = copy(&frame);
	p.p[p.len - 1] ^= 0xff;
	emit_payload_case("zstd-bad-checksum", &img, p, "bad-zstd");

	/*
	 * The frame declares 4 bytes more than it holds (and the header
	 * agrees): the frame does not decompress to its declared size.
	 * Frame header (RFC 8878 3.1.1.1): magic, descriptor, the window
	 * descriptor unless single-segment, no dictionary ID, content size.
	 */
	p = copy(&frame);
	fhd = p.p[4];
	fcs_size = (const unsigned int[]){ fhd >> 5 & 1, 2, 4, 8 }[fhd >> 6];
	fcs_pos = 5 + !(fhd >> 5 & 1);
	fcs = img.len + 4 - (fcs_size == 2 ? 256 : 0);
	if ((fhd & 3) || fcs_size == 0 || (fcs_size == 1 && fcs > 255))
		die("internal error: frame header descriptor %#x", fhd);
	for (i = 0; i < fcs_size; i++)
		p.p[fcs_pos + i] = i < 4 ? fcs >> (8 * i) : 0;
	q = copy(&img);
	append_le32(&q, 0);
	refuse("zstd-content-short", "bad-zstd");
	/* The checksum of the image as it would be: only the frame lies. */
	emit_blob("zstd-content-short", blob_of(&q, &p, KMS_FLAG_ZSTD));
	release(&p);
	release(&q);

	/* Without the frame checksum, which versions 2 and 3 require. */
	p = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, NO_CHECKSUM);
	emit_payload_case("zstd-no-checksum", &img, p, "bad-frame");

	release(&frame);
	release(&blob);
	release(&img);
}

static void header_cases(void)
{
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf blob = zstd_blob(&img), b;

	b = copy(&blob);
	b.len = KMS_HEADER_SIZE - 1;
	refuse("header-short", "bad-header");
	emit_blob("header-short", b);

	b = (struct buf){ 0 };
	refuse("header-empty-descriptor", "bad-header");
	emit_blob("header-empty-descriptor", b);

	/* The header alone: no payload. */
	b = copy(&blob);
	b.len = KMS_HEADER_SIZE;
	put_le32(&b, KMS_HDR_PAYLOAD_SIZE, 0);
	refuse("header-only", "bad-frame");
	emit_blob("header-only", b);

	emit_header_case("header-bad-magic", KMS_HDR_MAGIC, 0x32534d4b, 4,
			 "bad-header");
	emit_header_case("header-version-0", KMS_HDR_VERSION, 0, 2,
			 "bad-version");
	emit_header_case("header-version-1", KMS_HDR_VERSION, 1, 2,
			 "bad-version");
	emit_header_case("header-version-4", KMS_HDR_VERSION, 4, 2,
			 "bad-version");
	emit_header_case("header-version-max", KMS_HDR_VERSION, 0xffff, 2,
			 "bad-version");
	emit_header_case("header-size-48", KMS_HDR_HEADER_SIZE, 48, 2,
			 "bad-header");
	emit_header_case("header-flags-zero", KMS_HDR_FLAGS, 0, 4,
			 "bad-header");
	emit_header_case("header-unknown-flag", KMS_HDR_FLAGS,
			 KMS_FLAG_ZSTD | 0x2, 4, "bad-header");
	emit_header_case("header-high-flag", KMS_HDR_FLAGS,
			 KMS_FLAG_ZSTD | 0x80000000u, 4, "bad-header");
	emit_header_case("header-reserved-old-crc", KMS_HDR_RESERVED,
			 kms_crc32(img.p, img.len), 4, "bad-header");
	emit_header_case("header-reserved-mid", KMS_HDR_RESERVED + 4, 1, 4,
			 "bad-header");
	emit_header_case("header-reserved-high", KMS_HDR_RESERVED + 8,
			 0x100, 4, "bad-header");
	emit_header_case("header-payload-size-long", KMS_HDR_PAYLOAD_SIZE,
			 blob.len - KMS_HEADER_SIZE + 1, 4, "bad-header");
	emit_header_case("header-payload-size-max", KMS_HDR_PAYLOAD_SIZE,
			 KMS_NONE, 4, "bad-header");
	emit_header_case("header-payload-size-wraps", KMS_HDR_PAYLOAD_SIZE,
			 KMS_NONE - KMS_HEADER_SIZE + 1, 4, "bad-header");
	emit_header_case("header-image-size-small", KMS_HDR_IMAGE_SIZE,
			 KMS_IMAGE_HEADER_SIZE - 1, 4, "bad-header");
	emit_header_case("header-image-size-large", KMS_HDR_IMAGE_SIZE,
			 KMS_IMAGE_MAX_SIZE + 1, 4, "bad-header");
	emit_header_case("header-image-size-max", KMS_HDR_IMAGE_SIZE,
			 KMS_NONE, 4, "bad-header");

	/* The uncompressed form of version 1 is gone: no checksum. */
	refuse("header-raw-image", "bad-header");
	emit_blob("header-raw-image", blob_of(&img, &img, 0));

	/* An uncompressed image, but the flag says zstd. */
	emit_payload_case("zstd-flag-raw-payload", &img, copy(&img),
			  "bad-frame");

	release(&blob);
	release(&img);
}

/*
 * Padding inside the descriptor (FORMAT.md 2): zero bytes after the
 * payload, any number of them.
 */
static void padding_cases(void)
{
	static const unsigned char zeros[4096];
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf blob = zstd_blob(&img), b;
	static const size_t pads[] = { 1, 3, 4, sizeof(zeros) };
	static const char *const names[] = {
		"valid-padded-1", "valid-padded-3", "valid-padded-4",
		"valid-padded-4096",
	};
	size_t i;

	for (i = 0; i < 4; i++) {
		b = copy(&blob);
		append(&b, zeros, pads[i]);
		accept(names[i], &img, sample.annotations);
		emit_blob(names[i], b);
	}

	/* One nonzero byte in the padding, first or last. */
	b = copy(&blob);
	append(&b, zeros, 8);
	b.p[b.len - 1] = 1;
	refuse("padding-nonzero-last", "bad-header");
	emit_blob("padding-nonzero-last", b);

	b = copy(&blob);
	append(&b, zeros, 8);
	b.p[blob.len] = 0x80;
	refuse("padding-nonzero-first", "bad-header");
	emit_blob("padding-nonzero-first", b);

	/*
	 * payload_size one short: the frame's last byte (its checksum) is
	 * padding now, and not zero; section 2 checks that before the frame.
	 */
	if (!blob.p[blob.len - 1])
		die("internal error: the sample frame ends with a zero byte");
	b = copy(&blob);
	put_le32(&b, KMS_HDR_PAYLOAD_SIZE, blob.len - KMS_HEADER_SIZE - 1);
	refuse("padding-payload-size-short", "bad-header");
	emit_blob("padding-payload-size-short", b);

	/* payload_size reaching into zero padding: zero bytes after the frame. */
	b = copy(&blob);
	append(&b, zeros, 8);
	put_le32(&b, KMS_HDR_PAYLOAD_SIZE, blob.len - KMS_HEADER_SIZE + 4);
	refuse("padding-inside-payload", "bad-frame");
	emit_blob("padding-inside-payload", b);

	release(&blob);
	release(&img);
}

/*
 * Version-1 notes (FORMAT.md 8): a version-1 image of the sample's text
 * (text_size, 8-byte ranges, objects, module lists, strings) with its
 * CRC-32, compressed and raw.  A version-3 reader refuses both.
 */
static struct buf v1_image(void)
{
	static const uint32_t ranges[] = {
		0x10, 0, 0x40, KMS_NONE, 0x80, 1, 0x100, 2, 0x180, 0,
	};
	uint32_t nr_ranges = sizeof(ranges) / 8, i;
	uint32_t off = 48;
	struct buf img = { 0 };

	append_le32(&img, 0x200);				/* text_size */
	append_le32(&img, nr_ranges);
	append_le32(&img, off);
	off += 8 * nr_ranges;
	append_le32(&img, sample.nr_objects);
	append_le32(&img, off);
	off += 8 * sample.nr_objects;
	append_le32(&img, sample.nr_words);
	append_le32(&img, off);
	off += 4 * sample.nr_words;
	append_le32(&img, sample.strtab_size);
	append_le32(&img, off);
	append_le32(&img, sample.nr_modules);
	append_le32(&img, 0);
	append_le32(&img, 0);
	for (i = 0; i < 2 * nr_ranges; i++)
		append_le32(&img, ranges[i]);
	for (i = 0; i < 2 * sample.nr_objects; i++)
		append_le32(&img, sample.objects[i]);
	for (i = 0; i < sample.nr_words; i++)
		append_le32(&img, sample.words[i]);
	append(&img, sample.strtab, sample.strtab_size);
	pad4(&img);
	return img;
}

static void v1_cases(void)
{
	struct buf img = v1_image(), frame, b;

	frame = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, AS_IS);
	b = blob_of(&img, &frame, KMS_FLAG_ZSTD);
	b.p[KMS_HDR_VERSION] = 1;
	put_le32(&b, 20, kms_crc32(img.p, img.len));
	refuse("v1-sample", "bad-version");
	emit_blob("v1-sample", b);
	release(&frame);

	b = blob_of(&img, &img, 0);
	b.p[KMS_HDR_VERSION] = 1;
	put_le32(&b, 20, kms_crc32(img.p, img.len));
	refuse("v1-raw", "bad-version");
	emit_blob("v1-raw", b);
	release(&img);
}

/*
 * Version 3's stored form (FORMAT.md 3.8 and 9): a version-2 note (the
 * image as it is, version 2) is refused for its version; stored starts
 * whose differences restore to starts a section may not have are
 * refused as the same starts would be in the image.
 */
static void emit_stored_case(const char *name, uint32_t i, uint32_t d)
{
	struct layout l;
	struct buf img = sample_image(&l), stored = stored_form(img.p, img.len);
	struct buf frame;

	plane_put(stored.p + l.off[STARTS], sample.nr_ranges, 4, i, d);
	frame = zstd_frame(stored.p, stored.len, KMS_ZSTD_LEVEL, AS_IS);
	refuse(name, "bad-range");
	emit_blob(name, blob_of(&img, &frame, KMS_FLAG_ZSTD));
	release(&frame);
	release(&stored);
	release(&img);
}

static void v3_cases(void)
{
	struct layout l;
	struct buf img = sample_image(&l), frame, b;

	frame = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, AS_IS);
	b = blob_of(&img, &frame, KMS_FLAG_ZSTD);
	b.p[KMS_HDR_VERSION] = 2;
	refuse("v2-sample", "bad-version");
	emit_blob("v2-sample", b);
	release(&frame);
	release(&img);

	/* Range 1 (0x40, after 0x10): a difference of 0, and of -1. */
	emit_stored_case("stored-difference-zero", 1, 0);
	emit_stored_case("stored-difference-wraps", 1, KMS_NONE);
	/* The per-CPU section's last range (0x80) pushed to its end. */
	emit_stored_case("stored-difference-past-end", 12, 0x100 - 0x40);
}

/*
 * Note sizes that wrap a 32-bit size_t when aligned first (FORMAT.md 1.1):
 * a reader that rounds 0xfffffffd up to 0 finds our note inside, or
 * right after, a record that claims more bytes than the file holds.
 */
static void wrap_cases(const struct buf *blob)
{
	struct buf b = { 0 }, ours = { 0 };

	append_kms_note(&ours, blob);

	/* Our own record claims 0xfffffffd descriptor bytes. */
	b = copy(&ours);
	put_le32(&b, 4, 0xfffffffdu);
	refuse("notes-descsz-wraps-ours", "no-note");
	write_file("notes-descsz-wraps-ours", &b);
	release(&b);

	/* A record whose descriptor would be skipped as 0 bytes hides ours. */
	append_le32(&b, 4);
	append_le32(&b, 0xfffffffdu);
	append_le32(&b, 3);
	append(&b, "GNU", 4);
	append(&b, ours.p, ours.len);
	refuse("notes-descsz-wraps-before", "no-note");
	write_file("notes-descsz-wraps-before", &b);
	release(&b);

	/* The same with the name size: 0xfffffffe rounds up to 0. */
	append_le32(&b, 0xfffffffeu);
	append_le32(&b, 0);
	append_le32(&b, 3);
	append(&b, ours.p, ours.len);
	refuse("notes-namesz-wraps-before", "no-note");
	write_file("notes-namesz-wraps-before", &b);
	release(&b);

	/* The largest size that does not wrap: 0xfffffffc. */
	b = copy(&ours);
	put_le32(&b, 4, 0xfffffffcu);
	refuse("notes-descsz-max-aligned", "no-note");
	write_file("notes-descsz-max-aligned", &b);
	release(&b);
	release(&ours);
}

/* Other notes around ours, and notes that are not ours. */
static void container_cases(void)
{
	static const unsigned char build_id[20] = { 0xde, 0xad, 0xbe, 0xef };
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf blob = zstd_blob(&img), b = { 0 };

	/* A kernel's .notes: build-id, a Xen-style note, ours, another. */
	append_note(&b, "GNU", 4, 3, build_id, sizeof(build_id));
	append_note(&b, "Xen", 4, 18, "\1\2\3\4\5", 5);
	append_note(&b, "Linux", 6, 0x100, "", 0);
	append_kms_note(&b, &blob);
	append_note(&b, "GNU", 4, 3, build_id, 3);
	accept("notes-among-others", &img, sample.annotations);
	write_file("notes-among-others", &b);
	release(&b);

	/* Our name with another type, our type with another name. */
	append_note(&b, KMS_NOTE_NAME, KMS_NOTE_NAMESZ, 0x4b4d5302, blob.p,
		    blob.len);
	append_note(&b, "kallmodsym", 11, KMS_NOTE_TYPE, blob.p, blob.len);
	append_note(&b, "kallmodsymsX", 13, KMS_NOTE_TYPE, blob.p, blob.len);
	refuse("notes-none-ours", "no-note");
	write_file("notes-none-ours", &b);
	release(&b);

	refuse("notes-empty-file", "no-note");
	write_file("notes-empty-file", &b);

	/* The descriptor runs past the end of the file. */
	append_kms_note(&b, &blob);
	b.len -= 8;
	refuse("notes-truncated-record", "no-note");
	write_file("notes-truncated-record", &b);
	release(&b);

	/* A damaged note before ours hides it. */
	append_note(&b, "GNU", 4, 3, build_id, sizeof(build_id));
	put_le32(&b, 4, 0x7ffffff0);
	append_kms_note(&b, &blob);
	refuse("notes-damaged-before", "no-note");
	write_file("notes-damaged-before", &b);
	release(&b);

	/* The first of two kallmodsyms notes is the one read. */
	append_kms_note(&b, &blob);
	{
		struct buf bad = copy(&blob);

		put_le32(&bad, KMS_HDR_RESERVED, 1);
		append_kms_note(&b, &bad);
		release(&bad);
	}
	accept("notes-two-first-good", &img, sample.annotations);
	write_file("notes-two-first-good", &b);
	release(&b);

	wrap_cases(&blob);
	release(&blob);
	release(&img);
}

/* An accepted blob of the image of @s (build_image()'s @order, @gap). */
static void emit_valid(const char *name, const struct spec *s,
		       const int order[NR_ARRAYS], unsigned int gap, int level)
{
	struct layout l;
	struct buf img = build_image(s, order, gap, &l), frame;

	accept(name, &img, s->annotations);
	frame = zstd_frame(img.p, img.len, level, 0);
	emit_blob(name, blob_of(&img, &frame, KMS_FLAG_ZSTD));
	release(&frame);
	release(&img);
}

/* A blob of the image of @s, refused for @reason. */
static void emit_invalid(const char *name, const struct spec *s,
			 const char *reason)
{
	struct layout l;
	struct buf img = build_image(s, NULL, 0, &l);

	refuse(name, reason);
	emit_blob(name, zstd_blob(&img));
	release(&img);
}

/*
 * An image of @size bytes, the largest the format allows or more: one
 * section, range, object and module, all named "m", and a string table
 * of one long name more.
 */
static void emit_big(const char *name, size_t size, const char *reason)
{
	static const char *const annotations[] = {
		"0x0 t [m] {m}", "0x1 -", NULL
	};
	static const uint32_t list[] = { 1, 0 };
	static const uint32_t obj[] = { 0, 0 };
	static const uint32_t range[] = { 0, 0 };
	static const uint32_t section[] = { KMS_CLASS_TEXT, 1, 1 };
	size_t n = size - KMS_IMAGE_HEADER_SIZE - 12 - 4 - 4 - 8 - 8;
	char *big = malloc(n);
	struct spec s = { .nr_sections = 1, .sections = section,
			  .nr_ranges = 1, .ranges = range,
			  .nr_objects = 1, .objects = obj, .nr_words = 2,
			  .words = list, .strtab_size = n, .strtab = big,
			  .nr_modules = 1, .annotations = annotations };
	struct layout l;
	struct buf img, frame;

	if (!big)
		die("out of memory");
	memcpy(big, "m", 2);
	memset(big + 2, 'a', n - 3);
	big[n - 1] = '\0';
	if (!reason) {
		/* Level 3: level 19 takes long on 64 MiB, for no gain. */
		emit_valid(name, &s, NULL, 0, 3);
		free(big);
		return;
	}
	img = build_image(&s, NULL, 0, &l);
	refuse(name, reason);
	frame = zstd_frame(img.p, img.len, 3, 0);
	emit_blob(name, blob_of(&img, &frame, KMS_FLAG_ZSTD));
	release(&frame);
	release(&img);
	free(big);
}

/*
 * @n objects (nothing to print but object @obj's name, all others alike:
 * readers do not check that), and one text section of two ranges, the
 * first naming object @obj: range objects are 2 bytes up to 65535
 * objects, 4 beyond.
 */
static void emit_width_case(const char *name, uint32_t n, uint32_t obj,
			    const char *reason)
{
	static const char strtab[] = "last.o";
	static const char *const annotations[] = {
		"0x0 t {last.o}", "0x1 -", "0x2 -", NULL
	};
	static const uint32_t section[] = { KMS_CLASS_TEXT, 2, 2 };
	uint32_t ranges[] = { 0, obj, 1, KMS_NONE };
	uint32_t *objects = malloc(8 * (size_t)n), i;
	struct spec s = { .nr_sections = 1, .sections = section,
			  .nr_ranges = 2, .ranges = ranges, .nr_objects = n,
			  .objects = objects, .strtab_size = sizeof(strtab),
			  .strtab = strtab, .annotations = annotations };

	if (!objects)
		die("out of memory");
	for (i = 0; i < 2 * n; i++)
		objects[i] = KMS_NONE;
	if (obj < n)
		objects[2 * obj + 1] = 0;
	if (reason)
		emit_invalid(name, &s, reason);
	else
		emit_valid(name, &s, NULL, 0, KMS_ZSTD_LEVEL);
	free(objects);
}

/* The writer's own encoder: the blob kallmodsyms-gen writes. */
static void writer_case(void)
{
	struct kms_encode_section secs[sizeof(sample_sections) / 12];
	uint32_t starts[sizeof(sample_ranges) / 8], objs[sizeof(starts) / 4];
	uint32_t lists[sizeof(sample_objects) / 8], names[sizeof(lists) / 4];
	struct kms_encode_input in = {
		.nr_sections = sample.nr_sections,
		.sections = secs,
		.nr_ranges = sample.nr_ranges,
		.range_start = starts,
		.range_object = objs,
		.nr_objects = sample.nr_objects,
		.object_modlist = lists,
		.object_name = names,
		.nr_modlist_words = sample.nr_words,
		.modlists = sample_words,
		.strtab_size = sample.strtab_size,
		.strtab = sample_strtab,
		.nr_modules = sample.nr_modules,
	};
	struct layout l;
	struct buf img, blob = { 0 };
	void *writer_blob;
	size_t writer_size;
	uint32_t i;

	for (i = 0; i < sample.nr_sections; i++)
		secs[i] = (struct kms_encode_section){
			sample_sections[3 * i], sample_sections[3 * i + 1],
			sample_sections[3 * i + 2] };
	for (i = 0; i < sample.nr_ranges; i++) {
		starts[i] = sample_ranges[2 * i];
		objs[i] = sample_ranges[2 * i + 1];
	}
	for (i = 0; i < sample.nr_objects; i++) {
		lists[i] = sample_objects[2 * i];
		names[i] = sample_objects[2 * i + 1];
	}
	check(kms_blob_encode(&in, &writer_blob, &writer_size));
	img = sample_image(&l);
	accept("valid-writer", &img, sample.annotations);
	append(&blob, writer_blob, writer_size);
	free(writer_blob);
	emit_blob("valid-writer", blob);
	release(&img);
}

/* Valid images at the edges of the format. */
static void edge_cases(void)
{
	static const int reordered[NR_ARRAYS] = {
		STRTAB, MODLISTS, RANGE_OBJECTS, SECTIONS, STARTS, OBJECTS
	};
	static const int empty_inside[NR_ARRAYS] = {
		OBJECTS, SECTIONS, STARTS, RANGE_OBJECTS, MODLISTS, STRTAB
	};
	static const uint32_t one_range[] = { 0, KMS_NONE };
	static const uint32_t one_section[] = { KMS_CLASS_TEXT, 1, 0xffffffff };
	static const char *const one_gap_annotations[] = {
		"0x0 -", "0xfffffffe -", "0xffffffff -", NULL
	};
	static const uint32_t every_class[] = {
		KMS_CLASS_TEXT, 1, 0x10, KMS_CLASS_INIT_TEXT, 1, 0x20,
		KMS_CLASS_RODATA, 1, 0x30, KMS_CLASS_RO_AFTER_INIT, 1, 0x40,
		KMS_CLASS_DATA, 1, 0x50, KMS_CLASS_INIT_DATA, 1, 0x60,
		KMS_CLASS_BSS, 1, 0x70, KMS_CLASS_PERCPU, 1, 0x40,
	};
	static const uint32_t every_range[] = {
		0, 0, 0x10, 1, 0x20, 2, 0x30, 3, 0x40, 4, 0x50, 5, 0x60, 6,
		0x30, 7,
	};
	/* Each class's object is named after it. */
	static const char every_strtab[] =
		"text.o\0init-text.o\0rodata.o\0ro-after-init.o\0data.o\0"
		"init-data.o\0bss.o\0percpu.o";
	static const uint32_t every_object[] = {
		KMS_NONE, 0, KMS_NONE, 7, KMS_NONE, 19, KMS_NONE, 28,
		KMS_NONE, 44, KMS_NONE, 51, KMS_NONE, 63, KMS_NONE, 69,
	};
	/* The executable classes annotate text alone, per-CPU data all. */
	static const char *const every_annotations[] = {
		"0x0 t {text.o}", "0xf t {text.o}",
		"0x10 t {init-text.o}", "0x1f t {init-text.o}",
		"0x20 td {rodata.o}", "0x2f td {rodata.o}",
		"0x30 td {ro-after-init.o}", "0x3f td {ro-after-init.o}",
		"0x40 td {data.o}", "0x4f td {data.o}",
		"0x50 td {init-data.o}", "0x5f td {init-data.o}",
		"0x60 td {bss.o}", "0x6f td {bss.o}",
		"0x70 tdA {percpu.o}", "0x7f tdA {percpu.o}",
		"0x80 -", NULL
	};
	static const char one_nul[] = "";
	struct layout l;
	struct buf img;
	struct spec s;

	writer_case();

	/* No tables at all: a lone NUL is the smallest string table. */
	s = (struct spec){ .strtab_size = 1, .strtab = one_nul };
	emit_valid("valid-empty", &s, NULL, 0, KMS_ZSTD_LEVEL);
	/* Empty arrays at the end of the image. */
	emit_valid("valid-empty-arrays-at-end", &s, reordered, 0,
		   KMS_ZSTD_LEVEL);

	/* One range covering the largest text, no modules. */
	s = (struct spec){ .nr_sections = 1, .sections = one_section,
			   .nr_ranges = 1, .ranges = one_range,
			   .strtab_size = 1, .strtab = one_nul,
			   .annotations = one_gap_annotations };
	emit_valid("valid-one-gap-range", &s, NULL, 0, KMS_ZSTD_LEVEL);

	/*
	 * Every class once, back to back, each its own object; per-CPU
	 * data lies right after bss in the judges' address space.
	 */
	s = (struct spec){ .nr_sections = 8, .sections = every_class,
			   .nr_ranges = 8, .ranges = every_range,
			   .nr_objects = 8, .objects = every_object,
			   .strtab_size = sizeof(every_strtab),
			   .strtab = every_strtab,
			   .annotations = every_annotations };
	emit_valid("valid-every-class", &s, NULL, 0, KMS_ZSTD_LEVEL);

	/* Empty arrays where the module lists start, lists nobody uses. */
	s = sample;
	s.nr_sections = 0;
	s.nr_ranges = 0;
	s.nr_objects = 0;
	s.annotations = NULL;
	emit_valid("valid-no-ranges", &s, NULL, 0, KMS_ZSTD_LEVEL);

	/* The same, the empty arrays strictly inside the objects array. */
	s.nr_objects = sample.nr_objects;
	img = build_image(&s, empty_inside, 0, &l);
	put_le32(&img, KMS_IMG_STARTS_OFF, l.off[OBJECTS] + 8);
	refuse("overlap-empty-array-inside", "overlap");
	emit_blob("overlap-empty-array-inside", zstd_blob(&img));
	release(&img);

	/* The arrays in another order, with space between them. */
	emit_valid("valid-reordered-arrays", &sample, reordered, 12,
		   KMS_ZSTD_LEVEL);

	/* Slack after the last array, and an image size not a multiple of 4. */
	img = sample_image(&l);
	append(&img, "\0\0\0\0\0", 5);
	accept("valid-slack-at-end", &img, sample.annotations);
	emit_blob("valid-slack-at-end", zstd_blob(&img));
	release(&img);

	/* Range objects' width: 2 bytes up to 65535 objects, then 4. */
	emit_width_case("valid-objects-narrow-max", 65535, 65534, NULL);
	emit_width_case("valid-objects-wide", 65536, 65535, NULL);
	emit_width_case("range-object-wide-past-end", 65536, 65536,
			"bad-range");

	/* The largest image the format allows, and 4 bytes more. */
	emit_big("valid-image-max-size", KMS_IMAGE_MAX_SIZE, NULL);
	emit_big("image-over-max-size", KMS_IMAGE_MAX_SIZE + 4, "bad-header");
}

static void regression_case(const char *path)
{
	char *data, *copy_path = strdup(path), *base, *name;
	size_t size;
	struct buf b = { 0 };

	if (!copy_path)
		die("out of memory");
	check(kms_read_file(path, 1 << 20, &data, &size));
	base = basename(copy_path);
	if (strlen(base) > 4 && !strcmp(base + strlen(base) - 4, ".kms"))
		base[strlen(base) - 4] = '\0';
	if (asprintf(&name, "fuzz-%s", base) < 0)
		die("out of memory");
	append(&b, data, size);
	refuse(name, "bad-frame");
	write_file(name, &b);
	release(&b);
	free(data);
	free(name);
	free(copy_path);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		img_fix_fn *fix;
		const char *reason;
	} image_cases[] = {
		{ "valid-sample", fix_none, NULL },
		{ "offset-starts-unaligned", fix_starts_unaligned, "bad-offset" },
		{ "offset-starts-in-header", fix_starts_in_header, "bad-offset" },
		{ "offset-range-objects-unaligned", fix_range_objects_unaligned, "bad-offset" },
		{ "offset-sections-past-end", fix_sections_past_end, "bad-offset" },
		{ "offset-strtab-past-end", fix_strtab_past_end, "bad-offset" },
		{ "offset-objects-wraps", fix_objects_offset_past_end, "bad-offset" },
		{ "count-ranges-max", fix_nr_ranges_max, "bad-offset" },
		{ "count-sections-max", fix_nr_sections_max, "bad-offset" },
		{ "count-modlist-words-max", fix_nr_words_max, "bad-offset" },
		{ "overlap-starts-objects", fix_overlap_starts_objects, "overlap" },
		{ "overlap-starts-range-objects", fix_overlap_range_objects, "overlap" },
		{ "overlap-modlists-strtab", fix_overlap_strtab, "overlap" },
		{ "strtab-unterminated", fix_strtab_unterminated, "bad-strtab" },
		{ "strtab-tab", fix_strtab_tab, "bad-strtab" },
		{ "strtab-space", fix_strtab_space, "bad-strtab" },
		{ "strtab-del", fix_strtab_del, "bad-strtab" },
		{ "strtab-non-ascii", fix_strtab_high, "bad-strtab" },
		{ "strtab-size-zero", fix_strtab_size_zero, "bad-strtab" },
		{ "modlist-empty", fix_modlist_empty, "bad-modlist" },
		{ "modlist-overrun", fix_modlist_overrun, "bad-modlist" },
		{ "modlist-unsorted", fix_modlist_unsorted, "bad-modlist" },
		{ "modlist-duplicate", fix_modlist_duplicate, "bad-modlist" },
		{ "modlist-name-mid-string", fix_modlist_mid_string, "bad-modlist" },
		{ "modlist-name-at-nul", fix_modlist_at_nul, "bad-modlist" },
		{ "modlist-name-past-strtab", fix_modlist_past_strtab, "bad-modlist" },
		{ "object-list-mid-list", fix_object_mid_list, "bad-object" },
		{ "object-list-past-end", fix_object_list_past, "bad-object" },
		{ "object-name-mid-string", fix_object_name_mid_string, "bad-object" },
		{ "object-name-past-strtab", fix_object_name_past, "bad-object" },
		{ "class-unknown", fix_class_unknown, "unknown-class" },
		{ "class-unknown-max", fix_class_unknown_max, "unknown-class" },
		{ "section-empty", fix_section_empty, "bad-section" },
		{ "section-counts-short", fix_section_counts_short, "bad-section" },
		{ "section-counts-long", fix_section_counts_long, "bad-section" },
		{ "section-overlap", fix_section_overlap, "bad-section" },
		{ "section-before-previous", fix_section_before_previous, "bad-section" },
		{ "section-percpu-out-of-order", fix_section_percpu_order, "bad-section" },
		{ "section-percpu-made-data", fix_section_base_other, "bad-section" },
		{ "range-unsorted", fix_range_unsorted, "bad-range" },
		{ "range-same-start", fix_range_same_start, "bad-range" },
		{ "range-at-section-end", fix_range_at_section_end, "bad-range" },
		{ "range-percpu-at-section-end", fix_range_past_section_end, "bad-range" },
		{ "range-object-past-end", fix_range_object_past, "bad-range" },
		{ "range-object-almost-none", fix_range_object_almost_none, "bad-range" },
		{ "range-unmerged", fix_range_unmerged, "bad-range" },
		{ "range-unmerged-after-gap", fix_range_unmerged_gap, "bad-range" },
		{ "range-unmerged-percpu", fix_range_unmerged_percpu, "bad-range" },
	};
	char *path;
	size_t i;
	int k;

	if (argc < 2) {
		fprintf(stderr, "usage: kms-mkcorpus OUTDIR [REGRESSION.kms...]\n");
		return 2;
	}
	outdir = argv[1];
	if (asprintf(&path, "%s/corpus", outdir) < 0)
		die("out of memory");
	if (mkdir(path, 0755) && errno != EEXIST)
		die("%s: %s", path, strerror(errno));
	free(path);
	if (asprintf(&path, "%s/verdicts", outdir) < 0)
		die("out of memory");
	verdicts = fopen(path, "w");
	if (!verdicts)
		die("%s: %s", path, strerror(errno));
	fputs("# Written by kms-mkcorpus (tests/conformance/mkcorpus.c): the verdict\n"
	      "# every reader reaches on each corpus/NAME.kms, and after an accept\n"
	      "# its annotation lines (FORMAT.md section 7).\n",
	      verdicts);

	edge_cases();
	for (i = 0; i < sizeof(image_cases) / sizeof(image_cases[0]); i++)
		emit_image_case(image_cases[i].name, image_cases[i].fix,
				image_cases[i].reason);
	header_cases();
	padding_cases();
	v1_cases();
	v3_cases();
	zstd_cases();
	container_cases();
	for (k = 2; k < argc; k++)
		regression_case(argv[k]);

	if (fclose(verdicts))
		die("%s: %s", path, strerror(errno));
	free(path);
	return 0;
}
