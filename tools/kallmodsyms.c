// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms: the offline inspector of a kernel's kallmodsyms tables.
 * One command per question a kernel developer asks of an address or a
 * name; see usage() and kallmodsyms(1).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "inspector.h"

#ifndef KMS_VERSION_STRING
#define KMS_VERSION_STRING "0"
#endif

enum {
	OPT_TABLES = 1 << 0,
	OPT_SYMBOLS = 1 << 1,
	OPT_JSON = 1 << 2,
	OPT_FILTER = 1 << 3,
	OPT_KASLR_OFFSET = 1 << 4,	/* -k */
	OPT_KALLSYMS = 1 << 8,		/* -K */
	OPT_KASLR = OPT_KASLR_OFFSET | OPT_KALLSYMS,
	OPT_BUILD = 1 << 5,
	OPT_FORMAT = 1 << 6,
	OPT_PROBE = 1 << 7,
};

static const struct command {
	const char *name;
	int (*run)(struct inspector *in, int argc, char **argv);
	const char *args;
	int min_args;		/* after VMLINUX; max_args -1: no limit */
	int max_args;
	unsigned int options;
	const char *help;
} commands[] = {
	{ "list", cmd_list, "", 0, 0,
	  OPT_TABLES | OPT_SYMBOLS | OPT_JSON | OPT_FILTER,
	  "every symbol, as /proc/kallmodsyms lists it" },
	{ "lookup", cmd_lookup, "ADDR|SPEC...|-", 1, -1,
	  OPT_TABLES | OPT_SYMBOLS | OPT_JSON | OPT_KASLR,
	  "symbol+0xoff/0xsize [module] {objfile} of addresses, or the address of SPEC" },
	{ "find", cmd_find, "SPEC...", 1, -1,
	  OPT_TABLES | OPT_SYMBOLS | OPT_JSON,
	  "every instance of a name (or SPEC), what tells them apart, its sympos" },
	{ "ambiguous", cmd_ambiguous, "", 0, 0,
	  OPT_TABLES | OPT_SYMBOLS | OPT_JSON,
	  "the duplicated names of text symbols and how each is told apart" },
	{ "modules", cmd_modules, "", 0, 0,
	  OPT_TABLES | OPT_SYMBOLS | OPT_JSON,
	  "each built-in module: its ranges, objects and size" },
	{ "stats", cmd_stats, "", 0, 0, OPT_TABLES | OPT_SYMBOLS | OPT_JSON,
	  "counts and sizes of the tables" },
	{ "dump", cmd_dump, "", 0, 0, OPT_TABLES | OPT_JSON,
	  "the decoded tables" },
	{ "verify", cmd_verify, "", 0, 0,
	  OPT_TABLES | OPT_SYMBOLS | OPT_BUILD,
	  "do the tables agree with VMLINUX (and its build)?" },
	{ "decode", cmd_decode, "< LOG", 0, 0,
	  OPT_TABLES | OPT_SYMBOLS | OPT_KASLR,
	  "a kernel log or oops, with [module] {objfile} added" },
	{ "export", cmd_export, "", 0, 0, OPT_TABLES | OPT_SYMBOLS | OPT_FORMAT,
	  "the tables as modules.builtin.ranges or /proc/kallmodsyms text" },
	{ "probe", cmd_probe, "SPEC", 1, 1,
	  OPT_TABLES | OPT_SYMBOLS | OPT_KALLSYMS | OPT_PROBE,
	  "a kprobe_events line for one instance, for the running kernel" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: " PROG " COMMAND [options] VMLINUX [ARG...]\n\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %-14s %s\n", commands[i].name,
			commands[i].args, commands[i].help);
	fprintf(f,
		"\nOptions:\n"
		"  -t, --tables FILE       the tables from FILE (a vmlinux with the note, a\n"
		"                          sidecar or note file, /sys/kernel/notes) instead\n"
		"                          of VMLINUX\n"
		"  -S, --symbols SOURCE    auto (default): VMLINUX's kallsyms tables when it\n"
		"                          has them, else its symbol table; kallsyms; symtab\n"
		"  -j, --json              JSON output (addresses as hex strings)\n"
		"  -m, --module MOD        list: only symbols of built-in module MOD\n"
		"  -o, --objfile OBJ       list: only symbols printed with {OBJ}\n"
		"  -k, --kaslr-offset N    lookup: addresses are of a kernel relocated by N\n"
		"  -K, --kallsyms FILE     lookup, decode, probe: take the offset from a\n"
		"                          copy of the running kernel's /proc/kallsyms or\n"
		"                          /proc/kallmodsyms (also --kallmodsyms FILE)\n"
		"  -f, --format FORMAT     export: ranges (modules.builtin.ranges) or\n"
		"                          kallmodsyms (/proc/kallmodsyms text)\n"
		"  -n, --name NAME         probe: the event's name (default: from SPEC)\n"
		"      --tracefs DIR       probe: append the line to DIR/kprobe_events\n"
		"  -b, --build-dir DIR     verify: regenerate from this build tree's maps,\n"
		"                          .cmd files and modules.builtin\n"
		"      --map, --o-map, --builtin FILE\n"
		"                          verify: as kallmodsyms-gen -m, -M, -B\n"
		"      --version           print the version\n"
		"  -h, --help              this text\n"
		"\n"
		"SPEC names one instance of a symbol: sym, sym+0xoff, sym+0xoff/0xsize,\n"
		"sym [mod] {obj.o}, mod:sym, path/obj.o:sym, 'file.c'::sym, sym@path/file.c,\n"
		"sym,N (livepatch sympos); see kallmodsyms(1).\n"
		"\n"
		"Exit status: 0 on success; 1 on errors (lookup: some input did not\n"
		"resolve; find: some name has no symbol); 2 on bad usage.\n");
}

