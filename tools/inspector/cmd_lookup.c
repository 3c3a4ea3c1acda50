// SPDX-License-Identifier: GPL-2.0
/*
 * lookup: name addresses the way the kernel's %pS does, with the
 * annotations; or find the address of a symbol specification (symspec.h):
 * symbol+off with the qualifiers that pick one instance.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>

#include "command.h"
#include "symspec.h"

static void print_result(struct inspector *in, const char *input,
			 bool with_address, uint64_t addr,
			 const struct inspector_name *name)
{
	if (in->opts->json) {
		const char *path = inspector_path(in, name->sym->address +
						  name->offset);

		json_begin_object(&in->json, NULL);
		json_string(&in->json, "input", input);
		json_hex(&in->json, "address", addr);
		inspector_json_name(in, name);
		if (path)
			json_string(&in->json, "path", path);
		json_end_object(&in->json);
		return;
	}
	if (with_address)
		printf("%016llx ", (unsigned long long)addr);
	inspector_print_name(in, stdout, name);
	putchar('\n');
}

/* @lineno: of stdin, or 0 for an argument. */
static void report(struct inspector *in, unsigned long lineno,
		   const char *input, const char *problem)
{
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_string(&in->json, "input", input);
		json_string(&in->json, "error", problem);
		json_end_object(&in->json);
	}
	if (lineno)
		fprintf(stderr, PROG ": stdin:%lu: \"%s\": %s\n", lineno, input,
			problem);
	else
		fprintf(stderr, PROG ": \"%s\": %s\n", input, problem);
}

/* Name address @addr, read from @input; returns 0 on success. */
static int lookup_address(struct inspector *in, uint64_t kaslr,
			  unsigned long lineno, const char *input,
			  uint64_t addr)
{
	struct inspector_name name;
	uint64_t link = addr;

	/* Absolute per-CPU offsets are where KASLR left them. */
	if (!inspector_absolute_percpu(in, link)) {
		if (link < kaslr) {
			report(in, lineno, input, "below the KASLR offset");
			return 1;
		}
		link -= kaslr;
	}
	if (!inspector_name_address(in, link, &name)) {
		report(in, lineno, input, kaslr ?
		       "not in the kernel's symbols at this KASLR offset" :
		       "not in any symbol");
		return 1;
	}
	print_result(in, input, false, addr, &name);
	return 0;
}

/* Resolve one input (line @lineno of stdin, or 0); returns 0 on success. */
static int lookup_one(struct inspector *in, uint64_t kaslr,
		      unsigned long lineno, const char *input)
{
	struct symspec_instance inst;
	struct inspector_name name;
	struct kms_error *err;
	struct symspec spec;
	uint64_t addr;
	int status = 1;

	if (symspec_bare_address(input, &addr))
		return lookup_address(in, kaslr, lineno, input, addr);
	err = symspec_parse(input, true, &spec);
	if (err)
		goto fail;
	if (spec.is_address) {
		status = lookup_address(in, kaslr, lineno, input, spec.offset);
		goto out;
	}

	err = symspec_resolve(in, &spec, kaslr, &inst);
	if (err)
		goto fail;
	name = (struct inspector_name){ .sym = inst.sym, .obj = inst.obj,
					.offset = spec.offset };
	err = symspec_check_size(in, &spec, &inst, &name.size);
	if (err)
		goto fail;
	print_result(in, input, true, inst.sym->address + spec.offset + kaslr,
		     &name);
	status = 0;
	goto out;
fail:
	report(in, lineno, input, err->message);
	kms_error_destroy(err);
out:
	symspec_release(&spec);
	return status;
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	struct kms_error *err;
	int a, status = 0;
	uint64_t kaslr;

	(void)settings;
	err = inspector_kaslr(in, &kaslr);
	if (err)
		return inspector_fail(err);
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_hex(&in->json, "kaslr_offset", kaslr);
		json_begin_array(&in->json, "results");
	}
	for (a = 0; a < argc; a++) {
		unsigned long lineno = 0;
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;

		if (strcmp(argv[a], "-")) {
			status |= lookup_one(in, kaslr, 0, argv[a]);
			continue;
		}
		/* Batch: one input a line; a bad line is reported, not fatal. */
		while ((len = getline(&line, &cap, stdin)) >= 0) {
			lineno++;
			if (len && line[len - 1] == '\n')
				line[--len] = '\0';
			if (!line[strspn(line, " \t")])
				continue;
			status |= lookup_one(in, kaslr, lineno, line);
		}
		free(line);
	}
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
		json_finish(&in->json);
	}
	return status;
}

const struct command command_lookup = {
	.name = "lookup", .run = run, .args = "ADDR|SPEC...|-",
	.min_args = 1, .max_args = -1,
	.help = "symbol+0xoff/0xsize [module] {objfile} of addresses, or the address of SPEC",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_json,
		&option_kaslr_offset, &option_kallsyms, &option_vmcore, NULL },
	.check = command_check_kaslr,
};
