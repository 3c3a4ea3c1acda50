// SPDX-License-Identifier: GPL-2.0
/*
 * kbuild's generator of the kallmodsyms note: link-vmlinux.sh runs it on
 * each temporary vmlinux of the link, for the note's assembler source, and
 * once on vmlinux, to check the note linked into it.  It is the
 * generator's build-tree mode alone (kms_generate_kbuild()): the link
 * maps, the .cmd files and modules.builtin, and under Clang LTO the
 * compile units of the image's DWARF; the same bytes as kallmodsyms-gen
 * from the same inputs.
 */
#include <stdio.h>
#include <stdlib.h>

#include <kms/error.h>
#include <kms/gen.h>

#include "cli.h"
#include "emit.h"

#define PROG "kallmodsyms"

static const char usage_text[] =
	"usage: " PROG " [-q] [--all-classes] [--pad-to SIZE | --headroom]\n"
	"                   -b DIR -m MAP -o OUTPUT.S VMLINUX\n"
	"       " PROG " [-q] [--all-classes] -b DIR -m MAP --verify VMLINUX\n"
	"\n"
	"Write the kallmodsyms note of a linked VMLINUX as assembler source\n"
	"(section .note.kallmodsyms), or check the note linked into it.\n"
	"\n"
	"  -b, --build-dir DIR   the kernel build tree: .<obj>.cmd files,\n"
	"                        modules.builtin, vmlinux.o.map\n"
	"  -m, --map FILE        the link map of VMLINUX\n"
	"  -o, --output FILE     the assembler source to write\n"
	"      --all-classes     every section kallsyms lists symbols in, not\n"
	"                        text alone (CONFIG_KALLSYMS_ALL)\n"
	"      --pad-to SIZE     make the note section SIZE bytes\n"
	"      --headroom        make it 1/64 larger than it needs, at least 64\n"
	"                        bytes more, a multiple of 64 (the first link:\n"
	"                        later links --pad-to its size)\n"
	"      --verify          write nothing; fail unless the note linked into\n"
	"                        VMLINUX holds exactly the tables VMLINUX and its\n"
	"                        maps give\n"
	"  -q, --quiet           no warnings\n"
	"\n"
	"Exit status: 0 on success, 1 on any error, 2 on bad usage.\n";

GEN_CLI_LONGOPTS(longopts, { NULL, 0, NULL, 0 });

/* Read the options into @cli: -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, struct gen_cli *cli)
{
	int c, status;

	while ((c = getopt_long(argc, argv, GEN_CLI_SHORTOPTS, longopts,
				NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return 0;
		}
		status = gen_cli_option(c, cli, PROG);
		if (status == 1)
			fputs(usage_text, stderr);
		if (status >= 0)
			return status ? 2 : 0;
	}
	if (optind != argc - 1 || !cli->opts.build_dir || !cli->opts.map ||
	    !cli->output == !cli->verify) {
		fputs(usage_text, stderr);
		return 2;
	}
	cli->opts.vmlinux = argv[optind];
	return -1;
}

int main(int argc, char **argv)
{
	struct gen_cli cli = { .opts.warnings = stderr, .opts.prog = PROG };
	struct kms_error *err;
	void *blob = NULL;
	size_t size = 0;
	int status;

	status = parse_options(argc, argv, &cli);
	if (status >= 0)
		return status;
	err = kms_generate_kbuild(&cli.opts, &blob, &size, NULL);
	if (!err && cli.verify)
		err = kms_verify_linked(cli.opts.vmlinux, blob, size);
	else if (!err)
		err = kms_emit_asm(cli.output, blob, size,
				   gen_cli_pad_to(&cli, size));
	free(blob);
	if (err) {
		kms_error_report(PROG, err);
		return 1;
	}
	return 0;
}
