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

#include "command.h"

#ifndef KMS_VERSION_STRING
#define KMS_VERSION_STRING "0"
#endif

static const struct command *const commands[] = {
	&command_list, &command_lookup, &command_find, &command_ambiguous,
	&command_modules, &command_stats, &command_dump, &command_verify,
	&command_decode, &command_export, &command_probe, &command_note,
	&command_stack, &command_perf, NULL,
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: " PROG " COMMAND [options] VMLINUX [ARG...]\n\nCommands:\n");
	for (i = 0; commands[i]; i++)
		fprintf(f, "  %-9s %-14s %s\n", commands[i]->name,
			commands[i]->args, commands[i]->help);
	fprintf(f,
		"\nOptions:\n"
		"  -t, --tables FILE       the tables from FILE (a vmlinux with the note, a\n"
		"                          sidecar or a file of notes) instead of VMLINUX\n"
		"  -S, --symbols SOURCE    auto (default): VMLINUX's kallsyms tables when it\n"
		"                          has them, else its symbol table; kallsyms; symtab\n"
		"  -j, --json              JSON output (addresses as hex strings)\n"
		"  -m, --module MOD        list: only symbols of built-in module MOD\n"
		"  -o, --objfile OBJ       list: only symbols printed with {OBJ}\n"
		"  -k, --kaslr-offset N    lookup, decode, perf: addresses are of a kernel\n"
		"                          relocated by N\n"
		"  -K, --kallsyms FILE     lookup, decode, perf, probe: take the offset from a\n"
		"                          copy of the running kernel's /proc/kallsyms or\n"
		"                          /proc/kallmodsyms (also --kallmodsyms FILE)\n"
		"      --vmcore FILE       lookup, decode, perf: take the offset from a crash\n"
		"                          dump of VMLINUX (an ELF core from QEMU's\n"
		"                          dump-guest-memory or kdump, or a kdump-\n"
		"                          compressed one); stack: the dump to read\n"
		"  -f, --format FORMAT     export: ranges (modules.builtin.ranges) or\n"
		"                          kallmodsyms (/proc/kallmodsyms text)\n"
		"      --by-module         perf: samples by built-in module, core kernel,\n"
		"                          loadable module and DSO\n"
		"      --collapse          perf: folded stacks, as stackcollapse-perf.pl\n"
		"                          writes them of the annotated text\n"
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
		"resolve; find: some name has no symbol; perf: kernel frames not\n"
		"VMLINUX's); 2 on bad usage.\n");
}

/* What the command reads. */
static const char *operand(const struct command *cmd)
{
	return cmd->run ? "VMLINUX" : "FILE";
}

/* kallmodsyms COMMAND --help */
static void command_usage(const struct command *cmd)
{
	const struct command_option *const *o;

	printf("usage: " PROG " %s [options] %s %s\n\n%s.\n\nOptions:\n",
	       cmd->name, operand(cmd), cmd->args, cmd->help);
	for (o = cmd->options; *o; o++)
		if ((*o)->help)
			fputs((*o)->help, stdout);
	printf("\nSee kallmodsyms(1).\n");
}

/*
 * The options of every command, for getopt_long(): room for 64 names
 * (today's commands have 18, aliases and --help included).
 */
#define MAX_OPTIONS 64

struct option_table {
	struct option longopts[MAX_OPTIONS];
	char shortopts[2 * MAX_OPTIONS];
	const char *names[MAX_OPTIONS];	/* by getopt_long()'s val - 256 */
};

static void add_long(struct option_table *t, size_t *n, const char *name,
		     bool has_arg, int val)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(t->longopts[i].name, name))
			return;
	t->longopts[(*n)++] = (struct option){ name, has_arg, NULL, val };
}

static void add_option(struct option_table *t, size_t *n, size_t *k,
		       const struct command_option *o)
{
	size_t i, len = strlen(t->shortopts);
	int val = 256 + (int)*k;

	for (i = 0; i < *k && strcmp(t->names[i], o->name); i++)
		;
	if (i < *k)
		return;
	t->names[(*k)++] = o->name;
	add_long(t, n, o->name, o->has_arg, val);
	if (o->alias)
		add_long(t, n, o->alias, o->has_arg, val);
	if (o->letter && !strchr(t->shortopts, o->letter)) {
		t->shortopts[len++] = o->letter;
		if (o->has_arg)
			t->shortopts[len++] = ':';
		t->shortopts[len] = '\0';
	}
}

