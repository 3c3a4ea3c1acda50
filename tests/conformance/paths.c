// SPDX-License-Identifier: GPL-2.0
/*
 * The paths image (FORMAT.md 3.9, corpus.h): the sample paths image every
 * blob carries, its stored form written apart from the library's, and the
 * cases that break one rule of it (bad-paths), of the header fields that
 * describe it (bad-header) or of its frame (bad-frame, bad-zstd).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>

#include "corpus.h"

/*
 * Paths of the sample's executable code, the text [0x10, 0x200) in the
 * paths image, init text [0x800, 0x900) and exit text [0x1100, 0x1180) in
 * the init paths image: pieces without a path between and inside them,
 * path 0 in two pieces, fs/ext4/inode.o in both images.  Each object name
 * of the sample image is a component suffix of its piece's path.
 * Front-coded (FORMAT.md 3.9), the text's strings are at: 0 "\1"
 * fs/ext4/super.o, 17 "\11" inode.o (shares fs/ext4/), 26 "\1"
 * drivers/one/util.o, 46 "\1" lib/two/util.o; 62 bytes.
 */
static const char text_strings[] =
	"fs/ext4/super.o\0fs/ext4/inode.o\0drivers/one/util.o\0"
	"lib/two/util.o";
#define S_SUPER_AT 1	/* the first byte of fs/ext4/super.o */
#define S_FRONT_INODE 17	/* the front-coding byte of fs/ext4/inode.o */
#define S_DRIVERS_AT 27	/* the first byte of drivers/one/util.o */
#define S_TEXT_SIZE 62

static const uint32_t text_pieces[] = {
	0x10, 0, 0x30, 1, 0x40, KMS_NONE, 0x80, 2, 0x100, 3, 0x180, 0,
};
#define NR_TEXT_PIECES (sizeof(text_pieces) / 8)

static const char init_strings[] = "fs/inode.o\0fs/ext4/inode.o";
static const uint32_t init_pieces[] = {
	0x800, 0, 0x900, KMS_NONE, 0x1100, 1,
};

static const struct paths_spec sample_text = {
	.nr_pieces = NR_TEXT_PIECES,
	.pieces = text_pieces,
	.end = 0x200,
	.nr_paths = 4,
	.strings_size = sizeof(text_strings),
	.strings = text_strings,
};

static const struct paths_spec sample_init = {
	.nr_pieces = sizeof(init_pieces) / 8,
	.pieces = init_pieces,
	.end = 0x1180,
	.nr_paths = 2,
	.strings_size = sizeof(init_strings),
	.strings = init_strings,
};

/* FORMAT.md 7.1's path probes of the sample's text, _text at 0. */
#define TEXT_LINES \
	"0xf -", \
	"0x10 fs/ext4/super.o", \
	"0x2f fs/ext4/super.o", \
	"0x30 fs/ext4/inode.o", \
	"0x3f fs/ext4/inode.o", \
	"0x40 -", \
	"0x7f -", \
	"0x80 drivers/one/util.o", \
	"0xff drivers/one/util.o", \
	"0x100 lib/two/util.o", \
	"0x17f lib/two/util.o", \
	"0x180 fs/ext4/super.o", \
	"0x1ff fs/ext4/super.o", \
	"0x200 -"

/* And of both images. */
static const char *const sample_lines[] = {
	TEXT_LINES,
	"0x7ff -",
	"0x800 fs/inode.o",
	"0x8ff fs/inode.o",
	"0x900 -",
	"0x10ff -",
	"0x1100 fs/ext4/inode.o",
	"0x117f fs/ext4/inode.o",
	"0x1180 -",
	NULL
};

const struct paths_set sample_paths = {
	.text = &sample_text,
	.init = &sample_init,
	.lines = sample_lines,
};

/* @p's strings, front-coded (FORMAT.md 3.9) unless they are already. */
static void append_strings(struct buf *b, const struct paths_spec *p)
{
	const char *prev = "", *s = p->strings;
	uint32_t k;

	if (p->stored) {
		buf_append(b, p->strings, p->strings_size);
		return;
	}
	for (k = 0; k < p->nr_paths; k++) {
		unsigned char shared = 0;

		while (shared < 254 && prev[shared] && prev[shared] == s[shared])
			shared++;
		shared++;
		buf_append(b, &shared, 1);
		buf_append(b, s + shared - 1, strlen(s) - shared + 2);
		prev = s;
		s += strlen(s) + 1;
	}
}

