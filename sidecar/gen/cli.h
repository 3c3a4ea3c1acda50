/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line that kbuild's generator (kbuild_main.c) and
 * kallmodsyms-gen (main.c) share: the options link-vmlinux.sh passes, read
 * into struct gen_cli the same way by both.
 *
 * Contract: gen_cli_option() takes one result of getopt_long() over a
 * table GEN_CLI_LONGOPTS() declares; it prints only the errors of a bad
 * --pad-to and of --pad-to with --headroom, on stderr, under @prog.  -h
 * is the caller's (its own usage text).  gen_cli_pad_to() is the section
 * size the options ask of an asm note.
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
	bool headroom;		/* --headroom */
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
		{ "headroom", no_argument, NULL, 'H' },			\
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

/*
 * The size to pad the asm note of a blob of @size bytes to: --pad-to's,
 * or with --headroom the note's own size with 1/64 more and at least 64
 * bytes more, a multiple of 64 (kbuild's first link: the later links'
 * tables, a few bytes longer or shorter, fit in the same section); 0:
 * unpadded.
 */
size_t gen_cli_pad_to(const struct gen_cli *cli, size_t size);

#endif /* KMS_GEN_CLI_H */
