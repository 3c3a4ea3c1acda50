/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which objects of a configured kernel tree could have been built as
 * modules: decided by kconfig and kbuild themselves, not by
 * MODULE_LICENSE() (which is all modules.builtin reflects since 5.6).
 *
 * kconfig's own conf tells which of the symbols set to y are bool (reading
 * a copy of the config with every y turned into m, it rejects m for each
 * bool).  Then the tree's Makefiles are evaluated by make, as kbuild
 * would, with every tristate y made m: an object that lands in obj-m, or in
 * a composite object in obj-m, could have been a module; one that stays in
 * obj-y or lib-y never could.  Nothing is compiled; only make and conf run.
 */
#ifndef KMS_MODULARITY_H
#define KMS_MODULARITY_H

#include <stdbool.h>
#include <stddef.h>

#include <kms/error.h>

struct kms_modularity_options {
	const char *srctree;		/* the kernel sources */
	const char *objtree;		/* has scripts/kconfig/conf */
	const char *config;		/* the .config to judge */
	const char *srcarch;		/* NULL: x86 */
	const char *arch;		/* ARCH (i386, sparc32); NULL: srcarch */
	/*
	 * Skip kconfig and evaluate the Makefiles with the config as it is:
	 * for a config that already has every tristate symbol it can at m
	 * (an allmodconfig), or to learn what this config links and which
	 * composites it builds (kms_modularity_composite()), as for a
	 * distribution's kernel, whose tree has no conf built.  Then
	 * KMS_LINK_BUILTIN means "linked into vmlinux by this config", not
	 * "never a module".
	 */
	bool as_is;
	/*
	 * Classify every object the config links (KMS_LINK_WHILE_Y), and find
	 * the bools that need a tristate at y (kms_modularity_needs_y()):
	 * one more run of make and one of conf, for the audit.  Ignored with
	 * as_is.
	 */
	bool classify_all;
	/*
	 * Where to keep what kconfig said, for the next run on the same
	 * config (kallmodsyms-gen --modularity, run again on one tree), or
	 * NULL.
	 * It is used only while the config, the tree, the toolchain
	 * variables and include/config/auto.conf (which kbuild rewrites when
	 * a Kconfig file changes) are the same.  Failing to write it is not
	 * an error.
	 */
	const char *cache;
};

enum kms_linkage {
	KMS_LINK_UNKNOWN,		/* no Makefile links it */
	/*
	 * Linked with the config as it is, but by no Makefile once every
	 * tristate is m (ifeq ($(CONFIG_FOO),y)): never a module either.
	 * Only with classify_all.
	 */
	KMS_LINK_WHILE_Y,
	KMS_LINK_BUILTIN,		/* obj-y: in vmlinux whatever the config */
	KMS_LINK_LIB,			/* lib-y: in a lib.a, never a module */
	KMS_LINK_MODULE,		/* obj-m, or a member of a module */
};

struct kms_modularity;

struct kms_error *kms_modularity_analyze(const struct kms_modularity_options *o,
					 struct kms_modularity **ret);

/*
 * How @path (an object relative to the top of the tree, "fs/ext4/inode.o")
 * is linked; for a module member, *ret_module is the module's object
 * ("fs/ext4/ext4.o") if @ret_module is not NULL.
 */
enum kms_linkage kms_modularity_linkage(const struct kms_modularity *m,
					const char *path,
					const char **ret_module);

/* Every object the Makefiles link, in the order they were found. */
size_t kms_modularity_nr_objects(const struct kms_modularity *m);
const char *kms_modularity_object(const struct kms_modularity *m, size_t i,
				  enum kms_linkage *ret_linkage);

/* Was CONFIG_@name (set to y) found to be bool? */
bool kms_modularity_is_bool(const struct kms_modularity *m, const char *name);

/*
 * Is CONFIG_@name a bool that kconfig turns off once the tristates are m,
 * one that needs a tristate at y (FB_VESA on FB)?  Only with classify_all.
 */
bool kms_modularity_needs_y(const struct kms_modularity *m, const char *name);

/* Did kconfig's answer come from o->cache? */
bool kms_modularity_kconfig_cached(const struct kms_modularity *m);

/*
 * The @n-th composite object in obj-y that @path is a member of
 * ("drivers/net/liquid/liquid.o" for drivers/net/liquid/main.o, from
 * "liquid-y := main.o common.o" or liquid-objs), or NULL past the last:
 * the modules kbuild compiles @path for (KBUILD_MODFILE), where
 * modules.builtin lists them.  An object shared by two composites has
 * both.  Only with as_is (the evaluator lists members then alone): the
 * composites of the config as it is.
 */
const char *kms_modularity_composite(const struct kms_modularity *m,
				     const char *path, size_t n);

/* Directories the Makefiles descended into. */
size_t kms_modularity_nr_dirs(const struct kms_modularity *m);

void kms_modularity_destroy(struct kms_modularity *m);

#endif /* KMS_MODULARITY_H */
