// SPDX-License-Identifier: GPL-2.0
/*
 * kms_generate(): the input mode its options ask for.  --dwarf,
 * --modularity and --explain live here, beside gen.c's kbuild mode, so that
 * kbuild's copy of the generator (gen.c and the phases it calls) holds none
 * of them.
 */
#include <stdlib.h>

#include <kms/module_ranges.h>

#include "state.h"

/* What --dwarf's and --modularity's phases add to struct gen. */
static void release_extras(struct gen *g)
{
	size_t i;

	if (g->range_modules)
		for (i = 0; i < g->object_paths.nr; i++)
			free(g->range_modules[i].names);
	free(g->range_modules);
	kms_module_ranges_destroy(g->module_ranges);
	kms_modularity_destroy(g->modularity);
	kms_modularity_destroy(g->composition);
	kms_strmap_release(&g->composed_modules);
}

/* No build tree: DWARF's compile units and the files beside a kernel. */
static const struct gen_mode dwarf_mode = {
	.read_pieces = gen_read_dwarf,
	.read_modules = gen_read_dwarf_modules,
	.release = release_extras,
	.explain = gen_explain,
};

/*
 * kbuild's mode (gen.c), with --modularity: less what the tree's Kconfig
 * and Makefiles rule out; and --explain.
 */
static const struct gen_mode maps_mode = {
	.read_pieces = gen_read_maps,
	.read_modules = gen_read_modules,
	.prepare_modules = gen_analyse_modularity,
	.never_modular = gen_never_modular,
	.release = release_extras,
	.explain = gen_explain,
};

struct kms_error *kms_generate(const struct kms_gen_options *opts,
			       void **ret_blob, size_t *ret_size,
			       struct kms_gen_stats *ret_stats)
{
	return gen_generate(opts, opts->dwarf ? &dwarf_mode : &maps_mode,
			    ret_blob, ret_size, ret_stats);
}