struct buf build_paths(const struct paths_spec *p)
{
	unsigned int width = KMS_PATH_WIDTH(p->nr_paths);
	struct buf b = { 0 };
	unsigned char w[2];
	uint32_t i;

	buf_append_le32(&b, p->nr_pieces);
	buf_append_le32(&b, p->nr_paths);
	buf_append_le32(&b, p->end);
	for (i = 0; i < p->nr_pieces; i++)
		buf_append_le32(&b, p->pieces[2 * i]);
	for (i = 0; i < p->nr_pieces; i++) {
		uint32_t path = p->pieces[2 * i + 1];

		if (width == 4) {
			buf_append_le32(&b, path);
			continue;
		}
		w[0] = path;
		w[1] = path >> 8;
		buf_append(&b, w, 2);
	}
	append_strings(&b, p);
	return b;
}

/*
 * The stored form of a paths image (FORMAT.md 3.9), apart from the
 * library's: the starts as differences, both columns in byte planes.  A
 * paths image whose columns do not fit is stored as it is.
 */
struct buf paths_stored_form(const void *data, size_t size)
{
	const unsigned char *h = data;
	struct buf b = { 0 };
	uint32_t n, i;
	unsigned int width;

	buf_append(&b, data, size);
	if (size < KMS_PATHS_HEADER_SIZE)
		return b;
	n = kms_get_le32(h + KMS_PATHS_NR_PIECES);
	width = KMS_PATH_WIDTH(kms_get_le32(h + KMS_PATHS_NR_PATHS));
	if (KMS_PATHS_HEADER_SIZE + (4 + (uint64_t)width) * n > size)
		return b;
	for (i = n - 1; n && i > 0; i--)
		buf_put_le32(&b, KMS_PATHS_HEADER_SIZE + 4 * i,
			     kms_get_le32(h + KMS_PATHS_HEADER_SIZE + 4 * i) -
			     kms_get_le32(h + KMS_PATHS_HEADER_SIZE + 4 * (i - 1)));
	to_planes(b.p + KMS_PATHS_HEADER_SIZE, n, 4);
	to_planes(b.p + KMS_PATHS_HEADER_SIZE + 4 * (size_t)n, n, width);
	return b;
}

struct buf paths_frame(const struct paths_spec *p, size_t *paths_image_size)
{
	struct buf b = build_paths(p);
	struct buf f = zstd_frame(b.p, b.len, KMS_ZSTD_LEVEL, PATHS);

	*paths_image_size = b.len;
	buf_release(&b);
	return f;
}

/* @p as the encoder's input @in, through the caller's arrays of 32. */
static void paths_input(struct kms_encode_paths *in,
			const struct paths_spec *p, uint32_t start[32],
			uint32_t path[32], const char *paths[32])
{
	uint32_t i;

	if (p->nr_pieces > 32 || p->nr_paths > 32)
		die("internal error: the sample has more than 32 pieces or paths");
	for (i = 0; i < p->nr_pieces; i++) {
		start[i] = p->pieces[2 * i];
		path[i] = p->pieces[2 * i + 1];
	}
	paths[0] = p->strings;
	for (i = 1; i < p->nr_paths; i++)
		paths[i] = paths[i - 1] + strlen(paths[i - 1]) + 1;
	*in = (struct kms_encode_paths){
		.nr_pieces = p->nr_pieces, .piece_start = start,
		.piece_path = path, .pieces_end = p->end,
		.nr_paths = p->nr_paths, .paths = paths,
	};
}

void sample_paths_input(struct kms_encode_input *in, uint32_t start[2][32],
			uint32_t path[2][32], const char *paths[2][32])
{
	paths_input(&in->paths[KMS_PATHS_TEXT], sample_paths.text, start[0],
		    path[0], paths[0]);
	paths_input(&in->paths[KMS_PATHS_INIT], sample_paths.init, start[1],
		    path[1], paths[1]);
}

/*
 * A blob of the sample image with @text and @init, paths images (@init
 * empty: no init paths frame), refused.
 */
static void emit_images_case(const char *name, struct buf text,
			     struct buf init, const char *reason)
{
	struct layout l;
	struct buf img = sample_image(&l), payload, frame, init_frame = { 0 };

