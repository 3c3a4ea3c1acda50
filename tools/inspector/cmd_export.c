// SPDX-License-Identifier: GPL-2.0
/*
 * export: the tables in formats other tools read.
 *
 *   --format=ranges       modules.builtin.ranges, as Linux 6.12's
 *                         scripts/generate_builtin_ranges.awk writes it
 *                         (export_ranges.c: how, and the awk script's
 *                         quirks it reproduces).
 *   --format=kallmodsyms  the /proc/kallmodsyms text (what list prints).
 */
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "export_ranges.h"
#include "listing.h"

struct export_settings {
	const char *format;
	const char *map;
	const char *o_map;
};

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	const struct export_settings *s = settings;
	static const struct list_filter all;

	(void)argc;
	(void)argv;
	if (!strcmp(s->format, "kallmodsyms"))
		return list_symbols(in, &all);
	return export_ranges(in, s->map, s->o_map);
}

static bool set_format(void *field, const char *arg)
{
	if (strcmp(arg, "ranges") && strcmp(arg, "kallmodsyms")) {
		fprintf(stderr, PROG ": unknown format \"%s\" (ranges, kallmodsyms)\n",
			arg);
		return false;
	}
	*(const char **)field = arg;
	return true;
}

static int check(const struct inspector_options *opts, const void *settings)
{
	const struct export_settings *s = settings;

	(void)opts;
	if (!s->format) {
		fprintf(stderr, PROG ": export needs --format=ranges or --format=kallmodsyms\n");
		return 2;
	}
	if ((s->map || s->o_map) && strcmp(s->format, "ranges")) {
		fprintf(stderr, PROG ": --map and --o-map are for --format=ranges\n");
		return 2;
	}
	if (s->o_map && !s->map) {
		fprintf(stderr, PROG ": --o-map needs --map\n");
		return 2;
	}
	return 0;
}

static struct export_settings settings;

static const struct command_option option_format = {
	.name = "format", .letter = 'f', .has_arg = true,
	.help = "  -f, --format FORMAT     ranges or kallmodsyms\n",
	.set = set_format,
	.offset = offsetof(struct export_settings, format),
};

static const struct command_option option_map = {
	.name = "map", .has_arg = true,
	.help = "      --map FILE          ranges: vmlinux's link map, for the order the\n"
		"                          awk script reads vmlinux.o's sections in\n"
		"      --o-map FILE        ranges: vmlinux.o's map (default: vmlinux.o.map\n"
		"                          beside --map's FILE)\n",
	.set = option_set_string,
	.offset = offsetof(struct export_settings, map),
};

static const struct command_option option_o_map = {
	.name = "o-map", .has_arg = true, .set = option_set_string,
	.offset = offsetof(struct export_settings, o_map),
};

const struct command command_export = {
	.name = "export", .run = run, .args = "",
	.help = "the tables as modules.builtin.ranges or /proc/kallmodsyms text",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_format,
		&option_map, &option_o_map, NULL },
	.settings = &settings,
	.check = check,
};
