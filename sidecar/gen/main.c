// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-gen: write the address range -> object file -> built-in module
 * tables of a linked vmlinux as a kallmodsyms note.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kms/blob.h>
#include <kms/error.h>
#include <kms/format.h>
#include <kms/gen.h>
#include <kms/source.h>
#include <kms/tables.h>

#include "cli.h"
#include "emit.h"

#define PROG "kallmodsyms-gen"

#ifndef KMS_VERSION_STRING
#define KMS_VERSION_STRING "0"
#endif

/* The help text: the options, then the exit statuses. */
static const char usage_text[] =
	"usage: " PROG " [options] -f FORMAT [-o OUTPUT] VMLINUX\n"
	"       " PROG " [options] --verify VMLINUX\n"
	"       " PROG " --dwarf [-B FILE] [--modinfo FILE]\n"
	"                       [--ranges FILE | -S DIR [--config FILE]] [options]\n"
	"                       -f FORMAT [-o OUTPUT] VMLINUX\n"
	"\n"
	"Write the kallmodsyms tables of a linked VMLINUX.\n"
	"\n"
	"  -f, --format FORMAT   asm: assembler source of the note, for the\n"
	"                                target's assembler (kbuild links\n"
	"                                the object into vmlinux);\n"
	"                        sidecar: the note alone, in a file;\n"
	"                        append: VMLINUX with the note added as a\n"
	"                                non-allocated section (default output:\n"
	"                                VMLINUX itself, replaced atomically)\n"
	"  -o, --output FILE     where to write\n"
	"  -b, --build-dir DIR   the kernel build tree, for .<obj>.cmd files\n"
	"                        (default: the directory of VMLINUX)\n"
	"  -m, --map FILE        the link map of VMLINUX (default: VMLINUX.map)\n"
	"  -M, --o-map FILE      the map of vmlinux.o, when VMLINUX was linked\n"
	"                        from it (default: DIR/vmlinux.o.map)\n"
	"  -B, --builtin FILE    modules.builtin (default: DIR/modules.builtin)\n"
	"  -S, --srctree DIR     the kernel sources, when DIR has a .config\n"
	"                        (default: DIR/source, or DIR); with --dwarf,\n"
	"                        the sources of VMLINUX's version, whose\n"
	"                        Makefiles say which objects make each\n"
	"                        multi-object module\n"
	"      --config FILE     with --dwarf -S: the config VMLINUX was built\n"
	"                        with (default: DIR/.config; a distribution's\n"
	"                        /boot/config-RELEASE)\n"
	"      --dwarf           no build tree: objects from VMLINUX's DWARF\n"
	"                        compile units, modules from -B modules.builtin,\n"
	"                        --modinfo and --ranges (at least one of them)\n"
	"      --modinfo FILE    modules.builtin.modinfo (--dwarf)\n"
	"      --ranges FILE     modules.builtin.ranges (--dwarf): which code\n"
	"                        is in which module; without it or -S only\n"
	"                        single-object modules are found\n"
	"      --modularity      judge what can be a module by the tree's\n"
	"                        Kconfig and Makefiles (DIR has a .config),\n"
	"                        not by modules.builtin alone: for trees whose\n"
	"                        non-modules still say MODULE_LICENSE()\n"
	"                        (kconfig's answer is kept for the next run\n"
	"                        in DIR/.tmp_kallmodsyms_bools)\n"
	"      --no-modularity   modules.builtin's word (the default)\n"
	"      --all-classes     every section kallsyms lists symbols in\n"
	"                        (data, rodata, bss, init, per-CPU), not\n"
	"                        text alone (the format's section classes);\n"
	"                        with --dwarf, data is where the compile\n"
	"                        units' variables lie (data without one,\n"
	"                        such as string literals, is nobody's)\n"
	"      --pad-to SIZE     asm: make the note section SIZE bytes\n"
	"      --headroom        asm: make it 1/64 larger than it needs, at\n"
	"                        least 64 bytes more, a multiple of 64\n"
	"      --verify          write nothing; check that the note linked into\n"
	"                        VMLINUX holds exactly the tables VMLINUX and its\n"
	"                        maps give (exit 1 if not)\n"
	"  -e, --explain         list every object with its modules and name;\n"
	"                        twice: then each text range and its object\n"
	"  -s, --stats           print counts and sizes on stderr\n"
	"  -q, --quiet           no warnings\n"
	"      --version         print the version\n"
	"      --format-version  print the version of the format written\n"
	"                        (FORMAT.md), alone, for kbuild's Kconfig\n"
	"  -h, --help            this text\n"
	"\n"
	"Exit status: 0 on success, 1 on any error, 2 on bad usage.\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