	payload = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, 0);
	frame = zstd_frame(text.p, text.len, KMS_ZSTD_LEVEL, PATHS);
	if (init.len)
		init_frame = zstd_frame(init.p, init.len, KMS_ZSTD_LEVEL,
					PATHS);
	verdict_refuse(name, reason);
	emit_blob(name, blob_with_paths(&img, &payload, &frame, text.len,
					&init_frame, KMS_FLAG_ZSTD));
	buf_release(&init_frame);
	buf_release(&frame);
	buf_release(&payload);
	buf_release(&init);
	buf_release(&text);
	buf_release(&img);
}

/* A blob whose paths image is @paths, with the sample's init paths. */
static void emit_paths_case(const char *name, struct buf paths,
			    const char *reason)
{
	emit_images_case(name, paths, build_paths(sample_paths.init), reason);
}

/* Where a poke of the sample paths image goes (corpus.h's struct poke's
 * simpler sibling): the header, a start, a path, a byte of the strings. */
enum { P_HEADER, P_START, P_PATH, P_STRING };

#define HDR_AT(field, v) { P_HEADER, field, v }
#define START_AT(i, v) { P_START, i, v }
#define PATH_AT(i, v) { P_PATH, i, v }
#define STRING_AT(off, c) { P_STRING, off, c }

static const struct {
	const char *name;
	struct { unsigned int where; uint32_t at, value; } poke;
} paths_table[] = {
	{ "paths-no-pieces", HDR_AT(KMS_PATHS_NR_PIECES, 0) },
	{ "paths-arrays-past-end", HDR_AT(KMS_PATHS_NR_PIECES, 0x10000000) },
	{ "paths-too-few-strings", HDR_AT(KMS_PATHS_NR_PATHS, 5) },
	{ "paths-last-not-nul", STRING_AT(S_TEXT_SIZE - 1, 'x') },
	{ "paths-non-printable", STRING_AT(S_SUPER_AT + 4, 0x01) },
	{ "paths-non-ascii", STRING_AT(S_SUPER_AT + 4, 0xe9) },
	{ "paths-space", STRING_AT(S_SUPER_AT + 4, ' ') },
	{ "paths-leading-slash", STRING_AT(S_DRIVERS_AT, '/') },
	{ "paths-trailing-slash", STRING_AT(S_DRIVERS_AT + 17, '/') },
	{ "paths-double-slash", STRING_AT(S_SUPER_AT + 3, '/') },
	/* Front coding: the first path shares a byte with none before it. */
	{ "paths-front-first-shares", STRING_AT(0, 2) },
	/* fs/ext4/inode.o shares 16 bytes of the 15 of fs/ext4/super.o. */
	{ "paths-front-shares-too-many", STRING_AT(S_FRONT_INODE, 17) },
	{ "paths-start-not-increasing", START_AT(3, 0x3f) },
	{ "paths-start-difference-zero", START_AT(3, 0x40) },
	{ "paths-last-start-at-end", START_AT(NR_TEXT_PIECES - 1, 0x200) },
	{ "paths-index-past-end", PATH_AT(3, 4) },
	{ "paths-index-almost-none", PATH_AT(3, 0xfffe) },
	{ "paths-adjacent-same", PATH_AT(1, 0) },
};

/* The sample paths image with one poke. */
static struct buf poked_paths(unsigned int where, uint32_t at, uint32_t v)
{
	struct buf b = build_paths(sample_paths.text);
	size_t paths = KMS_PATHS_HEADER_SIZE + 4 * NR_TEXT_PIECES;

	switch (where) {
	case P_HEADER:
		buf_put_le32(&b, at, v);
		break;
	case P_START:
		buf_put_le32(&b, KMS_PATHS_HEADER_SIZE + 4 * at, v);
		break;
	case P_PATH:
		b.p[paths + 2 * at] = v;
		b.p[paths + 2 * at + 1] = v >> 8;
		break;
	case P_STRING:
		b.p[paths + 2 * NR_TEXT_PIECES + at] = v;
		break;
	}
	return b;
}

/*
 * The sample's text pieces with @nr strings as stored, front coding and
 * all (@size bytes).
 */
static struct buf paths_with_strings(uint32_t nr, const char *strings,
				     uint32_t size)
{
	struct paths_spec p = *sample_paths.text;

	p.nr_paths = nr;
	p.strings = strings;
	p.strings_size = size;
	p.stored = true;
	return build_paths(&p);
}

