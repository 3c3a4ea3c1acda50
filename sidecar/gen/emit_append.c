// SPDX-License-Identifier: GPL-2.0
/*
 * The third way a blob leaves the generator (emit.h): a copy of the
 * vmlinux with the note appended as a non-allocated section, written to a
 * temporary file renamed into place (emit.c's helpers).
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kms/elf_file.h>
#include <kms/format.h>
#include <kms/note.h>
#include <kms/util.h>

#include "emit.h"

static struct kms_error *elf_fail(const char *path, const char *what)
{
	return kms_error_file(path, "%s: %s", what, elf_errmsg(-1));
}

/* The note as assembler source on @f (@path names it in errors). */
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
		err = emit_write_all(to_fd, to, buf, n);
		if (err)
			return err;
	}
	return NULL;
}

static void put_le16(unsigned char *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put_le64(unsigned char *p, uint64_t v)
{
	kms_put_le32(p, v);
	kms_put_le32(p + 4, v >> 32);
}

static void put_shdr(unsigned char *p, const GElf_Shdr *s)
{
	kms_put_le32(p + 0, s->sh_name);
	kms_put_le32(p + 4, s->sh_type);
	put_le64(p + 8, s->sh_flags);
	put_le64(p + 16, s->sh_addr);
	put_le64(p + 24, s->sh_offset);
	put_le64(p + 32, s->sh_size);
	kms_put_le32(p + 40, s->sh_link);
	kms_put_le32(p + 44, s->sh_info);
	put_le64(p + 48, s->sh_addralign);
	put_le64(p + 56, s->sh_entsize);
}

/* What append_note() appends to the copy, and where. */
struct tail {
	size_t shnum;		/* the input's sections */
	size_t ours;		/* our note appended before, or 0 */
	Elf_Data *names;	/* the input's section names */
	uint64_t names_off, note_off, table_off;
	size_t names_size, note_size, table_size;
};

/*
 * t->shnum and t->ours, refusing what cannot take the note: extended
 * section numbering, or a kallmodsyms note linked in already.
 */
static struct kms_error *scan_sections(struct kms_elf *in, struct tail *t)
{
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf_Data *data;
	const void *desc;
	size_t desc_size, i;
	Elf_Scn *scn;
	struct kms_error *err;

	if (!gelf_getehdr(in->elf, &ehdr) || elf_getshdrnum(in->elf, &t->shnum))
		return elf_fail(in->path, "cannot read ELF header");
	if (ehdr.e_shnum == 0 || ehdr.e_shnum >= SHN_LORESERVE - 1 ||
	    ehdr.e_shstrndx >= SHN_LORESERVE ||
	    ehdr.e_shentsize != sizeof(Elf64_Shdr))
		return kms_error_file(in->path,
				      "extended section numbering is not supported");
	for (i = 1; i < t->shnum; i++) {
		const char *name;

		scn = elf_getscn(in->elf, i);
		if (!scn || !gelf_getshdr(scn, &shdr))
			return elf_fail(in->path, "cannot read section header");
		name = elf_strptr(in->elf, in->shstrndx, shdr.sh_name);
		if (shdr.sh_type != SHT_NOTE)
			continue;
		if (!(shdr.sh_flags & SHF_ALLOC)) {
			if (name && !strcmp(name, KMS_NOTE_SECTION))
				t->ours = i;
			continue;
		}
		/* Two notes could disagree: the kernel reads the linked one. */
		data = elf_getdata(scn, NULL);
		if (data) {
			err = kms_note_find(data->d_buf, data->d_size, in->path,
					    &desc, &desc_size);
			if (err)
				return err;
			if (desc)
				return kms_error_file(in->path,
						      "section %s holds a linked kallmodsyms note already",
						      name ? name : "?");
		}
	}
	return NULL;
}

/* The new section header table, t->table_size bytes, in *@ret_table. */
static struct kms_error *section_table(struct kms_elf *in,
				       const struct tail *t,
				       unsigned char **ret_table)
{
	unsigned char *table;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	size_t i;

	table = calloc(1, t->table_size);
	if (!table)
		return &kms_error_nomem;
	for (i = 1; i < t->shnum; i++) {
		scn = elf_getscn(in->elf, i);
		if (!scn || !gelf_getshdr(scn, &shdr)) {
			free(table);
			return elf_fail(in->path, "cannot read section header");
		}
		if (i == in->shstrndx) {
			shdr.sh_offset = t->names_off;
			shdr.sh_size = t->names_size;
		}
		if (i == t->ours) {
			shdr.sh_offset = t->note_off;
			shdr.sh_size = t->note_size;
		}
		put_shdr(table + i * sizeof(Elf64_Shdr), &shdr);
	}
	if (!t->ours) {
		memset(&shdr, 0, sizeof(shdr));
		shdr.sh_name = t->names->d_size;
		shdr.sh_type = SHT_NOTE;
		shdr.sh_offset = t->note_off;
		shdr.sh_size = t->note_size;
		shdr.sh_addralign = 4;
		put_shdr(table + t->shnum * sizeof(Elf64_Shdr), &shdr);
	}
	*ret_table = table;
	return NULL;
}

/* Write @t's names, @note and @table at its offsets; point the header. */
static struct kms_error *write_tail(int fd, const char *tmp,
				    const struct tail *t, const void *note,
				    const unsigned char *table)
{
	static const unsigned char zeros[8];
	unsigned char hdr[8];
	struct kms_error *err;

	if (lseek(fd, t->names_off, SEEK_SET) < 0)
		return kms_error_errno(tmp, "cannot seek");
	err = emit_write_all(fd, tmp, t->names->d_buf, t->names->d_size);
	if (!err && !t->ours)
		err = emit_write_all(fd, tmp, KMS_NOTE_SECTION,
				sizeof(KMS_NOTE_SECTION));
	if (!err)
		err = emit_write_all(fd, tmp, zeros,
				t->note_off - (t->names_off + t->names_size));
	if (!err)
		err = emit_write_all(fd, tmp, note, t->note_size);
	if (!err)
		err = emit_write_all(fd, tmp, zeros,
				t->table_off - (t->note_off + t->note_size));
	if (!err)
		err = emit_write_all(fd, tmp, table, t->table_size);
	if (err)
		return err;

	/* e_shoff (offset 0x28) and e_shnum (0x3c) of the ELF64 header. */
	put_le64(hdr, t->table_off);
	if (pwrite(fd, hdr, 8, 0x28) != 8)
		return kms_error_errno(tmp, "cannot write ELF header");
	put_le16(hdr, t->shnum + !t->ours);
	if (pwrite(fd, hdr, 2, 0x3c) != 2)
		return kms_error_errno(tmp, "cannot write ELF header");
	return NULL;
}

/*
 * Append to the copy, by hand and without moving a byte of it: a grown
 * section name table, the note, and a new section header table go after
 * the end of the file; the ELF header is pointed at them.  A note we added
 * before is replaced (its old bytes stay behind, unreferenced).
 */
static struct kms_error *append_note(struct kms_elf *in, int fd,
				     const char *tmp, const void *note,
				     size_t note_size, off_t file_size)
{
	struct tail t = { .note_size = note_size };
	unsigned char *table = NULL;
	struct kms_error *err;
	Elf_Scn *scn;

	err = scan_sections(in, &t);
	if (err)
		return err;
	scn = elf_getscn(in->elf, in->shstrndx);
	t.names = scn ? elf_getdata(scn, NULL) : NULL;
	if (!t.names)
		return elf_fail(in->path, "cannot read section names");

	t.names_off = file_size;
	t.names_size = t.names->d_size +
		       (t.ours ? 0 : sizeof(KMS_NOTE_SECTION));
	t.note_off = (t.names_off + t.names_size + 3) & ~3ull;
	t.table_off = (t.note_off + note_size + 7) & ~7ull;
	t.table_size = (t.shnum + !t.ours) * sizeof(Elf64_Shdr);
	err = section_table(in, &t, &table);
	if (err)
		return err;
	err = write_tail(fd, tmp, &t, note, table);
	free(table);
	return err;
}

struct kms_error *kms_emit_append(const char *vmlinux, const char *path,
				  const void *blob, size_t size)
{
	struct kms_error *err;
	struct kms_elf *in;
	size_t note_size;
	struct stat st;
	void *note;
	char *tmp;
	int fd;

	/* Refuse what is not a vmlinux we can read before copying it. */
	err = kms_elf_open(vmlinux, &in);
	if (err)
		return err;
	if (fstat(in->fd, &st)) {
		err = kms_error_errno(vmlinux, "cannot stat");
		kms_elf_close(in);
		return err;
	}
	err = kms_note_wrap(blob, size, 0, &note, &note_size);
	if (err) {
		kms_elf_close(in);
		return err;
	}
	err = emit_open_temp(path, &tmp, &fd);
	if (!err) {
		if (lseek(in->fd, 0, SEEK_SET) < 0)
			err = kms_error_errno(vmlinux, "cannot seek");
		if (!err)
			err = copy_file(vmlinux, in->fd, fd, tmp);
		if (!err)
			err = append_note(in, fd, tmp, note, note_size,
					  st.st_size);
		err = emit_commit_temp(path, tmp, fd, st.st_mode & 07777, err);
	}
	kms_elf_close(in);
	free(note);
	return err;
}
