// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the kbuild readers: the first byte chooses the parser, the rest is
 * the file: even, a modules.builtin; odd, a .cmd file (dir/.obj.o.cmd).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/kbuild.h>

#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void builtin(const uint8_t *data, size_t size)
{
	struct kms_builtin *b;
	struct kms_error *err;
	size_t i;

	fuzz_write_file("modules.builtin", data, size);
	err = kms_builtin_read(fuzz_path("modules.builtin"), &b);
	if (err) {
		kms_error_destroy(err);
		return;
	}
	for (i = 0; i < b->nr; i++) {
		char *name = kms_module_name(b->paths[i]);

		if (!name || !kms_builtin_has(b, b->paths[i]))
			abort();
		free(name);
	}
	kms_builtin_destroy(b);
}

static void cmd(const uint8_t *data, size_t size)
{
	struct kms_error *err;
	char **paths;
	size_t nr, i;

	fuzz_write_file("dir/.obj.o.cmd", data, size);
	err = kms_cmd_modfiles(fuzz_path(""), "dir/obj.o", &paths, &nr);
	if (kms_error_is_absent(err))
		abort();	/* it was just written */
	if (err) {
		kms_error_destroy(err);
		return;
	}
	for (i = 0; i < nr; i++) {
		char *name = kms_module_name(paths[i]);

		if (!name)
			abort();
		free(name);
	}
	kms_free_strings(paths, nr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		cmd(data + 1, size - 1);
	else
		builtin(data + 1, size - 1);
	return 0;
}
