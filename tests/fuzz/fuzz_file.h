/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz targets whose parser takes a path: a private directory, made on
 * first use and removed at exit, holds the input as a file.
 */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_dir[256];

static void fuzz_cleanup(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", fuzz_dir);
}

/* The path of @name in the private directory (static buffer). */
static const char *fuzz_path(const char *name)
{
	static char path[512];

	if (!fuzz_dir[0]) {
		const char *tmp = getenv("TMPDIR");

		/* Memory-backed when there is one: a write per run. */
		if (!tmp && !access("/dev/shm", W_OK))
			tmp = "/dev/shm";

		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/kms-fuzz.XXXXXX",
			 tmp ? tmp : "/tmp");
		if (!mkdtemp(fuzz_dir) ||
		    mkdir(strcat(strcpy(path, fuzz_dir), "/dir"), 0700)) {
			perror("fuzz: mkdtemp");
			exit(1);
		}
		atexit(fuzz_cleanup);
	}
	snprintf(path, sizeof(path), "%s/%s", fuzz_dir, name);
	return path;
}

static void fuzz_write_file(const char *name, const void *data, size_t size)
{
	FILE *f = fopen(fuzz_path(name), "wb");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
		perror("fuzz: write");
		exit(1);
	}
}

#endif /* FUZZ_FILE_H */
