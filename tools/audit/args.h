/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallmodsyms-audit's command line (kallmodsyms-audit.1): the options,
 * read and checked by args.c, which calls no other file of tools/audit.
 */
#ifndef KMS_AUDIT_ARGS_H
#define KMS_AUDIT_ARGS_H

#include <stdbool.h>

struct options {
	const char *build_dir;
	const char *srctree;
	const char *scratch;
	bool allmodconfig;
	bool tree_wide;
	const char *arches;	/* --arch LIST */
	unsigned int jobs;	/* --jobs N; 0: nproc */
	bool objects;
	bool count;
	bool json;
	const char *patches;	/* --patches DIR */
	const char *findings;	/* --findings FILE */
	const char *author;
	const char *changes;	/* --changes FILE */
};

/*
 * @argv's options into @o (its defaults set by the caller): -1, or the
 * exit status for main() to return, after --help's text on stdout (0) or
 * one line on stderr saying what is wrong (2).
 */
int audit_parse_args(int argc, char **argv, struct options *o);

#endif /* KMS_AUDIT_ARGS_H */
