// SPDX-License-Identifier: GPL-2.0
/*
 * The modularity analysis's scratch directory (modularity_steps.h): the
 * configs conf rewrites, the evaluator and the architecture's lists of
 * directories, in one directory removed whole afterwards.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "modularity_steps.h"

static struct kms_error *scratch_file(struct scratch *s, const char *name,
				      char **ret)
{
	if (asprintf(ret, "%s/%s", s->dir, name) < 0) {
		*ret = NULL;
		return &kms_error_nomem;
	}
	return NULL;
}

struct kms_error *modularity_scratch_create(struct scratch *s)
{
	const char *tmp = getenv("TMPDIR");
	struct kms_error *err;

	memset(s, 0, sizeof(*s));
	if (!tmp || !*tmp || strlen(tmp) > sizeof(s->dir) - 24)
		tmp = "/tmp";
	snprintf(s->dir, sizeof(s->dir), "%s/kallmodsyms.XXXXXX", tmp);
	if (!mkdtemp(s->dir)) {
		s->dir[0] = '\0';
		return kms_error_errno(tmp, "cannot create a scratch directory");
	}
	if ((err = scratch_file(s, "config.m", &s->config_m)) ||
	    (err = scratch_file(s, "config.eval", &s->config_eval)) ||
	    (err = scratch_file(s, "config.resolved", &s->config_resolved)) ||
	    (err = scratch_file(s, "arch.mk", &s->arch_mk)) ||
	    (err = scratch_file(s, "modularity.mk", &s->makefile)))
		return err;
	return NULL;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/*
 * kconfig's conf writes include/config/ and include/generated/ into its
 * working directory, which is why it runs in the scratch directory.
 */
void modularity_scratch_remove(struct scratch *s)
{
	if (s->dir[0])
		nftw(s->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(s->config_m);
	free(s->config_eval);
	free(s->config_resolved);
	free(s->arch_mk);
	free(s->makefile);
}

struct kms_error *modularity_write_file(const char *path, const char *text,
					size_t len)
{
	FILE *f = fopen(path, "w");
	int written;

	if (!f)
		return kms_error_errno(path, "cannot create");
	written = fwrite(text, 1, len, f) == len;
	/* Closed either way, once: a failed fclose() leaves f unusable. */
	if (fclose(f) || !written)
		return kms_error_errno(path, "cannot write");
	return NULL;
}
