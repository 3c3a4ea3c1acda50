// SPDX-License-Identifier: GPL-2.0
/*
 * The naming phase: where symbols of one name share a module list, their
 * objects print {objfile}, each with the shortest path suffix that tells it
 * from the others (core.o, sched/core.o, ...).  Symbols of one name in one
 * object stay ambiguous, with a warning.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>
#include <kms/util.h>

#include "state.h"

/* @key, an address, against a piece: below its end or not. */
static int compare_piece_end(const void *key, const void *element)
{
	const struct piece *p = element;

	return *(const uint64_t *)key < p->end ? -1 : 1;
}

/* The piece holding @addr, or NULL. */
static const struct piece *find_piece(const struct gen *g, uint64_t addr)
{
	size_t i = kms_upper_bound(&addr, g->pieces, g->nr_pieces,
				   sizeof(*g->pieces), compare_piece_end);

	if (i < g->nr_pieces && g->pieces[i].start <= addr)
		return &g->pieces[i];
	return NULL;
}

struct symbol_ref {
	const char *name;
	uint32_t modlist;
	uint32_t object;
};

static int compare_refs(const void *a, const void *b)
{
	const struct symbol_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->modlist != y->modlist)
		return x->modlist < y->modlist ? -1 : 1;
	return x->object < y->object ? -1 : x->object > y->object;
}

static unsigned int path_components(const char *path)
{
	unsigned int n = 1;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

/* The last @n components of @path. */
const char *gen_path_suffix(const char *path, unsigned int n)
{
	const char *p = path + strlen(path);

	while (p > path) {
		if (p[-1] == '/' && --n == 0)
			break;
		p--;
	}
	return p;
}

static bool is_path_suffix(const char *suffix, const char *path)
{
	size_t s = strlen(suffix), p = strlen(path);

	return s <= p && !strcmp(path + p - s, suffix) &&
	       (s == p || path[p - s - 1] == '/');
}

/*
 * Objects @set[0..n) have symbols of one name and one module list.  Give
 * each the shortest path suffix that is no path suffix of another member:
 * core.o, then sched/core.o, ...  An object whose whole path is a suffix of
 * another's keeps its whole path and the other is lengthened past it.
 */
static void name_conflicting_pairwise(struct gen *g, const uint32_t *set,
				      size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		struct object *o = &g->objects[set[i]];
		unsigned int max = path_components(o->path), k;

		for (k = 1; k < max; k++) {
			const char *s = gen_path_suffix(o->path, k);

			for (j = 0; j < n; j++)
				if (j != i &&
				    is_path_suffix(s, g->objects[set[j]].path))
					break;
			if (j == n)
				break;
		}
		if (k > o->name_components)
			o->name_components = k;
	}
}

struct suffix_ref {
	const char *suffix;
	size_t member;
};

static int compare_suffix_refs(const void *a, const void *b)
{
	const struct suffix_ref *x = a, *y = b;

	return strcmp(x->suffix, y->suffix);
}

/*
 * The same, in O(n log n) per path component instead of O(n^2): the
 * k-component suffix s of one member is a path suffix of another member's
 * path exactly when that path has at least k components and its own
 * k-component suffix is s.  So sort the k-component suffixes of the members
 * that have k components or more; a member alone in its run is told apart
 * by k components.  A name shared by thousands of objects (type_show in an
 * allyesconfig) made the pairwise version quadratic.
 */
