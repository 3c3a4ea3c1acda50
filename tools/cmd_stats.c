// SPDX-License-Identifier: GPL-2.0
/* stats: what the tables hold and what they cost. */
#include <kms/format.h>

#include "annotate.h"
#include "command.h"

/* The bytes the sections of class @cls cover. */
static uint64_t class_bytes(const struct kms_tables *t, uint32_t cls)
{
	uint64_t sum = 0;
	uint32_t k;

	for (k = 0; k < t->nr_sections; k++)
		if (t->sections[k].cls == cls)
			sum += t->sections[k].end - t->sections[k].start;
	return sum;
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	const struct kms_tables *t = in->tables;
	size_t text = 0, annotated = 0, named = 0, multi = 0, i;
	uint32_t cursor = KMS_NONE, o;

	(void)settings;
	(void)argc;
	(void)argv;
	for (i = 0; i < in->syms->nr; i++) {
		const struct kms_symbol *sym = &in->syms->syms[i];

		if (!kms_is_text_type(sym->type))
			continue;
		text++;
		annotated += inspector_object(in, sym, &cursor) != KMS_NONE;
	}
	for (o = 0; o < t->nr_objects; o++) {
		uint32_t list = kms_object_modlist(t, o);

		named += kms_object_name(t, o) != NULL;
		multi += list != KMS_NONE && kms_modlist_count(t, list) > 1;
	}

#define STAT(key, label, value)						\
	do {								\
		if (in->opts->json)					\
			json_uint(&in->json, key, value);		\
		else							\
			printf("%-28s %llu\n", label,			\
			       (unsigned long long)(value));		\
	} while (0)

	if (in->opts->json)
		json_begin_object(&in->json, NULL);
	STAT("symbols", "symbols", in->syms->nr);
	STAT("text_symbols", "text symbols", text);
	STAT("annotated_symbols", "annotated text symbols", annotated);
	STAT("sections", "sections", t->nr_sections);
	STAT("ranges", "ranges", t->nr_ranges);
	STAT("objects", "object entries", t->nr_objects);
	STAT("named_objects", "object entries with a name", named);
	STAT("multi_module_objects", "multi-module object entries", multi);
	STAT("modules", "built-in modules", t->nr_modules);
	STAT("text_bytes", "text bytes described",
	     class_bytes(t, KMS_CLASS_TEXT));
	STAT("note_bytes", "note bytes (compressed)", t->blob_size);
	STAT("image_bytes", "image bytes (uncompressed)", t->image_size);
	STAT("strtab_bytes", "string bytes", t->strtab_size);
	if (in->opts->json) {
		json_end_object(&in->json);
		json_finish(&in->json);
	} else if (t->nr_ranges) {
		printf("%-28s %.2f\n", "note bytes per range",
		       (double)t->blob_size / t->nr_ranges);
	}
#undef STAT
	return 0;
}

const struct command command_stats = {
	.name = "stats", .run = run, .args = "",
	.help = "counts and sizes of the tables",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_json, NULL },
};
