// SPDX-License-Identifier: GPL-2.0
/*
 * Two of the three ways a blob leaves the generator (emit.h): assembler
 * source for kbuild and a sidecar note file, each written to a temporary
 * file renamed into place (emit_append.c has the third); and the check
 * that the note linked into a vmlinux is a blob.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/note.h>
#include <kms/source.h>
#include <kms/tables.h>

#include "emit.h"

/*
 * A temporary file beside @path; *ret_tmp is malloc()ed.  Where @path is
 * there and no regular file (-o /dev/null, a pipe), @path itself, opened
 * for writing, and *ret_tmp a copy of @path: renaming over it would
 * replace the device.
 */
struct kms_error *emit_open_temp(const char *path, char **ret_tmp,
				 int *ret_fd)
{
	struct stat st;
	char *tmp;
	int fd;

	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		tmp = strdup(path);
		if (!tmp)
			return &kms_error_nomem;
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0) {
			free(tmp);
			return kms_error_errno(path, "cannot open");
		}
		*ret_tmp = tmp;
		*ret_fd = fd;
		return NULL;
	}
	if (asprintf(&tmp, "%s.tmpXXXXXX", path) < 0)
		return &kms_error_nomem;
	fd = mkstemp(tmp);
	if (fd < 0) {
		struct kms_error *err = kms_error_errno(path,
							"cannot create a temporary file beside it");

		free(tmp);
		return err;
	}
	*ret_tmp = tmp;
	*ret_fd = fd;
	return NULL;
}

/*
 * Make @tmp (open as @fd) the file @path, or remove it on failure; where
 * @tmp is @path (emit_open_temp(): no regular file), only close it.
 */
struct kms_error *emit_commit_temp(const char *path, char *tmp, int fd,
				   mode_t mode, struct kms_error *err)
{
	if (!strcmp(tmp, path)) {
		if (close(fd) && !err)
			err = kms_error_errno(path, "cannot close");
		free(tmp);
		return err;
	}
	if (!err && fchmod(fd, mode))
		err = kms_error_errno(tmp, "cannot set mode");
	if (!err && fsync(fd))
		err = kms_error_errno(tmp, "cannot sync");
	if (close(fd) && !err)
		err = kms_error_errno(tmp, "cannot close");
	if (!err && rename(tmp, path))
		err = kms_error_errno(path, "cannot rename %s to it", tmp);
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

struct kms_error *emit_write_all(int fd, const char *path, const void *buf,
				 size_t size)
{
	const char *p = buf;

	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return kms_error_errno(path, "write error");
		}
		p += n;
		size -= n;
	}
	return NULL;
}

struct kms_error *kms_emit_sidecar(const char *path, const void *blob,
				   size_t size)
{
	struct kms_error *err;
	size_t note_size;
	void *note;
	char *tmp;
	int fd;

	err = kms_note_wrap(blob, size, 0, &note, &note_size);
	if (err)
		return err;
	err = emit_open_temp(path, &tmp, &fd);
	if (!err) {
		err = emit_write_all(fd, tmp, note, note_size);
		err = emit_commit_temp(path, tmp, fd, 0644, err);
	}
	free(note);
	return err;
}

static struct kms_error *asm_note(FILE *f, const char *path,
				  const unsigned char *blob, size_t size,
				  size_t desc_size)
{
	size_t i;

	fprintf(f, "/*\n"
		" * The kallmodsyms tables: one ELF note, for the target's\n"
		" * assembler.  Generated at link time; do not edit.\n"
		" */\n"
		"\t.section %s, \"a\", %%note\n"
		"\t.balign 4\n"
		"\t.long %u\t\t\t/* namesz */\n"
		"\t.long %zu\t\t/* descsz: the blob, then zero padding */\n"
		"\t.long 0x%08x\t\t/* type: NT_KALLMODSYMS */\n"
		"\t.asciz \"%s\"\n"
		"\t.balign 4\n",
		KMS_NOTE_SECTION, KMS_NOTE_NAMESZ, desc_size, KMS_NOTE_TYPE,
		KMS_NOTE_NAME);
	for (i = 0; i < size; i++)
		fprintf(f, "%s0x%02x%s", i % 16 ? "," : "\t.byte ", blob[i],
			i % 16 == 15 || i == size - 1 ? "\n" : "");
	if (desc_size > size)
		fprintf(f, "\t.skip %zu\n", desc_size - size);
	fprintf(f, "\t.balign 4\n"
		"\t.section .note.GNU-stack, \"\", %%progbits\n");
	if (fflush(f) || ferror(f))
		return kms_error_errno(path, "write error");
	return NULL;
}

size_t kms_asm_note_size(size_t size)
{
	return 24 + ((size + 3) & ~(size_t)3);
}

struct kms_error *kms_emit_asm(const char *path, const void *blob,
			       size_t size, size_t pad_to)
{
	size_t need = kms_asm_note_size(size);
	struct kms_error *err;
	char *tmp;
	FILE *f;
	int fd;

	/*
	 * --pad-to: the padding goes inside the descriptor, zero bytes after
	 * the blob (FORMAT.md 2), so that the section holds one note record
	 * and readelf -n shows no empty notes.
	 */
	if (pad_to && (pad_to % 4 || pad_to < need))
		return kms_error_file(path,
				      "the note needs %zu bytes, more than --pad-to %zu (or that is not a multiple of 4)",
				      need, pad_to);
	if ((pad_to ? pad_to : need) - 24 > UINT32_MAX)
		return kms_error_file(path, "a note of %zu bytes is too large",
				      pad_to ? pad_to : need);
	err = emit_open_temp(path, &tmp, &fd);
	if (err)
		return err;
	f = fdopen(dup(fd), "w");
	if (!f) {
		err = kms_error_errno(tmp, "cannot write");
	} else {
		err = asm_note(f, tmp, blob, size, pad_to ? pad_to - 24 : size);
		if (fclose(f) && !err)
			err = kms_error_errno(tmp, "write error");
	}
	return emit_commit_temp(path, tmp, fd, 0644, err);
}

struct kms_error *kms_verify_linked(const char *vmlinux, const void *blob,
				    size_t size)
{
	struct kms_tables *linked, *fresh;
	struct kms_error *err;
	bool same;

	err = kms_tables_load(vmlinux, &linked);
	if (err)
		return err;
	err = kms_blob_decode(blob, size, vmlinux, &fresh);
	if (err) {
		kms_tables_destroy(linked);
		return err;
	}
	same = linked->image_size == fresh->image_size &&
	       !memcmp(linked->image, fresh->image, fresh->image_size);
	kms_tables_destroy(linked);
	kms_tables_destroy(fresh);
	if (!same)
		return kms_error_file(vmlinux,
				      "the linked kallmodsyms tables do not match this image (stale note?)");
	return NULL;
}
