// SPDX-License-Identifier: GPL-2.0
/*
 * The module paths of modules.builtin.modinfo's "name.file=" records
 * (kms/modinfo.h).  The file is read whole; records are bounded by the
 * file's end as much as by their NULs.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/kbuild.h>
#include <kms/modinfo.h>
#include <kms/util.h>

struct kms_error *kms_modinfo_files(const char *path, char ***ret_paths,
				    size_t *ret_nr)
{
	struct kms_error *err;
	char **paths = NULL, *buf;
	size_t nr = 0, cap = 0, size;
	const char *p, *end;

	err = kms_read_file(path, 0, &buf, &size);
	if (err)
		return err;
	for (p = buf, end = buf + size; p < end; p += strnlen(p, end - p) + 1) {
		size_t len = strnlen(p, end - p);
		const char *dot = memchr(p, '.', len), *file;

		if (!dot || len - (dot - p) < 7 || strncmp(dot, ".file=", 6))
			continue;
		file = dot + 6;
		err = KMS_RESERVE(paths, cap, nr + 1);
		if (err)
			break;
		paths[nr] = strndup(file, len - (file - p));
		if (!paths[nr]) {
			err = &kms_error_nomem;
			break;
		}
		nr++;
	}
	free(buf);
	if (err) {
		kms_free_strings(paths, nr);
		return err;
	}
	*ret_paths = paths;
	*ret_nr = nr;
	return NULL;
}
