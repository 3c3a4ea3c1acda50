/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ELF note record that carries a kallmodsyms blob (FORMAT.md 1.1):
 * note.c wraps a blob in one, and finds the kallmodsyms note among a
 * section's records.
 *
 * Contract: the search reads nothing past the bytes it is given and
 * checks each size before it aligns it (FORMAT.md 1.1's arithmetic);
 * errors follow kms/error.h; nothing here prints.
 */
#ifndef KMS_NOTE_H
#define KMS_NOTE_H

#include <stddef.h>

#include <kms/error.h>

/*
 * Wrap a blob in an ELF note record (FORMAT.md 1.1); *ret is malloc()ed.
 * @desc_size: the descriptor's size, the blob then zero padding (FORMAT.md
 * 2), at least @size; 0 for no padding.
 */
struct kms_error *kms_note_wrap(const void *blob, size_t size,
				size_t desc_size, void **ret,
				size_t *ret_size);

/*
 * Find the kallmodsyms note among the note records in @buf and return its
 * descriptor.  Returns an error only for malformed records; *ret_desc is
 * NULL when the records are well formed but none is ours.
 */
struct kms_error *kms_note_find(const void *buf, size_t size,
				const char *origin, const void **ret_desc,
				size_t *ret_desc_size);

#endif /* KMS_NOTE_H */
