/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kbuild leaves in a build tree about modules: modules.builtin and the
 * KBUILD_MODFILE definitions in the saved command lines (.<obj>.cmd) of
 * every object compiled as part of a module.
 *
 * Module *paths* are as kbuild spells KBUILD_MODFILE ("fs/ext4/ext4");
 * module *names* are what kallsyms prints ("ext4", "nls_iso8859_1").
 */
#ifndef KMS_KBUILD_H
#define KMS_KBUILD_H

#include <stdbool.h>
#include <stddef.h>

#include <kms/error.h>

struct kms_builtin {
	char **paths;		/* sorted, "fs/ext4/ext4" */
	size_t nr;
};

/* The longest module name the kernel allows (MODULE_NAME_LEN - 1). */
#define KMS_MODULE_NAME_MAX 55

/*
 * Read modules.builtin ("kernel/fs/ext4/ext4.ko" lines).  Paths must be
 * printable ASCII and names at most KMS_MODULE_NAME_MAX bytes.
 */
struct kms_error *kms_builtin_read(const char *path, struct kms_builtin **ret);
bool kms_builtin_has(const struct kms_builtin *builtin, const char *modpath);
void kms_builtin_destroy(struct kms_builtin *builtin);

/*
 * The module paths that object @objpath (relative to @build_dir) was
 * compiled for, from its .cmd file: none for core-kernel code, several for
 * an object shared by modules.  *ret_paths is a malloc()ed array of
 * malloc()ed strings.  No .cmd file is a KMS_ERR_ABSENT error.
 */
struct kms_error *kms_cmd_modfiles(const char *build_dir, const char *objpath,
				   char ***ret_paths, size_t *ret_nr);

/* "fs/nls/nls_iso8859-1" -> "nls_iso8859_1" (malloc()ed). */
char *kms_module_name(const char *modpath);

void kms_free_strings(char **strings, size_t nr);

#endif /* KMS_KBUILD_H */
