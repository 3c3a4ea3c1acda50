// SPDX-License-Identifier: GPL-2.0
/* modules: each built-in module with its address ranges and size. */
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>
#include <kms/util.h>

#include "annotate.h"
#include "command.h"

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool has_module(const struct kms_tables *t, uint32_t obj,
		       const char *module)
{
	uint32_t list, k, n;

	if (obj == KMS_NONE)
		return false;
	list = kms_object_modlist(t, obj);
	n = list == KMS_NONE ? 0 : kms_modlist_count(t, list);
	for (k = 0; k < n; k++)
		if (!strcmp(kms_modlist_name(t, list, k), module))
			return true;
	return false;
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	const struct kms_tables *t = in->tables;
	uint64_t base = in->syms->text_address;
	_cleanup_free_ const char **names = NULL;
	size_t nr = 0, i, cap = 0;
	struct kms_error *err;
	uint32_t w, r;

	(void)settings;
	(void)argc;
	(void)argv;
	/* Every name of every list, sorted, once. */
	for (w = 0; w < t->nr_modlist_words; w += kms_modlist_count(t, w) + 1)
		for (r = 0; r < kms_modlist_count(t, w); r++) {
			err = KMS_RESERVE(names, cap, nr + 1);
			if (err)
				return inspector_fail(err);
			names[nr++] = kms_modlist_name(t, w, r);
		}
	qsort(names, nr, sizeof(*names), compare_names);

	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_begin_array(&in->json, "modules");
	}
	for (i = 0; i < nr; i++) {
		uint64_t size = 0;
		size_t ranges = 0;

		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		for (r = 0; r < t->nr_ranges; r++)
			if (has_module(t, kms_range_object(t, r), names[i])) {
				size += kms_range_end(t, r) - kms_range_start(t, r);
				ranges++;
			}
		if (in->opts->json) {
			json_begin_object(&in->json, NULL);
			json_string(&in->json, "name", names[i]);
			json_hex(&in->json, "size", size);
			json_begin_array(&in->json, "ranges");
		} else {
			printf("[%s] 0x%llx bytes in %zu ranges\n", names[i],
			       (unsigned long long)size, ranges);
		}
		for (r = 0; r < t->nr_ranges; r++) {
			uint32_t obj = kms_range_object(t, r);

			if (!has_module(t, obj, names[i]))
				continue;
			if (in->opts->json) {
				json_begin_object(&in->json, NULL);
				json_hex(&in->json, "start", base + kms_range_start(t, r));
				json_hex(&in->json, "end", base + kms_range_end(t, r));
				inspector_json_attribution(in, obj);
				json_end_object(&in->json);
				continue;
			}
			printf("\t%016llx-%016llx",
			       (unsigned long long)(base + kms_range_start(t, r)),
			       (unsigned long long)(base + kms_range_end(t, r)));
			kms_print_object(stdout, t, obj, " ");
			putchar('\n');
		}
		if (in->opts->json) {
			json_end_array(&in->json);
			json_end_object(&in->json);
		}
	}
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
		json_finish(&in->json);
	}
	return 0;
}

const struct command command_modules = {
	.name = "modules", .run = run, .args = "",
	.help = "each built-in module: its ranges, objects and size",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_json, NULL },
};
