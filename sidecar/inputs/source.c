// SPDX-License-Identifier: GPL-2.0
/*
 * The note out of whatever carries it (FORMAT.md, section 1): an ELF image
 * with the note linked or appended, a note file, a bare blob (kms/source.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/note.h>
#include <kms/elf_file.h>
#include <kms/format.h>
#include <kms/source.h>

/* Non-ELF containers are small: refuse to slurp anything absurd. */
#define MAX_NOTE_FILE (256u << 20)

struct kms_error *kms_elf_note(struct kms_elf *elf, Elf_Scn **ret_scn,
			       const void **ret_desc, size_t *ret_size)
{
	Elf_Scn *scn = NULL, *found = NULL;
	const void *desc = NULL, *found_desc = NULL;
	size_t desc_size, found_size = 0;

	/* An appended note is newer than a linked one: it wins. */
	while ((scn = elf_nextscn(elf->elf, scn))) {
		struct kms_error *err;
		GElf_Shdr shdr;
		Elf_Data *data;
		char *where;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			return kms_error_file(elf->path, "section %s: %s",
					      kms_elf_section_name(elf, scn),
					      elf_errmsg(-1));
		if (asprintf(&where, "%s: section %s", elf->path,
			     kms_elf_section_name(elf, scn)) < 0)
			return &kms_error_nomem;
		err = kms_note_find(data->d_buf, data->d_size, where, &desc,
				    &desc_size);
		free(where);
		if (err)
			return err;
		if (desc && (!found || !(shdr.sh_flags & SHF_ALLOC))) {
			found = scn;
			found_desc = desc;
			found_size = desc_size;
		}
	}
	if (!found)
		return kms_error_path(KMS_ERR_NO_NOTE, elf->path,
				      "no kallmodsyms note (not generated for this vmlinux?)");
	*ret_scn = found;
	*ret_desc = found_desc;
	*ret_size = found_size;
	return NULL;
}

struct kms_error *kms_tables_from_elf(struct kms_elf *elf,
				      struct kms_tables **ret)
{
	struct kms_error *err;
	Elf_Scn *scn;
	const void *desc;
	size_t size;

	err = kms_elf_note(elf, &scn, &desc, &size);
	return err ? err : kms_blob_decode(desc, size, elf->path, ret);
}

static struct kms_error *load_from_elf(const char *path,
				       struct kms_tables **ret)
{
	struct kms_error *err;
	struct kms_elf *elf;

	err = kms_elf_open_any(path, &elf);
	if (err)
		return err;
	err = kms_tables_from_elf(elf, ret);
	kms_elf_close(elf);
	return err;
}

/*
 * @f (@path) whole, into *@ret_buf (malloc()ed) and *@ret_size, unless it
 * turns out to be an ELF file, or larger than a note file can be (then it
 * can only be an ELF image): *@ret_elf, and nothing kept.
 */
static struct kms_error *read_note_file(const char *path, FILE *f,
					unsigned char **ret_buf,
					size_t *ret_size, bool *ret_elf)
{
	unsigned char *buf = NULL, *nb;
	size_t size = 0, cap = 0, n;

	for (;;) {
		if (size == cap) {
			if (cap >= MAX_NOTE_FILE)
				break;
			cap = cap ? 2 * cap : 1 << 16;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return &kms_error_nomem;
			}
			buf = nb;
		}
		n = fread(buf + size, 1, cap - size, f);
		size += n;
		if (n == 0) {
			if (ferror(f)) {
				free(buf);
				return kms_error_errno(path, "read error");
			}
			*ret_buf = buf;
			*ret_size = size;
			*ret_elf = false;
			return NULL;
		}
		if (size >= 4 && kms_is_elf(buf, size))
			break;
	}
	free(buf);
	*ret_buf = NULL;
	*ret_size = 0;
	*ret_elf = true;
	return NULL;
}

/* The tables of @buf, @size bytes of @path: a blob, or a file of notes. */
static struct kms_error *tables_from_note_file(const char *path,
					       const unsigned char *buf,
					       size_t size,
					       struct kms_tables **ret)
{
	struct kms_error *err;
	const void *desc;
	size_t desc_size;

	if (!size)
		return kms_error_path(KMS_ERR_NO_NOTE, path, "empty file");
	if (size >= 4 && !memcmp(buf, KMS_MAGIC, 4))
		return kms_blob_decode(buf, size, path, ret);
	err = kms_note_find(buf, size, path, &desc, &desc_size);
	if (err && size >= 24 &&
	    !memcmp(buf + 12, KMS_NOTE_NAME, KMS_NOTE_NAMESZ))
		return err;	/* Our note, damaged: say how. */
	if (err || size < 12) {
		kms_error_destroy(err);
		return kms_error_path(KMS_ERR_NO_NOTE, path,
				      "not an ELF file, a note file or a kallmodsyms blob");
	}
	if (!desc)
		return kms_error_path(KMS_ERR_NO_NOTE, path,
				      "no kallmodsyms note among its notes");
	return kms_blob_decode(desc, desc_size, path, ret);
}

struct kms_error *kms_tables_load(const char *path, struct kms_tables **ret)
{
	struct kms_error *err;
	/* Set by read_note_file(), which gcc cannot see through. */
	unsigned char *buf = NULL;
	size_t size = 0;
	bool elf = false;
	FILE *f;

	f = fopen(path, "rb");
	if (!f)
		return kms_error_errno(path, "cannot open");
	err = read_note_file(path, f, &buf, &size, &elf);
	fclose(f);
	if (err)
		return err;
	if (elf)
		return load_from_elf(path, ret);
	err = tables_from_note_file(path, buf, size, ret);
	free(buf);
	return err;
}
