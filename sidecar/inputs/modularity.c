// SPDX-License-Identifier: GPL-2.0
/*
 * Which objects could have been modules, asked of the tree's own kconfig
 * and make (kms/modularity.h): the analysis's steps run in order
 * (modularity_steps.h says which file does each), and the answers to the
 * questions asked of it.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/modularity.h>
#include <kms/strmap.h>
#include <kms/util.h>

#include "modularity_steps.h"

/*
 * The architecture a .config was made for, from the header conf writes,
 * "# Linux/arm64 6.12.118 Kernel Configuration": ARCH as the build
 * gave it, copied to @arch.  False without such a line, and for x86
 * (x86_64, i386: kbuild's SRCARCH is x86 for both), which is what the
 * options mean when they name no architecture.
 */
static bool config_arch(const char *config, size_t len, char *arch,
			size_t size)
{
	static const char *const x86[] = { "x86", "x86_64", "i386" };
	const char *p = config, *end = config + len;
	size_t i, n;

	/* Among the comment lines that open the file. */
	while (end - p > 8 && p[0] == '#' && strncmp(p, "# Linux/", 8)) {
		p = memchr(p, '\n', end - p);
		if (!p)
			return false;
		p++;
	}
	if (end - p <= 8 || strncmp(p, "# Linux/", 8))
		return false;
	p += 8;
	end = memchr(p, ' ', end - p);
	n = end ? (size_t)(end - p) : 0;
	if (!n || n >= size)
		return false;
	memcpy(arch, p, n);
	arch[n] = '\0';
	for (i = 0; i < KMS_ARRAY_SIZE(x86); i++)
		if (!strcmp(arch, x86[i]))
			return false;
	return true;
}

/* m->bools from the cache, else from kconfig, which then fills the cache. */
static struct kms_error *find_bools_cached(struct kms_modularity *m,
					   const struct kms_modularity_options *o,
					   struct scratch *s, const char *config,
					   size_t len)
{
	/* conf evaluates the toolchain probes: seconds, each run. */
	uint64_t key = o->cache ? modularity_bools_key(o, config, len) : 0;
	struct kms_error *err = NULL;

	if (key)
		err = modularity_read_bools_cache(m, o->cache, key);
	if (!err && !m->bools_cached) {
		err = modularity_find_bools(m, o, s, config, len);
		if (!err && key)
			modularity_write_bools_cache(m, o->cache, key);
	}
	return err;
}

struct kms_error *kms_modularity_analyze(const struct kms_modularity_options *opts,
					 struct kms_modularity **ret)
{
	struct kms_modularity_options arch_opts = *opts;
	const struct kms_modularity_options *o = opts;
	struct kms_modularity *m;
	struct kms_error *err;
	struct scratch s;
	char *config, arch[32];
	size_t len;

	err = kms_read_file(o->config, 0, &config, &len);
	if (err)
		return err;
	/* A build tree's config says which architecture it is for. */
	if (!o->srcarch && config_arch(config, len, arch, sizeof(arch))) {
		arch_opts.srcarch = arch;
		o = &arch_opts;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		free(config);
		return &kms_error_nomem;
	}
	err = modularity_scratch_create(&s);
	if (!err)
		err = modularity_write_arch_makefile(o, &s);
	if (!err && !o->as_is)
		err = find_bools_cached(m, o, &s, config, len);
	if (!err && !o->as_is)
		err = modularity_write_eval_config(m, &s, config);
	if (!err)
		err = modularity_evaluate_makefiles(m, o, &s,
						    o->as_is ?
						    o->config : s.config_eval,
						    false);
	if (!err && o->classify_all && !o->as_is)
		err = modularity_evaluate_makefiles(m, o, &s, o->config, true);
	if (!err && o->classify_all && !o->as_is)
		err = modularity_find_needs_y(m, o, &s);
	modularity_scratch_remove(&s);
	free(config);
	if (err) {
		kms_modularity_destroy(m);
		return err;
	}
	*ret = m;
	return NULL;
}

/*
 * The index of @path in @map, or UINT32_MAX: objects are kept by their
 * normalized paths (read_evaluation()).
 */
static uint32_t find_object(const struct kms_strmap *map, const char *path)
{
	char normal[PATH_MAX];

	if (snprintf(normal, sizeof(normal), "%s", path) >= (int)sizeof(normal))
		return UINT32_MAX;
	return kms_strmap_find(map, kms_path_normalize(normal));
}

enum kms_linkage kms_modularity_linkage(const struct kms_modularity *m,
					const char *path,
					const char **ret_module)
{
	uint32_t i = find_object(&m->objects, path);

	if (i == UINT32_MAX)
		return KMS_LINK_UNKNOWN;
	if (ret_module)
		*ret_module = m->module[i] == UINT32_MAX ? NULL :
			      m->modules.keys[m->module[i]];
	return m->linkage[i];
}

size_t kms_modularity_nr_objects(const struct kms_modularity *m)
{
	return m->objects.nr;
}

const char *kms_modularity_object(const struct kms_modularity *m, size_t i,
				  enum kms_linkage *ret_linkage)
{
	*ret_linkage = m->linkage[i];
	return m->objects.keys[i];
}

bool kms_modularity_is_bool(const struct kms_modularity *m, const char *name)
{
	return kms_strmap_find(&m->bools, name) != UINT32_MAX;
}

bool kms_modularity_needs_y(const struct kms_modularity *m, const char *name)
{
	return kms_strmap_find(&m->needs_y, name) != UINT32_MAX;
}

bool kms_modularity_kconfig_cached(const struct kms_modularity *m)
{
	return m->bools_cached;
}

const char *kms_modularity_composite(const struct kms_modularity *m,
				     const char *path, size_t n)
{
	uint32_t i = find_object(&m->members, path);
	const struct member_of *l;

	if (i == UINT32_MAX)
		return NULL;
	l = &m->member_of[i];
	return n < l->nr ? m->composites.keys[l->composites[n]] : NULL;
}

size_t kms_modularity_nr_dirs(const struct kms_modularity *m)
{
	return m->nr_dirs;
}

void kms_modularity_destroy(struct kms_modularity *m)
{
	size_t i;

	if (!m)
		return;
	kms_strmap_release(&m->objects);
	kms_strmap_release(&m->modules);
	kms_strmap_release(&m->bools);
	kms_strmap_release(&m->needs_y);
	for (i = 0; i < m->members.nr; i++)
		free(m->member_of[i].composites);
	free(m->member_of);
	kms_strmap_release(&m->members);
	kms_strmap_release(&m->composites);
	free(m->linkage);
	free(m->module);
	free(m);
}
