// SPDX-License-Identifier: GPL-2.0
/*
 * Every symbol as /proc/kallmodsyms prints it, for list and export
 * --format=kallmodsyms (listing.h).
 */
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/tables.h>

#include "listing.h"

/* Does object entry @obj pass the --module and --objfile filters? */
static bool wanted(const struct inspector *in, const struct list_filter *o,
		   uint32_t obj)
{
	const struct kms_tables *t = in->tables;
	uint32_t list, k, n;
	const char *name;

	if (!o->module && !o->objfile)
		return true;
	if (obj == KMS_NONE)
		return false;
	if (o->objfile) {
		name = kms_object_name(t, obj);
		if (!name || strcmp(name, o->objfile))
			return false;
	}
	if (o->module) {
		list = kms_object_modlist(t, obj);
		n = list == KMS_NONE ? 0 : kms_modlist_count(t, list);
		for (k = 0; k < n; k++)
			if (!strcmp(kms_modlist_name(t, list, k), o->module))
				break;
		if (k == n)
			return false;
	}
	return true;
}

int list_symbols(struct inspector *in, const struct list_filter *filter)
{
	const struct kms_symbols *s = inspector_symbols(in);
	uint32_t cursor = KMS_NONE;
	char type[2] = { 0 };
	size_t i;

	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_begin_array(&in->json, "symbols");
	}
	for (i = 0; i < s->nr; i++) {
		const struct kms_symbol *sym = &s->syms[i];
		uint32_t obj = inspector_object(in, sym, &cursor);

		if (!wanted(in, filter, obj))
			continue;
		if (in->opts->json) {
			json_begin_object(&in->json, NULL);
			json_hex(&in->json, "address", sym->address);
			type[0] = sym->type;
			json_string(&in->json, "type", type);
			json_string(&in->json, "name", sym->name);
			inspector_json_attribution(in, obj);
			json_end_object(&in->json);
			continue;
		}
		printf("%016llx %c %s", (unsigned long long)sym->address,
		       sym->type, sym->name);
		kms_print_object(stdout, in->tables, obj, "\t");
		putchar('\n');
	}
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
		json_finish(&in->json);
	}
	return 0;
}
