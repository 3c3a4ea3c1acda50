// SPDX-License-Identifier: GPL-2.0
/*
 * ELF note records (FORMAT.md 1.1, kms/note.h): a blob wrapped in one, and
 * the kallmodsyms note found among a section's records.  The search reads
 * nothing past the bytes it is given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kms/note.h>
#include <kms/format.h>
#include <kms/util.h>

static size_t pad4(size_t v)
{
	return (v + 3) & ~(size_t)3;
}

struct kms_error *kms_note_wrap(const void *blob, size_t size,
				size_t desc_size, void **ret,
				size_t *ret_size)
{
	unsigned char *note;
	size_t total;

	if (desc_size == 0)
		desc_size = size;
	if (desc_size < size)
		return kms_error_new(KMS_ERR_INPUT,
				     "note descriptor of %zu bytes cannot hold the %zu-byte blob",
				     desc_size, size);
	if (desc_size > UINT32_MAX - 3)
		return kms_error_fmt("note descriptor of %zu bytes is too large",
				     desc_size);
	total = 12 + pad4(KMS_NOTE_NAMESZ) + pad4(desc_size);
	note = calloc(1, total);
	if (!note)
		return &kms_error_nomem;
	kms_put_le32(note, KMS_NOTE_NAMESZ);
	kms_put_le32(note + 4, desc_size);
	kms_put_le32(note + 8, KMS_NOTE_TYPE);
	memcpy(note + 12, KMS_NOTE_NAME, KMS_NOTE_NAMESZ);
	if (size)
		memcpy(note + 12 + pad4(KMS_NOTE_NAMESZ), blob, size);
	*ret = note;
	*ret_size = total;
	return NULL;
}

struct kms_error *kms_note_find(const void *buf, size_t size,
				const char *origin, const void **ret_desc,
				size_t *ret_desc_size)
{
	const unsigned char *p = buf;
	size_t pos = 0;

	*ret_desc = NULL;
	*ret_desc_size = 0;
	while (size - pos >= 12) {
		uint64_t namesz = kms_get_le32(p + pos);
		uint64_t descsz = kms_get_le32(p + pos + 4);
		uint32_t type = kms_get_le32(p + pos + 8);
		uint64_t name_off = pos + 12;
		uint64_t desc_off = name_off + ((namesz + 3) & ~3ull);
		uint64_t next = desc_off + ((descsz + 3) & ~3ull);

		if (desc_off > size || desc_off + descsz > size)
			return kms_error_path(KMS_ERR_NO_NOTE, origin,
					      "note record at offset %zu runs past the end of its %zu bytes",
					      pos, size);
		if (type == KMS_NOTE_TYPE && namesz == KMS_NOTE_NAMESZ &&
		    !memcmp(p + name_off, KMS_NOTE_NAME, KMS_NOTE_NAMESZ)) {
			*ret_desc = p + desc_off;
			*ret_desc_size = descsz;
			return NULL;
		}
		if (next > size)
			break;
		pos = next;
	}
	return NULL;
}
