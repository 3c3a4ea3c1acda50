// SPDX-License-Identifier: GPL-2.0
/*
 * The series' text (series.h): each patch as "git format-patch" writes
 * it (header, commit message, diffstat, the removals' diffs from
 * removal.h), its file name, and the cover letter.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

/* format-patch's file name: the subject, '-' for runs of other bytes. */
char *patch_file_name(size_t number, const char *area)
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

void write_patch(FILE *f, const struct series *s, size_t number,
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

/*
 * The cover letter: why, the counts, the files left alone, what changed
 * since the previous version (as given).
 */
void write_cover(FILE *f, const struct series *s)
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
	if (s->o->changes && *s->o->changes)
		fprintf(f, "\nChanges since the previous version:\n\n%s%s",
			s->o->changes,
			s->o->changes[strlen(s->o->changes) - 1] == '\n' ?
			"" : "\n");
	fprintf(f, "\n");
	for (i = 0; i < s->nr_groups; i++)
		fprintf(f, "  kbuild, %s: " SUBJECT " (%zu file%s)\n",
			s->groups[i].area, s->groups[i].nr,
			s->groups[i].nr == 1 ? "" : "s");
	fputs("\n-- \nkallmodsyms-audit " KMS_VERSION_STRING "\n\n", f);
}
