// SPDX-License-Identifier: GPL-2.0
/*
 * The options kbuild's generator and kallmodsyms-gen share (cli.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

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
	case 'v':
		cli->verify = true;
		break;
	case 'q':
		cli->opts.warnings = NULL;
		break;
	default:
		return 1;
	}
	return -1;
}
