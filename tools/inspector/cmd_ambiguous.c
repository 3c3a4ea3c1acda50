// SPDX-License-Identifier: GPL-2.0
/*
 * ambiguous: the names that several text symbols share, each instance with
 * what tells it apart, and the instances nothing tells apart.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

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

/* Every text symbol with its object entry, sorted by name: *@ret. */
static struct kms_error *text_instances(struct inspector *in,
					struct instance **ret, size_t *ret_nr)
{
	const struct kms_symbols *s = inspector_symbols(in);
	struct instance *v = NULL;
	uint32_t cursor = KMS_NONE;
	size_t i, n = 0, cap = 0;
	struct kms_error *err;

	for (i = 0; i < s->nr; i++) {
		if (!kms_is_text_type(s->syms[i].type))
			continue;
		err = KMS_RESERVE(v, cap, n + 1);
		if (err) {
			free(v);
			return err;
		}
		v[n].sym = &s->syms[i];
		v[n].obj = inspector_object(in, &s->syms[i], &cursor);
		n++;
	}
	qsort(v, n, sizeof(*v), compare_instances);
	*ret = v;
	*ret_nr = n;
	return NULL;
}

static void print_instance(struct inspector *in, const struct instance *inst,
			   bool alone)
{
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_hex(&in->json, "address", inst->sym->address);
		inspector_json_attribution(in, inst->obj);
		json_bool(&in->json, "ambiguous", !alone);
		json_end_object(&in->json);
		return;
	}
	printf("\t%016llx", (unsigned long long)inst->sym->address);
	if (inst->obj == KMS_NONE)
		fputs(" (core kernel)", stdout);
	kms_print_object(stdout, in->tables, inst->obj, " ");
	if (!alone)
		fputs("  AMBIGUOUS: same name, modules and object", stdout);
	putchar('\n');
}

/* The @n instances of one name; returns how many nothing tells apart. */
static size_t print_name(struct inspector *in, const struct instance *v,
			 size_t n)
{
	size_t k, m, stay = 0;

	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_string(&in->json, "name", v[0].sym->name);
		json_begin_array(&in->json, "instances");
	} else {
		printf("%s: %zu\n", v[0].sym->name, n);
	}
	for (k = 0; k < n; k++) {
		bool alone = true;

		for (m = 0; m < n; m++)
			if (m != k && same_print(in->tables, v[m].obj, v[k].obj))
				alone = false;
		stay += !alone;
		print_instance(in, &v[k], alone);
	}
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
	}
	return stay;
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	_cleanup_free_ struct instance *v = NULL;
	size_t i, j, n, names = 0, instances = 0, stay = 0;
	struct kms_error *err;

	(void)settings;
	(void)argc;
	(void)argv;
	err = text_instances(in, &v, &n);
	if (err)
		return inspector_fail(err);
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_begin_array(&in->json, "names");
	}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[j].sym->name, v[i].sym->name);
		     j++)
			;
		if (j - i < 2)
			continue;
		names++;
		instances += j - i;
		stay += print_name(in, v + i, j - i);
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