GEN_CLI_LONGOPTS(longopts,
	{ "format", required_argument, NULL, 'f' },
	{ "o-map", required_argument, NULL, 'M' },
	{ "builtin", required_argument, NULL, 'B' },
	{ "srctree", required_argument, NULL, 'S' },
	{ "modularity", no_argument, NULL, 'U' },
	{ "no-modularity", no_argument, NULL, 'N' },
	{ "dwarf", no_argument, NULL, 'D' },
	{ "modinfo", required_argument, NULL, 'I' },
	{ "ranges", required_argument, NULL, 'R' },
	{ "config", required_argument, NULL, 'C' },
	{ "explain", no_argument, NULL, 'e' },
	{ "stats", no_argument, NULL, 's' },
	{ "version", no_argument, NULL, 'V' },
	{ "format-version", no_argument, NULL, 'W' },
	{ NULL, 0, NULL, 0 });

/* The command line: kbuild's options, and the rest. */
struct cli {
	struct gen_cli c;
	const char *format;
	bool print_stats;
};

/* One option past kbuild's into @cli: -1, or the exit status. */
static int other_option(int c, struct cli *cli)
{
	struct kms_gen_options *opts = &cli->c.opts;

	switch (c) {
	case 'f': cli->format = optarg; break;
	case 'M': opts->o_map = optarg; break;
	case 'B': opts->builtin = optarg; break;
	case 'S': opts->srctree = optarg; break;
	case 'U': opts->modularity = true; break;
	case 'N': opts->modularity = false; break;
	case 'D': opts->dwarf = true; break;
	case 'I': opts->modinfo = optarg; break;
	case 'R': opts->ranges = optarg; break;
	case 'C': opts->config = optarg; break;
	case 'e':
		opts->explain_ranges = opts->explain != NULL;
		opts->explain = stdout;
		break;
	case 's': cli->print_stats = true; break;
	case 'V': puts(PROG " " KMS_VERSION_STRING); return 0;
	case 'W': printf("%d\n", KMS_VERSION); return 0;
	case 'h': usage(stdout); return 0;
	default: usage(stderr); return 2;
	}
	return -1;
}

/* Read the options into @cli: -1 to go on, or the exit status. */
static int parse_options(int argc, char **argv, struct cli *cli)
{
	int c, status;

	while ((c = getopt_long(argc, argv, "f:M:B:S:es" GEN_CLI_SHORTOPTS,
				longopts, NULL)) != -1) {
		status = gen_cli_option(c, &cli->c, PROG);
		if (status == 1)
			status = other_option(c, cli);
		if (status >= 0)
			return status;
	}
	if (optind != argc - 1 || !cli->format == !cli->c.verify) {
		usage(stderr);
		return 2;
	}
	cli->c.opts.vmlinux = argv[optind];
	return -1;
}

/* Options that do not go together: -1 if they do, or the exit status. */
static int check_options(struct cli *cli)
{
	const struct kms_gen_options *opts = &cli->c.opts;

	if (opts->dwarf && !opts->builtin && !opts->modinfo && !opts->ranges) {
		fprintf(stderr, PROG ": --dwarf needs -B modules.builtin, --modinfo or --ranges\n");
		return 2;
	}
	if (!opts->dwarf && (opts->modinfo || opts->ranges)) {
		fprintf(stderr, PROG ": --modinfo and --ranges go with --dwarf\n");
		return 2;
	}
	if (opts->config && (!opts->dwarf || !opts->srctree)) {
		fprintf(stderr, PROG ": --config goes with --dwarf -S\n");
		return 2;
	}
	if (opts->dwarf && opts->srctree && opts->ranges) {
		fprintf(stderr, PROG ": --dwarf takes modules from --ranges or from -S, not both\n");
		return 2;
	}
	if (cli->c.verify) {
		cli->format = "verify";
	} else if (strcmp(cli->format, "asm") &&
		   strcmp(cli->format, "sidecar") &&
		   strcmp(cli->format, "append")) {
		fprintf(stderr, PROG ": unknown format \"%s\" (asm, sidecar, append)\n",
			cli->format);
		return 2;
	}
	if (!cli->c.output && strcmp(cli->format, "append") && !cli->c.verify) {
		fprintf(stderr, PROG ": -o FILE is needed for format %s\n",
			cli->format);
		return 2;
	}
	return -1;
}

/*
 * The build tree defaults to the directory of the vmlinux, the map to
 * VMLINUX.map; the strings are *@build_dir and *@map, to be freed.
 */