/*
 * One table of every command's options, so that an option of another
 * command is told apart from one no command has.
 */
static void option_table(struct option_table *t)
{
	const struct command_option *const *o;
	size_t i, n = 0, k = 0;

	memset(t, 0, sizeof(*t));
	strcpy(t->shortopts, "h");
	for (i = 0; commands[i]; i++)
		for (o = commands[i]->options; *o; o++)
			add_option(t, &n, &k, *o);
	add_long(t, &n, "version", false, 'V');
	add_long(t, &n, "help", false, 'h');
}

/* @cmd's option getopt_long() returned as @c, or NULL. */
static const struct command_option *
find_option(const struct command *cmd, const struct option_table *t, int c)
{
	const struct command_option *const *o;

	for (o = cmd->options; *o; o++)
		if (c >= 256 ? !strcmp((*o)->name, t->names[c - 256]) :
		    (*o)->letter == c)
			return *o;
	return NULL;
}

/*
 * Parse @cmd's options into @opts and cmd->settings: -1 when the operands
 * follow at argv[optind], else the exit status (after --help or a usage
 * error, said).
 */
static int parse_options(const struct command *cmd, int argc, char **argv,
			 struct inspector_options *opts)
{
	const struct command_option *o;
	struct option_table t;
	bool foreign = false;
	int c;

	option_table(&t);
	optind = 2;
	while ((c = getopt_long(argc, argv, t.shortopts, t.longopts,
				NULL)) != -1) {
		if (c == 'h') {
			command_usage(cmd);
			return 0;
		}
		if (c == '?' || c == 'V') {
			fprintf(stderr, "see " PROG " %s --help\n", cmd->name);
			return 2;
		}
		o = find_option(cmd, &t, c);
		if (!o)
			foreign = true;
		else if (!o->set((char *)(o->common ? (void *)opts :
					  cmd->settings) + o->offset, optarg))
			return 2;
	}
	if (foreign) {
		fprintf(stderr, PROG ": %s does not take some of these options; see " PROG " --help\n",
			cmd->name);
		return 2;
	}
	if (cmd->check && cmd->check(opts, cmd->settings))
		return 2;
	return -1;
}

/* Run @cmd on the vmlinux @argv[0] and its arguments. */
static int run_inspector(const struct command *cmd, int argc, char **argv,
			 const struct inspector_options *opts)
{
	struct inspector in;
	struct kms_error *err;
	int status;

	err = inspector_open(&in, argv[0], opts);
	if (err)
		status = inspector_fail(err);
	else
		status = cmd->run(&in, cmd->settings, argc - 1, argv + 1);
	inspector_close(&in);
	return status;
}

/* Run @cmd on its operands, @argv[0] the file. */
static int run_command(const struct command *cmd, int argc, char **argv,
		       const struct inspector_options *opts)
{
	int status;

	if (argc - 1 < cmd->min_args ||
	    (cmd->max_args >= 0 && argc - 1 > cmd->max_args)) {
		fprintf(stderr, "usage: " PROG " %s [options] %s %s\n",
			cmd->name, operand(cmd), cmd->args);
		return 2;
	}
	if (cmd->run_file)
		status = cmd->run_file(argv[0], opts);
	else
		status = run_inspector(cmd, argc, argv, opts);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": standard output: %s\n",
			strerror(errno));
		status = 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	struct inspector_options opts = { .source = KMS_SYMBOLS_AUTO };
	const struct command *cmd = NULL;
	int status;
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
	for (i = 0; commands[i]; i++)
		if (!strcmp(argv[1], commands[i]->name))
			cmd = commands[i];
	if (!cmd) {
		fprintf(stderr, PROG ": unknown command \"%s\"; see " PROG " --help\n",
			argv[1]);
		return 2;
	}
	status = parse_options(cmd, argc, argv, &opts);
	if (status >= 0)
		return status;
	return run_command(cmd, argc - optind, argv + optind, &opts);
}