/* A paths image of many paths, 4-byte piece paths, from offset 0. */
static void emit_wide(void)
{
	static const uint32_t pieces[] = { 0, 65535, 0x10, KMS_NONE };
	static const char *const lines[] = {
		"0x0 last/x.o", "0xf last/x.o", "0x10 -", "0x1f -", "0x20 -",
		NULL
	};
	struct paths_spec p = { .nr_pieces = 2, .pieces = pieces, .end = 0x20,
				.nr_paths = 65536 };
	struct paths_set set = { .text = &p, .lines = lines };
	struct buf strings = { 0 }, paths, img, payload, frame;
	struct layout l;
	uint32_t i;

	for (i = 0; i < 65535; i++)
		buf_append(&strings, "x.o", 4);
	buf_append(&strings, "last/x.o", 9);
	p.strings = (const char *)strings.p;
	p.strings_size = strings.len;
	paths = build_paths(&p);
	img = sample_image(&l);
	payload = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, 0);
	frame = zstd_frame(paths.p, paths.len, KMS_ZSTD_LEVEL, PATHS);
	verdict_accept_paths("valid-paths-wide", &img, sample.annotations,
			     &set);
	emit_blob("valid-paths-wide",
		  blob_with_paths(&img, &payload, &frame, paths.len,
				  &(struct buf){ 0 }, KMS_FLAG_ZSTD));
	buf_release(&frame);
	buf_release(&payload);
	buf_release(&paths);
	buf_release(&img);
	buf_release(&strings);
}

void paths_cases(void)
{
	/* Path 1 stored empty: it shares nothing and adds nothing. */
	static const char empty[] =
		"\1fs/ext4/super.o\0\1\0\1drivers/one/util.o\0"
		"\1lib/two/util.o";
	static const char extra[] =
		"\1fs/ext4/super.o\0\11inode.o\0\1drivers/one/util.o\0"
		"\1lib/two/util.o\0\1extra.o";
	/* Path 1 has no front-coding byte: five strings, the second empty. */
	static const char no_front[] =
		"\1fs/ext4/super.o\0\0inode.o\0\1drivers/one/util.o\0"
		"\1lib/two/util.o";
	/* Path 1 is fine stored, but decodes to fs/ext4//inode.o. */
	static const char decoded_double[] =
		"\1fs/ext4/super.o\0\11/inode.o\0\1drivers/one/util.o\0"
		"\1lib/two/util.o";
	size_t i;

	emit_wide();
	for (i = 0; i < sizeof(paths_table) / sizeof(paths_table[0]); i++)
		emit_paths_case(paths_table[i].name,
				poked_paths(paths_table[i].poke.where,
					    paths_table[i].poke.at,
					    paths_table[i].poke.value),
				"bad-paths");
	emit_paths_case("paths-empty-string",
			paths_with_strings(4, empty, sizeof(empty)),
			"bad-paths");
	emit_paths_case("paths-too-many-strings",
			paths_with_strings(4, extra, sizeof(extra)),
			"bad-paths");
	emit_paths_case("paths-front-byte-nul",
			paths_with_strings(5, no_front, sizeof(no_front)),
			"bad-paths");
	emit_paths_case("paths-front-decoded-double-slash",
			paths_with_strings(4, decoded_double,
					   sizeof(decoded_double)),
			"bad-paths");
}

/* A skippable frame (magic 0x184d2a50) of @n zero bytes, appended. */
static void append_skippable4(struct buf *b, uint32_t n)
{
	static const unsigned char zeros[16];

	buf_append_le32(b, 0x184d2a50);
	buf_append_le32(b, n);
	buf_append(b, zeros, n);
}

/*
 * A blob of the sample image whose paths frame (of an image of
 * @paths_image_size bytes) is @frame, with the sample's init paths frame;
 * or, if @init, with the sample's paths frame and @frame as the init
 * paths frame; refused.
 */
static void emit_frame_case(const char *name, struct buf frame,
			    size_t paths_image_size, bool init,
			    const char *reason)
{
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf payload = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, 0);
	struct buf other;
	size_t size;

	verdict_refuse(name, reason);
	if (init) {
		other = paths_frame(sample_paths.text, &size);
		emit_blob(name, blob_with_paths(&img, &payload, &other, size,
						&frame, KMS_FLAG_ZSTD));
	} else {
		other = paths_frame(sample_paths.init, &size);
		emit_blob(name, blob_with_paths(&img, &payload, &frame,
						paths_image_size, &other,
						KMS_FLAG_ZSTD));
	}
	buf_release(&other);
	buf_release(&payload);
	buf_release(&frame);
	buf_release(&img);
}

