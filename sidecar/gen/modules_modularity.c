// SPDX-License-Identifier: GPL-2.0
/*
 * --modularity's hooks of the build-tree modules phase (modules.c): the
 * tree's Kconfig and Makefiles, evaluated once, say which objects that
 * modules.builtin lists could never have been modules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <kms/modularity.h>

#include "state.h"

/*
 * With --modularity, decide modularity from the tree's Kconfig and
 * Makefiles when the build tree is a configured kernel tree (it has a
 * .config); otherwise, and for a synthetic tree without one, trust
 * modules.builtin.
 */
struct kms_error *gen_analyse_modularity(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_modularity_options mo = { 0 };
	char *config = NULL, *source = NULL, *srctree = NULL, *cache = NULL;
	struct kms_error *err = NULL;

	if (!o->modularity)
		return NULL;
	if (asprintf(&config, "%s/.config", o->build_dir) < 0)
		return &kms_error_nomem;
	if (access(config, F_OK)) {
		free(config);
		return NULL;
	}
	if (o->srctree) {
		srctree = realpath(o->srctree, NULL);
		if (!srctree)
			err = kms_error_errno(o->srctree, "cannot open");
	} else if (asprintf(&source, "%s/source", o->build_dir) < 0) {
		err = &kms_error_nomem;
	} else {
		/* O= builds link "source" to the sources. */
		srctree = realpath(source, NULL);
		if (!srctree)
			srctree = realpath(o->build_dir, NULL);
		if (!srctree)
			err = kms_error_errno(o->build_dir, "cannot open");
	}
	mo.objtree = realpath(o->build_dir, NULL);
	if (!err && !mo.objtree)
		err = kms_error_errno(o->build_dir, "cannot open");
	/* kbuild's "make clean" removes .tmp_* files. */
	if (!err && asprintf(&cache, "%s/.tmp_kallmodsyms_bools",
			     mo.objtree) < 0)
		err = &kms_error_nomem;
	if (!err) {
		mo.srctree = srctree;
		mo.config = config;
		mo.cache = cache;
		err = kms_modularity_analyze(&mo, &g->modularity);
	}
	if (!err) {
		g->stats.modularity = true;
		g->stats.kconfig_cached =
			kms_modularity_kconfig_cached(g->modularity);
	}
	free((char *)mo.objtree);
	free(cache);
	free(srctree);
	free(source);
	free(config);
	return err;
}

/*
 * modules.builtin comes from MODULE_LICENSE(); the Makefiles and Kconfig
 * say whether the object could have been a module at all.  If not, its
 * modules become obj->not_modules, and true.
 */
bool gen_never_modular(struct gen *g, struct object *obj)
{
	if (!g->modularity)
		return false;
	obj->linkage = kms_modularity_linkage(g->modularity, obj->path, NULL);
	if (obj->linkage != KMS_LINK_BUILTIN && obj->linkage != KMS_LINK_LIB)
		return false;
	obj->not_modules = obj->modules;
	obj->nr_not_modules = obj->nr_modules;
	obj->modules = NULL;
	obj->nr_modules = 0;
	g->stats.not_modules++;
	return true;
}
