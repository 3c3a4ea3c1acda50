// SPDX-License-Identifier: GPL-2.0
/* list: every symbol as /proc/kallmodsyms prints it (listing.c). */
#include "command.h"
#include "listing.h"

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	(void)argc;
	(void)argv;
	return list_symbols(in, settings);
}

static struct list_filter filter;

static const struct command_option option_module = {
	.name = "module", .letter = 'm', .has_arg = true,
	.help = "  -m, --module MOD        only symbols of built-in module MOD\n",
	.set = option_set_string,
	.offset = offsetof(struct list_filter, module),
};

static const struct command_option option_objfile = {
	.name = "objfile", .letter = 'o', .has_arg = true,
	.help = "  -o, --objfile OBJ       only symbols printed with {OBJ}\n",
	.set = option_set_string,
	.offset = offsetof(struct list_filter, objfile),
};

const struct command command_list = {
	.name = "list", .run = run, .args = "",
	.help = "every symbol, as /proc/kallmodsyms lists it",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_json,
		&option_module, &option_objfile, NULL },
	.settings = &filter,
};
