// SPDX-License-Identifier: GPL-2.0
/*
 * export: the tables in formats other tools read.
 *
 *   --format=ranges       modules.builtin.ranges, as Linux 6.12's
 *                         scripts/generate_builtin_ranges.awk writes it:
 *                         per executable section an anchor record,
 *                         ".text 00000000-00000000 = _text", then
 *                         ".text SSSSSSSS-EEEEEEEE mod [mod2...]" per run
 *                         of code of one module list, offsets relative to
 *                         the section's start, all in address order.  The
 *                         tables cover code only, so only code sections
 *                         (.text, .init.text, .exit.text, ...) have lines.
 *   --format=kallmodsyms  the /proc/kallmodsyms text (what list prints).
 *
 * The awk script reads the link map and takes as a section's anchor the
 * first "sym = ." at its start, else its first symbol; without the map we
 * take _text for the section that starts there, else the first global text
 * symbol at the start (linker-script symbols such as _sinittext are
 * global), else the first text symbol; else, as the awk script, none.
 */
#include <gelf.h>
#include <string.h>

#include <kms/format.h>

#include "annotate.h"
#include "command.h"

/* "a b" of object entry @obj's modules into @buf; false for none. */
static bool module_names(const struct kms_tables *t, uint32_t obj,
			 char *buf, size_t size)
{
	uint32_t list = obj == KMS_NONE ? KMS_NONE : kms_object_modlist(t, obj);
	uint32_t k, n = list == KMS_NONE ? 0 : kms_modlist_count(t, list);
	size_t len = 0;

	buf[0] = '\0';
	for (k = 0; k < n && len < size; k++)
		len += snprintf(buf + len, size - len, "%s%s", k ? " " : "",
				kms_modlist_name(t, list, k));
	return n > 0;
}

/* The name of the anchor of the section at @base, or NULL. */
static const char *anchor_name(struct inspector *in, uint64_t base)
{
	const struct kms_symbol *local = NULL;
	size_t i;

	if (in->syms->text_address == base)
		return "_text";
	for (i = 0; i < in->syms->nr; i++) {
		const struct kms_symbol *s = &in->syms->syms[i];

		if (s->address != base)
			continue;
		if (s->type == 'T')
			return s->name;
		if (s->type == 't' && !local)
			local = s;
	}
	return local ? local->name : NULL;
}

struct section {
	const char *name;
	uint64_t start, end;
};

/* The executable section holding [@start, @end), or NULL. */
static bool find_section(struct inspector *in, uint64_t start, uint64_t end,
			 struct section *ret)
{
	Elf *elf = in->elf->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || shdr.sh_type != SHT_PROGBITS)
			continue;
		if (shdr.sh_addr <= start && end <= shdr.sh_addr + shdr.sh_size) {
			ret->name = kms_elf_section_name(in->elf, scn);
			ret->start = shdr.sh_addr;
			ret->end = shdr.sh_addr + shdr.sh_size;
			return ret->name != NULL;
		}
	}
	return false;
}

static int export_ranges(struct inspector *in)
{
	const struct kms_tables *t = in->tables;
	uint64_t text = in->syms->text_address;
	struct section sect = { NULL, 0, 0 };
	char mods[4096], next[4096];
	uint32_t r, s;
	int status = 0;

	for (r = 0; r < t->nr_ranges; r = s) {
		uint64_t start = text + kms_range_start(t, r), stop;
		const char *anchor;

		s = r + 1;
		/* modules.builtin.ranges' .text lines: the text class. */
		if (kms_range_class(t, r) != KMS_CLASS_TEXT ||
		    !module_names(t, kms_range_object(t, r), mods, sizeof(mods)))
			continue;
		/*
		 * Adjacent ranges of one module list are one run, as are two
		 * with only padding (no symbol) between them.
		 */
		for (;;) {
			uint32_t n = s;

			if (n < t->nr_ranges &&
			    kms_range_class(t, n) == KMS_CLASS_TEXT &&
			    !module_names(t, kms_range_object(t, n), next, sizeof(next)) &&
			    !inspector_symbol_between(in, text + kms_range_start(t, n),
						      text + kms_range_end(t, n)))
				n++;
			if (n >= t->nr_ranges ||
			    kms_range_class(t, n) != KMS_CLASS_TEXT ||
			    !module_names(t, kms_range_object(t, n), next, sizeof(next)) ||
			    strcmp(mods, next))
				break;
			s = n + 1;
		}
		stop = text + kms_range_end(t, s - 1);
		if (!sect.name || start < sect.start || stop > sect.end) {
			if (!find_section(in, start, stop, &sect)) {
				fprintf(stderr, PROG ": %s: [%s] at 0x%llx-0x%llx is not inside one executable section; left out\n",
					in->vmlinux, mods, (unsigned long long)start,
					(unsigned long long)stop);
				sect.name = NULL;
				status = 1;
				continue;
			}
			/* The awk script too writes none when it has none. */
			anchor = anchor_name(in, sect.start);
			if (anchor)
				printf("%s %08x-%08x = %s\n", sect.name, 0, 0,
				       anchor);
		}
		printf("%s %08llx-%08llx %s\n", sect.name,
		       (unsigned long long)(start - sect.start),
		       (unsigned long long)(stop - sect.start), mods);
	}
	return status;
}

struct export_settings {
	const char *format;
};

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	const struct export_settings *s = settings;
	static const struct list_filter all;

	(void)argc;
	(void)argv;
	if (!strcmp(s->format, "kallmodsyms"))
		return list_symbols(in, &all);
	return export_ranges(in);
}

static bool set_format(void *field, const char *arg)
{
	if (strcmp(arg, "ranges") && strcmp(arg, "kallmodsyms")) {
		fprintf(stderr, PROG ": unknown format \"%s\" (ranges, kallmodsyms)\n",
			arg);
		return false;
	}
	*(const char **)field = arg;
	return true;
}

static int check(const struct inspector_options *opts, const void *settings)
{
	const struct export_settings *s = settings;

	(void)opts;
	if (!s->format) {
		fprintf(stderr, PROG ": export needs --format=ranges or --format=kallmodsyms\n");
		return 2;
	}
	return 0;
}

static struct export_settings settings;

static const struct command_option option_format = {
	.name = "format", .letter = 'f', .has_arg = true,
	.help = "  -f, --format FORMAT     ranges or kallmodsyms\n",
	.set = set_format,
	.offset = offsetof(struct export_settings, format),
};

const struct command command_export = {
	.name = "export", .run = run, .args = "",
	.help = "the tables as modules.builtin.ranges or /proc/kallmodsyms text",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_format, NULL },
	.settings = &settings,
	.check = check,
};
