// SPDX-License-Identifier: GPL-2.0
/*
 * Cases of the payload (corpus.h): zero padding after it, version-1 and
 * version-2 notes, stored forms that restore to bad starts, and zstd
 * frames that are not the one frame of the image they must be.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/crc32.h>
#include <kms/format.h>

#include "corpus.h"

/*
 * Padding inside the descriptor (FORMAT.md 2): zero bytes after the
 * payload, any number of them.
 */
void padding_cases(void)
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
		b = buf_copy(&blob);
		buf_append(&b, zeros, pads[i]);
		verdict_accept(names[i], &img, sample.annotations);
		emit_blob(names[i], b);
	}

	/* One nonzero byte in the padding, first or last. */
	b = buf_copy(&blob);
	buf_append(&b, zeros, 8);
	b.p[b.len - 1] = 1;
	verdict_refuse("padding-nonzero-last", "bad-header");
	emit_blob("padding-nonzero-last", b);

	b = buf_copy(&blob);
	buf_append(&b, zeros, 8);
	b.p[blob.len] = 0x80;
	verdict_refuse("padding-nonzero-first", "bad-header");
	emit_blob("padding-nonzero-first", b);

	/*
	 * payload_size one short: the paths frame starts a byte earlier and
	 * its last byte (its checksum) is padding now, and not zero; section
	 * 2 checks that before the frames.
	 */
	if (!blob.p[blob.len - 1])
		die("internal error: the sample paths frame ends with a zero byte");
	b = buf_copy(&blob);
	buf_put_le32(&b, KMS_HDR_PAYLOAD_SIZE,
		     kms_get_le32(blob.p + KMS_HDR_PAYLOAD_SIZE) - 1);
	verdict_refuse("padding-payload-size-short", "bad-header");
	emit_blob("padding-payload-size-short", b);

	/*
	 * paths_size reaching into zero padding: zero bytes after the paths
	 * frame, the last before the padding.
	 */
	b = buf_copy(&blob);
	buf_append(&b, zeros, 8);
	buf_put_le32(&b, KMS_HDR_PATHS_SIZE,
		     kms_get_le32(blob.p + KMS_HDR_PATHS_SIZE) + 4);
	verdict_refuse("padding-inside-paths-frame", "bad-frame");
	emit_blob("padding-inside-paths-frame", b);

	buf_release(&blob);
	buf_release(&img);
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

	buf_append_le32(&img, 0x200);				/* text_size */
	buf_append_le32(&img, nr_ranges);
	buf_append_le32(&img, off);
	off += 8 * nr_ranges;
	buf_append_le32(&img, sample.nr_objects);
	buf_append_le32(&img, off);
	off += 8 * sample.nr_objects;
	buf_append_le32(&img, sample.nr_words);
	buf_append_le32(&img, off);
	off += 4 * sample.nr_words;
	buf_append_le32(&img, sample.strtab_size);
	buf_append_le32(&img, off);
	buf_append_le32(&img, sample.nr_modules);
	buf_append_le32(&img, 0);
	buf_append_le32(&img, 0);
	for (i = 0; i < 2 * nr_ranges; i++)
		buf_append_le32(&img, ranges[i]);
	for (i = 0; i < 2 * sample.nr_objects; i++)
		buf_append_le32(&img, sample.objects[i]);
	for (i = 0; i < sample.nr_words; i++)
		buf_append_le32(&img, sample.words[i]);
	buf_append(&img, sample.strtab, sample.strtab_size);
	buf_pad4(&img);
	return img;
}

void v1_cases(void)
{
	struct buf img = v1_image(), frame, b;

	frame = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, AS_IS);
	b = blob_of(&img, &frame, KMS_FLAG_ZSTD);
	b.p[KMS_HDR_VERSION] = 1;
	buf_put_le32(&b, 20, kms_crc32(img.p, img.len));
	verdict_refuse("v1-sample", "bad-version");
	emit_blob("v1-sample", b);
	buf_release(&frame);

	b = blob_of(&img, &img, 0);
	b.p[KMS_HDR_VERSION] = 1;
	buf_put_le32(&b, 20, kms_crc32(img.p, img.len));
	verdict_refuse("v1-raw", "bad-version");
	emit_blob("v1-raw", b);
	buf_release(&img);
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
	verdict_refuse(name, "bad-range");
	emit_blob(name, blob_of(&img, &frame, KMS_FLAG_ZSTD));
	buf_release(&frame);
	buf_release(&stored);
	buf_release(&img);
}

void v3_cases(void)
{
	struct layout l;
	struct buf img = sample_image(&l), frame, b;

	frame = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, AS_IS);
	b = blob_of(&img, &frame, KMS_FLAG_ZSTD);
	b.p[KMS_HDR_VERSION] = 2;
	verdict_refuse("v2-sample", "bad-version");
	emit_blob("v2-sample", b);
	buf_release(&frame);

	/* Version 3's note: the image frame alone, the rest reserved. */
	frame = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, 0);
	b = blob_with_paths(&img, &frame, &(struct buf){ 0 }, 0,
			    &(struct buf){ 0 }, KMS_FLAG_ZSTD);
	b.p[KMS_HDR_VERSION] = 3;
	verdict_refuse("v3-sample", "bad-version");
	emit_blob("v3-sample", b);
	buf_release(&frame);
	buf_release(&img);

	/* Range 1 (0x40, after 0x10): a difference of 0, and of -1. */
	emit_stored_case("stored-difference-zero", 1, 0);
	emit_stored_case("stored-difference-wraps", 1, KMS_NONE);
	/* The per-CPU section's last range (0x80) pushed to its end. */
	emit_stored_case("stored-difference-past-end", 12, 0x100 - 0x40);
}

