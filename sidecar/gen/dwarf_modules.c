// SPDX-License-Identifier: GPL-2.0
/*
 * The --dwarf modules phase, without a build tree: modules.builtin and
 * modules.builtin.modinfo say which modules are built in;
 * modules.builtin.ranges says where their code lies; without it, a module
 * is found as an object of its own path (a single-object module) and,
 * with -S, as a composite object of the Makefiles of the kernel's sources
 * (a multi-object module).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kms/kbuild.h>
#include <kms/kernel_version.h>
#include <kms/modinfo.h>
#include <kms/modularity.h>
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
 * modpath (a module's path, "drivers/net/liquid/liquid") into
 * obj->modules[*n] if modules.builtin lists it; *ret_found says so.
 */
static struct kms_error *add_builtin(struct gen *g, struct object *obj,
				     const char *modpath, size_t *n,
				     bool *ret_found)
{
	*ret_found = kms_builtin_has(g->builtin, modpath);
	if (!*ret_found)
		return NULL;
	obj->modules[*n] = kms_module_name(modpath);
	if (!obj->modules[*n])
		return &kms_error_nomem;
	(*n)++;
	return NULL;
}

/*
 * The modules of the composites the Makefiles of -S make @obj a member
 * of (foo-y := a.o b.o), into obj->modules from [*n]; each module so
 * found is remembered as known.
 */
static struct kms_error *composed_modules(struct gen *g, struct object *obj,
					  size_t *n)
{
	const char *c;
	struct kms_error *err = NULL;
	bool found, any = false;
	char *modpath;
	uint32_t index;
	size_t i;

	for (i = 0; !err && (c = kms_modularity_composite(g->composition,
							   obj->path, i)); i++) {
		/* The evaluator's composites are the .o of obj-y. */
		modpath = strndup(c, strlen(c) - 2);
		if (!modpath)
			return &kms_error_nomem;
		err = add_builtin(g, obj, modpath, n, &found);
		if (!err && found)
			err = kms_strmap_intern(&g->composed_modules, modpath,
						&index, NULL);
		any |= found;
		free(modpath);
	}
	g->stats.modules_by_makefiles += any;
	return err;
}

/* How many composites the Makefiles of -S make @obj a member of. */
static size_t nr_composites(const struct gen *g, const struct object *obj)
{
	size_t n = 0;

	while (g->composition &&
	       kms_modularity_composite(g->composition, obj->path, n))
		n++;
	return n;
}

/*
 * obj->modules from what a kernel without its build tree has: the modules
 * modules.builtin.ranges places the object's code in, or else the module
 * whose path is the object's own (a single-object module) and, with -S,
 * those of the composites the Makefiles make it a member of.
 */
static struct kms_error *dwarf_modules(struct gen *g, struct object *obj,
				       size_t *ret_n)
{
	const struct range_modules *ranged = g->module_ranges ?
		&g->range_modules[obj - g->objects] : NULL;
	size_t nr = ranged ? ranged->nr : 1 + nr_composites(g, obj);
	size_t len = strlen(obj->path), n = 0, i;
	struct kms_error *err = NULL;
	char *modpath;
	bool found;

	obj->modules = calloc(nr ? nr : 1, sizeof(*obj->modules));
	if (!obj->modules)
		return &kms_error_nomem;
	if (ranged) {
		for (i = 0; i < nr && !err; i++) {
			obj->modules[n] = strdup(ranged->names[i]);
			if (!obj->modules[n])
				err = &kms_error_nomem;
			else
				n++;
		}
		*ret_n = n;
		return err;
	}
	if (len > 2 && !strcmp(obj->path + len - 2, ".o")) {
		modpath = strndup(obj->path, len - 2);
		if (!modpath)
			return &kms_error_nomem;
		err = add_builtin(g, obj, modpath, &n, &found);
		g->stats.modules_by_path += found;
		free(modpath);
	}
	if (!err && g->composition)
		err = composed_modules(g, obj, &n);
	*ret_n = n;
	return err;
}

