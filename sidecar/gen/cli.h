/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line that kbuild's generator (kbuild_main.c) and
 * kallmodsyms-gen (main.c) share: the options link-vmlinux.sh passes, read
 * into struct gen_cli the same way by both.
 *
 * Contract: gen_cli_option() takes one result of getopt_long() over a
 * table GEN_CLI_LONGOPTS() declares; it prints only a bad --pad-to's error,
 * on stderr, under @prog.  -h is the caller's (its own usage text).
 */
#ifndef KMS_GEN_CLI_H
#define KMS_GEN_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include <kms/gen.h>

struct gen_cli {
	struct kms_gen_options opts;
	const char *output;	/* -o */
	size_t pad_to;		/* --pad-to, 0: none */
	bool verify;		/* --verify */
};

/*
 * The getopt_long() table @name: the shared options, then the caller's
 * rows, which end with the all-zero one.  A declaration, not a list macro
 * to put in one: a macro whose value is a bare list is an error to the
 * kernel's checkpatch.pl, which holds kbuild's copy of this file.
 */
#define GEN_CLI_LONGOPTS(name, ...)					\
	static const struct option name[] = {				\
		{ "build-dir", required_argument, NULL, 'b' },		\
		{ "map", required_argument, NULL, 'm' },		\
		{ "output", required_argument, NULL, 'o' },		\
		{ "all-classes", no_argument, NULL, 'A' },		\
		{ "pad-to", required_argument, NULL, 'P' },		\
		{ "verify", no_argument, NULL, 'v' },			\
		{ "quiet", no_argument, NULL, 'q' },			\
		{ "help", no_argument, NULL, 'h' },			\
		__VA_ARGS__						\
	}

/* Their short forms, for getopt_long()'s optstring. */
#define GEN_CLI_SHORTOPTS "b:m:o:qh"

/*
 * Read option @c (optarg its argument) into @cli: -1 if it was one of
 * GEN_CLI_LONGOPTS()'s but -h, 1 if it is not, 2 (the exit status) if its
 * argument is bad.
 */
int gen_cli_option(int c, struct gen_cli *cli, const char *prog);

#endif /* KMS_GEN_CLI_H */