static void name_conflicting(struct gen *g, const uint32_t *set, size_t n)
{
	struct suffix_ref *refs;
	unsigned int *comps, k;
	size_t i, a, b, m, left = n;
	bool *done;

	if (n <= 16) {
		name_conflicting_pairwise(g, set, n);
		return;
	}
	refs = malloc(n * sizeof(*refs));
	comps = calloc(n, sizeof(*comps));
	done = calloc(n, sizeof(*done));
	if (!refs || !comps || !done) {
		free(refs);
		free(comps);
		free(done);
		name_conflicting_pairwise(g, set, n);
		return;
	}
	for (i = 0; i < n; i++)
		comps[i] = path_components(g->objects[set[i]].path);
	for (k = 1; left; k++) {
		for (i = 0, m = 0; i < n; i++) {
			const char *path = g->objects[set[i]].path;

			if (comps[i] >= k)
				refs[m++] = (struct suffix_ref){
					gen_path_suffix(path, k), i
				};
		}
		qsort(refs, m, sizeof(*refs), compare_suffix_refs);
		for (a = 0; a < m; a = b) {
			for (b = a + 1; b < m &&
			     !strcmp(refs[b].suffix, refs[a].suffix); b++)
				;
			for (i = a; i < b; i++) {
				size_t j = refs[i].member;
				struct object *o = &g->objects[set[j]];

				if (done[j] || (b - a > 1 && comps[j] > k))
					continue;
				if (k > o->name_components)
					o->name_components = k;
				done[j] = true;
				left--;
			}
		}
	}
	free(refs);
	free(comps);
	free(done);
}

/*
 * Into @refs, the symbols whose names may need their object's: text, or
 * with --all-classes every class; returns how many.
 */
static size_t collect_refs(struct gen *g, const struct kms_symbols *syms,
			   struct symbol_ref *refs)
{
	size_t i, n = 0;

	for (i = 0; i < syms->nr; i++) {
		const struct kms_symbol *s = &syms->syms[i];
		const struct piece *p;

		/* Names among symbols of every class when they are described. */
		if (g->opts->all_classes ? s->type == 'A' || s->type == 'a' :
		    !kms_is_text_type(s->type))
			continue;
		p = find_piece(g, s->address);
		refs[n].name = s->name;
		refs[n].object = p ? p->object : KMS_NONE;
		refs[n].modlist = p ? g->objects[p->object].modlist : KMS_NONE;
		n++;
	}
	return n;
}

/*
 * A group of @nr symbols of one name and module list, sorted by object:
 * equal names in one object are counted and warned about, and the objects
 * (into @set, room for each) are a conflict set.
 */
static void name_group(struct gen *g, const struct symbol_ref *refs,
		       size_t nr, uint32_t *set)
{
	size_t nr_set = 0, k;

	for (k = 0; k < nr; k++) {
		size_t same = 1;

		while (k + 1 < nr && refs[k + 1].object == refs[k].object) {
			k++;
			same++;
		}
		if (same > 1) {
			g->stats.ambiguous += same;
			gen_warn(g, "%zu symbols %s in %s cannot be told apart: same name, same object",
				 same, refs[k].name,
				 refs[k].object == KMS_NONE ? "no object file" :
				 g->objects[refs[k].object].path);
		}
		if (refs[k].object != KMS_NONE)
			set[nr_set++] = refs[k].object;
	}
	if (nr_set > 1)
		name_conflicting(g, set, nr_set);
}

struct kms_error *gen_name_objects(struct gen *g)
{
	const struct kms_symbols *syms;
	struct symbol_ref *refs;
	struct kms_error *err;
	uint32_t *set = NULL;
	size_t i, j, n;

	err = gen_symtab(g, &syms);
	if (err)
		return err;
	refs = calloc(syms->nr ? syms->nr : 1, sizeof(*refs));
	set = calloc(g->object_paths.nr + 1, sizeof(*set));
	if (!refs || !set) {
		err = &kms_error_nomem;
		goto out;
	}
	n = collect_refs(g, syms, refs);
	qsort(refs, n, sizeof(*refs), compare_refs);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(refs[j].name, refs[i].name) &&
		     refs[j].modlist == refs[i].modlist; j++)
			;
		if (j - i > 1)
			name_group(g, refs + i, j - i, set);
	}
	for (i = 0; i < g->object_paths.nr; i++)
		g->stats.named_objects += g->objects[i].name_components > 0;
out:
	free(set);
	free(refs);
	return err;
}