/* kallmodsyms COMMAND --help */
static void command_usage(const struct command *cmd)
{
	printf("usage: " PROG " %s [options] VMLINUX %s\n\n%s.\n\nOptions:\n",
	       cmd->name, cmd->args, cmd->help);
	if (cmd->options & OPT_TABLES)
		printf("  -t, --tables FILE       the tables from FILE instead of VMLINUX\n");
	if (cmd->options & OPT_SYMBOLS)
		printf("  -S, --symbols SOURCE    auto, kallsyms or symtab\n");
	if (cmd->options & OPT_JSON)
		printf("  -j, --json              JSON output\n");
	if (cmd->options & OPT_FILTER)
		printf("  -m, --module MOD        only symbols of built-in module MOD\n"
		       "  -o, --objfile OBJ       only symbols printed with {OBJ}\n");
	if (cmd->options & OPT_KASLR_OFFSET)
		printf("  -k, --kaslr-offset N    addresses of a kernel relocated by N\n");
	if (cmd->options & OPT_KALLSYMS)
		printf("  -K, --kallsyms FILE     the offset from a copy of /proc/kallsyms\n"
		       "                          (or /proc/kallmodsyms; --kallmodsyms too)%s\n",
		       cmd->options & OPT_KASLR_OFFSET ? "" :
		       "\n                          default: /proc/kallmodsyms");
	if (cmd->options & OPT_FORMAT)
		printf("  -f, --format FORMAT     ranges or kallmodsyms\n");
	if (cmd->options & OPT_PROBE)
		printf("  -n, --name NAME         the event's name (default: from SPEC)\n"
		       "      --tracefs DIR       append the line to DIR/kprobe_events\n");
	if (cmd->options & OPT_BUILD)
		printf("  -b, --build-dir DIR     regenerate from this build tree\n"
		       "      --map, --o-map, --builtin FILE   as kallmodsyms-gen -m, -M, -B\n");
	printf("\nSee kallmodsyms(1).\n");
}