static struct kms_error *default_paths(struct kms_gen_options *opts,
				       char **build_dir, char **map)
{
	char *dir_copy;

	if (!opts->build_dir) {
		dir_copy = strdup(opts->vmlinux);
		if (!dir_copy)
			return &kms_error_nomem;
		*build_dir = strdup(dirname(dir_copy));
		free(dir_copy);
		if (!*build_dir)
			return &kms_error_nomem;
		opts->build_dir = *build_dir;
	}
	if (!opts->map) {
		if (asprintf(map, "%s.map", opts->vmlinux) < 0) {
			*map = NULL;
			return &kms_error_nomem;
		}
		opts->map = *map;
	}
	return NULL;
}

static struct kms_error *write_blob(const struct cli *cli, const void *blob,
				    size_t size)
{
	const char *vmlinux = cli->c.opts.vmlinux;

	if (cli->c.verify)
		return kms_verify_linked(vmlinux, blob, size);
	if (!strcmp(cli->format, "asm"))
		return kms_emit_asm(cli->c.output, blob, size,
				    gen_cli_pad_to(&cli->c, size));
	if (!strcmp(cli->format, "sidecar"))
		return kms_emit_sidecar(cli->c.output, blob, size);
	return kms_emit_append(vmlinux, cli->c.output ? cli->c.output : vmlinux,
			       blob, size);
}

static void print_stats(const struct cli *cli,
			const struct kms_gen_stats *stats, double seconds)
{
	fprintf(stderr,
		"pieces %zu objects %zu modular %zu multi-module %zu named %zu missing-cmd %zu ambiguous %zu\n"
		"ranges %zu attributions %zu modules %zu strtab %zu image %zu note %zu path-pieces %zu paths %zu seconds %.3f\n"
		"modularity %s not-modules %zu\n",
		stats->pieces, stats->objects, stats->modular_objects,
		stats->multi_module_objects, stats->named_objects,
		stats->missing_cmd, stats->ambiguous, stats->ranges,
		stats->attributions, stats->modules, stats->strtab_bytes,
		stats->image_bytes, stats->blob_bytes, stats->path_pieces,
		stats->paths, seconds,
		!stats->modularity ? "modules.builtin" :
		stats->kconfig_cached ? "kconfig(cached)+makefiles" :
		"kconfig+makefiles",
		stats->not_modules);
	if (stats->lto_bytes)
		fprintf(stderr, "lto text %zu unplaced %zu\n",
			stats->lto_bytes, stats->lto_unplaced);
	if (stats->lto_data_bytes)
		fprintf(stderr, "lto data %zu unplaced %zu\n",
			stats->lto_data_bytes, stats->lto_data_unplaced);
	if (cli->c.opts.dwarf || stats->lto_bytes)
		fprintf(stderr,
			"dwarf units %zu unnamed %zu ranges %zu outside-text %zu overlaps %zu static-calls %zu paddings %zu entries %zu\n",
			stats->units, stats->skipped_units, stats->dwarf_ranges,
			stats->outside_text, stats->overlaps,
			stats->static_calls, stats->paddings,
			stats->entries);
	if ((cli->c.opts.dwarf || stats->lto_bytes) && cli->c.opts.all_classes)
		fprintf(stderr,
			"dwarf variables %zu unsized %zu discarded %zu outside %zu enclosed %zu\n",
			stats->variables, stats->unsized_variables,
			stats->discarded_variables, stats->outside_variables,
			stats->enclosed_data);
	if (cli->c.opts.dwarf && stats->module_makefiles)
		fprintf(stderr, "modules-from makefiles by-path %zu by-makefiles %zu unknown %zu\n",
			stats->modules_by_path, stats->modules_by_makefiles,
			stats->unknown_modules);
	else if (cli->c.opts.dwarf)
		fprintf(stderr, "modules-from %s by-path %zu unknown %zu\n",
			stats->module_ranges ? "modules.builtin.ranges" :
			"paths",
			stats->modules_by_path, stats->unknown_modules);
}

int main(int argc, char **argv)
{
	struct cli cli = { .c.opts.warnings = stderr };
	struct kms_gen_stats stats = { 0 };
	char *build_dir = NULL, *map = NULL;
	struct timespec t0, t1;
	struct kms_error *err;
	void *blob = NULL;
	size_t size = 0;
	int status;

	status = parse_options(argc, argv, &cli);
	if (status < 0)
		status = check_options(&cli);
	if (status >= 0)
		return status;
	err = default_paths(&cli.c.opts, &build_dir, &map);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!err)
		err = kms_generate(&cli.c.opts, &blob, &size, &stats);
	if (!err)
		err = write_blob(&cli, blob, size);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (err) {
		kms_error_report(PROG, err);
		status = 1;
	} else {
		if (cli.print_stats)
			print_stats(&cli, &stats,
				    (t1.tv_sec - t0.tv_sec) +
				    (t1.tv_nsec - t0.tv_nsec) / 1e9);
		status = 0;
	}
	free(blob);
	free(build_dir);
	free(map);
	return status;
}