/* Case @name of @prefix ("paths", "init-paths"): "PREFIX-zstd-NAME". */
static const char *frame_case_name(const char *prefix, const char *name)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s-zstd-%s", prefix, name);
	return buf;
}

/*
 * The paths frame, or with @init the init paths frame (FORMAT.md 2),
 * broken in one way each.
 */
static void frame_cases(const char *prefix, bool init)
{
	const struct paths_spec *spec = init ? sample_paths.init :
					       sample_paths.text;
	struct buf paths = build_paths(spec), p;
	size_t size;
	struct buf frame = paths_frame(spec, &size);

#define CASE(name, b, reason) \
	emit_frame_case(frame_case_name(prefix, name), b, size, init, reason)
	CASE("not-a-frame", buf_copy(&paths), "bad-frame");
	p = buf_copy(&frame);
	p.len -= 5;
	CASE("truncated", p, "bad-frame");
	p = (struct buf){ 0 };
	append_skippable4(&p, 4);
	CASE("skippable", p, "bad-frame");
	p = buf_copy(&frame);
	append_skippable4(&p, 4);
	CASE("trailing-skippable", p, "bad-frame");
	p = buf_copy(&frame);
	buf_append(&p, "\0\0\0", 3);
	CASE("trailing-bytes", p, "bad-frame");
	CASE("no-content-size",
	     zstd_frame(paths.p, paths.len, KMS_ZSTD_LEVEL,
			PATHS | NO_CONTENT_SIZE), "bad-frame");
	CASE("no-checksum",
	     zstd_frame(paths.p, paths.len, KMS_ZSTD_LEVEL,
			PATHS | NO_CHECKSUM), "bad-frame");
	p = buf_copy(&frame);
	p.p[p.len - 1] ^= 0xff;
	CASE("bad-checksum", p, "bad-zstd");
	/* A byte of the compressed data, before the checksum, damaged. */
	p = buf_copy(&frame);
	p.p[p.len - 8] ^= 0x55;
	CASE("damaged-byte", p, "bad-zstd");
#undef CASE
	buf_release(&frame);
	buf_release(&paths);
}

/* The paths frame (FORMAT.md 2) broken in one way each. */
void paths_frame_cases(void)
{
	struct buf longer = build_paths(sample_paths.text);
	size_t size = longer.len;

	frame_cases("paths", false);
	/* A frame of a longer paths image: it declares another size. */
	buf_append(&longer, "\1x.o", 5);
	emit_frame_case("paths-zstd-content-size-other",
			zstd_frame(longer.p, longer.len, KMS_ZSTD_LEVEL, PATHS),
			size, false, "bad-frame");
	buf_release(&longer);
}

/*
 * The init paths image and its frame (FORMAT.md 2, 3.9): a blob without
 * one, then each rule broken.
 */
void init_paths_cases(void)
{
	static const char *const text_lines[] = { TEXT_LINES, NULL };
	static const uint32_t early[] = { 0x1f0, 0, 0x900, KMS_NONE };
	struct paths_spec before_end = *sample_paths.init;
	struct paths_set no_init = { sample_paths.text, NULL, text_lines };
	struct layout l;
	struct buf img = sample_image(&l), payload, frame, b;
	size_t size;

	payload = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, 0);
	frame = paths_frame(sample_paths.text, &size);
	verdict_accept_paths("valid-no-init-paths", &img, sample.annotations,
			     &no_init);
	emit_blob("valid-no-init-paths",
		  blob_with_paths(&img, &payload, &frame, size,
				  &(struct buf){ 0 }, KMS_FLAG_ZSTD));
	frame_cases("init-paths", true);
	/* Init text that starts before the text's paths end (0x200). */
	before_end.nr_pieces = 2;
	before_end.pieces = early;
	emit_images_case("init-paths-before-text-end",
			 build_paths(sample_paths.text),
			 build_paths(&before_end), "bad-paths");
	b = build_paths(sample_paths.init);
	buf_put_le32(&b, KMS_PATHS_NR_PIECES, 0);
	emit_images_case("init-paths-no-pieces",
			 build_paths(sample_paths.text), b, "bad-paths");
	/* A frame that declares fewer bytes than a paths image's header. */
	emit_frame_case("init-paths-zstd-size-small",
			zstd_frame("\0\0\0\0\0\0\0\0", 8, KMS_ZSTD_LEVEL,
				   AS_IS), 0, true, "bad-frame");
	buf_release(&frame);
	buf_release(&payload);
	buf_release(&img);
}
