/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load a kallmodsyms blob from wherever it travels (FORMAT.md, section 1):
 * a vmlinux with the note linked into .notes, a vmlinux with the note
 * appended as .note.kallmodsyms, a sidecar file, a copy of
 * /sys/kernel/notes, or a bare blob.
 */
#ifndef KMS_SOURCE_H
#define KMS_SOURCE_H

#include <kms/blob.h>
#include <kms/error.h>

struct kms_error *kms_tables_load(const char *path, struct kms_tables **ret);

#endif /* KMS_SOURCE_H */
