// SPDX-License-Identifier: GPL-2.0
/*
 * The sample tables (corpus.h), and the cases that change them in one
 * place, as data: each image case breaks one rule of FORMAT.md 3 with a
 * poke or two into the sample image, each header case sets one field of
 * the sample blob's header (FORMAT.md 2).
 */
#include <stdio.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/crc32.h>
#include <kms/format.h>

#include "corpus.h"

/*
 * The strings of the sample tables.  Offsets: ext4 0, jbd2 5,
 * crc32c_generic 10, one/util.o 25, two/util.o 36, fs/inode.o 47.
 */
static const char sample_strtab[] =
	"ext4\0jbd2\0crc32c_generic\0one/util.o\0two/util.o\0fs/inode.o";

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

const struct spec sample = {
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

#define NR_SAMPLE_RANGES (sizeof(sample_ranges) / 8)
#define NR_SAMPLE_OBJECTS (sizeof(sample_objects) / 8)
#define NR_SAMPLE_WORDS (sizeof(sample_words) / 4)

/*
 * Where a poke goes, and what it writes: an offset from the start of the
 * image (FROM_ZERO: into its header), from one of its arrays (SECTIONS,
 * ... STRTAB: as placed, struct layout) or from its end (FROM_END).
 */
enum { FROM_ZERO = NR_ARRAYS, FROM_END };

struct poke {
	unsigned int width;	/* 1, 2 or 4 bytes, little-endian; 0: none */
	unsigned int at_base;
	uint32_t at;
	unsigned int value_base;
	int64_t value;
};

/* A 4-byte field of the image header, set to an array's offset + @d. */
#define HDR_OFF(field, array, d) { 4, FROM_ZERO, field, array, d }
/* A 4-byte field of the image header, set to @v. */
#define HDR(field, v) { 4, FROM_ZERO, field, FROM_ZERO, v }
/* @width bytes at @off into an array, set to @v. */
#define IN(width, array, off, v) { width, array, off, FROM_ZERO, v }
/* Section @k's field @f (class, nr_ranges, end). */
#define SEC(k, f, v) IN(4, SECTIONS, 12 * (k) + 4 * (f), v)
/* Range @i's start, and its 2-byte object. */
#define START(i, v) IN(4, STARTS, 4 * (i), v)
#define OBJECT16(i, v) IN(2, RANGE_OBJECTS, 2 * (i), v)

/* A blob of the sample image, poked: accepted when @reason is NULL. */
struct image_case {
	const char *name;
	const char *reason;
	struct poke pokes[2];
};

static const struct image_case image_table[] = {
	{ "valid-sample", NULL, { { 0 } } },
	{ "offset-starts-unaligned", "bad-offset",
	  { HDR_OFF(KMS_IMG_STARTS_OFF, STARTS, 2) } },
	{ "offset-starts-in-header", "bad-offset",
	  { HDR(KMS_IMG_STARTS_OFF, 40) } },
	{ "offset-range-objects-unaligned", "bad-offset",
	  { HDR_OFF(KMS_IMG_RANGE_OBJECTS_OFF, RANGE_OBJECTS, 2) } },
	{ "offset-sections-past-end", "bad-offset",
	  { HDR_OFF(KMS_IMG_SECTIONS_OFF, FROM_END, -4) } },
	{ "offset-strtab-past-end", "bad-offset",
	  { HDR_OFF(KMS_IMG_STRTAB_OFF, STRTAB, 4) } },
	{ "offset-objects-wraps", "bad-offset",
	  { HDR(KMS_IMG_OBJECTS_OFF, 0xfffffff0u) } },
	/* The sections agree with the count, the arrays cannot hold it. */
	{ "count-ranges-max", "bad-offset",
	  { HDR(KMS_IMG_NR_RANGES, KMS_NONE),
	    SEC(SEC_PERCPU, 1, KMS_NONE - (NR_SAMPLE_RANGES - 3)) } },
	{ "count-sections-max", "bad-offset",
	  { HDR(KMS_IMG_NR_SECTIONS, KMS_NONE) } },
	{ "count-modlist-words-max", "bad-offset",
	  { HDR(KMS_IMG_NR_MODLIST, KMS_NONE) } },
	{ "overlap-starts-objects", "overlap",
	  { HDR_OFF(KMS_IMG_OBJECTS_OFF, STARTS, 8) } },
	{ "overlap-starts-range-objects", "overlap",
	  { HDR_OFF(KMS_IMG_RANGE_OBJECTS_OFF, STARTS, 4) } },
	{ "overlap-modlists-strtab", "overlap",
	  { HDR_OFF(KMS_IMG_STRTAB_OFF, MODLISTS, 4) } },
	{ "strtab-unterminated", "bad-strtab",
	  { IN(1, STRTAB, sizeof(sample_strtab) - 1, 'x') } },
	{ "strtab-tab", "bad-strtab", { IN(1, STRTAB, S_INODE + 2, '\t') } },
	{ "strtab-space", "bad-strtab", { IN(1, STRTAB, S_INODE + 2, ' ') } },
	{ "strtab-del", "bad-strtab", { IN(1, STRTAB, S_INODE + 2, 0x7f) } },
	{ "strtab-non-ascii", "bad-strtab",
	  { IN(1, STRTAB, S_INODE + 2, 0xe9) } },
	{ "strtab-size-zero", "bad-strtab", { HDR(KMS_IMG_STRTAB_SIZE, 0) } },
	/* Module list words: [ext4] at 0, [ext4] [jbd2] at 2, [crc...] at 5. */
	{ "modlist-empty", "bad-modlist", { IN(4, MODLISTS, 4 * 5, 0) } },
	{ "modlist-overrun", "bad-modlist", { IN(4, MODLISTS, 4 * 5, 2) } },
	{ "modlist-unsorted", "bad-modlist",
	  { IN(4, MODLISTS, 4 * 3, S_JBD2), IN(4, MODLISTS, 4 * 4, S_EXT4) } },
	{ "modlist-duplicate", "bad-modlist",
	  { IN(4, MODLISTS, 4 * 4, S_EXT4) } },
	{ "modlist-name-mid-string", "bad-modlist",
	  { IN(4, MODLISTS, 4 * 6, S_CRC + 1) } },
	{ "modlist-name-at-nul", "bad-modlist",
	  { IN(4, MODLISTS, 4 * 6, S_CRC - 1) } },
	{ "modlist-name-past-strtab", "bad-modlist",
	  { IN(4, MODLISTS, 4 * 6, sizeof(sample_strtab)) } },
	/* Objects: modlist, name pairs. */
	{ "object-list-mid-list", "bad-object", { IN(4, OBJECTS, 8, 3) } },
	{ "object-list-past-end", "bad-object",
	  { IN(4, OBJECTS, 8, NR_SAMPLE_WORDS) } },
	{ "object-name-mid-string", "bad-object",
	  { IN(4, OBJECTS, 8 * 2 + 4, S_TWO + 4) } },
	{ "object-name-past-strtab", "bad-object",
	  { IN(4, OBJECTS, 8 * 2 + 4, 0x7fffffff) } },
	{ "class-unknown", "unknown-class", { SEC(1, 0, KMS_NR_CLASSES) } },
	{ "class-unknown-max", "unknown-class", { SEC(4, 0, KMS_NONE) } },
	/* Init text's one range given to the data section after it. */
	{ "section-empty", "bad-section", { SEC(1, 1, 0), SEC(2, 1, 3) } },
	{ "section-counts-short", "bad-section", { SEC(SEC_PERCPU, 1, 2) } },
	{ "section-counts-long", "bad-section", { SEC(SEC_PERCPU, 1, 4) } },
	/* The exit text starts inside the data section before it. */
	{ "section-overlap", "bad-section", { START(8, 0x10f0) } },
	/* The first init text section starts inside the text. */
	{ "section-before-previous", "bad-section", { START(5, 0x100) } },
	/* The bss made per-CPU: per-CPU offsets 0x2000.. then 0x0.. */
	{ "section-percpu-out-of-order", "bad-section",
	  { SEC(4, 0, KMS_CLASS_PERCPU) } },
	/* Per-CPU data made text: text offsets go back to 0. */
	{ "section-percpu-made-data", "bad-section",
	  { SEC(SEC_PERCPU, 0, KMS_CLASS_DATA) } },
	{ "range-unsorted", "bad-range", { START(3, 0x70) } },
	{ "range-same-start", "bad-range", { START(3, 0x80) } },
	{ "range-at-section-end", "bad-range", { SEC(0, 2, 0x180) } },
	{ "range-percpu-at-section-end", "bad-range", { START(12, 0x100) } },
	{ "range-object-past-end", "bad-range",
	  { OBJECT16(2, NR_SAMPLE_OBJECTS) } },
	{ "range-object-almost-none", "bad-range", { OBJECT16(0, 0xfffe) } },
	{ "range-unmerged", "bad-range", { OBJECT16(2, 2) } },
	{ "range-unmerged-after-gap", "bad-range",
	  { OBJECT16(2, KMS_NONE16) } },
	{ "range-unmerged-percpu", "bad-range", { OBJECT16(12, KMS_NONE16) } },
};

/* Where @base is in @img, as build_image() laid it out in @l. */
static uint64_t base_of(unsigned int base, const struct buf *img,
			const struct layout *l)
{
	if (base == FROM_ZERO)
		return 0;
	if (base == FROM_END)
		return img->len;
	return l->off[base];
}

static void apply_poke(struct buf *img, const struct layout *l,
		       const struct poke *p)
{
	size_t at = base_of(p->at_base, img, l) + p->at;
	uint32_t v = base_of(p->value_base, img, l) + p->value;

	if (p->width == 4) {
		buf_put_le32(img, at, v);
		return;
	}
	img->p[at] = v;
	if (p->width == 2)
		img->p[at + 1] = v >> 8;
}

void image_cases(void)
{
	size_t i, k;

	for (i = 0; i < sizeof(image_table) / sizeof(image_table[0]); i++) {
		const struct image_case *c = &image_table[i];
		struct layout l;
		struct buf img = sample_image(&l);

		for (k = 0; k < 2 && c->pokes[k].width; k++)
			apply_poke(&img, &l, &c->pokes[k]);
		if (c->reason)
			verdict_refuse(c->name, c->reason);
		else
			verdict_accept(c->name, &img, sample.annotations);
		emit_blob(c->name, zstd_blob(&img));
		buf_release(&img);
	}
}

/*
 * A blob of the sample image with a header field (FORMAT.md 2) of @width
 * bytes set to @value, or to the image's CRC-32, the payload's size plus
 * @value, the paths frame's size plus @value, the paths size that makes
 * header, payload and paths 2^32 + @value bytes, the init paths frame's
 * size plus @value, or the init paths size that makes the whole 2^32 +
 * @value bytes.
 */
enum { SET, IMAGE_CRC, PAYLOAD_SIZE_PLUS, PATHS_SIZE_PLUS, PATHS_SIZE_WRAPS,
       INIT_PATHS_SIZE_PLUS, INIT_PATHS_SIZE_WRAPS };

struct header_case {
	const char *name;
	unsigned int field, width;
	int kind;
	uint32_t value;
	const char *reason;
};

static const struct header_case header_table[] = {
	{ "header-bad-magic", KMS_HDR_MAGIC, 4, SET, 0x32534d4b, "bad-header" },
	{ "header-version-0", KMS_HDR_VERSION, 2, SET, 0, "bad-version" },
	{ "header-version-1", KMS_HDR_VERSION, 2, SET, 1, "bad-version" },
	{ "header-version-3", KMS_HDR_VERSION, 2, SET, 3, "bad-version" },
	{ "header-version-4", KMS_HDR_VERSION, 2, SET, 4, "bad-version" },
	{ "header-version-6", KMS_HDR_VERSION, 2, SET, 6, "bad-version" },
	{ "header-version-max", KMS_HDR_VERSION, 2, SET, 0xffff,
	  "bad-version" },
	{ "header-size-48", KMS_HDR_HEADER_SIZE, 2, SET, 48, "bad-header" },
	{ "header-flags-zero", KMS_HDR_FLAGS, 4, SET, 0, "bad-header" },
	{ "header-unknown-flag", KMS_HDR_FLAGS, 4, SET, KMS_FLAG_ZSTD | 0x2,
	  "bad-header" },
	{ "header-high-flag", KMS_HDR_FLAGS, 4, SET,
	  KMS_FLAG_ZSTD | 0x80000000u, "bad-header" },
	{ "header-payload-size-long", KMS_HDR_PAYLOAD_SIZE, 4,
	  PAYLOAD_SIZE_PLUS, 1, "bad-header" },
	{ "header-payload-size-max", KMS_HDR_PAYLOAD_SIZE, 4, SET, KMS_NONE,
	  "bad-header" },
	{ "header-payload-size-wraps", KMS_HDR_PAYLOAD_SIZE, 4, SET,
	  KMS_NONE - KMS_HEADER_SIZE + 1, "bad-header" },
	{ "header-image-size-small", KMS_HDR_IMAGE_SIZE, 4, SET,
	  KMS_IMAGE_HEADER_SIZE - 1, "bad-header" },
	{ "header-image-size-large", KMS_HDR_IMAGE_SIZE, 4, SET,
	  KMS_IMAGE_MAX_SIZE + 1, "bad-header" },
	{ "header-image-size-max", KMS_HDR_IMAGE_SIZE, 4, SET, KMS_NONE,
	  "bad-header" },
	{ "header-paths-size-long", KMS_HDR_PATHS_SIZE, 4, PATHS_SIZE_PLUS,
	  1, "bad-header" },
	{ "header-paths-size-max", KMS_HDR_PATHS_SIZE, 4, SET, KMS_NONE,
	  "bad-header" },
	{ "header-paths-size-wraps", KMS_HDR_PATHS_SIZE, 4, PATHS_SIZE_WRAPS,
	  0, "bad-header" },
	{ "header-paths-image-size-small", KMS_HDR_PATHS_IMAGE_SIZE, 4, SET,
	  KMS_PATHS_HEADER_SIZE - 1, "bad-header" },
	{ "header-paths-image-size-large", KMS_HDR_PATHS_IMAGE_SIZE, 4, SET,
	  KMS_PATHS_MAX_SIZE + 1, "bad-header" },
	{ "header-paths-image-size-max", KMS_HDR_PATHS_IMAGE_SIZE, 4, SET,
	  KMS_NONE, "bad-header" },
	{ "header-init-paths-size-long", KMS_HDR_INIT_PATHS_SIZE, 4,
	  INIT_PATHS_SIZE_PLUS, 1, "bad-header" },
	{ "header-init-paths-size-max", KMS_HDR_INIT_PATHS_SIZE, 4, SET,
	  KMS_NONE, "bad-header" },
	{ "header-init-paths-size-wraps", KMS_HDR_INIT_PATHS_SIZE, 4,
	  INIT_PATHS_SIZE_WRAPS, 0, "bad-header" },
	/* Version 1's CRC-32 of the image, where init_paths_size is now. */
	{ "header-init-paths-size-old-crc", KMS_HDR_INIT_PATHS_SIZE, 4,
	  IMAGE_CRC, 0, "bad-header" },
};

static void emit_header_case(const struct header_case *c,
			     const struct buf *img)
{
	struct buf blob = zstd_blob(img);
	uint32_t value = c->value;

	if (c->kind == IMAGE_CRC)
		value = kms_crc32(img->p, img->len);
	else if (c->kind == PAYLOAD_SIZE_PLUS)
		value += kms_get_le32(blob.p + KMS_HDR_PAYLOAD_SIZE);
	else if (c->kind == PATHS_SIZE_PLUS)
		value += kms_get_le32(blob.p + KMS_HDR_PATHS_SIZE);
	else if (c->kind == PATHS_SIZE_WRAPS)
		value -= KMS_HEADER_SIZE +
			kms_get_le32(blob.p + KMS_HDR_PAYLOAD_SIZE);
	else if (c->kind == INIT_PATHS_SIZE_PLUS)
		value += kms_get_le32(blob.p + KMS_HDR_INIT_PATHS_SIZE);
	else if (c->kind == INIT_PATHS_SIZE_WRAPS)
		value -= KMS_HEADER_SIZE +
			kms_get_le32(blob.p + KMS_HDR_PAYLOAD_SIZE) +
			kms_get_le32(blob.p + KMS_HDR_PATHS_SIZE);
	if (c->width == 2) {
		blob.p[c->field] = value;
		blob.p[c->field + 1] = value >> 8;
	} else {
		buf_put_le32(&blob, c->field, value);
	}
	verdict_refuse(c->name, c->reason);
	emit_blob(c->name, blob);
}

/* The header cases, and blobs too short, empty or not compressed. */
void header_cases(void)
{
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf blob = zstd_blob(&img), b;
	size_t i;

	b = buf_copy(&blob);
	b.len = KMS_HEADER_SIZE - 1;
	verdict_refuse("header-short", "bad-header");
	emit_blob("header-short", b);

	b = (struct buf){ 0 };
	verdict_refuse("header-empty-descriptor", "bad-header");
	emit_blob("header-empty-descriptor", b);

	/* The header alone: no payload. */
	b = buf_copy(&blob);
	b.len = KMS_HEADER_SIZE;
	buf_put_le32(&b, KMS_HDR_PAYLOAD_SIZE, 0);
	buf_put_le32(&b, KMS_HDR_PATHS_SIZE, 0);
	buf_put_le32(&b, KMS_HDR_INIT_PATHS_SIZE, 0);
	verdict_refuse("header-only", "bad-frame");
	emit_blob("header-only", b);

	for (i = 0; i < sizeof(header_table) / sizeof(header_table[0]); i++)
		emit_header_case(&header_table[i], &img);

	/* The uncompressed form of version 1 is gone: no checksum. */
	verdict_refuse("header-raw-image", "bad-header");
	emit_blob("header-raw-image", blob_of(&img, &img, 0));

	/* An uncompressed image, but the flag says zstd. */
	emit_payload_case("zstd-flag-raw-payload", &img, buf_copy(&img),
			  "bad-frame");

	buf_release(&blob);
	buf_release(&img);
}

/* The writer's own encoder: the blob kallmodsyms-gen writes. */
void writer_case(void)
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
	uint32_t piece_start[2][32], piece_path[2][32];
	const char *paths[2][32];
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
	sample_paths_input(&in, piece_start, piece_path, paths);
	check(kms_blob_encode(&in, &writer_blob, &writer_size));
	img = sample_image(&l);
	verdict_accept("valid-writer", &img, sample.annotations);
	buf_append(&blob, writer_blob, writer_size);
	free(writer_blob);
	emit_blob("valid-writer", blob);
	buf_release(&img);
}
