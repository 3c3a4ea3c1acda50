// SPDX-License-Identifier: GPL-2.0
/*
 * The MODULE_LICENSE() removal series (patches.h): findings grouped by
 * MAINTAINERS section (maintainers.h), each file's removal found and
 * diffed (removal.h), Cc lines from the tree's get_maintainer.pl, all of
 * it written into a temporary directory renamed into place at the end.
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
#include "patches.h"
#include "removal.h"

#define SUBJECT "remove MODULE_LICENSE in non-modules"
#define DEFAULT_AUTHOR "kallmodsyms-audit <kallmodsyms-audit@localhost>"

struct item {
	const struct patch_finding *f;
	char *text;		/* the source */
	struct removal r;
	const char *refusal;	/* not rewritten, and why */
	bool duplicate;		/* the same file as the item before */
	char key[PATH_MAX];	/* its group */
};

struct group {
	char *key;
	char *area;		/* "PCI", in the subject */
	char *key2;		/* the area to be, while it is chosen */
	char *file;		/* "0001-kbuild-PCI-....patch" */
	struct item **items;
	size_t nr, cap;
};

struct series {
	const struct patches_options *o;
	struct maintainers *m;
	bool no_maintainers;	/* no MAINTAINERS: by directory, no Cc */
	bool no_get_maintainer;
	char *author;
	char date[64];
	char *tmp;		/* the directory being written, absolute */
	struct item *items;
	size_t nr;
	struct group *groups;
	size_t nr_groups, cap;
};

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

/*
 * The directory a file is grouped by without MAINTAINERS, and the area
 * its subject names: two components under drivers/, arch/, fs/, net/
 * and sound/, else one.
 */
static void area_dir(const char *path, char *dir, size_t size)
{
	static const char *const deep[] = { "drivers/", "arch/", "fs/",
					    "net/", "sound/" };
	size_t len = strcspn(path, "/"), i;

	for (i = 0; i < sizeof(deep) / sizeof(deep[0]); i++)
		if (!strncmp(path, deep[i], strlen(deep[i])) &&
		    strchr(path + strlen(deep[i]), '/'))
			len = strlen(deep[i]) +
			      strcspn(path + strlen(deep[i]), "/");
	if (!strchr(path, '/'))
		len = 0;
	snprintf(dir, size, "%.*s", (int)len, path);
}

/* area_dir() of a directory rather than of a file in it. */
static void dir_area(const char *dir, char *out, size_t size)
{
	char file[PATH_MAX + 4];

	snprintf(file, sizeof(file), "%s/x", dir);
	area_dir(file, out, size);
}

/*
 * The subject's area for a directory from area_dir(): its last component,
 * spelt as the subsystem spells its prefix where that differs (PCI, ACPI,
 * drivers/perf, ASoC, ALSA); "treewide" for files of several.
 */
static char *area_name(const char *dir)
{
	static const char *const names[][2] = {
		{ "drivers/pci", "PCI" }, { "drivers/acpi", "ACPI" },
		{ "drivers/perf", "drivers/perf" }, { "sound/soc", "ASoC" },
	};
	const char *slash = strchr(dir, '/');
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(dir, names[i][0]))
			return strdup(names[i][1]);
	if (!strncmp(dir, "sound", 5))
		return strdup("ALSA");
	if (!*dir)
		return strdup("treewide");
	return strdup(slash ? slash + 1 : dir);
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

static struct group *group_of(struct series *s, const char *key)
{
	struct group *g;
	size_t i;

	for (i = 0; i < s->nr_groups; i++)
		if (!strcmp(s->groups[i].key, key))
			return &s->groups[i];
	if (KMS_RESERVE(s->groups, s->cap, s->nr_groups + 1))
		return NULL;
	g = &s->groups[s->nr_groups];
	memset(g, 0, sizeof(*g));
	g->key = strdup(key);
	if (!g->key)
		return NULL;
	s->nr_groups++;
	return g;
}

/* Cut the last component off @dir ("" when it has one). */
static void cut_last(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
}

