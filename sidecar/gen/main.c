// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-gen: write the address range -> object file -> built-in module
 * tables of a linked vmlinux as a kallmodsyms note.
 */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kms/blob.h>
#include <kms/error.h>
#include <kms/gen.h>
#include <kms/source.h>

#include "emit.h"

#define PROG "kallmodsyms-gen"

#ifndef KMS_VERSION_STRING
#define KMS_VERSION_STRING "0"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [options] -f FORMAT [-o OUTPUT] VMLINUX\n"
		"       " PROG " [options] --verify VMLINUX\n"
		"       " PROG " --dwarf [-B FILE] [--modinfo FILE] [--ranges FILE] [options]\n"
		"                       -f FORMAT [-o OUTPUT] VMLINUX\n"
		"\n"
		"Write the kallmodsyms tables of a linked VMLINUX.\n"
		"\n"
		"  -f, --format FORMAT   object: a relocatable object holding the note,\n"
		"                                for linking into vmlinux;\n"
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
		"                        (default: DIR/source, or DIR)\n"
		"      --dwarf           no build tree: objects from VMLINUX's DWARF\n"
		"                        compile units, modules from -B modules.builtin,\n"
		"                        --modinfo and --ranges (at least one of them)\n"
		"      --modinfo FILE    modules.builtin.modinfo (--dwarf)\n"
		"      --ranges FILE     modules.builtin.ranges (--dwarf): which code\n"
		"                        is in which module; without it only\n"
		"                        single-object modules are found\n"
		"      --no-modularity   take modules.builtin's word for what is a\n"
		"                        module instead of evaluating Kconfig and the\n"
		"                        Makefiles (kconfig's answer is kept for the\n"
		"                        next run in DIR/.tmp_kallmodsyms_bools)\n"
		"      --pad-to SIZE     object: make the note section SIZE bytes\n"
		"      --verify          write nothing; check that the note linked into\n"
		"                        VMLINUX holds exactly the tables VMLINUX and its\n"
		"                        maps give (exit 1 if not)\n"
		"  -e, --explain         list every object with its modules and name;\n"
		"                        twice: then each text range and its object\n"
		"  -s, --stats           print counts and sizes on stderr\n"
		"  -q, --quiet           no warnings\n"
		"      --version         print the version\n"
		"  -h, --help            this text\n"
		"\n"
		"Exit status: 0 on success, 1 on any error, 2 on bad usage.\n");
}

