// SPDX-License-Identifier: GPL-2.0
/*
 * The MODULE_LICENSE() removal series (patches.h): each file read and its
 * removal found (removal.h), the files grouped into patches
 * (patch_groups.c), each patch's text (patch_text.c) with Cc lines from
 * the tree's get_maintainer.pl, all of it written into a temporary
 * directory renamed into place at the end.
 */
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <kms/error.h>
#include <kms/run.h>
#include <kms/util.h>

#include "maintainers.h"
#include "series.h"

#define DEFAULT_AUTHOR "kallmodsyms-audit <kallmodsyms-audit@localhost>"

static void warn(const struct series *s, const char *fmt, ...)
	KMS_PRINTF(2, 3);

static void warn(const struct series *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->o->warnings)
		return;
	fprintf(s->o->warnings, "%s: ", s->o->prog ? s->o->prog : "patches");
	va_start(ap, fmt);
	vfprintf(s->o->warnings, fmt, ap);
	va_end(ap);
	putc('\n', s->o->warnings);
}

/* The first line of "git config @key", or NULL (no git, no value). */
static char *git_config(const char *key)
{
	char *argv[] = { "git", "config", (char *)key, NULL };
	struct kms_run_output run;
	struct kms_error *err = kms_run(argv, NULL, NULL, &run);
	char *value = NULL;

	if (err) {
		kms_error_destroy(err);
		return NULL;
	}
	if (!run.status && run.out_len > 1)
		value = strndup(run.out, strcspn(run.out, "\n"));
	kms_run_output_release(&run);
	return value;
}

/* "Name <email>": the option, the environment, git config, a default. */
static struct kms_error *find_author(const struct patches_options *o,
				     char **ret)
{
	const char *name = getenv("GIT_AUTHOR_NAME");
	const char *email = getenv("GIT_AUTHOR_EMAIL");
	_cleanup_free_ char *git_name = NULL, *git_email = NULL;
	char *author = NULL;

	if (!o->author && !(name && *name && email && *email)) {
		git_name = git_config("user.name");
		git_email = git_config("user.email");
		name = git_name;
		email = git_email;
	}
	if (o->author)
		author = strdup(o->author);
	else if (name && email) {
		if (asprintf(&author, "%s <%s>", name, email) < 0)
			author = NULL;
	} else {
		author = strdup(DEFAULT_AUTHOR);
	}
	if (!author)
		return &kms_error_nomem;
	*ret = author;
	return NULL;
}

/* The Date: line's value: $SOURCE_DATE_EPOCH, else the epoch. */
static void find_date(struct series *s)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	time_t t = env ? (time_t)strtoll(env, NULL, 10) : 0;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(s->date, sizeof(s->date), "%a, %-d %b %Y %H:%M:%S +0000",
		 &tm);
}


static int compare_items(const void *a, const void *b)
{
	return strcmp(((const struct item *)a)->f->source,
		      ((const struct item *)b)->f->source);
}

/*
 * Read each file and find its removal, in the order of their paths; the
 * refusals are warned about.  A file found twice (for two architectures)
 * is rewritten once.
 */
static struct kms_error *prepare(struct series *s,
				 const struct patch_finding *f, size_t n)
{
	struct kms_error *err;
	size_t i, size;

	s->items = calloc(n ? n : 1, sizeof(*s->items));
	if (!s->items)
		return &kms_error_nomem;
	for (i = 0; i < n; i++)
		s->items[s->nr++].f = &f[i];
	qsort(s->items, s->nr, sizeof(*s->items), compare_items);
	for (i = 0; i < s->nr; i++) {
		struct item *it = &s->items[i];
		_cleanup_free_ char *path = NULL;

		it->duplicate = i && !strcmp(it->f->source, it[-1].f->source);
		if (it->duplicate)
			continue;
		if (asprintf(&path, "%s/%s", s->o->srctree, it->f->source) < 0)
			return &kms_error_nomem;
		err = kms_read_file(path, 0, &it->text, &size);
		if (err)
			return err;
		it->refusal = removal_find(it->text, &it->r);
		if (it->refusal)
			warn(s, "%s: %s: not rewritten", it->f->source,
			     it->refusal);
	}
	return NULL;
}


/*
 * @path's Cc addresses from the tree's get_maintainer.pl, one a line.
 * Its order among people of one MAINTAINERS section comes from Perl
 * hashes, whose order Perl randomises per process (perlsec, "Algorithmic
 * Complexity Attacks"): two runs on one tree gave clk-bcm2835-aux.c's Cc
 * lines in two orders.  A fixed hash seed makes the series the same
 * every time it is generated.
 */
static struct kms_error *get_maintainer(struct series *s, const char *path,
					char **ret)
{
	char *argv[] = { "perl", "scripts/get_maintainer.pl", "--no-git",
			 "--no-git-fallback", "--no-rolestats", (char *)path,
			 NULL };
	static const char *const env[] = { "PERL_HASH_SEED=0",
					   "PERL_PERTURB_KEYS=0", NULL };
	struct kms_run_output run;
	struct kms_error *err;

	*ret = NULL;
	if (s->no_get_maintainer)
		return NULL;
	err = kms_run(argv, s->o->srctree, env, &run);
	if (err)
		return err;
	if (run.status) {
		err = kms_error_fmt("%s/scripts/get_maintainer.pl %s failed: %.*s",
				    s->o->srctree, path,
				    (int)strcspn(run.err, "\n"), run.err);
		kms_run_output_release(&run);
		return err;
	}
	*ret = run.out;
	run.out = NULL;
	kms_run_output_release(&run);
	return NULL;
}