/* A skippable frame (magic 0x184d2a50..5f) of @n zero bytes. */
static void append_skippable(struct buf *b, uint32_t n)
{
	uint32_t i;

	buf_append_le32(b, 0x184d2a50);
	buf_append_le32(b, n);
	for (i = 0; i < n; i++)
		buf_append(b, "", 1);
}

void zstd_cases(void)
{
	struct layout l;
	struct buf img = sample_image(&l);
	struct buf blob = zstd_blob(&img), frame = payload_of(&blob), p, q;
	unsigned int fhd, fcs_size, fcs_pos, i;
	uint32_t fcs;

	/* Not a frame at all: the image itself. */
	emit_payload_case("zstd-not-a-frame", &img, buf_copy(&img), "bad-frame");

	p = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, NO_CONTENT_SIZE);
	emit_payload_case("zstd-no-content-size", &img, p, "bad-frame");

	/* A frame of a longer image: it declares another size. */
	q = buf_copy(&img);
	buf_append_le32(&q, 0);
	p = zstd_frame(q.p, q.len, KMS_ZSTD_LEVEL, 0);
	emit_payload_case("zstd-content-size-other", &img, p, "bad-frame");
	buf_release(&q);

	p = buf_copy(&frame);
	p.len -= 5;
	emit_payload_case("zstd-truncated", &img, p, "bad-frame");

	p = buf_copy(&frame);
	p.len = 3;
	emit_payload_case("zstd-truncated-magic", &img, p, "bad-frame");

	p = buf_copy(&frame);
	buf_append(&p, "\0\0\0", 3);
	emit_payload_case("zstd-trailing-bytes", &img, p, "bad-frame");

	p = buf_copy(&frame);
	q = zstd_frame("", 0, KMS_ZSTD_LEVEL, 0);
	buf_append(&p, q.p, q.len);
	emit_payload_case("zstd-trailing-empty-frame", &img, p, "bad-frame");
	buf_release(&q);

	/* The image split in two frames: each declares part of the size. */
	p = zstd_frame(img.p, img.len / 2, KMS_ZSTD_LEVEL, 0);
	q = zstd_frame(img.p + img.len / 2, img.len - img.len / 2,
		       KMS_ZSTD_LEVEL, 0);
	buf_append(&p, q.p, q.len);
	emit_payload_case("zstd-split-in-two-frames", &img, p, "bad-frame");
	buf_release(&q);

	p = buf_copy(&frame);
	buf_append(&p, frame.p, frame.len);
	emit_payload_case("zstd-same-frame-twice", &img, p, "bad-frame");

	p = buf_copy(&frame);
	append_skippable(&p, 4);
	emit_payload_case("zstd-trailing-skippable", &img, p, "bad-frame");

	/* A skippable frame first, of the image's size, as a decoy. */
	p = (struct buf){ 0 };
	append_skippable(&p, img.len);
	buf_append(&p, frame.p, frame.len);
	emit_payload_case("zstd-leading-skippable", &img, p, "bad-frame");

	p = (struct buf){ 0 };
	append_skippable(&p, 0);
	emit_payload_case("zstd-only-skippable", &img, p, "bad-frame");

	/* The frame header's reserved bit (FHD bit 3). */
	p = buf_copy(&frame);
	p.p[4] |= 0x08;
	emit_payload_case("zstd-reserved-bit", &img, p, "bad-frame");

	/* A damaged content checksum: the frame is whole but wrong. */
	p = buf_copy(&frame);
	p.p[p.len - 1] ^= 0xff;
	emit_payload_case("zstd-bad-checksum", &img, p, "bad-zstd");

	/*
	 * The frame declares 4 bytes more than it holds (and the header
	 * agrees): the frame does not decompress to its declared size.
	 * Frame header (RFC 8878 3.1.1.1): magic, descriptor, the window
	 * descriptor unless single-segment, no dictionary ID, content size.
	 */
	p = buf_copy(&frame);
	fhd = p.p[4];
	fcs_size = (const unsigned int[]){ fhd >> 5 & 1, 2, 4, 8 }[fhd >> 6];
	fcs_pos = 5 + !(fhd >> 5 & 1);
	fcs = img.len + 4 - (fcs_size == 2 ? 256 : 0);
	if ((fhd & 3) || fcs_size == 0 || (fcs_size == 1 && fcs > 255))
		die("internal error: frame header descriptor %#x", fhd);
	for (i = 0; i < fcs_size; i++)
		p.p[fcs_pos + i] = i < 4 ? fcs >> (8 * i) : 0;
	q = buf_copy(&img);
	buf_append_le32(&q, 0);
	verdict_refuse("zstd-content-short", "bad-zstd");
	/* The checksum of the image as it would be: only the frame lies. */
	emit_blob("zstd-content-short", blob_of(&q, &p, KMS_FLAG_ZSTD));
	buf_release(&p);
	buf_release(&q);

	/* Without the frame checksum, which versions 2 and 3 require. */
	p = zstd_frame(img.p, img.len, KMS_ZSTD_LEVEL, NO_CHECKSUM);
	emit_payload_case("zstd-no-checksum", &img, p, "bad-frame");

	buf_release(&frame);
	buf_release(&blob);
	buf_release(&img);
}
