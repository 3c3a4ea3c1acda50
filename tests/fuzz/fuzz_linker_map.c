// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the map parser, GNU ld's and ld.lld's.  kms_linker_map_read() takes
 * a path, so the input is written to a file first (in a directory made
 * once per process).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kms/linker_map.h>

#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kms_linker_map *map;
	struct kms_error *err;
	size_t i;

	fuzz_write_file("vmlinux.map", data, size);
	err = kms_linker_map_read(fuzz_path("vmlinux.map"), &map);
	if (err) {
		kms_error_destroy(err);
		return 0;
	}
	for (i = 0; i < map->nr_pieces; i++) {
		char *obj = kms_map_object_path(map->pieces[i].file);

		if (!obj || !map->pieces[i].output_section ||
		    !map->pieces[i].input_section)
			abort();
		free(obj);
	}
	kms_linker_map_destroy(map);
	return 0;
}
