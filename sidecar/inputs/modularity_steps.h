/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steps of the modularity analysis (kms/modularity.h), private to
 * sidecar/inputs: the analysis's state, which modularity.c creates and
 * answers questions of, and the files that fill it in, each called by
 * modularity.c alone:
 *
 *  - modularity_scratch.c: the scratch directory conf and make work in;
 *  - modularity_cache.c: kconfig's answer (the bools) kept for the next run;
 *  - modularity_kconfig.c: the tree's conf, asked which symbols are bool
 *    and which bools need a tristate at y, and the config to evaluate the
 *    Makefiles with;
 *  - modularity_make.c: the evaluator, modularity.mk run by make on the
 *    tree's Makefiles, and the architecture's lists of directories it
 *    reads.
 */
#ifndef KMS_INPUTS_MODULARITY_STEPS_H
#define KMS_INPUTS_MODULARITY_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>
#include <kms/modularity.h>
#include <kms/strmap.h>

/* The composites in obj-y one object is a member of: indices in composites. */
struct member_of {
	uint32_t *composites;
	size_t nr, cap;
};

struct kms_modularity {
	struct kms_strmap objects;
	unsigned char *linkage;		/* enum kms_linkage, per object */
	uint32_t *module;		/* index in modules, per object */
	size_t linkage_cap, module_cap;
	struct kms_strmap modules;
	struct kms_strmap bools;
	struct kms_strmap needs_y;	/* bools kconfig turns off at m */
	struct kms_strmap members;	/* of composites in obj-y ("C" lines) */
	struct member_of *member_of;	/* per member */
	size_t member_of_cap;
	struct kms_strmap composites;
	bool bools_cached;
	size_t nr_dirs;
};

/* The scratch directory and what is in it. */
struct scratch {
	char dir[64];
	char *config_m, *config_eval, *config_resolved, *arch_mk, *makefile;
};

/*
 * A fresh scratch directory under $TMPDIR (else /tmp) and its files' names;
 * modularity_scratch_remove() removes it with all that is in it, and
 * frees the names, whether or not creating it succeeded.
 */
struct kms_error *modularity_scratch_create(struct scratch *s);
void modularity_scratch_remove(struct scratch *s);

/* @path made to hold the @len bytes of @text. */
struct kms_error *modularity_write_file(const char *path, const char *text,
					size_t len);

/*
 * What kconfig's answer depends on, as one number: the config, the trees,
 * the toolchain variables, include/config/auto.conf's time and size; 0
 * when there is no key, and so no cache.
 */
uint64_t modularity_bools_key(const struct kms_modularity_options *o,
			      const char *config, size_t config_len);

/*
 * The cache at @path's answer for @key into m->bools, and m->bools_cached
 * set, if it holds it.  Best effort: a cache absent, unreadable or for
 * another key is computed again; running out of memory is an error.
 */
struct kms_error *modularity_read_bools_cache(struct kms_modularity *m,
					      const char *path, uint64_t key);

/* m->bools into the cache at @path for @key: written whole or not at all. */
void modularity_write_bools_cache(const struct kms_modularity *m,
				  const char *path, uint64_t key);

/* The symbols @config (@config_len bytes) sets to y that are bool: m->bools. */
struct kms_error *modularity_find_bools(struct kms_modularity *m,
					const struct kms_modularity_options *o,
					struct scratch *s, const char *config,
					size_t config_len);

/*
 * The bools kconfig turns off once the tristates are m, reading
 * s->config_eval: m->needs_y.
 */
struct kms_error *
modularity_find_needs_y(struct kms_modularity *m,
			const struct kms_modularity_options *o,
			struct scratch *s);

/* @config with every y that is not bool made m, into s->config_eval. */
struct kms_error *modularity_write_eval_config(struct kms_modularity *m,
					       struct scratch *s,
					       const char *config);

/*
 * The lists of directories the top-level and the architecture's Makefile
 * add, into s->arch_mk for the evaluator.
 */
struct kms_error *
modularity_write_arch_makefile(const struct kms_modularity_options *o,
			       struct scratch *s);

/*
 * The tree's Makefiles evaluated by make with @config: every object they
 * link, and how, into @m.  @as_is: @config is the config itself, and what
 * it links is linked while a tristate is y (classify_all).
 */
struct kms_error *
modularity_evaluate_makefiles(struct kms_modularity *m,
			      const struct kms_modularity_options *o,
			      struct scratch *s, const char *config, bool as_is);

#endif /* KMS_INPUTS_MODULARITY_STEPS_H */
