// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kms/blob.h>
#include <kms/elf_file.h>
#include <kms/format.h>

#include "emit.h"

/* A temporary file beside @path; *ret_tmp is malloc()ed. */
static struct kms_error *open_temp(const char *path, char **ret_tmp,
				   int *ret_fd)
{
	char *tmp;
	int fd;

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

/* Make @tmp (open as @fd) the file @path, or remove it on failure. */
static struct kms_error *commit_temp(const char *path, char *tmp, int fd,
				     mode_t mode, struct kms_error *err)
{
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

static struct kms_error *write_all(int fd, const char *path, const void *buf,
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

	err = kms_note_wrap(blob, size, &note, &note_size);
	if (err)
		return err;
	err = open_temp(path, &tmp, &fd);
	if (!err) {
		err = write_all(fd, tmp, note, note_size);
		err = commit_temp(path, tmp, fd, 0644, err);
	}
	free(note);
	return err;
}

static struct kms_error *elf_fail(const char *path, const char *what)
{
	return kms_error_file(path, "%s: %s", what, elf_errmsg(-1));
}

/* Add a section called by string-table offset @name, with @data. */
static Elf_Scn *add_section(Elf *elf, GElf_Word name, GElf_Word type,
			    GElf_Xword flags, GElf_Xword align, void *data,
			    size_t size)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;
	GElf_Shdr shdr;

	if (!scn)
		return NULL;
	d = elf_newdata(scn);
	if (!d)
		return NULL;
	d->d_buf = data;
	d->d_size = size;
	d->d_type = ELF_T_BYTE;
	d->d_align = align;
	d->d_version = EV_CURRENT;
	if (!gelf_getshdr(scn, &shdr))
		return NULL;
	shdr.sh_name = name;
	shdr.sh_type = type;
	shdr.sh_flags = flags;
	shdr.sh_addralign = align;
	if (!gelf_update_shdr(scn, &shdr))
		return NULL;
	return scn;
}

struct kms_error *kms_emit_object(const char *path, const void *blob,
				  size_t size)
{
	static char shstrtab[] = "\0" KMS_NOTE_SECTION "\0.note.GNU-stack\0.shstrtab";
	const GElf_Word note_name = 1;
	const GElf_Word stack_name = note_name + sizeof(KMS_NOTE_SECTION);
	const GElf_Word shstrtab_name = stack_name + sizeof(".note.GNU-stack");
	struct kms_error *err;
	Elf *elf = NULL;
	Elf_Scn *strscn;
	GElf_Ehdr ehdr;
	size_t note_size;
	void *note;
	char *tmp;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return kms_error_fmt("libelf: %s", elf_errmsg(-1));
	err = kms_note_wrap(blob, size, &note, &note_size);
	if (err)
		return err;
	err = open_temp(path, &tmp, &fd);
	if (err) {
		free(note);
		return err;
	}
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf || !gelf_newehdr(elf, ELFCLASS64) || !gelf_getehdr(elf, &ehdr)) {
		err = elf_fail(tmp, "cannot create ELF header");
		goto out;
	}
	ehdr.e_ident[EI_DATA] = ELFDATA2LSB;
	ehdr.e_type = ET_REL;
	ehdr.e_machine = EM_X86_64;
	ehdr.e_version = EV_CURRENT;
	if (!gelf_update_ehdr(elf, &ehdr) ||
	    !add_section(elf, note_name, SHT_NOTE, SHF_ALLOC, 4, note,
			 note_size) ||
	    !add_section(elf, stack_name, SHT_PROGBITS, 0, 1, NULL, 0) ||
	    !(strscn = add_section(elf, shstrtab_name, SHT_STRTAB, 0, 1,
				   shstrtab, sizeof(shstrtab)))) {
		err = elf_fail(tmp, "cannot add sections");
		goto out;
	}
	if (!gelf_getehdr(elf, &ehdr)) {
		err = elf_fail(tmp, "cannot read ELF header");
		goto out;
	}
	ehdr.e_shstrndx = elf_ndxscn(strscn);
	if (!gelf_update_ehdr(elf, &ehdr) || elf_update(elf, ELF_C_WRITE) < 0)
		err = elf_fail(tmp, "cannot write object");
out:
	if (elf)
		elf_end(elf);
	free(note);
	return commit_temp(path, tmp, fd, 0644, err);
}

static struct kms_error *copy_file(const char *from, int from_fd, int to_fd,
				   const char *to)
{
	char buf[1 << 16];
	ssize_t n;

	while ((n = read(from_fd, buf, sizeof(buf))) != 0) {
		struct kms_error *err;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return kms_error_errno(from, "read error");
		}
		err = write_all(to_fd, to, buf, n);
		if (err)
			return err;
	}
	return NULL;
}

/*
 * Append in place on a copy: keep every existing byte where it is
 * (ELF_F_LAYOUT), put the note after the last section and the section
 * headers after the note.  The string naming the section is added to the
 * end of .shstrtab, which moves too.
 */