/*
 * Without modules.builtin.ranges, a module is found as an object of its
 * own path, or with -S as a composite of the Makefiles; the others
 * (multi-object modules without -S, or modules with no text) are
 * unknown.  Calls @fn with each; returns how many.
 */
size_t gen_unknown_modules(const struct gen *g,
			   void (*fn)(const struct gen *, const char *))
{
	const char *path;
	size_t i, n = 0;
	char *obj;

	if (g->module_ranges)
		return 0;
	for (i = 0; i < g->builtin->nr; i++) {
		path = g->builtin->paths[i];
		if (kms_strmap_find(&g->composed_modules, path) != UINT32_MAX)
			continue;
		if (asprintf(&obj, "%s.o", path) < 0)
			continue;
		if (kms_strmap_find(&g->object_paths, obj) == UINT32_MAX) {
			n++;
			if (fn)
				fn(g, path);
		}
		free(obj);
	}
	return n;
}

/* The vmlinux must be of the version of the sources -S names. */
static struct kms_error *check_version(struct gen *g, const char *srctree)
{
	char version[KMS_RELEASE_MAX + 1];
	struct kms_banner banner;
	struct kms_error *err;

	err = kms_elf_banner(g->elf, &banner);
	if (!err)
		err = kms_tree_version(srctree, version, sizeof(version));
	if (!err && !kms_banner_of_version(&banner, version))
		err = kms_error_fmt("%s: the sources of Linux %s, but %s is Linux %s%s%s%s: -S needs the sources it was built from",
				    g->opts->srctree, version, g->elf->path,
				    banner.release,
				    banner.uts_version[0] ? " (" : "",
				    banner.uts_version,
				    banner.uts_version[0] ? ")" : "");
	return err;
}

/*
 * -S: the Makefiles of the vmlinux's own sources evaluated with its
 * config as it is (a distribution's tree has no kconfig built, and needs
 * none: only which objects make each composite is asked).
 */
static struct kms_error *dwarf_composition(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_modularity_options mo = { .as_is = true };
	char *srctree, *config = NULL;
	struct kms_error *err;

	srctree = realpath(o->srctree, NULL);
	if (!srctree)
		return kms_error_errno(o->srctree, "cannot open");
	err = check_version(g, o->srctree);
	if (!err && !o->config && asprintf(&config, "%s/.config", srctree) < 0)
		err = &kms_error_nomem;
	if (!err && !o->config && access(config, F_OK))
		err = kms_error_file(o->srctree,
				     "no .config: give the kernel's own with --config (a distribution's /boot/config-RELEASE)");
	/* make reads it from the tree, where a relative path is not. */
	if (!err && o->config && !(config = realpath(o->config, NULL)))
		err = kms_error_errno(o->config, "cannot open");
	if (!err) {
		mo.srctree = mo.objtree = srctree;
		mo.config = config;
		/* The image's architecture, whatever the config's header says. */
		if (g->elf->arch && g->elf->arch->machine == EM_AARCH64)
			mo.srcarch = "arm64";
		err = kms_modularity_analyze(&mo, &g->composition);
	}
	g->stats.module_makefiles = !err;
	free(config);
	free(srctree);
	return err;
}

struct kms_error *gen_read_dwarf_modules(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_error *err;

	err = dwarf_builtin(g);
	if (!err && o->ranges)
		err = dwarf_range_modules(g);
	else if (!err && o->srctree)
		err = dwarf_composition(g);
	if (!err)
		err = gen_objects_modules(g, dwarf_modules);
	if (err)
		return err;
	g->stats.unknown_modules = gen_unknown_modules(g, NULL);
	if (g->stats.unknown_modules)
		gen_warn(g, o->srctree ?
			 "%zu of %zu built-in modules have no object with text, of their own name or in the Makefiles' composite of that name" :
			 "%zu of %zu built-in modules have no object of their own name (multi-object modules, or no text); without modules.builtin.ranges or -S their code counts as core kernel",
			 g->stats.unknown_modules, g->builtin->nr);
	return NULL;
}
