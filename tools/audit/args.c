// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit's options (args.h): getopt_long, --help, and the
 * options that do not go together.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "audit.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-b BUILD] [-S SRCTREE] [--objects] [-c] [-j]\n"
		"       " PROG " --allmodconfig -S SRCTREE [-o SCRATCH] [...]\n"
		"       " PROG " --tree-wide -S SRCTREE [-o SCRATCH] [--arch LIST]\n"
		"                         [--jobs N] [-c] [-j]\n"
		"\n"
		"List the source files that say MODULE_LICENSE() but can never be\n"
		"built as modules: their Kconfig symbol is bool, or they are always\n"
		"built in.  Kconfig and the Makefiles decide, through the tree's own\n"
		"conf and make; nothing is compiled.\n"
		"\n"
		"  -b, --build-dir DIR   a configured tree: DIR/.config and\n"
		"                        DIR/scripts/kconfig/conf (default: .)\n"
		"  -S, --srctree DIR     the sources (default: DIR/source, or DIR)\n"
		"      --allmodconfig    the whole tree: configure allmodconfig in\n"
		"                        a scratch build directory first\n"
		"      --tree-wide       every architecture of the tree (and its\n"
		"                        32/64-bit variants): allyesconfig, each in\n"
		"                        SCRATCH/ARCH; a file is listed when no\n"
		"                        architecture builds it as a module\n"
		"      --arch LIST       only these (comma-separated: x86_64,i386,\n"
		"                        arm64, ...)\n"
		"      --jobs N          architectures at once (default: nproc)\n"
		"  -o, --scratch DIR     that directory (default: a temporary one)\n"
		"      --objects         list how every object is linked instead:\n"
		"                        builtin, lib or module (with its module)\n"
		"  -c, --count           print only the number of files\n"
		"  -j, --json            JSON output\n"
		"      --patches DIR     write the series that removes their\n"
		"                        MODULE_LICENSE() into DIR (new), one patch\n"
		"                        per MAINTAINERS section, and a cover letter\n"
		"      --findings FILE   with -S SRCTREE: take the files from FILE, a\n"
		"                        listing this tool wrote (of a configured\n"
		"                        tree, --allmodconfig or --tree-wide),\n"
		"                        instead of analysing again; those that no\n"
		"                        longer hold (a note says why) are left\n"
		"                        out.  Without --patches: print the others\n"
		"      --changes FILE    with --patches: FILE's text, as it is, in\n"
		"                        the cover letter under \"Changes since the\n"
		"                        previous version\"\n"
		"      --author 'NAME <EMAIL>'  its author (default: $GIT_AUTHOR_NAME\n"
		"                        and _EMAIL, else git config user.*)\n"
		"  -h, --help            this text\n"
		"\n"
		"Output: FILE<TAB>why<TAB>MODULE_LICENSE string<TAB>SPDX<TAB>agreement\n"
		"<TAB>other MODULE_* tags.  Exit status: 0, 1 on error, 2 on bad usage.\n");
}

static int parse_jobs(const char *arg, unsigned int *ret)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (*arg < '1' || *arg > '9' || *end || n > 1024) {
		fprintf(stderr, PROG ": --jobs %s: not a number from 1 to 1024\n",
			arg);
		return -1;
	}
	*ret = n;
	return 0;
}

/* The options that do not go together: -1, or 2 after saying why. */
static int check_args(const struct options *o)
{
	if (o->changes && !o->patches) {
		fprintf(stderr, PROG ": --changes goes with --patches\n");
		return 2;
	}
	if (o->patches && (o->objects || o->json || o->count)) {
		fprintf(stderr, PROG ": --patches goes with none of --objects, "
			"-j, -c\n");
		return 2;
	}
	if (o->findings && (!o->srctree || o->allmodconfig || o->tree_wide ||
			    o->objects || o->json || o->count)) {
		fprintf(stderr, PROG ": --findings goes with -S SRCTREE and --patches alone\n");
		return 2;
	}
	if (o->allmodconfig && !o->srctree) {
		fprintf(stderr, PROG ": --allmodconfig needs -S SRCTREE\n");
		return 2;
	}
	if (o->tree_wide && (!o->srctree || o->allmodconfig || o->objects)) {
		fprintf(stderr, PROG ": --tree-wide needs -S SRCTREE, and no --allmodconfig or --objects\n");
		return 2;
	}
	if ((o->arches || o->jobs) && !o->tree_wide) {
		fprintf(stderr, PROG ": --arch and --jobs go with --tree-wide\n");
		return 2;
	}
	return -1;
}

/* The options into @o (args.h). */
int audit_parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "build-dir", required_argument, NULL, 'b' },
		{ "srctree", required_argument, NULL, 'S' },
		{ "allmodconfig", no_argument, NULL, 'A' },
		{ "tree-wide", no_argument, NULL, 'T' },
		{ "arch", required_argument, NULL, 'a' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "scratch", required_argument, NULL, 'o' },
		{ "objects", no_argument, NULL, 'O' },
		{ "count", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "patches", required_argument, NULL, 'P' },
		{ "author", required_argument, NULL, 'W' },
		{ "findings", required_argument, NULL, 'F' },
		{ "changes", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "b:S:o:cjh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->build_dir = optarg; break;
		case 'S': o->srctree = optarg; break;
		case 'A': o->allmodconfig = true; break;
		case 'T': o->tree_wide = true; break;
		case 'a': o->arches = optarg; break;
		case 'J':
			if (parse_jobs(optarg, &o->jobs))
				return 2;
			break;
		case 'o': o->scratch = optarg; break;
		case 'O': o->objects = true; break;
		case 'c': o->count = true; break;
		case 'j': o->json = true; break;
		case 'P': o->patches = optarg; break;
		case 'W': o->author = optarg; break;
		case 'F': o->findings = optarg; break;
		case 'C': o->changes = optarg; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "see " PROG " --help\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument %s; see " PROG
			" --help\n", argv[optind]);
		return 2;
	}
	return check_args(o);
}
