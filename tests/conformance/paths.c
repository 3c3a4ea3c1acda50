// SPDX-License-Identifier: GPL-2.0
/*
 * The paths image (FORMAT.md 3.9, corpus.h): the sample paths image every
 * blob carries, its stored form written apart from the library's, and the
 * cases that break one rule of it (bad-paths), of the header fields that
 * describe it (bad-header) or of its frame (bad-frame, bad-zstd).
 */
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>

#include "corpus.h"

/*
 * Paths of the sample's executable code, the text [0x10, 0x200), init
 * text [0x800, 0x900) and exit text [0x1100, 0x1180): pieces without a
 * path between and inside them, path 0 in three pieces, path 1 in two.
 * Each object name of the sample image is a component suffix of its
 * piece's path.  Strings at: 0 fs/ext4/super.o, 16 fs/ext4/inode.o, 32
 * drivers/one/util.o, 51 lib/two/util.o, 66 fs/inode.o.
 */
static const char sample_strings[] =
	"fs/ext4/super.o\0fs/ext4/inode.o\0drivers/one/util.o\0"
	"lib/two/util.o\0fs/inode.o";
#define P_SUPER 0
#define P_INODE 66

static const uint32_t sample_pieces[] = {
	0x10, 0, 0x30, 1, 0x40, KMS_NONE, 0x80, 2, 0x100, 3, 0x180, 0,
	0x200, KMS_NONE, 0x800, 4, 0x900, KMS_NONE, 0x1100, 1,
};
#define NR_SAMPLE_PIECES (sizeof(sample_pieces) / 8)

/* FORMAT.md 7.1's path probes of the sample, _text at 0. */
static const char *const sample_lines[] = {
	"0xf -",
	"0x10 fs/ext4/super.o",
	"0x2f fs/ext4/super.o",
	"0x30 fs/ext4/inode.o",
	"0x3f fs/ext4/inode.o",
	"0x40 -",
	"0x7f -",
	"0x80 drivers/one/util.o",
	"0xff drivers/one/util.o",
	"0x100 lib/two/util.o",
	"0x17f lib/two/util.o",
	"0x180 fs/ext4/super.o",
	"0x1ff fs/ext4/super.o",
	"0x200 -",
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

const struct paths_spec sample_paths = {
	.nr_pieces = NR_SAMPLE_PIECES,
	.pieces = sample_pieces,
	.end = 0x1180,
	.nr_paths = 5,
	.strings_size = sizeof(sample_strings),
	.strings = sample_strings,
	.lines = sample_lines,
};

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
	buf_append(&b, p->strings, p->strings_size);
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

struct buf sample_paths_frame(size_t *paths_image_size)
{
	struct buf p = build_paths(&sample_paths);
	struct buf f = zstd_frame(p.p, p.len, KMS_ZSTD_LEVEL, PATHS);

	*paths_image_size = p.len;
	buf_release(&p);
	return f;
}

void sample_paths_input(struct kms_encode_input *in, uint32_t start[32],
			uint32_t path[32], const char *paths[32])
{
	uint32_t i;

	if (sample_paths.nr_pieces > 32 || sample_paths.nr_paths > 32)
		die("internal error: the sample has more than 32 pieces or paths");
	for (i = 0; i < sample_paths.nr_pieces; i++) {
		start[i] = sample_paths.pieces[2 * i];
		path[i] = sample_paths.pieces[2 * i + 1];
	}
	paths[0] = sample_paths.strings;
	for (i = 1; i < sample_paths.nr_paths; i++)
		paths[i] = paths[i - 1] + strlen(paths[i - 1]) + 1;
	in->nr_pieces = sample_paths.nr_pieces;
	in->piece_start = start;
	in->piece_path = path;
	in->pieces_end = sample_paths.end;
	in->nr_paths = sample_paths.nr_paths;
	in->paths = paths;
}

/* A blob of the sample image with @paths, a paths image, refused. */
static void emit_paths_case(const char *name, struct buf paths,
			    const char *reason)
{
	struct layout l;
	struct buf img = sample_image(&l), payload, frame;

	payload = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, 0);
	frame = zstd_frame(paths.p, paths.len, KMS_ZSTD_LEVEL, PATHS);
	verdict_refuse(name, reason);
	emit_blob(name, blob_with_paths(&img, &payload, &frame, paths.len,
					KMS_FLAG_ZSTD));
	buf_release(&frame);
	buf_release(&payload);
	buf_release(&paths);
	buf_release(&img);
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
	{ "paths-too-few-strings", HDR_AT(KMS_PATHS_NR_PATHS, 6) },
	{ "paths-last-not-nul",
	  STRING_AT(sizeof(sample_strings) - 1, 'x') },
	{ "paths-non-printable", STRING_AT(P_SUPER + 4, 0x01) },
	{ "paths-non-ascii", STRING_AT(P_SUPER + 4, 0xe9) },
	{ "paths-space", STRING_AT(P_SUPER + 4, ' ') },
	{ "paths-leading-slash", STRING_AT(P_INODE, '/') },
	{ "paths-trailing-slash", STRING_AT(P_INODE + 9, '/') },
	{ "paths-double-slash", STRING_AT(P_SUPER + 3, '/') },
	{ "paths-start-not-increasing", START_AT(3, 0x3f) },
	{ "paths-start-difference-zero", START_AT(3, 0x40) },
	{ "paths-last-start-at-end", START_AT(NR_SAMPLE_PIECES - 1, 0x1180) },
	{ "paths-index-past-end", PATH_AT(3, 5) },
	{ "paths-index-almost-none", PATH_AT(3, 0xfffe) },
	{ "paths-adjacent-same", PATH_AT(1, 0) },
};

