/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz targets whose parser takes a path: a private directory, made on
 * first use and removed at exit (or the one KMS_FUZZ_DIR names, kept),
 * holds the input as a file.
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

/*
 * Make the private directory, and its dir/ for the .cmd files.  With
 * KMS_FUZZ_DIR set it is that path, made if absent and left for the
 * caller to remove: a relative name gives every run the same path
 * strings, which a fixed -seed= run needs to do the same work each time
 * (libFuzzer feeds what the parser compares the path with back into its
 * mutations; mkdtemp's random name would change them).
 */
static void fuzz_make_dir(void)
{
	const char *fixed = getenv("KMS_FUZZ_DIR");
	const char *tmp = getenv("TMPDIR");
	char sub[300];

	if (fixed) {
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s", fixed);
		if (mkdir(fuzz_dir, 0700) && access(fuzz_dir, W_OK)) {
			perror(fuzz_dir);
			exit(1);
		}
	} else {
		/* Memory-backed when there is one: a write per run. */
		if (!tmp && !access("/dev/shm", W_OK))
			tmp = "/dev/shm";
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/kms-fuzz.XXXXXX",
			 tmp ? tmp : "/tmp");
		if (!mkdtemp(fuzz_dir)) {
			perror("fuzz: mkdtemp");
			exit(1);
		}
		atexit(fuzz_cleanup);
	}
	snprintf(sub, sizeof(sub), "%s/dir", fuzz_dir);
	if (mkdir(sub, 0700) && access(sub, W_OK)) {
		perror(sub);
		exit(1);
	}
}

/* The path of @name in the private directory (static buffer). */
static const char *fuzz_path(const char *name)
{
	static char path[512];

	if (!fuzz_dir[0])
		fuzz_make_dir();
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