/* The longest directory all of @g's files are in, into @dir. */
static void common_dir(const struct group *g, char *dir, size_t size)
{
	size_t i, len;

	snprintf(dir, size, "%s", g->items[0]->f->source);
	cut_last(dir);
	for (i = 1; i < g->nr; i++) {
		const char *path = g->items[i]->f->source;

		while ((len = strlen(dir)) &&
		       (strncmp(path, dir, len) || path[len] != '/'))
			cut_last(dir);
	}
}

/*
 * What tells @g apart from another group of its area, as subsystems
 * write a driver's name after their prefix ("PCI: mobiveil"): the last
 * component of its common directory when that is deeper than the area's,
 * else the name of its one file less ".c"; NULL: nothing.
 */
static char *distinguisher(const struct group *g)
{
	char dir[PATH_MAX], cut[PATH_MAX];
	const char *file = g->items[0]->f->source, *base;

	common_dir(g, dir, sizeof(dir));
	dir_area(dir, cut, sizeof(cut));
	if (strlen(dir) > strlen(cut))
		return strdup(strrchr(dir, '/') + 1);
	if (g->nr != 1)
		return NULL;
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	return strndup(base, strcspn(base, "."));
}

/*
 * The subject's area: area_name() of area_dir() of the files' common
 * directory; when another group has that area too, ": " and the group's
 * distinguisher() after it.
 */
static struct kms_error *name_areas(struct series *s)
{
	char dir[PATH_MAX], cut[PATH_MAX];
	size_t i, j;

	for (i = 0; i < s->nr_groups; i++) {
		common_dir(&s->groups[i], dir, sizeof(dir));
		dir_area(dir, cut, sizeof(cut));
		s->groups[i].area = area_name(cut);
		if (!s->groups[i].area)
			return &kms_error_nomem;
	}
	for (i = 0; i < s->nr_groups; i++) {
		struct group *g = &s->groups[i];
		_cleanup_free_ char *tail = NULL;
		bool shared = false;

		for (j = 0; j < s->nr_groups; j++)
			shared |= j != i && !strcmp(g->area, s->groups[j].area);
		if (!shared || !(tail = distinguisher(g)))
			continue;
		if (asprintf(&g->key2, "%s: %s", g->area, tail) < 0) {
			g->key2 = NULL;
			return &kms_error_nomem;
		}
	}
	for (i = 0; i < s->nr_groups; i++) {
		if (!s->groups[i].key2)
			continue;
		free(s->groups[i].area);
		s->groups[i].area = s->groups[i].key2;
		s->groups[i].key2 = NULL;
	}
	return NULL;
}

static int compare_groups(const void *a, const void *b)
{
	const struct group *ga = a, *gb = b;
	int c = strcmp(ga->area, gb->area);

	return c ? c : strcmp(ga->key, gb->key);
}

/* The files into groups by MAINTAINERS section, else by directory. */
static struct kms_error *group_items(struct series *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		struct item *it = &s->items[i];
		long section;
		struct group *g;

		if (it->refusal || it->duplicate)
			continue;
		section = maintainers_section(s->m, it->f->source);
		if (section >= 0)
			snprintf(it->key, sizeof(it->key), "%s",
				 maintainers_name(s->m, section));
		else
			area_dir(it->f->source, it->key, sizeof(it->key));
		g = group_of(s, it->key);
		if (!g || KMS_RESERVE(g->items, g->cap, g->nr + 1))
			return &kms_error_nomem;
		g->items[g->nr++] = it;
	}
	if (name_areas(s))
		return &kms_error_nomem;
	qsort(s->groups, s->nr_groups, sizeof(*s->groups), compare_groups);
	return NULL;
}

