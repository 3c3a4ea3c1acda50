// SPDX-License-Identifier: GPL-2.0
/*
 * The options kbuild's generator and kallmodsyms-gen share (cli.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "emit.h"

int gen_cli_option(int c, struct gen_cli *cli, const char *prog)
{
	char *end;

	switch (c) {
	case 'b':
		cli->opts.build_dir = optarg;
		break;
	case 'm':
		cli->opts.map = optarg;
		break;
	case 'o':
		cli->output = optarg;
		break;
	case 'A':
		cli->opts.all_classes = true;
		break;
	case 'P':
		cli->pad_to = strtoul(optarg, &end, 0);
		if (*end || !*optarg) {
			fprintf(stderr, "%s: --pad-to wants a size, not \"%s\"\n",
				prog, optarg);
			return 2;
		}
		break;
	case 'H':
		cli->headroom = true;
		break;
	case 'v':
		cli->verify = true;
		break;
	case 'q':
		cli->opts.warnings = NULL;
		break;
	default:
		return 1;
	}
	if (cli->pad_to && cli->headroom) {
		fprintf(stderr, "%s: --pad-to or --headroom, not both\n", prog);
		return 2;
	}
	return -1;
}

size_t gen_cli_pad_to(const struct gen_cli *cli, size_t size)
{
	size_t need;

	if (!cli->headroom)
		return cli->pad_to;
	need = kms_asm_note_size(size);
	return (need * 65 / 64 + 127) / 64 * 64;
}
