// SPDX-License-Identifier: GPL-2.0
/*
 * Write the conformance corpus (FORMAT.md section 7): note files that every
 * reader must judge the same way, and the verdict file that says how.
 *
 *   kms-mkcorpus OUTDIR [REGRESSION.kms...]
 *
 * writes OUTDIR/corpus/NAME.kms and OUTDIR/verdicts.  Each case breaks at
 * most one rule of FORMAT.md, so that its reason class is unambiguous; an
 * accepted case's verdict carries the counts of its image header and
 * its paths image, then its annotation and path lines, written out by
 * hand in its specs.  The
 * REGRESSION files (inputs that once split the readers) are copied in as
 * fuzz-NAME.kms, refused as bad-frame.  The same libzstd gives the same
 * bytes: run-conformance.sh regenerates the corpus and compares.
 *
 * This file: the order of the cases and the regressions; the cases are
 * in sample.c, frames.c, containers.c, edges.c and paths.c, written by
 * corpus.c
 * (corpus.h).
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/util.h>

#include "corpus.h"

/* A regression input, copied in as fuzz-NAME.kms. */
static void regression_case(const char *path)
{
	char *data, *copy_path = strdup(path), *base, *name;
	size_t size;
	struct buf b = { 0 };

	if (!copy_path)
		die("out of memory");
	check(kms_read_file(path, 1 << 20, &data, &size));
	base = basename(copy_path);
	if (strlen(base) > 4 && !strcmp(base + strlen(base) - 4, ".kms"))
		base[strlen(base) - 4] = '\0';
	if (asprintf(&name, "fuzz-%s", base) < 0)
		die("out of memory");
	buf_append(&b, data, size);
	verdict_refuse(name, "bad-frame");
	write_case(name, &b);
	buf_release(&b);
	free(data);
	free(name);
	free(copy_path);
}

int main(int argc, char **argv)
{
	int k;

	if (argc < 2) {
		fprintf(stderr, "usage: kms-mkcorpus OUTDIR [REGRESSION.kms...]\n");
		return 2;
	}
	corpus_open(argv[1]);
	edge_cases();
	image_cases();
	header_cases();
	padding_cases();
	v1_cases();
	v3_cases();
	zstd_cases();
	container_cases();
	paths_cases();
	paths_frame_cases();
	init_paths_cases();
	for (k = 2; k < argc; k++)
		regression_case(argv[k]);
	corpus_close();
	return 0;
}
