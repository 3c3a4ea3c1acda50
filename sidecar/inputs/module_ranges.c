// SPDX-License-Identifier: GPL-2.0
/*
 * modules.builtin.ranges, resolved against a vmlinux's symbols
 * (kms/module_ranges.h): two passes over the lines, the anchors first,
 * then the modules' ranges; the result sorted and checked for overlaps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/elf_file.h>
#include <kms/kbuild.h>
#include <kms/module_ranges.h>
#include <kms/util.h>

struct anchor {
	char *section;
	uint64_t base;		/* address of offset 0, or 0: unresolved */
};

static int compare_ranges(const void *a, const void *b)
{
	const struct kms_module_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct kms_error *parse_span(const char *path, unsigned long lineno,
				    const char *s, uint64_t *start,
				    uint64_t *end)
{
	char *e;

	errno = 0;
	*start = strtoull(s, &e, 16);
	if (e != s && *e == '-') {
		const char *t = e + 1;

		*end = strtoull(t, &e, 16);
		if (e != t && !*e && !errno)
			return NULL;
	}
	return kms_error_file(path, "line %lu: \"%s\" is not START-END in hex",
			      lineno, s);
}

/* kms_module_ranges_read()'s work. */
struct ranges_reader {
	const char *path;
	struct kms_elf *elf;
	struct kms_module_ranges *r;
	size_t ranges_cap;
	struct anchor *anchors;
	size_t nr_anchors, anchors_cap;
	unsigned long lineno;
};

/* "SECTION START-END = SYMBOL": where SECTION's offsets start. */
static struct kms_error *add_anchor(struct ranges_reader *rr,
				    const char *sect, uint64_t start,
				    const char *sym)
{
	struct anchor *a;
	struct kms_error *err;
	uint64_t value;

	if (!sym)
		return kms_error_file(rr->path, "line %lu: no anchor symbol",
				      rr->lineno);
	err = KMS_RESERVE(rr->anchors, rr->anchors_cap, rr->nr_anchors + 1);
	if (err)
		return err;
	a = &rr->anchors[rr->nr_anchors];
	/* An anchor the vmlinux lacks: base 0; any other error goes up. */
	err = kms_elf_symbol(rr->elf, sym, &value);
	if (err && !kms_error_is_absent(err))
		return err;
	a->base = err ? 0 : value - start;
	kms_error_destroy(err);
	a->section = strdup(sect);
	if (!a->section)
		return &kms_error_nomem;
	rr->nr_anchors++;
	return NULL;
}

/* "SECTION START-END MODULE...", @word the first module, @save the rest. */
static struct kms_error *add_range(struct ranges_reader *rr,
				   const char *sect, uint64_t start,
				   uint64_t end, char *word, char **save)
{
	struct kms_module_ranges *r = rr->r;
	struct kms_module_range *m;
	struct kms_error *err;
	size_t i, cap = 0;

	for (i = 0; i < rr->nr_anchors; i++)
		if (!strcmp(rr->anchors[i].section, sect))
			break;
	/*
	 * 6.12's generate_builtin_ranges.awk can write an end below the start
	 * (".init.data 0006163c-0005fd20 8250"): nothing is known there.
	 */
	if (i == rr->nr_anchors || !rr->anchors[i].base || end <= start)
		return NULL;
	err = KMS_RESERVE(r->ranges, rr->ranges_cap, r->nr + 1);
	if (err)
		return err;
	m = &r->ranges[r->nr++];
	m->start = rr->anchors[i].base + start;
	m->end = rr->anchors[i].base + end;
	m->modules = NULL;
	m->nr_modules = 0;
	for (; word; word = strtok_r(NULL, " \t\n", save)) {
		err = KMS_RESERVE(m->modules, cap, m->nr_modules + 1);
		if (err)
			return err;
		m->modules[m->nr_modules] = strdup(word);
		if (!m->modules[m->nr_modules])
			return &kms_error_nomem;
		kms_underscores(m->modules[m->nr_modules]);
		m->nr_modules++;
	}
	qsort(m->modules, m->nr_modules, sizeof(*m->modules), compare_strings);
	return NULL;
}

/* One line: pass 0 takes the anchors, pass 1 the modules' ranges. */
static struct kms_error *read_ranges_line(struct ranges_reader *rr,
					  char *line, int pass)
{
	char *save = NULL, *sect, *span, *word;
	uint64_t start = 0, end = 0;
	struct kms_error *err;

	sect = strtok_r(line, " \t\n", &save);
	if (!sect)
		return NULL;
	span = strtok_r(NULL, " \t\n", &save);
	word = span ? strtok_r(NULL, " \t\n", &save) : NULL;
	if (!word)
		return kms_error_file(rr->path, "line %lu: not \"SECTION START-END MODULE...\"",
				      rr->lineno);
	err = parse_span(rr->path, rr->lineno, span, &start, &end);
	if (err)
		return err;
	if (!strcmp(word, "="))
		return pass ? NULL :
		       add_anchor(rr, sect, start,
				  strtok_r(NULL, " \t\n", &save));
	return pass ? add_range(rr, sect, start, end, word, &save) : NULL;
}

static struct kms_error *sort_ranges(struct ranges_reader *rr)
{
	struct kms_module_ranges *r = rr->r;
	size_t i;

	qsort(r->ranges, r->nr, sizeof(*r->ranges), compare_ranges);
	for (i = 1; i < r->nr; i++)
		if (r->ranges[i].start < r->ranges[i - 1].end)
			return kms_error_file(rr->path, "ranges of %s and %s overlap at %#llx",
					      r->ranges[i - 1].modules[0],
					      r->ranges[i].modules[0],
					      (unsigned long long)r->ranges[i].start);
	return NULL;
}

struct kms_error *kms_module_ranges_read(const char *path,
					 struct kms_elf *elf,
					 struct kms_module_ranges **ret)
{
	struct ranges_reader rr = { .path = path, .elf = elf };
	struct kms_error *err = NULL;
	size_t line_cap = 0, i;
	char *line = NULL;
	FILE *f;
	int pass;

	f = fopen(path, "r");
	if (!f)
		return kms_error_errno(path, "cannot open");
	rr.r = calloc(1, sizeof(*rr.r));
	if (!rr.r) {
		fclose(f);
		return &kms_error_nomem;
	}
	for (pass = 0; pass < 2 && !err; pass++) {
		rewind(f);
		rr.lineno = 0;
		while (!err && getline(&line, &line_cap, f) >= 0) {
			rr.lineno++;
			err = read_ranges_line(&rr, line, pass);
		}
	}
	if (!err && ferror(f))
		err = kms_error_errno(path, "cannot read");
	if (!err)
		err = sort_ranges(&rr);
	for (i = 0; i < rr.nr_anchors; i++)
		free(rr.anchors[i].section);
	free(rr.anchors);
	free(line);
	fclose(f);
	if (err) {
		kms_module_ranges_destroy(rr.r);
		return err;
	}
	*ret = rr.r;
	return NULL;
}

/* @key, an address, against a range: below its end or not. */
static int compare_range_end(const void *key, const void *element)
{
	const struct kms_module_range *m = element;

	return *(const uint64_t *)key < m->end ? -1 : 1;
}

const struct kms_module_range *
kms_module_ranges_find(const struct kms_module_ranges *r, uint64_t addr)
{
	size_t i = kms_upper_bound(&addr, r->ranges, r->nr,
				   sizeof(*r->ranges), compare_range_end);

	if (i < r->nr && r->ranges[i].start <= addr)
		return &r->ranges[i];
	return NULL;
}

void kms_module_ranges_destroy(struct kms_module_ranges *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr; i++)
		kms_free_strings(r->ranges[i].modules, r->ranges[i].nr_modules);
	free(r->ranges);
	free(r);
}
