/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load a kallmodsyms blob from wherever it travels (FORMAT.md, section 1):
 * a vmlinux with the note linked in (its own loaded section, or .notes),
 * a vmlinux with the note appended as .note.kallmodsyms, a sidecar file, a
 * file of notes, or a bare blob.
 */
#ifndef KMS_SOURCE_H
#define KMS_SOURCE_H

#include <kms/elf_file.h>
#include <kms/error.h>

struct kms_tables;	/* kms/tables.h */

/* The tables of the note in the file at @path, whatever carries it. */
struct kms_error *kms_tables_load(const char *path, struct kms_tables **ret);

/*
 * The tables of the note in @elf, already open (kms_elf_open() or
 * kms_elf_open_any()): what kms_tables_load() reads from an ELF file,
 * without opening it again.  Errors name elf->path.
 */
struct kms_error *kms_tables_from_elf(struct kms_elf *elf,
				      struct kms_tables **ret);

/*
 * The kallmodsyms note of @elf: its section and descriptor.  An appended
 * (unallocated) note wins over one linked into .notes.  Errors name the
 * file; no note at all is one.
 */
struct kms_error *kms_elf_note(struct kms_elf *elf, Elf_Scn **ret_scn,
			       const void **ret_desc, size_t *ret_size);

#endif /* KMS_SOURCE_H */