/* The sample paths image with one poke, or with its strings changed. */
static struct buf poked_paths(unsigned int where, uint32_t at, uint32_t v)
{
	struct buf b = build_paths(&sample_paths);
	size_t strings = KMS_PATHS_HEADER_SIZE + 6 * NR_SAMPLE_PIECES;

	switch (where) {
	case P_HEADER:
		buf_put_le32(&b, at, v);
		break;
	case P_START:
		buf_put_le32(&b, KMS_PATHS_HEADER_SIZE + 4 * at, v);
		break;
	case P_PATH:
		b.p[KMS_PATHS_HEADER_SIZE + 4 * NR_SAMPLE_PIECES + 2 * at] = v;
		b.p[KMS_PATHS_HEADER_SIZE + 4 * NR_SAMPLE_PIECES + 2 * at + 1] =
			v >> 8;
		break;
	case P_STRING:
		b.p[strings + at] = v;
		break;
	}
	return b;
}

/* The sample's pieces with the strings @strings (@size bytes). */
static struct buf paths_with_strings(const char *strings, uint32_t size)
{
	struct paths_spec p = sample_paths;

	p.strings = strings;
	p.strings_size = size;
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
				.nr_paths = 65536, .lines = lines };
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
	verdict_accept_paths("valid-paths-wide", &img, sample.annotations, &p);
	emit_blob("valid-paths-wide",
		  blob_with_paths(&img, &payload, &frame, paths.len,
				  KMS_FLAG_ZSTD));
	buf_release(&frame);
	buf_release(&payload);
	buf_release(&paths);
	buf_release(&img);
	buf_release(&strings);
}

void paths_cases(void)
{
	static const char empty[] =
		"fs/ext4/super.o\0\0drivers/one/util.o\0lib/two/util.o\0"
		"fs/inode.o";
	static const char extra[] =
		"fs/ext4/super.o\0fs/ext4/inode.o\0drivers/one/util.o\0"
		"lib/two/util.o\0fs/inode.o\0extra.o";
	size_t i;

	emit_wide();
	for (i = 0; i < sizeof(paths_table) / sizeof(paths_table[0]); i++)
		emit_paths_case(paths_table[i].name,
				poked_paths(paths_table[i].poke.where,
					    paths_table[i].poke.at,
					    paths_table[i].poke.value),
				"bad-paths");
	emit_paths_case("paths-empty-string",
			paths_with_strings(empty, sizeof(empty)), "bad-paths");
	emit_paths_case("paths-too-many-strings",
			paths_with_strings(extra, sizeof(extra)), "bad-paths");
}

/* A skippable frame (magic 0x184d2a50) of @n zero bytes, appended. */
static void append_skippable4(struct buf *b, uint32_t n)
{
	static const unsigned char zeros[16];

	buf_append_le32(b, 0x184d2a50);
	buf_append_le32(b, n);
	buf_append(b, zeros, n);
}

/* A blob of the sample image whose paths frame is @frame, refused. */
static void emit_frame_case(const char *name, struct buf frame,
			    size_t paths_image_size, const char *reason)
{
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf payload = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, 0);

	verdict_refuse(name, reason);
	emit_blob(name, blob_with_paths(&img, &payload, &frame,
					paths_image_size, KMS_FLAG_ZSTD));
	buf_release(&payload);
	buf_release(&frame);
	buf_release(&img);
}

/* The paths frame (FORMAT.md 2) broken in one way each. */
void paths_frame_cases(void)
{
	struct buf paths = build_paths(&sample_paths), longer, p;
	size_t size;
	struct buf frame = sample_paths_frame(&size);

	emit_frame_case("paths-zstd-not-a-frame", buf_copy(&paths), size,
			"bad-frame");
	p = buf_copy(&frame);
	p.len -= 5;
	emit_frame_case("paths-zstd-truncated", p, size, "bad-frame");
	p = (struct buf){ 0 };
	append_skippable4(&p, 4);
	emit_frame_case("paths-zstd-skippable", p, size, "bad-frame");
	p = buf_copy(&frame);
	append_skippable4(&p, 4);
	emit_frame_case("paths-zstd-trailing-skippable", p, size, "bad-frame");
	p = buf_copy(&frame);
	buf_append(&p, "\0\0\0", 3);
	emit_frame_case("paths-zstd-trailing-bytes", p, size, "bad-frame");
	/* A frame of a longer paths image: it declares another size. */
	longer = buf_copy(&paths);
	buf_append(&longer, "x.o", 4);
	emit_frame_case("paths-zstd-content-size-other",
			zstd_frame(longer.p, longer.len, KMS_ZSTD_LEVEL, PATHS),
			size, "bad-frame");
	emit_frame_case("paths-zstd-no-checksum",
			zstd_frame(paths.p, paths.len, KMS_ZSTD_LEVEL,
				   PATHS | NO_CHECKSUM),
			size, "bad-frame");
	p = buf_copy(&frame);
	p.p[p.len - 1] ^= 0xff;
	emit_frame_case("paths-zstd-bad-checksum", p, size, "bad-zstd");
	/* A byte of the compressed data, before the checksum, damaged. */
	p = buf_copy(&frame);
	p.p[p.len - 8] ^= 0x55;
	emit_frame_case("paths-zstd-damaged-byte", p, size, "bad-zstd");
	buf_release(&longer);
	buf_release(&frame);
	buf_release(&paths);
}
