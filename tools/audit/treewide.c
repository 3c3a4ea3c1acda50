// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit --tree-wide (treewide.h): one child process per
 * architecture, --jobs at a time, each configuring allyesconfig and
 * writing what the modularity analysis says of every object into its
 * scratch directory; then the answers are merged, per source file, in a
 * fixed order whatever order the children ended in.  This file drives
 * it and reads the answers back; treewide_state.h says which file does
 * the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kms/error.h>
#include <kms/strmap.h>
#include <kms/util.h>

#include "audit.h"
#include "exact.h"
#include "treewide.h"
#include "treewide_state.h"

static struct kms_error *add_record(struct treewide *t, const char *obj,
				    size_t variant, int class, const char *why)
{
	struct kms_error *err;
	struct record *r;
	uint32_t index;

	err = kms_strmap_intern(&t->objects, obj, &index, NULL);
	if (!err)
		err = KMS_RESERVE(t->records, t->records_cap,
				  t->nr_records + 1);
	if (err)
		return err;
	r = &t->records[t->nr_records];
	r->object = index;
	r->variant = variant;
	r->class = class;
	r->why = NULL;
	if (why && !(r->why = strdup(why)))
		return &kms_error_nomem;
	t->nr_records++;
	return NULL;
}

/* The lines a child wrote for variant @i. */
static struct kms_error *read_answers(struct treewide *t, size_t i)
{
	struct kms_error *err;
	char *path = treewide_variant_file(&t->variants[i], "kms-audit");
	char *text, *line, *save = NULL, *field[4];
	size_t len, k;

	if (!path)
		return &kms_error_nomem;
	err = kms_read_file(path, 0, &text, &len);
	if (err) {
		free(path);
		return err;
	}
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		for (k = 0; k < 4; k++) {
			field[k] = line;
			line += strcspn(line, "\t");
			if (*line)
				*line++ = '\0';
		}
		if (!strcmp(field[0], "M"))
			err = add_record(t, field[1], i, -1, NULL);
		else if (!strcmp(field[0], "N") && *field[2])
			err = add_record(t, field[1], i, atoi(field[2]),
					 field[3]);
		else
			err = kms_error_file(path, "unexpected line");
	}
	free(text);
	free(path);
	return err;
}

/* The one-line note of a variant that was not answered. */
static void note_variant(const struct variant *v, FILE *notes)
{
	char *path = treewide_variant_file(v, "kms-audit.err"), *text = NULL;

	if (path)
		text = read_text(path);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	fprintf(notes, PROG ": note: %s left out: %s\n", v->name,
		text && *text ? text : "its analysis failed");
	free(text);
	free(path);
}

static void treewide_release(struct treewide *t)
{
	size_t i;

	for (i = 0; i < t->nr_records; i++)
		free(t->records[i].why);
	free(t->records);
	kms_strmap_release(&t->objects);
	for (i = 0; i < t->nr_variants; i++) {
		free(t->variants[i].name);
		free(t->variants[i].srcarch);
		free(t->variants[i].dir);
	}
	free(t->variants);
	if (t->scratch && !t->o->scratch)
		audit_remove_scratch(t->scratch);
	free(t->scratch);
}

struct kms_error *treewide_audit(const struct treewide_options *o,
				 FILE *notes)
{
	struct treewide t = { .o = o };
	struct exact *x = NULL;
	struct kms_error *err;
	size_t i, answered = 0;

	if (o->scratch && mkdir(o->scratch, 0777) && errno != EEXIST)
		return kms_error_errno(o->scratch, "cannot create");
	err = audit_scratch_dir(o->scratch, &t.scratch);
	if (!err) {
		/* make -C SRCTREE takes O= from there. */
		char *abs = realpath(t.scratch, NULL);

		if (!abs)
			err = kms_error_errno(t.scratch, "cannot open");
		free(t.scratch);
		t.scratch = abs;
	}
	if (!err)
		err = treewide_list_variants(&t);
	if (!err)
		err = treewide_run_variants(&t);
	for (i = 0; !err && i < t.nr_variants; i++) {
		if (!t.variants[i].answered) {
			note_variant(&t.variants[i], notes);
			continue;
		}
		err = read_answers(&t, i);
		answered++;
	}
	if (!err && !answered)
		err = kms_error_file(o->srctree, "no architecture could be configured and analysed");
	if (!err)
		err = exact_open(o->srctree, &x);
	if (!err)
		treewide_report(&t, x, notes);
	exact_close(x);
	treewide_release(&t);
	return err;
}
