// SPDX-License-Identifier: GPL-2.0
/*
 * find: every instance of a name (or of a symbol specification, see
 * symspec.h), with what tells the instances apart and livepatch's sympos.
 */
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>

#include "command.h"
#include "symspec.h"

static void print_instance(struct inspector *in,
			   const struct symspec_instance *inst)
{
	const struct kms_symbol *sym = inst->sym;
	uint64_t size = inspector_symbol_size(in, sym);
	char type[2] = { sym->type, 0 };

	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_hex(&in->json, "address", sym->address);
		json_hex(&in->json, "size", size);
		json_string(&in->json, "type", type);
		inspector_json_attribution(in, inst->obj);
		json_uint(&in->json, "sympos", inst->sympos);
		if (inst->unsure)
			json_bool(&in->json, "object_unknown", true);
		json_end_object(&in->json);
		return;
	}
	printf("%016llx %c %s/0x%llx", (unsigned long long)sym->address,
	       sym->type, sym->name, (unsigned long long)size);
	kms_print_object(stdout, in->tables, inst->obj, "\t");
	printf("\tsympos=%zu%s\n", inst->sympos,
	       inst->unsure ? " (object unknown)" : "");
}

static int find_one(struct inspector *in, const char *input)
{
	struct symspec_matches m = { 0 };
	struct kms_error *err;
	struct symspec spec;
	int status = 0;
	size_t i;

	err = symspec_parse(input, false, &spec);
	if (!err)
		err = symspec_match(in, &spec, &m);
	if (err) {
		fprintf(stderr, PROG ": \"%s\": %s\n", input, err->message);
		kms_error_destroy(err);
		symspec_release(&spec);
		return 1;
	}
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_string(&in->json, "name", spec.name);
		if (strcmp(spec.name, input))
			json_string(&in->json, "input", input);
		json_begin_array(&in->json, "instances");
	}
	for (i = 0; i < m.nr; i++)
		print_instance(in, &m.v[i]);
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
	}
	if (!m.nr) {
		err = symspec_no_match(&spec, &m);
		fprintf(stderr, PROG ": %s: %s\n", input, err->message);
		kms_error_destroy(err);
		status = 1;
	}
	symspec_matches_free(&m);
	symspec_release(&spec);
	return status;
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	int a, status = 0;

	(void)settings;
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_begin_array(&in->json, "names");
	}
	for (a = 0; a < argc; a++)
		status |= find_one(in, argv[a]);
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
		json_finish(&in->json);
	}
	return status;
}

const struct command command_find = {
	.name = "find", .run = run, .args = "SPEC...",
	.min_args = 1, .max_args = -1,
	.help = "every instance of a name (or SPEC), what tells them apart, its sympos",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_json, NULL },
};
