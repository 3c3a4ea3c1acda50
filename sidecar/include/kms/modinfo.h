/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modules.builtin.modinfo: the built-in modules' .modinfo strings, NUL
 * separated, "name.key=value"; the "name.file=path" records give the
 * module path ("fs/ext4/ext4") of each built-in module that has one, for
 * kernels without a build tree.
 */
#ifndef KMS_MODINFO_H
#define KMS_MODINFO_H

#include <stddef.h>

#include <kms/error.h>

/*
 * The module paths ("fs/ext4/ext4") of modules.builtin.modinfo's
 * "name.file=" records, malloc()ed, in file order.
 */
struct kms_error *kms_modinfo_files(const char *path, char ***ret_paths,
				    size_t *ret_nr);

#endif /* KMS_MODINFO_H */
