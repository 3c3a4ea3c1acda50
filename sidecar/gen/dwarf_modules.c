// SPDX-License-Identifier: GPL-2.0
/*
 * The --dwarf modules phase, without a build tree: modules.builtin and
 * modules.builtin.modinfo say which modules are built in;
 * modules.builtin.ranges says where their code lies; without it, a module
 * is found only as an object of its own path (a single-object module).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/kbuild.h>
#include <kms/modinfo.h>
#include <kms/module_ranges.h>
#include <kms/util.h>

#include "state.h"

/* modules.builtin and modinfo's "file=" paths, either or both. */
static struct kms_error *dwarf_builtin(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_builtin *b;
	struct kms_error *err;
	char **paths = NULL, **n;
	size_t nr = 0, i, k;

	if (o->builtin) {
		err = kms_builtin_read(o->builtin, &b);
		if (err)
			return err;
	} else {
		b = calloc(1, sizeof(*b));
		if (!b)
			return &kms_error_nomem;
	}
	g->builtin = b;
	if (!o->modinfo)
		return NULL;
	err = kms_modinfo_files(o->modinfo, &paths, &nr);
	if (err)
		return err;
	n = realloc(b->paths, (b->nr + nr + 1) * sizeof(*n));
	if (!n) {
		kms_free_strings(paths, nr);
		return &kms_error_nomem;
	}
	b->paths = n;
	memcpy(b->paths + b->nr, paths, nr * sizeof(*paths));
	b->nr += nr;
	free(paths);
	qsort(b->paths, b->nr, sizeof(*b->paths), gen_compare_strings);
	for (i = k = 0; i < b->nr; i++) {
		if (k && !strcmp(b->paths[k - 1], b->paths[i])) {
			free(b->paths[i]);
			continue;
		}
		b->paths[k++] = b->paths[i];
	}
	b->nr = k;
	return NULL;
}

/* @key, an address, against a module's range: below its end or not. */
static int compare_range_end(const void *key, const void *element)
{
	const struct kms_module_range *m = element;

	return *(const uint64_t *)key < m->end ? -1 : 1;
}

static struct kms_error *add_range_module(struct range_modules *l,
					  const char *name)
{
	struct kms_error *err;
	size_t k;

	for (k = 0; k < l->nr; k++)
		if (!strcmp(l->names[k], name))
			return NULL;
	err = KMS_RESERVE(l->names, l->cap, l->nr + 1);
	if (err)
		return err;
	l->names[l->nr++] = name;
	return NULL;
}

/* Each object's modules from modules.builtin.ranges: where its code lies. */
static struct kms_error *dwarf_range_modules(struct gen *g)
{
	const struct kms_module_ranges *r;
	struct kms_error *err;
	size_t i, nr = g->object_paths.nr;

	err = kms_module_ranges_read(g->opts->ranges, g->elf,
				     &g->module_ranges);
	if (err)
		return err;
	r = g->module_ranges;
	g->stats.module_ranges = true;
	g->range_modules = calloc(nr ? nr : 1, sizeof(*g->range_modules));
	if (!g->range_modules)
		return &kms_error_nomem;
	for (i = 0; i < g->nr_pieces; i++) {
		const struct piece *p = &g->pieces[i];
		size_t lo, j;

		/* The first range that ends after the piece starts. */
		lo = kms_upper_bound(&p->start, r->ranges, r->nr,
				     sizeof(*r->ranges), compare_range_end);
		for (; lo < r->nr && r->ranges[lo].start < p->end; lo++) {
			const struct kms_module_range *m = &r->ranges[lo];
			struct range_modules *l = &g->range_modules[p->object];

			for (j = 0; j < m->nr_modules; j++) {
				err = add_range_module(l, m->modules[j]);
				if (err)
					return err;
			}
		}
	}
	return NULL;
}

/*
 * obj->modules from what a kernel without its build tree has: the modules
 * modules.builtin.ranges places the object's code in, or else the module
 * whose path is the object's own (a single-object module).
 */
static struct kms_error *dwarf_modules(struct gen *g, struct object *obj,
				       size_t *ret_n)
{
	const struct range_modules *ranged = g->module_ranges ?
		&g->range_modules[obj - g->objects] : NULL;
	size_t nr = ranged ? ranged->nr : 1, n = 0, i;
	size_t len = strlen(obj->path);
	char *modpath;

	obj->modules = calloc(nr ? nr : 1, sizeof(*obj->modules));
	if (!obj->modules)
		return &kms_error_nomem;
	if (ranged) {
		for (i = 0; i < nr; i++) {
			obj->modules[n] = strdup(ranged->names[i]);
			if (!obj->modules[n]) {
				*ret_n = n;
				return &kms_error_nomem;
			}
			n++;
		}
	} else if (len > 2 && !strcmp(obj->path + len - 2, ".o")) {
		modpath = strndup(obj->path, len - 2);
		if (!modpath)
			return &kms_error_nomem;
		if (kms_builtin_has(g->builtin, modpath)) {
			obj->modules[n] = kms_module_name(modpath);
			if (!obj->modules[n]) {
				free(modpath);
				return &kms_error_nomem;
			}
			n++;
			g->stats.modules_by_path++;
		}
		free(modpath);
	}
	*ret_n = n;
	return NULL;
}

/*
 * Without modules.builtin.ranges, a module is found only as an object of
 * its own path; the others (multi-object modules, or modules with no
 * text) are unknown.  Calls @fn with each; returns how many.
 */
size_t gen_unknown_modules(const struct gen *g,
			   void (*fn)(const struct gen *, const char *))
{
	size_t i, n = 0;
	char *obj;

	if (g->module_ranges)
		return 0;
	for (i = 0; i < g->builtin->nr; i++) {
		if (asprintf(&obj, "%s.o", g->builtin->paths[i]) < 0)
			continue;
		if (kms_strmap_find(&g->object_paths, obj) == UINT32_MAX) {
			n++;
			if (fn)
				fn(g, g->builtin->paths[i]);
		}
		free(obj);
	}
	return n;
}

struct kms_error *gen_read_dwarf_modules(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_error *err;

	err = dwarf_builtin(g);
	if (!err && o->ranges)
		err = dwarf_range_modules(g);
	if (!err)
		err = gen_objects_modules(g, dwarf_modules);
	if (err)
		return err;
	g->stats.unknown_modules = gen_unknown_modules(g, NULL);
	if (g->stats.unknown_modules)
		gen_warn(g, "%zu of %zu built-in modules have no object of their own name (multi-object modules, or no text); without modules.builtin.ranges their code counts as core kernel",
			 g->stats.unknown_modules, g->builtin->nr);
	return NULL;
}