static int parse_number(const char *text, uint64_t *ret)
{
	char *end;

	errno = 0;
	*ret = strtoull(text, &end, 0);
	return errno || !*text || *end ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tables", required_argument, NULL, 't' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "module", required_argument, NULL, 'm' },
		{ "objfile", required_argument, NULL, 'o' },
		{ "kaslr-offset", required_argument, NULL, 'k' },
		{ "kallsyms", required_argument, NULL, 'K' },
		{ "kallmodsyms", required_argument, NULL, 'K' },
		{ "build-dir", required_argument, NULL, 'b' },
		{ "map", required_argument, NULL, 'M' },
		{ "o-map", required_argument, NULL, 'O' },
		{ "builtin", required_argument, NULL, 'B' },
		{ "format", required_argument, NULL, 'f' },
		{ "name", required_argument, NULL, 'n' },
		{ "tracefs", required_argument, NULL, 'T' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct inspector_options opts = { .source = KMS_SYMBOLS_AUTO };
	struct inspector in;
	const struct command *cmd = NULL;
	unsigned int used = 0;
	struct kms_error *err;
	int c, status, nargs;
	size_t i;

	if (argc >= 2 && !strcmp(argv[1], "--version")) {
		puts(PROG " " KMS_VERSION_STRING);
		return 0;
	}
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			cmd = &commands[i];
	if (!cmd) {
		fprintf(stderr, PROG ": unknown command \"%s\"; see " PROG " --help\n",
			argv[1]);
		return 2;
	}

	optind = 2;
	while ((c = getopt_long(argc, argv, "t:S:jm:o:k:K:b:f:n:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 't':
			opts.tables = optarg;
			used |= OPT_TABLES;
			break;
		case 'S':
			used |= OPT_SYMBOLS;
			if (!strcmp(optarg, "auto")) {
				opts.source = KMS_SYMBOLS_AUTO;
			} else if (!strcmp(optarg, "kallsyms")) {
				opts.source = KMS_SYMBOLS_KALLSYMS;
			} else if (!strcmp(optarg, "symtab")) {
				opts.source = KMS_SYMBOLS_SYMTAB;
			} else {
				fprintf(stderr, PROG ": unknown symbol source \"%s\" (auto, kallsyms, symtab)\n",
					optarg);
				return 2;
			}
			break;
		case 'j':
			opts.json = true;
			used |= OPT_JSON;
			break;
		case 'm':
			opts.module = optarg;
			used |= OPT_FILTER;
			break;
		case 'o':
			opts.objfile = optarg;
			used |= OPT_FILTER;
			break;
		case 'k':
			if (parse_number(optarg, &opts.kaslr_offset)) {
				fprintf(stderr, PROG ": --kaslr-offset: \"%s\" is not a number\n",
					optarg);
				return 2;
			}
			opts.have_kaslr_offset = true;
			used |= OPT_KASLR_OFFSET;
			break;
		case 'K':
			opts.kallsyms = optarg;
			used |= OPT_KALLSYMS;
			break;
		case 'b':
			opts.build_dir = optarg;
			used |= OPT_BUILD;
			break;
		case 'M':
			opts.map = optarg;
			used |= OPT_BUILD;
			break;
		case 'O':
			opts.o_map = optarg;
			used |= OPT_BUILD;
			break;
		case 'B':
			opts.builtin = optarg;
			used |= OPT_BUILD;
			break;
		case 'f':
			if (strcmp(optarg, "ranges") && strcmp(optarg, "kallmodsyms")) {
				fprintf(stderr, PROG ": unknown format \"%s\" (ranges, kallmodsyms)\n",
					optarg);
				return 2;
			}
			opts.format = optarg;
			used |= OPT_FORMAT;
			break;
		case 'n':
			opts.probe_name = optarg;
			used |= OPT_PROBE;
			break;
		case 'T':
			opts.tracefs = optarg;
			used |= OPT_PROBE;
			break;
		case 'h':
			command_usage(cmd);
			return 0;
		default:
			fprintf(stderr, "see " PROG " %s --help\n", cmd->name);
			return 2;
		}
	}
	if (used & ~cmd->options) {
		fprintf(stderr, PROG ": %s does not take some of these options; see " PROG " --help\n",
			cmd->name);
		return 2;
	}
	if (opts.have_kaslr_offset && opts.kallsyms) {
		fprintf(stderr, PROG ": --kaslr-offset and --kallsyms exclude each other\n");
		return 2;
	}
	if (cmd->run == cmd_export && !opts.format) {
		fprintf(stderr, PROG ": export needs --format=ranges or --format=kallmodsyms\n");
		return 2;
	}
	nargs = argc - optind - 1;
	if (nargs < cmd->min_args || (cmd->max_args >= 0 && nargs > cmd->max_args)) {
		fprintf(stderr, "usage: " PROG " %s [options] VMLINUX %s\n",
			cmd->name, cmd->args);
		return 2;
	}

	err = inspector_open(&in, argv[optind], &opts);
	if (err) {
		status = inspector_fail(err);
	} else {
		status = cmd->run(&in, nargs, argv + optind + 1);
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, PROG ": standard output: %s\n",
				strerror(errno));
			status = 1;
		}
	}
	inspector_close(&in);
	return status;
}