static struct kms_error *append_note(Elf *elf, const char *tmp, void *note,
				     size_t note_size, char **shstr_copy)
{
	Elf_Scn *scn = NULL, *ours = NULL, *shstr;
	Elf_Data *shstr_data;
	GElf_Shdr shdr;
	GElf_Ehdr ehdr;
	GElf_Off end = 0;
	size_t shstrndx, name_off, shnum;
	Elf_Data *d;

	if (!gelf_getehdr(elf, &ehdr) || elf_getshdrstrndx(elf, &shstrndx) ||
	    elf_getshdrnum(elf, &shnum))
		return elf_fail(tmp, "cannot read ELF header");
	end = ehdr.e_phoff + (GElf_Off)ehdr.e_phnum * ehdr.e_phentsize;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			return elf_fail(tmp, "cannot read section header");
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		if (name && !strcmp(name, KMS_NOTE_SECTION) &&
		    !(shdr.sh_flags & SHF_ALLOC))
			ours = scn;
		if (shdr.sh_type != SHT_NOBITS && shdr.sh_offset + shdr.sh_size > end)
			end = shdr.sh_offset + shdr.sh_size;
	}

	shstr = elf_getscn(elf, shstrndx);
	if (!shstr || !gelf_getshdr(shstr, &shdr) ||
	    !(shstr_data = elf_getdata(shstr, NULL)))
		return elf_fail(tmp, "cannot read section names");
	if (!ours) {
		/* Grow .shstrtab by the new name; it moves to the end. */
		name_off = shstr_data->d_size;
		*shstr_copy = malloc(name_off + sizeof(KMS_NOTE_SECTION));
		if (!*shstr_copy)
			return &kms_error_nomem;
		memcpy(*shstr_copy, shstr_data->d_buf, name_off);
		memcpy(*shstr_copy + name_off, KMS_NOTE_SECTION,
		       sizeof(KMS_NOTE_SECTION));
		shstr_data->d_buf = *shstr_copy;
		shstr_data->d_size = name_off + sizeof(KMS_NOTE_SECTION);
		elf_flagdata(shstr_data, ELF_C_SET, ELF_F_DIRTY);
		shdr.sh_offset = end;
		shdr.sh_size = shstr_data->d_size;
		end += shdr.sh_size;
		if (!gelf_update_shdr(shstr, &shdr))
			return elf_fail(tmp, "cannot update section names");

		ours = elf_newscn(elf);
		if (!ours || !elf_newdata(ours) || !gelf_getshdr(ours, &shdr))
			return elf_fail(tmp, "cannot add section");
		memset(&shdr, 0, sizeof(shdr));
		shdr.sh_name = name_off;
	} else if (!gelf_getshdr(ours, &shdr)) {
		return elf_fail(tmp, "cannot read section header");
	}
	end = (end + 3) & ~(GElf_Off)3;
	shdr.sh_type = SHT_NOTE;
	shdr.sh_flags = 0;
	shdr.sh_addr = 0;
	shdr.sh_addralign = 4;
	shdr.sh_offset = end;
	shdr.sh_size = note_size;
	if (!gelf_update_shdr(ours, &shdr))
		return elf_fail(tmp, "cannot update section header");
	d = elf_getdata(ours, NULL);
	if (!d)
		return elf_fail(tmp, "cannot set section data");
	d->d_buf = note;
	d->d_size = note_size;
	d->d_type = ELF_T_BYTE;
	d->d_align = 4;
	d->d_off = 0;
	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	end += note_size;

	if (!gelf_getehdr(elf, &ehdr))
		return elf_fail(tmp, "cannot read ELF header");
	ehdr.e_shoff = (end + 7) & ~(GElf_Off)7;
	if (!gelf_update_ehdr(elf, &ehdr))
		return elf_fail(tmp, "cannot update ELF header");
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
	if (elf_update(elf, ELF_C_WRITE) < 0)
		return elf_fail(tmp, "cannot write");
	(void)shnum;
	return NULL;
}

struct kms_error *kms_emit_append(const char *vmlinux, const char *path,
				  const void *blob, size_t size)
{
	struct kms_error *err;
	struct kms_elf *check;
	char *shstr_copy = NULL, *tmp;
	size_t note_size;
	struct stat st;
	Elf *elf = NULL;
	void *note;
	int in, fd;

	/* Refuse what is not a vmlinux we could read before copying it. */
	err = kms_elf_open(vmlinux, &check);
	if (err)
		return err;
	kms_elf_close(check);

	in = open(vmlinux, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return kms_error_errno(vmlinux, "cannot open");
	if (fstat(in, &st)) {
		err = kms_error_errno(vmlinux, "cannot stat");
		close(in);
		return err;
	}
	err = kms_note_wrap(blob, size, &note, &note_size);
	if (err) {
		close(in);
		return err;
	}
	err = open_temp(path, &tmp, &fd);
	if (err) {
		close(in);
		free(note);
		return err;
	}
	err = copy_file(vmlinux, in, fd, tmp);
	close(in);
	if (!err) {
		elf = elf_begin(fd, ELF_C_RDWR, NULL);
		if (!elf)
			err = elf_fail(tmp, "cannot open copy");
	}
	if (!err)
		err = append_note(elf, tmp, note, note_size, &shstr_copy);
	if (elf)
		elf_end(elf);
	free(shstr_copy);
	free(note);
	return commit_temp(path, tmp, fd, st.st_mode & 07777, err);
}