/* format-patch's file name: the subject, '-' for runs of other bytes. */
static char *patch_file_name(size_t number, const char *area)
{
	char subject[256], name[80], *file;
	size_t i, j = 0;

	snprintf(subject, sizeof(subject), "kbuild, %s: " SUBJECT, area);
	for (i = 0; subject[i] && j < 64; i++) {
		char c = subject[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_' || c == '.')
			name[j++] = c;
		else if (j && name[j - 1] != '-')
			name[j++] = '-';
	}
	while (j && (name[j - 1] == '-' || name[j - 1] == '.'))
		j--;
	name[j] = '\0';
	if (asprintf(&file, "%04zu-%s.patch", number, name) < 0)
		return NULL;
	return file;
}

static int digits(size_t n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static void header(FILE *f, const struct series *s, size_t number,
		   const char *subject)
{
	fprintf(f, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		"From: %s\nDate: %s\nSubject: [PATCH %0*zu/%zu] %s\n\n",
		s->author, s->date, digits(s->nr_groups), number,
		s->nr_groups, subject);
}

static const char why_text[] =
	"modules.builtin is made from the file= records in\n"
	"modules.builtin.modinfo, which MODULE_LICENSE() writes for built-in\n"
	"code (include/linux/module.h: MODULE_LICENSE() is MODULE_FILE there),\n"
	"and modules.builtin.ranges follows it.  Code that can never be a\n"
	"module but declares MODULE_LICENSE() is therefore listed as a\n"
	"built-in module, and modprobe and every tool that reads\n"
	"modules.builtin or modules.builtin.ranges then believe that a module\n"
	"exists where there is none.\n";

static const char tags_text[] =
	"Only MODULE_LICENSE() goes.  The other MODULE_*() tags still here\n"
	"write no file= record, so they make no module of a file;\n"
	"taking them out too is another cleanup.  <linux/module.h> stays\n"
	"included: it declares those tags and module_init() and the like,\n"
	"which built-in code uses as well.\n";

/*
 * @text after @indent spaces, lines broken at spaces and after commas
 * ("alpha,arc,arm") before column 73 (checkpatch wants commit messages
 * within 75); a word longer than a line has one of its own.
 */
static void wrap(FILE *f, int indent, const char *text)
{
	bool space = false;
	int col = 0;

	while (*text) {
		int len = (int)strcspn(text, " ,");

		len += text[len] == ',';
		if (col && col + space + len > 72) {
			fputc('\n', f);
			col = 0;
		}
		if (!col)
			col = fprintf(f, "%*s%.*s", indent, "", len, text);
		else
			col += fprintf(f, "%s%.*s", space ? " " : "", len, text);
		text += len;
		space = *text == ' ';
		text += strspn(text, " ");
	}
	if (col)
		fputc('\n', f);
}

/* The commit message's list of files, and the tags paragraph. */
static void body(FILE *f, const struct group *g)
{
	bool tags = false;
	size_t i;

	fprintf(f, "%s\n%s", why_text, g->nr == 1 ?
		"This file cannot be built as a module, so remove its\n"
		"MODULE_LICENSE():\n\n" :
		"None of these files can be built as a module, so remove their\n"
		"MODULE_LICENSE():\n\n");
	for (i = 0; i < g->nr; i++) {
		const struct patch_finding *pf = g->items[i]->f;

		char *why = NULL;

		if (asprintf(&why, "%s%s%s", pf->reason,
			     pf->arches ? "; built on: " : "",
			     pf->arches ? pf->arches : "") < 0)
			why = NULL;
		/* On one line where it fits, else the reason below. */
		if (4 + strlen(pf->source) + strlen(why ? why : pf->reason) <= 72) {
			fprintf(f, "  %s: %s\n", pf->source, why ? why : pf->reason);
		} else {
			fprintf(f, "  %s:\n", pf->source);
			wrap(f, 6, why ? why : pf->reason);
		}
		free(why);
		tags |= pf->tags && *pf->tags && strcmp(pf->tags, "-");
	}
	if (tags)
		fprintf(f, "\n%s", tags_text);
}

/* " path | 1 -" lines and the summary, as git's --stat. */
static void diffstat(FILE *f, struct item *const *items, size_t nr)
{
	size_t i, width = 0, deletions = 0, max = 0;

	for (i = 0; i < nr; i++) {
		if (strlen(items[i]->f->source) > width)
			width = strlen(items[i]->f->source);
		if (items[i]->r.count > max)
			max = items[i]->r.count;
	}
	for (i = 0; i < nr; i++) {
		size_t k;

		fprintf(f, " %-*s | %*zu ", (int)width, items[i]->f->source,
			digits(max), items[i]->r.count);
		for (k = 0; k < items[i]->r.count; k++)
			putc('-', f);
		putc('\n', f);
		deletions += items[i]->r.count;
	}
	fprintf(f, " %zu file%s changed, %zu deletion%s(-)\n", nr,
		nr == 1 ? "" : "s", deletions, deletions == 1 ? "" : "s");
}

static void write_patch(FILE *f, const struct series *s, size_t number,
			const struct group *g, const char *cc)
{
	char subject[256];
	size_t i;

	snprintf(subject, sizeof(subject), "kbuild, %s: " SUBJECT, g->area);
	header(f, s, number, subject);
	body(f, g);
	fprintf(f, "\nSigned-off-by: %s\n", s->author);
	while (cc && *cc) {
		size_t len = strcspn(cc, "\n");

		if (len)
			fprintf(f, "Cc: %.*s\n", (int)len, cc);
		cc += len + (cc[len] == '\n');
	}
	fputs("---\n", f);
	diffstat(f, g->items, g->nr);
	putc('\n', f);
	for (i = 0; i < g->nr; i++)
		removal_diff(f, g->items[i]->f->source, g->items[i]->text,
			     &g->items[i]->r);
	fputs("-- \nkallmodsyms-audit " KMS_VERSION_STRING "\n\n", f);
}

/* Which of the cover letter's counts @reason goes into. */
static size_t reason_class(const char *reason)
{
	if (strstr(reason, "(part of "))
		return 1;
	if (strstr(reason, " is bool"))
		return 0;
	if (strstr(reason, "obj-y"))
		return 2;
	if (strstr(reason, "lib-y"))
		return 3;
	return 4;
}

/* The cover letter: why, the counts, the files left alone. */
static void write_cover(FILE *f, const struct series *s)
{
	static const char *const classes[] = {
		"their Kconfig symbol is bool", "part of a built-in composite",
		"always built in (obj-y)", "in lib.a (lib-y)", "other reasons",
	};
	size_t i, files = 0, refused = 0, counts[5] = { 0 };

	for (i = 0; i < s->nr; i++) {
		const struct item *it = &s->items[i];

		if (it->duplicate)
			continue;
		refused += it->refusal != NULL;
		files += !it->refusal;
		if (!it->refusal)
			counts[reason_class(it->f->reason)]++;
	}
	header(f, s, 0, "kbuild: " SUBJECT);
	fprintf(f, "%s\nThis series removes MODULE_LICENSE() from %zu file%s "
		"that can never\nbe modules, in %zu patch%s, one per %s:\n\n",
		why_text, files, files == 1 ? "" : "s", s->nr_groups,
		s->nr_groups == 1 ? "" : "es",
		s->no_maintainers ? "directory" : "MAINTAINERS section");
	for (i = 0; i < 5; i++)
		if (counts[i])
			fprintf(f, "  %-30s %zu\n", classes[i], counts[i]);
	if (refused)
		fprintf(f, "\n%zu file%s left alone, to be changed by hand:\n\n",
			refused, refused == 1 ? " is" : "s are");
	for (i = 0; i < s->nr; i++)
		if (s->items[i].refusal)
			fprintf(f, "  %s: %s\n", s->items[i].f->source,
				s->items[i].refusal);
	fprintf(f, "\n");
	for (i = 0; i < s->nr_groups; i++)
		fprintf(f, "  kbuild, %s: " SUBJECT " (%zu file%s)\n",
			s->groups[i].area, s->groups[i].nr,
			s->groups[i].nr == 1 ? "" : "s");
	fputs("\n-- \nkallmodsyms-audit " KMS_VERSION_STRING "\n\n", f);
}

/* @path's Cc addresses from the tree's get_maintainer.pl, one a line. */
static struct kms_error *get_maintainer(struct series *s, const char *path,
					char **ret)
{
	char *argv[] = { "perl", "scripts/get_maintainer.pl", "--no-git",
			 "--no-git-fallback", "--no-rolestats", (char *)path,
			 NULL };
	struct kms_run_output run;
	struct kms_error *err;

	*ret = NULL;
	if (s->no_get_maintainer)
		return NULL;
	err = kms_run(argv, s->o->srctree, NULL, &run);
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
		err = group_items(&s);
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
