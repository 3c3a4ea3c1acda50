// SPDX-License-Identifier: GPL-2.0
/* The options several commands share; see command.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"

bool option_set_string(void *field, const char *arg)
{
	*(const char **)field = arg;
	return true;
}

bool option_set_true(void *field, const char *arg)
{
	(void)arg;
	*(bool *)field = true;
	return true;
}

static bool set_source(void *field, const char *arg)
{
	static const char *const names[] = {
		[KMS_SYMBOLS_AUTO] = "auto",
		[KMS_SYMBOLS_KALLSYMS] = "kallsyms",
		[KMS_SYMBOLS_SYMTAB] = "symtab",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i])) {
			*(enum kms_symbol_source *)field = i;
			return true;
		}
	}
	fprintf(stderr, PROG ": unknown symbol source \"%s\" (auto, kallsyms, symtab)\n",
		arg);
	return false;
}

static bool set_kaslr_offset(void *field, const char *arg)
{
	struct inspector_options *opts = field;
	char *end;

	errno = 0;
	opts->kaslr_offset = strtoull(arg, &end, 0);
	if (errno || !*arg || *end) {
		fprintf(stderr, PROG ": --kaslr-offset: \"%s\" is not a number\n",
			arg);
		return false;
	}
	opts->have_kaslr_offset = true;
	return true;
}

#define COMMON(member) .offset = offsetof(struct inspector_options, member), \
		       .common = true

const struct command_option option_tables = {
	.name = "tables", .letter = 't', .has_arg = true,
	.help = "  -t, --tables FILE       the tables from FILE instead of VMLINUX\n",
	.set = option_set_string, COMMON(tables),
};

const struct command_option option_symbols = {
	.name = "symbols", .letter = 'S', .has_arg = true,
	.help = "  -S, --symbols SOURCE    auto, kallsyms or symtab\n",
	.set = set_source, COMMON(source),
};

const struct command_option option_json = {
	.name = "json", .letter = 'j',
	.help = "  -j, --json              JSON output\n",
	.set = option_set_true, COMMON(json),
};

const struct command_option option_kaslr_offset = {
	.name = "kaslr-offset", .letter = 'k', .has_arg = true,
	.help = "  -k, --kaslr-offset N    addresses of a kernel relocated by N\n",
	.set = set_kaslr_offset, .common = true,
};

const struct command_option option_kallsyms = {
	.name = "kallsyms", .alias = "kallmodsyms", .letter = 'K',
	.has_arg = true,
	.help = "  -K, --kallsyms FILE     the offset from a copy of /proc/kallsyms\n"
		"                          (or /proc/kallmodsyms; --kallmodsyms too)\n",
	.set = option_set_string, COMMON(kallsyms),
};

const struct command_option option_vmcore = {
	.name = "vmcore", .has_arg = true,
	.help = "      --vmcore FILE       a crash dump of VMLINUX (its KASLR offset)\n",
	.set = option_set_string, COMMON(vmcore),
};

int command_check_kaslr(const struct inspector_options *opts,
			const void *settings)
{
	const char *given[3];
	size_t n = 0;

	(void)settings;
	if (opts->have_kaslr_offset)
		given[n++] = "--kaslr-offset";
	if (opts->kallsyms)
		given[n++] = "--kallsyms";
	if (opts->vmcore)
		given[n++] = "--vmcore";
	if (n > 1) {
		fprintf(stderr, PROG ": %s and %s exclude each other\n",
			given[0], given[1]);
		return 2;
	}
	return 0;
}
