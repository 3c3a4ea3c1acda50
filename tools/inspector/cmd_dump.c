// SPDX-License-Identifier: GPL-2.0
/* dump: the decoded tables, as FORMAT.md lays them out. */
#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/tables.h>

#include "command.h"

static void dump_ranges(const struct kms_tables *t)
{
	uint32_t i, k;

	for (k = 0; k < t->nr_sections; k++) {
		const struct kms_section *sec = &t->sections[k];

		printf("section %u: class %u %s, %08x-%08x from %s, %u ranges (object):\n",
		       k, sec->cls, kms_class_name(sec->cls), sec->start,
		       sec->end,
		       kms_class_base(sec->cls) == KMS_BASE_PERCPU ?
		       "__per_cpu_start" : "_text", sec->nr_ranges);
		for (i = sec->first; i < sec->first + sec->nr_ranges; i++) {
			uint32_t obj = kms_range_object(t, i);

			printf("\t%08x-%08x ", kms_range_start(t, i),
			       kms_range_end(t, i));
			if (obj == KMS_NONE)
				printf("-\n");
			else
				printf("%u\n", obj);
		}
	}
}

static void dump_text(const struct kms_tables *t)
{
	uint32_t i, k, w;

	printf("sections %u ranges %u objects %u modlist_words %u strtab %u modules %u\n",
	       t->nr_sections, t->nr_ranges, t->nr_objects,
	       t->nr_modlist_words, t->strtab_size, t->nr_modules);
	dump_ranges(t);
	printf("objects (module list word, name):\n");
	for (i = 0; i < t->nr_objects; i++) {
		uint32_t list = kms_object_modlist(t, i);
		const char *name = kms_object_name(t, i);

		printf("\t%u ", i);
		if (list == KMS_NONE)
			printf("-");
		else
			printf("%u", list);
		printf(" %s", name ? name : "-");
		kms_print_object(stdout, t, i, "\t");
		putchar('\n');
	}
	printf("module lists (word: names):\n");
	for (w = 0; w < t->nr_modlist_words; w += kms_modlist_count(t, w) + 1) {
		printf("\t%u:", w);
		for (k = 0; k < kms_modlist_count(t, w); k++)
			printf(" %s", kms_modlist_name(t, w, k));
		putchar('\n');
	}
}

static void dump_json(struct inspector *in)
{
	const struct kms_tables *t = in->tables;
	struct json *j = &in->json;
	uint32_t i, k;

	json_begin_object(j, NULL);
	json_uint(j, "modules", t->nr_modules);
	json_begin_array(j, "sections");
	for (k = 0; k < t->nr_sections; k++) {
		const struct kms_section *sec = &t->sections[k];

		json_begin_object(j, NULL);
		json_uint(j, "class", sec->cls);
		json_string(j, "class_name", kms_class_name(sec->cls));
		json_hex(j, "start", sec->start);
		json_hex(j, "end", sec->end);
		json_uint(j, "first_range", sec->first);
		json_uint(j, "nr_ranges", sec->nr_ranges);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_array(j, "ranges");
	for (i = 0; i < t->nr_ranges; i++) {
		uint32_t obj = kms_range_object(t, i);

		json_begin_object(j, NULL);
		json_hex(j, "start", kms_range_start(t, i));
		json_hex(j, "end", kms_range_end(t, i));
		if (obj == KMS_NONE)
			json_null(j, "object");
		else
			json_uint(j, "object", obj);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_array(j, "objects");
	for (i = 0; i < t->nr_objects; i++) {
		json_begin_object(j, NULL);
		inspector_json_attribution(in, i);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
	json_finish(j);
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	(void)settings;
	(void)argc;
	(void)argv;
	if (in->opts->json)
		dump_json(in);
	else
		dump_text(in->tables);
	return 0;
}

const struct command command_dump = {
	.name = "dump", .run = run, .args = "",
	.help = "the decoded tables",
	.options = (const struct command_option *const[]){
		&option_tables, &option_json, NULL },
};
