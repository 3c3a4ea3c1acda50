/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The three ways the generator hands out a blob (FORMAT.md, section 1),
 * and the check that a linked note is the blob.  Each writer writes a
 * temporary file beside the destination and renames it into place, so an
 * interrupted or failed run never leaves a half-written file.
 */
#ifndef KMS_EMIT_H
#define KMS_EMIT_H

#include <stddef.h>
#include <sys/types.h>

#include <kms/error.h>

/*
 * Assembler source of the note in section .note.kallmodsyms, which kbuild
 * assembles for its target with $(CC), as it does scripts/kallsyms' output:
 * the note header comes out in the target's byte order, the object in its
 * class and machine.  With @pad_to non-zero the section is exactly that
 * long, zeros padding the descriptor, so that relinking with new tables of
 * about the same size moves nothing.
 */
struct kms_error *kms_emit_asm(const char *path, const void *blob,
			       size_t size, size_t pad_to);

/* The size of kms_emit_asm()'s section for a blob of @size bytes, unpadded. */
size_t kms_asm_note_size(size_t size);

/* A sidecar file: the note record alone. */
struct kms_error *kms_emit_sidecar(const char *path, const void *blob,
				   size_t size);

/*
 * A copy of @vmlinux with a non-allocated .note.kallmodsyms section added
 * (or replaced), written to @path (which may be @vmlinux itself).
 */
struct kms_error *kms_emit_append(const char *vmlinux, const char *path,
				  const void *blob, size_t size);

/*
 * Fails unless the tables of the note linked into @vmlinux are exactly
 * those of @blob, @size bytes (kbuild's check of the final link).
 */
struct kms_error *kms_verify_linked(const char *vmlinux, const void *blob,
				    size_t size);

/*
 * The temporary file plumbing of the writers: a file beside @path
 * (*ret_tmp, malloc()ed, open as *ret_fd); all of @buf written to it; the
 * temporary renamed to @path with @mode, or removed if @err (returned, or
 * the first failure).
 */
struct kms_error *emit_open_temp(const char *path, char **ret_tmp,
				 int *ret_fd);
struct kms_error *emit_write_all(int fd, const char *path, const void *buf,
				 size_t size);
struct kms_error *emit_commit_temp(const char *path, char *tmp, int fd,
				   mode_t mode, struct kms_error *err);

#endif /* KMS_EMIT_H */
