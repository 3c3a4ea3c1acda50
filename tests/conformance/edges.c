// SPDX-License-Identifier: GPL-2.0
/*
 * Valid images at the edges of the format (corpus.h), after the blob of
 * the writer's own encoder (sample.c), and images just past an edge: no
 * tables, one range over the largest text, every class, arrays in
 * another order or apart, 2- and 4-byte range objects, the largest image.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>

#include "corpus.h"

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
	verdict_refuse(name, reason);
	frame = zstd_frame(img.p, img.len, 3, 0);
	emit_blob(name, blob_of(&img, &frame, KMS_FLAG_ZSTD));
	buf_release(&frame);
	buf_release(&img);
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

/* Valid images at the edges of the format. */
void edge_cases(void)
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
	buf_put_le32(&img, KMS_IMG_STARTS_OFF, l.off[OBJECTS] + 8);
	verdict_refuse("overlap-empty-array-inside", "overlap");
	emit_blob("overlap-empty-array-inside", zstd_blob(&img));
	buf_release(&img);

	/* The arrays in another order, with space between them. */
	emit_valid("valid-reordered-arrays", &sample, reordered, 12,
		   KMS_ZSTD_LEVEL);

	/* Slack after the last array, and an image size not a multiple of 4. */
	img = sample_image(&l);
	buf_append(&img, "\0\0\0\0\0", 5);
	verdict_accept("valid-slack-at-end", &img, sample.annotations);
	emit_blob("valid-slack-at-end", zstd_blob(&img));
	buf_release(&img);

	/* Range objects' width: 2 bytes up to 65535 objects, then 4. */
	emit_width_case("valid-objects-narrow-max", 65535, 65534, NULL);
	emit_width_case("valid-objects-wide", 65536, 65535, NULL);
	emit_width_case("range-object-wide-past-end", 65536, 65536,
			"bad-range");

	/* The largest image the format allows, and 4 bytes more. */
	emit_big("valid-image-max-size", KMS_IMAGE_MAX_SIZE, NULL);
	emit_big("image-over-max-size", KMS_IMAGE_MAX_SIZE + 4, "bad-header");
}
