// SPDX-License-Identifier: GPL-2.0
/*
 * perf --by-module: the samples counted by their first frame (the leaf),
 * as perf report --sort dso counts them but with [kernel.kallsyms] split:
 * a kernel frame counts for its built-in modules ("built-in", "[m1] [m2]"
 * as /proc/kallmodsyms prints them) or for the core kernel ("core", under
 * perf's DSO name), any other frame for its loadable module ("loadable")
 * or DSO ("dso").  The rows are printed most samples first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/util.h>

#include "perf.h"

/* Count a sample whose first frame is @f, of object @obj. */
static struct kms_error *count_sample(struct by_module *bm,
				      const struct kms_tables *t,
				      const struct frame *f, uint32_t obj)
{
	char key[1024];
	struct kms_error *err;
	uint32_t row;
	int added;

	if (perf_is_kernel(f)) {
		kms_format_object(key + 1, sizeof(key) - 1, t, obj, true);
		key[0] = key[1] ? 'b' : 'c';
		if (!key[1])
			snprintf(key + 1, sizeof(key) - 1, "%.*s",
				 (int)f->dso_len, f->dso);
	} else {
		key[0] = perf_is_module_dso(f) ? 'm' : 'd';
		snprintf(key + 1, sizeof(key) - 1, "%.*s", (int)f->dso_len,
			 f->dso);
	}
	err = kms_strmap_intern(&bm->rows, key, &row, &added);
	if (!err && added) {
		err = KMS_RESERVE(bm->row_samples, bm->cap_rows, row + 1);
		if (!err)
			bm->row_samples[row] = 0;
	}
	if (err)
		return err;
	bm->row_samples[row]++;
	bm->samples++;
	return NULL;
}

/* The samples' boundaries: a header line starts one, a blank line ends it. */
struct kms_error *perf_by_module_line(struct by_module *bm,
				      const struct kms_tables *t,
				      const char *line, const struct frame *f,
				      uint32_t obj)
{
	if (!*line) {
		bm->in_sample = false;
		return NULL;
	}
	if (!f) {
		if (!perf_is_blank(line[0]) && line[0] != '#') {
			bm->in_sample = true;
			bm->leaf_seen = false;
		}
		return NULL;
	}
	if (f->after_header) {
		bm->in_sample = true;
		bm->leaf_seen = false;
	}
	if (!bm->in_sample || bm->leaf_seen)
		return NULL;
	bm->leaf_seen = true;
	return count_sample(bm, t, f, obj);
}

static const char *const kinds[] = {
	['b'] = "built-in", ['c'] = "core", ['m'] = "loadable", ['d'] = "dso",
};

/* Rows by samples, most first, then by kind and name (qsort_r()'s). */
static int by_samples(const void *a, const void *b, void *arg)
{
	const struct by_module *bm = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t nx = bm->row_samples[x], ny = bm->row_samples[y];

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(bm->rows.keys[x], bm->rows.keys[y]);
}

struct kms_error *perf_by_module_print(struct by_module *bm)
{
	uint32_t *order = malloc((bm->rows.nr + 1) * sizeof(*order));
	size_t i;

	if (!order)
		return &kms_error_nomem;
	for (i = 0; i < bm->rows.nr; i++)
		order[i] = i;
	qsort_r(order, bm->rows.nr, sizeof(*order), by_samples, bm);
	printf("# samples  percent  kind      module or DSO\n");
	for (i = 0; i < bm->rows.nr; i++) {
		const char *key = bm->rows.keys[order[i]];
		uint64_t n = bm->row_samples[order[i]];

		printf("%9llu  %6.2f%%  %-8s  %s\n", (unsigned long long)n,
		       100.0 * n / bm->samples, kinds[(unsigned char)key[0]],
		       key + 1);
	}
	printf("# %llu samples\n", (unsigned long long)bm->samples);
	free(order);
	return NULL;
}

void perf_by_module_release(struct by_module *bm)
{
	free(bm->row_samples);
	kms_strmap_release(&bm->rows);
}
