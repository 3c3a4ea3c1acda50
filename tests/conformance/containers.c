// SPDX-License-Identifier: GPL-2.0
/*
 * Cases of the container (corpus.h): our note among others, notes that
 * are not ours, damaged records, and sizes that wrap when aligned
 * (FORMAT.md 1.1).
 */
#include <kms/format.h>

#include "corpus.h"

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
	b = buf_copy(&ours);
	buf_put_le32(&b, 4, 0xfffffffdu);
	verdict_refuse("notes-descsz-wraps-ours", "no-note");
	write_case("notes-descsz-wraps-ours", &b);
	buf_release(&b);

	/* A record whose descriptor would be skipped as 0 bytes hides ours. */
	buf_append_le32(&b, 4);
	buf_append_le32(&b, 0xfffffffdu);
	buf_append_le32(&b, 3);
	buf_append(&b, "GNU", 4);
	buf_append(&b, ours.p, ours.len);
	verdict_refuse("notes-descsz-wraps-before", "no-note");
	write_case("notes-descsz-wraps-before", &b);
	buf_release(&b);

	/* The same with the name size: 0xfffffffe rounds up to 0. */
	buf_append_le32(&b, 0xfffffffeu);
	buf_append_le32(&b, 0);
	buf_append_le32(&b, 3);
	buf_append(&b, ours.p, ours.len);
	verdict_refuse("notes-namesz-wraps-before", "no-note");
	write_case("notes-namesz-wraps-before", &b);
	buf_release(&b);

	/* The largest size that does not wrap: 0xfffffffc. */
	b = buf_copy(&ours);
	buf_put_le32(&b, 4, 0xfffffffcu);
	verdict_refuse("notes-descsz-max-aligned", "no-note");
	write_case("notes-descsz-max-aligned", &b);
	buf_release(&b);
	buf_release(&ours);
}

/* Other notes around ours, and notes that are not ours. */
void container_cases(void)
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
	verdict_accept("notes-among-others", &img, sample.annotations);
	write_case("notes-among-others", &b);
	buf_release(&b);

	/* Our name with another type, our type with another name. */
	append_note(&b, KMS_NOTE_NAME, KMS_NOTE_NAMESZ, 0x4b4d5302, blob.p,
		    blob.len);
	append_note(&b, "kallmodsym", 11, KMS_NOTE_TYPE, blob.p, blob.len);
	append_note(&b, "kallmodsymsX", 13, KMS_NOTE_TYPE, blob.p, blob.len);
	verdict_refuse("notes-none-ours", "no-note");
	write_case("notes-none-ours", &b);
	buf_release(&b);

	verdict_refuse("notes-empty-file", "no-note");
	write_case("notes-empty-file", &b);

	/* The descriptor runs past the end of the file. */
	append_kms_note(&b, &blob);
	b.len -= 8;
	verdict_refuse("notes-truncated-record", "no-note");
	write_case("notes-truncated-record", &b);
	buf_release(&b);

	/* A damaged note before ours hides it. */
	append_note(&b, "GNU", 4, 3, build_id, sizeof(build_id));
	buf_put_le32(&b, 4, 0x7ffffff0);
	append_kms_note(&b, &blob);
	verdict_refuse("notes-damaged-before", "no-note");
	write_case("notes-damaged-before", &b);
	buf_release(&b);

	/* The first of two kallmodsyms notes is the one read. */
	append_kms_note(&b, &blob);
	{
		struct buf bad = buf_copy(&blob);

		buf_put_le32(&bad, KMS_HDR_FLAGS, 0);
		append_kms_note(&b, &bad);
		buf_release(&bad);
	}
	verdict_accept("notes-two-first-good", &img, sample.annotations);
	write_case("notes-two-first-good", &b);
	buf_release(&b);

	wrap_cases(&blob);
	buf_release(&blob);
	buf_release(&img);
}
