// SPDX-License-Identifier: GPL-2.0
/* modules: each built-in module with its address ranges and size. */
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

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

/* Every name of every module list, sorted (with repeats): *@ret. */
static struct kms_error *module_names(const struct kms_tables *t,
				      const char ***ret, size_t *ret_nr)
{
	const char **names = NULL;
	size_t nr = 0, cap = 0;
	struct kms_error *err;
	uint32_t w, k;

	for (w = 0; w < t->nr_modlist_words; w += kms_modlist_count(t, w) + 1)
		for (k = 0; k < kms_modlist_count(t, w); k++) {
			err = KMS_RESERVE(names, cap, nr + 1);
			if (err) {
				free(names);
				return err;
			}
			names[nr++] = kms_modlist_name(t, w, k);
		}
	qsort(names, nr, sizeof(*names), compare_names);
	*ret = names;
	*ret_nr = nr;
	return NULL;
}

/* Range @r's addresses, false if its class's base is unknown. */
static bool range_addresses(struct inspector *in, uint32_t r,
			    uint64_t *start, uint64_t *end)
{
	const struct kms_tables *t = in->tables;
	uint64_t base;

	if (!inspector_class_base(in, kms_range_class(t, r), &base))
		return false;
	*start = base + kms_range_start(t, r);
	*end = base + kms_range_end(t, r);
	return true;
}

static void print_range(struct inspector *in, uint32_t r)
{
	const struct kms_tables *t = in->tables;
	const char *cls = kms_class_name(kms_range_class(t, r));
	uint32_t obj = kms_range_object(t, r);
	uint64_t start, end;

	if (!range_addresses(in, r, &start, &end))
		return;
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_hex(&in->json, "start", start);
		json_hex(&in->json, "end", end);
		json_string(&in->json, "class", cls);
		inspector_json_attribution(in, obj);
		json_end_object(&in->json);
		return;
	}
	printf("\t%016llx-%016llx %s", (unsigned long long)start,
	       (unsigned long long)end, cls);
	kms_print_object(stdout, t, obj, " ");
	putchar('\n');
}

/* Module @name: its size, then each of its ranges. */
static void print_module(struct inspector *in, const char *name)
{
	const struct kms_tables *t = in->tables;
	uint64_t size = 0;
	size_t ranges = 0;
	uint32_t r;

	for (r = 0; r < t->nr_ranges; r++)
		if (has_module(t, kms_range_object(t, r), name)) {
			size += kms_range_end(t, r) - kms_range_start(t, r);
			ranges++;
		}
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_string(&in->json, "name", name);
		json_hex(&in->json, "size", size);
		json_begin_array(&in->json, "ranges");
	} else {
		printf("[%s] 0x%llx bytes in %zu ranges\n", name,
		       (unsigned long long)size, ranges);
	}
	for (r = 0; r < t->nr_ranges; r++)
		if (has_module(t, kms_range_object(t, r), name))
			print_range(in, r);
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
	}
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	_cleanup_free_ const char **names = NULL;
	struct kms_error *err;
	size_t nr, i;

	(void)settings;
	(void)argc;
	(void)argv;
	err = module_names(in->tables, &names, &nr);
	if (err)
		return inspector_fail(err);
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_begin_array(&in->json, "modules");
	}
	for (i = 0; i < nr; i++)
		if (!i || strcmp(names[i], names[i - 1]))
			print_module(in, names[i]);
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
