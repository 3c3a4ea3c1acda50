// SPDX-License-Identifier: GPL-2.0
/* stats: what the tables hold and what they cost. */
#include <stdio.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/tables.h>

#include "command.h"

/* What the sections of one class hold. */
struct class_stats {
	uint32_t sections, ranges;
	uint64_t bytes;
};

static void count_classes(const struct kms_tables *t,
			  struct class_stats cs[KMS_NR_CLASSES])
{
	uint32_t k;

	memset(cs, 0, KMS_NR_CLASSES * sizeof(*cs));
	for (k = 0; k < t->nr_sections; k++) {
		const struct kms_section *s = &t->sections[k];

		cs[s->cls].sections++;
		cs[s->cls].ranges += s->nr_ranges;
		cs[s->cls].bytes += s->end - s->start;
	}
}

/* The table of classes: only those the tables have. */
static void print_classes(struct inspector *in,
			  const struct class_stats cs[KMS_NR_CLASSES])
{
	uint32_t c;

	if (in->opts->json)
		json_begin_array(&in->json, "classes");
	else
		printf("\n%-16s %8s %8s %12s\n", "class", "sections",
		       "ranges", "bytes");
	for (c = 0; c < KMS_NR_CLASSES; c++) {
		if (!cs[c].sections)
			continue;
		if (!in->opts->json) {
			printf("%-16s %8u %8u %12llu\n", kms_class_name(c),
			       cs[c].sections, cs[c].ranges,
			       (unsigned long long)cs[c].bytes);
			continue;
		}
		json_begin_object(&in->json, NULL);
		json_string(&in->json, "class", kms_class_name(c));
		json_uint(&in->json, "sections", cs[c].sections);
		json_uint(&in->json, "ranges", cs[c].ranges);
		json_uint(&in->json, "bytes", cs[c].bytes);
		json_end_object(&in->json);
	}
	if (in->opts->json)
		json_end_array(&in->json);
}

/* Symbols the tables can annotate that are not text: FORMAT.md 4. */
static bool is_data(struct inspector *in, const struct kms_symbol *sym)
{
	if (sym->type == 'A' || sym->type == 'a')
		return inspector_absolute_percpu(in, sym->address);
	return !kms_is_text_type(sym->type);
}

/* The symbols the tables can annotate, and how many of them they do. */
struct symbol_stats {
	size_t text, text_annotated, data, data_annotated;
};

static void count_symbols(struct inspector *in, struct symbol_stats *ss)
{
	const struct kms_symbols *syms = inspector_symbols(in);
	uint32_t cursor = KMS_NONE;
	size_t i;

	memset(ss, 0, sizeof(*ss));
	for (i = 0; i < syms->nr; i++) {
		const struct kms_symbol *sym = &syms->syms[i];
		bool annotated;

		if (!kms_is_text_type(sym->type) && !is_data(in, sym))
			continue;
		annotated = inspector_object(in, sym, &cursor) != KMS_NONE;
		if (kms_is_text_type(sym->type)) {
			ss->text++;
			ss->text_annotated += annotated;
		} else {
			ss->data++;
			ss->data_annotated += annotated;
		}
	}
}

/* One count: a JSON member @key, or a line "@label value". */
static void print_stat(struct inspector *in, const char *key,
		       const char *label, unsigned long long value)
{
	if (in->opts->json)
		json_uint(&in->json, key, value);
	else
		printf("%-28s %llu\n", label, value);
}

/* The counts and sizes, one a line (or member). */
/* The two paths images' counts (FORMAT.md 3.9); 0 for one there is not. */
static void print_paths_stats(struct inspector *in,
			      const struct kms_paths *text,
			      const struct kms_paths *init)
{
	print_stat(in, "pieces", "pieces of code with paths",
		   text->nr_pieces);
	print_stat(in, "paths", "object paths", text->nr_paths);
	print_stat(in, "paths_image_bytes", "paths bytes (uncompressed)",
		   text->image_size);
	print_stat(in, "init_pieces", "pieces of init code with paths",
		   init->nr_pieces);
	print_stat(in, "init_paths", "object paths of init code",
		   init->nr_paths);
	print_stat(in, "init_paths_image_bytes",
		   "init paths bytes (uncompressed)", init->image_size);
}

static void print_counts(struct inspector *in, const struct symbol_stats *ss,
			 const struct class_stats cs[KMS_NR_CLASSES])
{
	const struct kms_tables *t = in->tables;
	const struct kms_paths *text = &t->paths[KMS_PATHS_TEXT];
	const struct kms_paths *init = &t->paths[KMS_PATHS_INIT];
	size_t named = 0, multi = 0;
	uint32_t o;

	for (o = 0; o < t->nr_objects; o++) {
		uint32_t list = kms_object_modlist(t, o);

		named += kms_object_name(t, o) != NULL;
		multi += list != KMS_NONE && kms_modlist_count(t, list) > 1;
	}
	print_stat(in, "symbols", "symbols", in->syms->nr);
	print_stat(in, "text_symbols", "text symbols", ss->text);
	print_stat(in, "annotated_symbols", "annotated text symbols",
		   ss->text_annotated);
	print_stat(in, "data_symbols", "data symbols", ss->data);
	print_stat(in, "annotated_data_symbols", "annotated data symbols",
		   ss->data_annotated);
	print_stat(in, "sections", "sections", t->nr_sections);
	print_stat(in, "ranges", "ranges", t->nr_ranges);
	print_stat(in, "objects", "object entries", t->nr_objects);
	print_stat(in, "named_objects", "object entries with a name", named);
	print_stat(in, "multi_module_objects", "multi-module object entries",
		   multi);
	print_stat(in, "modules", "built-in modules", t->nr_modules);
	print_stat(in, "text_bytes", "text bytes described",
		   cs[KMS_CLASS_TEXT].bytes);
	print_stat(in, "note_bytes", "note bytes (compressed)", t->blob_size);
	print_stat(in, "note_padding", "of which padding",
		   t->blob_size - KMS_HEADER_SIZE - t->payload_size -
		   text->frame_size - init->frame_size);
	print_stat(in, "paths_frame_bytes", "of which the paths frame",
		   text->frame_size);
	print_stat(in, "init_paths_frame_bytes",
		   "of which the init paths frame", init->frame_size);
	print_stat(in, "image_bytes", "image bytes (uncompressed)",
		   t->image_size);
	print_paths_stats(in, text, init);
	print_stat(in, "strtab_bytes", "string bytes", t->strtab_size);
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	const struct kms_tables *t = in->tables;
	struct class_stats cs[KMS_NR_CLASSES];
	struct symbol_stats ss;

	(void)settings;
	(void)argc;
	(void)argv;
	count_symbols(in, &ss);
	count_classes(t, cs);
	if (in->opts->json)
		json_begin_object(&in->json, NULL);
	print_counts(in, &ss, cs);
	if (!in->opts->json && t->nr_ranges)
		printf("%-28s %.2f\n", "note bytes per range",
		       (double)t->blob_size / t->nr_ranges);
	print_classes(in, cs);
	if (in->opts->json) {
		json_end_object(&in->json);
		json_finish(&in->json);
	}
	return 0;
}

const struct command command_stats = {
	.name = "stats", .run = run, .args = "",
	.help = "counts and sizes of the tables",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_json, NULL },
};
