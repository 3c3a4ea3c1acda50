/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inspector's commands.  Each declares, in its own file, the options
 * it takes: the getopt_long() names, the line of COMMAND --help, and where
 * the value goes (the options several commands share set struct
 * inspector_options, the others the command's own settings).  main()
 * parses them all with one loop (kallmodsyms.c).
 */
#ifndef KMS_COMMAND_H
#define KMS_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "inspector.h"

struct command_option {
	const char *name;	/* the long name */
	const char *alias;	/* another long name, or NULL */
	int letter;		/* the short name, or 0 */
	bool has_arg;
	/* Its lines of COMMAND --help; NULL when another entry's say it. */
	const char *help;
	/*
	 * Take @arg into @field, the member at @offset of the settings: false
	 * when it is bad, after saying why.
	 */
	bool (*set)(void *field, const char *arg);
	size_t offset;
	bool common;		/* a member of struct inspector_options */
};

struct command {
	const char *name;
	/* Either: a question about a vmlinux, opened as the options say, */
	int (*run)(struct inspector *in, const void *settings, int argc,
		   char **argv);
	/* or one about any FILE. */
	int (*run_file)(const char *file, const struct inspector_options *opts);
	const char *args;
	int min_args;		/* after VMLINUX; max_args -1: no limit */
	int max_args;
	const char *help;
	const struct command_option *const *options;	/* NULL-terminated */
	void *settings;		/* what the options other than common set */
	/* The options together, when they can conflict: 0, else 2 (said). */
	int (*check)(const struct inspector_options *opts,
		     const void *settings);
};

/* The options several commands share (command.c). */
extern const struct command_option option_tables, option_symbols,
	option_json, option_kaslr_offset, option_kallsyms, option_vmcore;

/* Setters for the common kinds of value. */
bool option_set_string(void *field, const char *arg);
bool option_set_true(void *field, const char *arg);

/*
 * -k, -K and --vmcore exclude each other: a check for the commands that
 * take them.
 */
int command_check_kaslr(const struct inspector_options *opts,
			const void *settings);

/* The commands (cmd_*.c). */
extern const struct command command_list, command_lookup, command_find,
	command_ambiguous, command_modules, command_stats, command_dump,
	command_verify, command_decode, command_export, command_probe,
	command_note, command_stack, command_perf;

#endif /* KMS_COMMAND_H */
