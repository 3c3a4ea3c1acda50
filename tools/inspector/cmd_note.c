// SPDX-License-Identifier: GPL-2.0
/*
 * note: where the kallmodsyms note lies in a file, for those who patch
 * it in place (the tests damage it byte by byte): its section and the
 * file offsets and sizes of the note entry, its name and its descriptor
 * (the blob).  The note is the one the tables are read from: in a vmlinux
 * an appended (unallocated) note before one linked into .notes.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/note.h>
#include <kms/format.h>
#include <kms/source.h>
#include <kms/util.h>

#include "command.h"

/* Non-ELF containers are small: refuse to slurp anything absurd. */
#define MAX_NOTE_FILE (256u << 20)

struct note_place {
	const char *section;		/* NULL outside an ELF file */
	uint64_t section_address;
	uint64_t section_offset;
	uint64_t section_size;
	uint64_t desc_offset;		/* file offsets */
	uint64_t desc_size;
};

/* The note entry: header, name, descriptor, each padded to 4 bytes. */
#define NOTE_HEADER 12
#define NAME_SIZE ((KMS_NOTE_NAMESZ + 3) & ~3)

static uint64_t note_offset(const struct note_place *p)
{
	return p->desc_offset - NAME_SIZE - NOTE_HEADER;
}

static uint64_t note_size(const struct note_place *p)
{
	return NOTE_HEADER + NAME_SIZE + ((p->desc_size + 3) & ~3ull);
}

/* The note of vmlinux @elf, the one kms_tables_load() reads, into @ret. */
static struct kms_error *elf_note(struct kms_elf *elf, struct note_place *ret)
{
	struct kms_error *err;
	Elf_Scn *scn;
	GElf_Shdr shdr;
	Elf_Data *data;
	const void *desc;
	size_t size;

	err = kms_elf_note(elf, &scn, &desc, &size);
	if (err)
		return err;
	/* kms_elf_note() read both already. */
	gelf_getshdr(scn, &shdr);
	data = elf_getdata(scn, NULL);
	ret->section = kms_elf_section_name(elf, scn);
	ret->section_address = shdr.sh_addr;
	ret->section_offset = shdr.sh_offset;
	ret->section_size = shdr.sh_size;
	ret->desc_offset = shdr.sh_offset + data->d_off +
			   ((const char *)desc - (const char *)data->d_buf);
	ret->desc_size = size;
	return NULL;
}

/* The note among the note records of a sidecar or a notes copy. */
static struct kms_error *file_note(const char *path, struct note_place *ret)
{
	_cleanup_free_ char *buf = NULL;
	struct kms_error *err;
	const void *desc;
	size_t size;

	err = kms_read_file(path, MAX_NOTE_FILE, &buf, &size);
	if (err)
		return err;
	if (size >= 4 && !memcmp(buf, KMS_MAGIC, 4))
		return kms_error_file(path, "a bare kallmodsyms blob, in no note");
	err = kms_note_find(buf, size, path, &desc, &ret->desc_size);
	if (!err && !desc)
		err = kms_error_file(path, "no kallmodsyms note among its notes");
	if (err)
		return err;
	ret->section = NULL;
	ret->desc_offset = (const char *)desc - buf;
	return NULL;
}

static void print_text(const struct note_place *p)
{
	if (p->section)
		printf("section %s\n"
		       "section_address 0x%llx\n"
		       "section_offset %llu\n"
		       "section_size %llu\n",
		       p->section, (unsigned long long)p->section_address,
		       (unsigned long long)p->section_offset,
		       (unsigned long long)p->section_size);
	printf("note_offset %llu\n"
	       "note_size %llu\n"
	       "name_offset %llu\n"
	       "desc_offset %llu\n"
	       "desc_size %llu\n",
	       (unsigned long long)note_offset(p),
	       (unsigned long long)note_size(p),
	       (unsigned long long)(note_offset(p) + NOTE_HEADER),
	       (unsigned long long)p->desc_offset,
	       (unsigned long long)p->desc_size);
}

static void print_json(const char *file, const struct note_place *p)
{
	struct json j;

	json_init(&j, stdout);
	json_begin_object(&j, NULL);
	json_string(&j, "file", file);
	if (p->section) {
		json_string(&j, "section", p->section);
		json_hex(&j, "section_address", p->section_address);
		json_uint(&j, "section_offset", p->section_offset);
		json_uint(&j, "section_size", p->section_size);
	} else {
		json_null(&j, "section");
	}
	json_uint(&j, "note_offset", note_offset(p));
	json_uint(&j, "note_size", note_size(p));
	json_uint(&j, "name_offset", note_offset(p) + NOTE_HEADER);
	json_uint(&j, "desc_offset", p->desc_offset);
	json_uint(&j, "desc_size", p->desc_size);
	json_end_object(&j);
	json_finish(&j);
}

/*
 * The note in @file, an ELF file (then opened into *@elf, which the
 * section name lives in) or a file of note records.
 */
static struct kms_error *locate(const char *file, struct kms_elf **elf,
				struct note_place *ret)
{
	unsigned char magic[4] = { 0 };
	struct kms_error *err;
	FILE *f = fopen(file, "rb");

	if (!f)
		return kms_error_errno(file, "cannot open");
	if (fread(magic, 1, sizeof(magic), f) != sizeof(magic))
		magic[0] = 0;
	fclose(f);
	if (!kms_is_elf(magic, sizeof(magic)))
		return file_note(file, ret);
	err = kms_elf_open_any(file, elf);
	return err ? err : elf_note(*elf, ret);
}

static int run_file(const char *file, const struct inspector_options *opts)
{
	struct kms_elf *elf = NULL;
	struct note_place place;
	struct kms_error *err;

	err = locate(file, &elf, &place);
	if (!err && opts->json)
		print_json(file, &place);
	else if (!err)
		print_text(&place);
	kms_elf_close(elf);
	return err ? inspector_fail(err) : 0;
}

const struct command command_note = {
	.name = "note", .run_file = run_file, .args = "",
	.help = "where the kallmodsyms note lies in FILE (offsets, sizes)",
	.options = (const struct command_option *const[]){
		&option_json, NULL },
};
