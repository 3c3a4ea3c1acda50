// SPDX-License-Identifier: GPL-2.0
/*
 * gen_generate(): open the vmlinux, run the phases of state.h in order,
 * the input mode's pieces and modules among them, check the blob with the
 * reader's own decoder, free the state.  kms_generate_kbuild(): kbuild's
 * mode, the link maps and the build tree.
 */
#include <stdlib.h>

#include <kms/blob.h>
#include <kms/tables.h>

#include "state.h"

static struct kms_error *run_phases(struct gen *g, void **ret_blob,
				    size_t *ret_size)
{
	struct kms_tables *check;
	struct kms_error *err;

	err = gen_find_text_sections(g);
	if (!err)
		err = g->mode->read_pieces(g);
	if (!err)
		err = gen_sort_pieces(g);
	if (!err && g->nr_lto)
		gen_check_lto_coverage(g);
	if (!err)
		err = g->mode->read_modules(g);
	if (!err)
		err = gen_name_objects(g);
	if (!err)
		err = gen_build_image(g, ret_blob, ret_size);
	if (err)
		return err;
	/* Never hand out a blob our own reader would refuse. */
	err = kms_blob_decode(*ret_blob, *ret_size, "generated", &check);
	if (err) {
		/* Out-parameters are only written on success. */
		free(*ret_blob);
		*ret_blob = NULL;
		return kms_error_prefix(err, "internal error");
	}
	g->stats.image_bytes = check->image_size;
	kms_tables_destroy(check);
	return NULL;
}

static void release_gen(struct gen *g)
{
	size_t i;

	for (i = 0; i < g->object_paths.nr; i++) {
		free(g->objects[i].path);
		kms_free_strings(g->objects[i].modules,
				 g->objects[i].nr_modules);
		kms_free_strings(g->objects[i].not_modules,
				 g->objects[i].nr_not_modules);
	}
	if (g->mode->release)
		g->mode->release(g);
	kms_symbols_destroy(g->symtab);
	free(g->objects);
	free(g->pieces);
	free(g->lto);
	free(g->sections);
	kms_strmap_release(&g->object_paths);
	kms_strmap_release(&g->modlists);
	kms_builtin_destroy(g->builtin);
	kms_elf_close(g->elf);
}

struct kms_error *gen_generate(const struct kms_gen_options *opts,
			       const struct gen_mode *mode, void **ret_blob,
			       size_t *ret_size, struct kms_gen_stats *ret_stats)
{
	struct gen g = { .opts = opts, .mode = mode };
	struct kms_error *err;

	g.elf = opts->elf;
	err = g.elf ? NULL : kms_elf_open(opts->vmlinux, &g.elf);
	if (err)
		return err;
	err = run_phases(&g, ret_blob, ret_size);
	if (!err) {
		if (mode->explain)
			mode->explain(&g);
		if (ret_stats)
			*ret_stats = g.stats;
	}
	if (opts->elf)
		g.elf = NULL;	/* the caller's */
	release_gen(&g);
	return err;
}

static const struct gen_mode kbuild_mode = {
	.read_pieces = gen_read_maps,
	.read_modules = gen_read_modules,
};

struct kms_error *kms_generate_kbuild(const struct kms_gen_options *opts,
				      void **ret_blob, size_t *ret_size,
				      struct kms_gen_stats *ret_stats)
{
	if (opts->dwarf || opts->modularity || opts->explain)
		return kms_error_new(KMS_ERR_INPUT,
				     "kbuild's generator reads the link maps and modules.builtin alone and explains nothing (no --dwarf, --modularity or --explain)");
	return gen_generate(opts, &kbuild_mode, ret_blob, ret_size, ret_stats);
}