/* The tables linked into @vmlinux must be those just computed from it. */
static struct kms_error *verify_linked(const char *vmlinux, const void *blob,
				       size_t size)
{
	struct kms_tables *linked, *fresh;
	struct kms_error *err;
	bool same;

	err = kms_tables_load(vmlinux, &linked);
	if (err)
		return err;
	err = kms_blob_decode(blob, size, vmlinux, &fresh);
	if (err) {
		kms_tables_destroy(linked);
		return err;
	}
	same = linked->image_size == fresh->image_size &&
	       !memcmp(linked->image, fresh->image, fresh->image_size);
	kms_tables_destroy(linked);
	kms_tables_destroy(fresh);
	if (!same)
		return kms_error_file(vmlinux,
				      "the linked kallmodsyms tables do not match this image (stale note?)");
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "build-dir", required_argument, NULL, 'b' },
		{ "map", required_argument, NULL, 'm' },
		{ "o-map", required_argument, NULL, 'M' },
		{ "builtin", required_argument, NULL, 'B' },
		{ "srctree", required_argument, NULL, 'S' },
		{ "no-modularity", no_argument, NULL, 'N' },
		{ "dwarf", no_argument, NULL, 'D' },
		{ "modinfo", required_argument, NULL, 'I' },
		{ "ranges", required_argument, NULL, 'R' },
		{ "pad-to", required_argument, NULL, 'P' },
		{ "verify", no_argument, NULL, 'v' },
		{ "explain", no_argument, NULL, 'e' },
		{ "stats", no_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kms_gen_options opts = { .warnings = stderr };
	const char *format = NULL, *output = NULL;
	char *build_dir = NULL, *map = NULL, *dir_copy = NULL;
	struct kms_gen_stats stats = { 0 };
	struct kms_error *err;
	struct timespec t0, t1;
	bool print_stats = false, verify = false;
	size_t pad_to = 0;
	char *end;
	size_t size = 0;
	void *blob = NULL;
	int c, status = 1;

	while ((c = getopt_long(argc, argv, "f:o:b:m:M:B:S:esqh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'o': output = optarg; break;
		case 'b': opts.build_dir = optarg; break;
		case 'm': opts.map = optarg; break;
		case 'M': opts.o_map = optarg; break;
		case 'B': opts.builtin = optarg; break;
		case 'S': opts.srctree = optarg; break;
		case 'N': opts.no_modularity = true; break;
		case 'D': opts.dwarf = true; break;
		case 'I': opts.modinfo = optarg; break;
		case 'R': opts.ranges = optarg; break;
		case 'e':
			opts.explain_ranges = opts.explain != NULL;
			opts.explain = stdout;
			break;
		case 'P':
			pad_to = strtoul(optarg, &end, 0);
			if (*end || !*optarg) {
				fprintf(stderr, PROG ": --pad-to wants a size, not \"%s\"\n",
					optarg);
				return 2;
			}
			break;
		case 'v': verify = true; break;
		case 's': print_stats = true; break;
		case 'q': opts.warnings = NULL; break;
		case 'V': puts(PROG " " KMS_VERSION_STRING); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || !format == !verify) {
		usage(stderr);
		return 2;
	}
	opts.vmlinux = argv[optind];
	if (opts.dwarf && !opts.builtin && !opts.modinfo && !opts.ranges) {
		fprintf(stderr, PROG ": --dwarf needs -B modules.builtin, --modinfo or --ranges\n");
		return 2;
	}
	if (!opts.dwarf && (opts.modinfo || opts.ranges)) {
		fprintf(stderr, PROG ": --modinfo and --ranges go with --dwarf\n");
		return 2;
	}
	if (verify) {
		format = "verify";
	} else if (strcmp(format, "object") && strcmp(format, "sidecar") &&
		   strcmp(format, "append")) {
		fprintf(stderr, PROG ": unknown format \"%s\" (object, sidecar, append)\n",
			format);
		return 2;
	}
	if (!output && strcmp(format, "append") && !verify) {
		fprintf(stderr, PROG ": -o FILE is needed for format %s\n", format);
		return 2;
	}
	if (!opts.build_dir) {
		dir_copy = strdup(opts.vmlinux);
		if (!dir_copy)
			goto nomem;
		build_dir = strdup(dirname(dir_copy));
		if (!build_dir)
			goto nomem;
		opts.build_dir = build_dir;
	}
	if (!opts.map) {
		if (asprintf(&map, "%s.map", opts.vmlinux) < 0) {
			map = NULL;
			goto nomem;
		}
		opts.map = map;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = kms_generate(&opts, &blob, &size, &stats);
	if (err) {
		kms_error_report(PROG, err);
		goto out;
	}
	if (verify)
		err = verify_linked(opts.vmlinux, blob, size);
	else if (!strcmp(format, "object"))
		err = kms_emit_object(output, blob, size, pad_to);
	else if (!strcmp(format, "sidecar"))
		err = kms_emit_sidecar(output, blob, size);
	else
		err = kms_emit_append(opts.vmlinux, output ? output : opts.vmlinux,
				      blob, size);
	if (err) {
		kms_error_report(PROG, err);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (print_stats)
		fprintf(stderr,
			"pieces %zu objects %zu modular %zu multi-module %zu named %zu missing-cmd %zu ambiguous %zu\n"
			"ranges %zu attributions %zu modules %zu strtab %zu image %zu note %zu seconds %.3f\n"
			"modularity %s not-modules %zu\n",
			stats.pieces, stats.objects, stats.modular_objects,
			stats.multi_module_objects, stats.named_objects,
			stats.missing_cmd, stats.ambiguous, stats.ranges,
			stats.attributions, stats.modules, stats.strtab_bytes,
			stats.image_bytes, stats.blob_bytes,
			(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
			!stats.modularity ? "modules.builtin" :
			stats.kconfig_cached ? "kconfig(cached)+makefiles" :
			"kconfig+makefiles",
			stats.not_modules);
	if (print_stats && stats.lto_bytes)
		fprintf(stderr, "lto text %zu unplaced %zu\n",
			stats.lto_bytes, stats.lto_unplaced);
	if (print_stats && (opts.dwarf || stats.lto_bytes))
		fprintf(stderr,
			"dwarf units %zu unnamed %zu ranges %zu outside-text %zu overlaps %zu static-calls %zu paddings %zu\n",
			stats.units, stats.skipped_units, stats.dwarf_ranges,
			stats.outside_text, stats.overlaps, stats.static_calls,
			stats.paddings);
	if (print_stats && opts.dwarf)
		fprintf(stderr, "modules-from %s by-path %zu unknown %zu\n",
			stats.module_ranges ? "modules.builtin.ranges" : "paths",
			stats.modules_by_path, stats.unknown_modules);
	status = 0;
	goto out;
nomem:
	kms_error_report(PROG, &kms_error_nomem);
out:
	free(blob);
	free(build_dir);
	free(dir_copy);
	free(map);
	return status;
}
