// SPDX-License-Identifier: GPL-2.0
/* find: every instance of a name, with what tells the instances apart. */
#include <string.h>

#include <kms/format.h>

#include "annotate.h"
#include "inspector.h"

int cmd_find(struct inspector *in, int argc, char **argv)
{
	const struct kms_symbol *const *named;
	struct kms_error *err;
	char type[2] = { 0 };
	int a, status = 0;
	size_t i;

	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_begin_array(&in->json, "names");
	}
	for (a = 0; a < argc; a++) {
		uint32_t cursor = KMS_NONE;
		size_t found = 0;

		if (in->opts->json) {
			json_begin_object(&in->json, NULL);
			json_string(&in->json, "name", argv[a]);
			json_begin_array(&in->json, "instances");
		}
		err = inspector_symbols_named(in, argv[a], &named, &found);
		if (err)
			return inspector_fail(err);
		for (i = 0; i < found; i++) {
			const struct kms_symbol *sym = named[i];
			uint32_t obj;
			uint64_t size;

			obj = inspector_object(in, sym, &cursor);
			size = inspector_symbol_size(in, sym);
			if (in->opts->json) {
				json_begin_object(&in->json, NULL);
				json_hex(&in->json, "address", sym->address);
				json_hex(&in->json, "size", size);
				type[0] = sym->type;
				json_string(&in->json, "type", type);
				inspector_json_attribution(in, obj);
				json_end_object(&in->json);
				continue;
			}
			printf("%016llx %c %s/0x%llx",
			       (unsigned long long)sym->address, sym->type,
			       sym->name, (unsigned long long)size);
			kms_print_object(stdout, in->tables, obj, "\t");
			putchar('\n');
		}
		if (in->opts->json) {
			json_end_array(&in->json);
			json_end_object(&in->json);
		}
		if (!found) {
			fprintf(stderr, PROG ": %s: no such symbol\n", argv[a]);
			status = 1;
		}
	}
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
		json_finish(&in->json);
	}
	return status;
}