static struct kms_error *write_file(const char *path,
				    void (*fn)(FILE *, const void *),
				    const void *arg)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return kms_error_errno(path, "cannot create");
	fn(f, arg);
	if (ferror(f) | fclose(f))
		return kms_error_errno(path, "cannot write");
	return NULL;
}

struct patch_job {
	const struct series *s;
	size_t number;
	const struct group *g;
	const char *cc;
};

static void patch_fn(FILE *f, const void *arg)
{
	const struct patch_job *j = arg;

	write_patch(f, j->s, j->number, j->g, j->cc);
}

static void cover_fn(FILE *f, const void *arg)
{
	write_cover(f, arg);
}

static void series_fn(FILE *f, const void *arg)
{
	const struct series *s = arg;
	size_t i;

	for (i = 0; i < s->nr_groups; i++)
		fprintf(f, "%s\n", s->groups[i].file);
}

/* One patch, written twice when get_maintainer.pl gives its Cc lines. */
static struct kms_error *one_patch(struct series *s, size_t i)
{
	struct patch_job job = { s, i + 1, &s->groups[i], NULL };
	_cleanup_free_ char *path = NULL, *cc = NULL;
	struct kms_error *err;

	s->groups[i].file = patch_file_name(i + 1, s->groups[i].area);
	if (!s->groups[i].file ||
	    asprintf(&path, "%s/%s", s->tmp, s->groups[i].file) < 0)
		return &kms_error_nomem;
	err = write_file(path, patch_fn, &job);
	if (!err)
		err = get_maintainer(s, path, &cc);
	if (!err && cc) {
		job.cc = cc;
		err = write_file(path, patch_fn, &job);
	}
	return err;
}

/* Remove the temporary directory and what it holds (no subdirectories). */
static void remove_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[PATH_MAX];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* What the tree lacks: MAINTAINERS, get_maintainer.pl; one warning. */
static struct kms_error *check_tree(struct series *s)
{
	_cleanup_free_ char *gm = NULL;
	struct kms_error *err = maintainers_load(s->o->srctree, &s->m);

	if (err)
		return err;
	if (asprintf(&gm, "%s/scripts/get_maintainer.pl", s->o->srctree) < 0)
		return &kms_error_nomem;
	s->no_maintainers = !s->m;
	s->no_get_maintainer = !s->m || access(gm, R_OK);
	if (s->no_maintainers)
		warn(s, "%s/MAINTAINERS: missing: one patch per directory, "
		     "without Cc lines", s->o->srctree);
	else if (s->no_get_maintainer)
		warn(s, "%s: missing: patches without Cc lines", gm);
	return NULL;
}

static struct kms_error *make_tmp(struct series *s)
{
	_cleanup_free_ char *tmp = NULL;

	if (!access(s->o->dir, F_OK))
		return kms_error_file(s->o->dir, "exists; the series goes into "
				      "a new directory");
	if (asprintf(&tmp, "%s.tmp.XXXXXX", s->o->dir) < 0)
		return &kms_error_nomem;
	if (!mkdtemp(tmp))
		return kms_error_errno(s->o->dir, "cannot create a directory "
				       "beside it");
	s->tmp = realpath(tmp, NULL);
	if (!s->tmp) {
		rmdir(tmp);
		return kms_error_errno(tmp, "cannot open");
	}
	return NULL;
}

static struct kms_error *write_series(struct series *s)
{
	_cleanup_free_ char *cover = NULL, *list = NULL;
	struct kms_error *err = NULL;
	size_t i;

	for (i = 0; i < s->nr_groups && !err; i++)
		err = one_patch(s, i);
	if (err)
		return err;
	if (asprintf(&cover, "%s/0000-cover-letter.patch", s->tmp) < 0 ||
	    asprintf(&list, "%s/series", s->tmp) < 0)
		return &kms_error_nomem;
	err = write_file(cover, cover_fn, s);
	if (!err)
		err = write_file(list, series_fn, s);
	if (!err && rename(s->tmp, s->o->dir))
		err = kms_error_errno(s->o->dir, "cannot rename %s to it",
				      s->tmp);
	return err;
}

static void series_release(struct series *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->items[i].text);
	for (i = 0; i < s->nr_groups; i++) {
		free(s->groups[i].key);
		free(s->groups[i].area);
		free(s->groups[i].key2);
		free(s->groups[i].file);
		free(s->groups[i].items);
	}
	free(s->items);
	free(s->groups);
	free(s->author);
	free(s->tmp);
	maintainers_destroy(s->m);
}

struct kms_error *patches_write(const struct patches_options *o,
				const struct patch_finding *findings, size_t n,
				struct patches_stats *ret)
{
	struct series s = { .o = o };
	struct kms_error *err;
	size_t i;

	find_date(&s);
	err = find_author(o, &s.author);
	if (!err)
		err = make_tmp(&s);
	if (!err)
		err = check_tree(&s);
	if (!err)
		err = prepare(&s, findings, n);
	if (!err)
		err = series_group(&s);
	if (!err)
		err = write_series(&s);
	if (err && s.tmp)
		remove_tmp(s.tmp);
	if (!err) {
		memset(ret, 0, sizeof(*ret));
		ret->patches = s.nr_groups;
		for (i = 0; i < s.nr; i++) {
			if (s.items[i].duplicate)
				continue;
			ret->refused += s.items[i].refusal != NULL;
			ret->files += !s.items[i].refusal;
		}
	}
	series_release(&s);
	return err;
}
