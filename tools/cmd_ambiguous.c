// SPDX-License-Identifier: GPL-2.0
/*
 * ambiguous: the names that several text symbols share, each instance with
 * what tells it apart, and the instances nothing tells apart.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>
#include <kms/util.h>

#include "annotate.h"
#include "command.h"

struct instance {
	const struct kms_symbol *sym;
	uint32_t obj;
};

static int compare_instances(const void *a, const void *b)
{
	const struct instance *x = a, *y = b;
	int c = strcmp(x->sym->name, y->sym->name);

	if (c)
		return c;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

/* Do two attributions print the same? */
static bool same_print(const struct kms_tables *t, uint32_t a, uint32_t b)
{
	const char *na, *nb;

	if (a == b)
		return true;
	if (a == KMS_NONE || b == KMS_NONE)
		return false;
	na = kms_object_name(t, a);
	nb = kms_object_name(t, b);
	return kms_object_modlist(t, a) == kms_object_modlist(t, b) &&
	       (na == nb || (na && nb && !strcmp(na, nb)));
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	const struct kms_symbols *s = in->syms;
	_cleanup_free_ struct instance *v = NULL;
	uint32_t cursor = KMS_NONE;
	size_t i, j, k, n = 0, names = 0, instances = 0, stay = 0, cap = 0;
	struct kms_error *err;

	(void)settings;
	(void)argc;
	(void)argv;
	for (i = 0; i < s->nr; i++) {
		if (!kms_is_text_type(s->syms[i].type))
			continue;
		err = KMS_RESERVE(v, cap, n + 1);
		if (err)
			return inspector_fail(err);
		v[n].sym = &s->syms[i];
		v[n].obj = inspector_object(in, &s->syms[i], &cursor);
		n++;
	}
	qsort(v, n, sizeof(*v), compare_instances);

	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_begin_array(&in->json, "names");
	}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[j].sym->name, v[i].sym->name); j++)
			;
		if (j - i < 2)
			continue;
		names++;
		instances += j - i;
		if (in->opts->json) {
			json_begin_object(&in->json, NULL);
			json_string(&in->json, "name", v[i].sym->name);
			json_begin_array(&in->json, "instances");
		} else {
			printf("%s: %zu\n", v[i].sym->name, j - i);
		}
		for (k = i; k < j; k++) {
			size_t m;
			bool alone = true;

			for (m = i; m < j; m++)
				if (m != k && same_print(in->tables, v[m].obj,
							 v[k].obj))
					alone = false;
			stay += !alone;
			if (in->opts->json) {
				json_begin_object(&in->json, NULL);
				json_hex(&in->json, "address", v[k].sym->address);
				inspector_json_attribution(in, v[k].obj);
				json_bool(&in->json, "ambiguous", !alone);
				json_end_object(&in->json);
				continue;
			}
			printf("\t%016llx", (unsigned long long)v[k].sym->address);
			if (v[k].obj == KMS_NONE)
				fputs(" (core kernel)", stdout);
			kms_print_object(stdout, in->tables, v[k].obj, " ");
			if (!alone)
				fputs("  AMBIGUOUS: same name, modules and object",
				      stdout);
			putchar('\n');
		}
		if (in->opts->json) {
			json_end_array(&in->json);
			json_end_object(&in->json);
		}
	}
	if (in->opts->json) {
		json_end_array(&in->json);
		json_uint(&in->json, "duplicated_names", names);
		json_uint(&in->json, "instances", instances);
		json_uint(&in->json, "ambiguous_instances", stay);
		json_end_object(&in->json);
		json_finish(&in->json);
	} else {
		printf("%zu duplicated names, %zu instances, %zu still ambiguous\n",
		       names, instances, stay);
	}
	return 0;
}

const struct command command_ambiguous = {
	.name = "ambiguous", .run = run, .args = "",
	.help = "the duplicated names of text symbols and how each is told apart",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_json, NULL },
};
