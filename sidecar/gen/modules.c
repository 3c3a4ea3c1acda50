// SPDX-License-Identifier: GPL-2.0
/*
 * The build-tree modules phase: each object's built-in modules are the
 * KBUILD_MODFILE its .cmd file names that modules.builtin lists (less
 * those the mode's never_modular() refuses: --modularity's, in
 * modules_modularity.c).  Each object's module list, sorted, gets an id in
 * gen.modlists, whichever input mode gave it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/kbuild.h>

#include "state.h"

int gen_compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* obj->modules: the built-in modules its .cmd file names, *ret_n of them. */
static struct kms_error *cmd_modules(struct gen *g, struct object *obj,
				     size_t *ret_n)
{
	struct kms_error *err = NULL;
	char **paths = NULL;
	size_t nr = 0, i, n = 0;

	err = kms_cmd_modfiles(g->opts->build_dir, obj->path, &paths, &nr);
	if (kms_error_is_absent(err)) {
		/* No .cmd file: no modules, counted. */
		kms_error_destroy(err);
		err = NULL;
		g->stats.missing_cmd++;
	}
	if (err)
		return err;
	obj->modules = calloc(nr ? nr : 1, sizeof(*obj->modules));
	if (!obj->modules) {
		kms_free_strings(paths, nr);
		return &kms_error_nomem;
	}
	for (i = 0; i < nr; i++) {
		if (!kms_builtin_has(g->builtin, paths[i]))
			continue;
		obj->modules[n] = kms_module_name(paths[i]);
		if (!obj->modules[n]) {
			err = &kms_error_nomem;
			break;
		}
		n++;
	}
	kms_free_strings(paths, nr);
	*ret_n = n;
	return err;
}

/*
 * The @n modules of obj->modules sorted, duplicates dropped (and freed)
 * into obj->nr_modules; returns the bytes of their key "a b c", its NUL
 * included.
 */
static size_t unique_modules(struct object *obj, size_t n)
{
	size_t i, len = 0;

	qsort(obj->modules, n, sizeof(*obj->modules), gen_compare_strings);
	obj->nr_modules = 0;
	for (i = 0; i < n; i++) {
		if (obj->nr_modules &&
		    !strcmp(obj->modules[obj->nr_modules - 1], obj->modules[i])) {
			free(obj->modules[i]);
			continue;
		}
		obj->modules[obj->nr_modules++] = obj->modules[i];
		len += strlen(obj->modules[i]) + 1;
	}
	return len;
}

/* obj->modlist: the id of its modules' key, @len bytes, in g->modlists. */
static struct kms_error *intern_modlist(struct gen *g, struct object *obj,
					size_t len)
{
	struct kms_error *err;
	char *key;
	size_t i;

	key = malloc(len);
	if (!key)
		return &kms_error_nomem;
	key[0] = '\0';
	for (i = 0; i < obj->nr_modules; i++) {
		if (i)
			strcat(key, " ");
		strcat(key, obj->modules[i]);
	}
	err = kms_strmap_intern(&g->modlists, key, &obj->modlist, NULL);
	g->stats.modular_objects++;
	if (obj->nr_modules > 1)
		g->stats.multi_module_objects++;
	free(key);
	return err;
}

static struct kms_error *
object_modules(struct gen *g, struct object *obj,
	       struct kms_error *(*list)(struct gen *g, struct object *obj,
					 size_t *ret_n))
{
	struct kms_error *err;
	size_t n = 0, len;

	err = list(g, obj, &n);
	if (err) {
		obj->nr_modules = n;
		return err;
	}
	len = unique_modules(obj, n);
	if (!obj->nr_modules ||
	    (g->mode->never_modular && g->mode->never_modular(g, obj)))
		return NULL;
	return intern_modlist(g, obj, len);
}

struct kms_error *
gen_objects_modules(struct gen *g,
		    struct kms_error *(*list)(struct gen *g, struct object *obj,
					      size_t *ret_n))
{
	struct kms_error *err;
	size_t i;

	g->stats.objects = g->object_paths.nr;
	for (i = 0; i < g->object_paths.nr; i++) {
		err = object_modules(g, &g->objects[i], list);
		if (err)
			return err;
	}
	return NULL;
}

struct kms_error *gen_read_modules(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_error *err;
	char *path = NULL;

	/*
	 * kbuild defines KBUILD_MODFILE for built-in core code too
	 * ("kernel/fork"): only modules.builtin tells modules apart.
	 */
	if (o->builtin) {
		err = kms_builtin_read(o->builtin, &g->builtin);
	} else {
		if (asprintf(&path, "%s/modules.builtin", o->build_dir) < 0)
			return &kms_error_nomem;
		err = kms_builtin_read(path, &g->builtin);
		free(path);
	}
	if (err)
		return err;
	if (g->mode->prepare_modules) {
		err = g->mode->prepare_modules(g);
		if (err)
			return err;
	}
	err = gen_objects_modules(g, cmd_modules);
	if (err)
		return err;
	if (g->stats.missing_cmd)
		gen_warn(g, "%zu of %zu objects have no .cmd file in %s; they count as core kernel",
			 g->stats.missing_cmd, g->stats.objects, o->build_dir);
	return NULL;
}
