// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit --tree-wide: the listing (treewide_state.h), one
 * line (or -j member) per source file, with the class most of its
 * variants give, its reasons and the variants that build it; or -c's
 * counts.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/json.h>

#include "audit.h"
#include "exact.h"
#include "treewide_state.h"

static const struct treewide *sort_tree;

static int compare_records(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	int c = strcmp(sort_tree->objects.keys[x->object],
		       sort_tree->objects.keys[y->object]);

	if (c)
		return c;
	return x->variant < y->variant ? -1 : x->variant > y->variant;
}

/* One source file: records [first, last) of its object, none a module. */
struct file_entry {
	const struct record *first, *last;
	const char *object;
	enum audit_class class;	/* the most frequent */
	bool same_why;
	bool x86;		/* built by an x86 variant */
};

static void entry_init(const struct treewide *t, struct file_entry *e,
		       const struct record *first, const struct record *last)
{
	size_t count[AUDIT_NR_CLASSES] = { 0 }, k;
	const struct record *r;

	e->first = first;
	e->last = last;
	e->object = t->objects.keys[first->object];
	e->same_why = true;
	e->x86 = false;
	for (r = first; r < last; r++) {
		if ((unsigned)r->class < AUDIT_NR_CLASSES)
			count[r->class]++;
		e->same_why &= !strcmp(r->why, first->why);
		e->x86 |= !strcmp(t->variants[r->variant].srcarch, "x86");
	}
	e->class = AUDIT_OTHER;
	for (k = 0; k < AUDIT_NR_CLASSES; k++)
		if (count[k] > count[e->class] ||
		    (count[k] == count[e->class] && k < e->class))
			e->class = k;
}

/* "a,b,c": the variants of @e's records that say @why (NULL: all). */
static void print_arches(const struct treewide *t, const struct file_entry *e,
			 const char *why)
{
	const struct record *r;
	bool first = true;

	for (r = e->first; r < e->last; r++) {
		if (why && strcmp(r->why, why))
			continue;
		printf("%s%s", first ? "" : ",", t->variants[r->variant].name);
		first = false;
	}
}

/* The why column: one reason, or each with its architectures. */
static void print_why(const struct treewide *t, const struct file_entry *e)
{
	const struct record *r, *q;

	if (e->same_why) {
		fputs(e->first->why, stdout);
		return;
	}
	for (r = e->first; r < e->last; r++) {
		for (q = e->first; q < r && strcmp(q->why, r->why); q++)
			;
		if (q < r)
			continue;	/* said already */
		printf("%s%s (", r == e->first ? "" : "; ", r->why);
		print_arches(t, e, r->why);
		putchar(')');
	}
}

/* One file as a member of the -j array: its arches, and each one's why. */
static void print_json_entry(const struct treewide *t, struct json *j,
			     const struct file_entry *e, const char *source,
			     const char *license, const char *spdx,
			     const char *tags)
{
	const struct record *r;

	json_begin_object(j, NULL);
	json_string(j, "source", source);
	json_string(j, "object", e->object);
	json_string(j, "class", audit_class_name(e->class));
	json_begin_array(j, "arches");
	for (r = e->first; r < e->last; r++)
		json_string(j, NULL, t->variants[r->variant].name);
	json_end_array(j);
	json_begin_array(j, "why");
	for (r = e->first; r < e->last; r++) {
		json_begin_object(j, NULL);
		json_string(j, "arch", t->variants[r->variant].name);
		json_string(j, "class", audit_class_name(r->class));
		json_string(j, "why", r->why);
		json_end_object(j);
	}
	json_end_array(j);
	json_string(j, "license", license);
	json_string_or_null(j, "spdx", spdx);
	json_string(j, "agreement", agreement(license, spdx));
	json_string(j, "tags", tags ? tags : "");
	json_end_object(j);
}

/*
 * One file of the listing (to @j with -j), its source read again for the
 * tags.
 */
static void print_entry(const struct treewide *t, struct json *j,
			const struct file_entry *e)
{
	char *path, *text, *license = NULL, *tags = NULL, *spdx;
	size_t len = strlen(e->object), skip = strlen(t->o->srctree) + 1;

	if (asprintf(&path, "%s/%.*s.c", t->o->srctree, (int)(len - 2),
		     e->object) < 0)
		return;
	text = read_text(path);
	if (!text || !scan_tags(text, &license, &tags)) {
		/* The file changed under us: say so rather than guess. */
		license = strdup("?");
	}
	spdx = text ? spdx_of(text) : NULL;
	if (j) {
		print_json_entry(t, j, e, path + skip, license ? license : "",
				 spdx, tags);
	} else {
		printf("%s\t%s\t", path + skip, audit_class_name(e->class));
		print_why(t, e);
		putchar('\t');
		print_arches(t, e, NULL);
		printf("\tMODULE_LICENSE(\"%s\")\t%s\t%s\t%s\n",
		       license ? license : "", spdx ? spdx : "-",
		       agreement(license ? license : "", spdx),
		       tags ? tags : "-");
	}
	free(spdx);
	free(license);
	free(tags);
	free(text);
	free(path);
}

/* -c: the number of files, per class, and those no x86 kernel builds. */
static void print_counts(const size_t *per_class, size_t files,
			 size_t non_x86)
{
	size_t k;

	printf("files\t%zu\n", files);
	for (k = 0; k < AUDIT_NR_CLASSES; k++)
		printf("%s\t%zu\n", audit_class_name(k), per_class[k]);
	printf("not-x86\t%zu\n", non_x86);
}

/*
 * Can some Makefile line make @obj a module all the same (exact.h)?  Then
 * one note says which, and it is not listed.
 */
static bool module_elsewhere(const struct exact *x, const char *obj,
			     FILE *notes)
{
	char *why = exact_module_line(x, obj);

	if (!why)
		return false;
	fprintf(notes, PROG ": note: %.*s.c left out: %s\n",
		(int)(strlen(obj) - 2), obj, why);
	free(why);
	return true;
}

/*
 * The records sorted by object: each object none builds as a module and
 * no Makefile line can make one (treewide_state.h).
 */
void treewide_report(struct treewide *t, const struct exact *x, FILE *notes)
{
	size_t per_class[AUDIT_NR_CLASSES] = { 0 }, files = 0, non_x86 = 0;
	struct record *r = t->records, *end = r + t->nr_records, *q;
	bool json = t->o->json && !t->o->count;
	struct json j;

	if (json)
		audit_json_open(&j);
	sort_tree = t;
	if (t->nr_records)
		qsort(t->records, t->nr_records, sizeof(*r), compare_records);
	for (; r < end; r = q) {
		struct file_entry e;
		bool module = false;

		for (q = r; q < end && q->object == r->object; q++)
			module |= q->class < 0;
		if (module || module_elsewhere(x, t->objects.keys[r->object],
					       notes))
			continue;
		entry_init(t, &e, r, q);
		if (!t->o->count)
			print_entry(t, json ? &j : NULL, &e);
		files++;
		per_class[e.class]++;
		non_x86 += !e.x86;
	}
	if (t->o->count)
		print_counts(per_class, files, non_x86);
	else if (json)
		audit_json_close(&j);
}
