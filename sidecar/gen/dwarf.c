// SPDX-License-Identifier: GPL-2.0
/*
 * Pieces from the vmlinux's DWARF: each compile unit's address ranges give
 * its object file (--dwarf, and an LTO link's code).  Code no unit's
 * ranges hold is placed by its symbols where they say whose it is:
 * static-call trampolines by their keys, __pfx_ paddings by the function
 * after them, other symbols that start before a unit's range by the range
 * they reach into.  With --dwarf --all-classes, the storage of each unit's
 * variables is that unit's data; image.c classes it as any piece.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include <kms/dwarf_units.h>
#include <kms/format.h>
#include <kms/util.h>

#include "state.h"

/* The section holding @addr (executable without --all-classes), or KMS_NONE. */
static uint32_t section_of(const struct gen *g, uint64_t addr)
{
	size_t i;

	for (i = 0; i < g->nr_sections; i++)
		if (g->sections[i].start <= addr && addr < g->sections[i].end)
			return i;
	return KMS_NONE;
}

static int compare_static_call_name(const void *key, const void *elem)
{
	const struct kms_dwarf_static_call *c = elem;

	return strcmp(key, c->name);
}

static int compare_dwarf_ranges(const void *a, const void *b)
{
	const struct kms_dwarf_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* @key, an address, against a unit's range: before its start or not. */
static int compare_range_start(const void *key, const void *element)
{
	const struct kms_dwarf_range *r = element;

	return *(const uint64_t *)key < r->start ? -1 : 1;
}

/* The unit whose range (in @sorted, by start) holds @addr, or NULL. */
static const struct kms_dwarf_range *
range_holding(const struct kms_dwarf_range *sorted, size_t n, uint64_t addr)
{
	size_t i = kms_upper_bound(&addr, sorted, n, sizeof(*sorted),
				   compare_range_start);

	return i && addr < sorted[i - 1].end ? &sorted[i - 1] : NULL;
}

/* The first range (in @sorted) that starts in (@start, @end), or NULL. */
static const struct kms_dwarf_range *
range_starting_in(const struct kms_dwarf_range *sorted, size_t n,
		  uint64_t start, uint64_t end)
{
	size_t i = kms_upper_bound(&start, sorted, n, sizeof(*sorted),
				   compare_range_start);

	return i < n && sorted[i].start < end ? &sorted[i] : NULL;
}

/* A symbol's code that a unit claims, though none of its ranges holds it. */
struct asm_claim {
	const char *obj;	/* the unit's object file; NULL: no claim */
	uint64_t size;		/* how much of the symbol is the unit's */
	size_t *count;		/* the statistic the piece counts in */
};

/*
 * Code that no unit's ranges hold but whose unit is known all the same:
 *  - static-call trampolines __SCT__foo (top-level asm) belong to the unit
 *    that defines their key __SCK__foo;
 *  - the padding before a function (__pfx_foo, CONFIG_FUNCTION_PADDING)
 *    belongs to the unit of the function right after it; a unit's ranges
 *    start at its first function, not at the padding before it;
 *  - any other symbol that starts where no range is but reaches into one
 *    belongs to that range's unit, up to where the range starts: arm64's
 *    patchable function entries (-fpatchable-function-entry=2, the NOPs
 *    ftrace patches) lie at the symbol, but GCC's DW_AT_low_pc is after
 *    them, so a unit's range starts 8 bytes into its first function, and
 *    a unit's ranges have holes where each later section's first
 *    function starts.  *@last_entry is the last symbol so placed: its
 *    aliases, adjacent in @syms order, are placed once.
 * @sorted holds u's ranges by start.
 */
static struct asm_claim asm_claim(struct gen *g,
				  const struct kms_dwarf_units *u,
				  const struct kms_dwarf_range *sorted,
				  const struct kms_symbol *s,
				  uint64_t *last_entry)
{
	struct asm_claim c = { .obj = NULL, .size = s->size, .count = NULL };
	const struct kms_dwarf_static_call *call;
	const struct kms_dwarf_range *r;

	if (!strncmp(s->name, "__SCT__", 7)) {
		call = bsearch(s->name + 7, u->static_calls,
			       u->nr_static_calls, sizeof(*call),
			       compare_static_call_name);
		c.obj = call ? u->objects[call->unit] : NULL;
		c.count = &g->stats.static_calls;
	} else if (!strncmp(s->name, "__pfx_", 6) &&
		   !range_holding(sorted, u->nr_ranges, s->address)) {
		r = range_holding(sorted, u->nr_ranges, s->address + s->size);
		c.obj = r ? u->objects[r->unit] : NULL;
		c.count = &g->stats.paddings;
	} else if (s->address != *last_entry &&
		   !range_holding(sorted, u->nr_ranges, s->address)) {
		r = range_starting_in(sorted, u->nr_ranges, s->address,
				      s->address + s->size);
		if (r) {
			c.obj = u->objects[r->unit];
			c.size = r->start - s->address;
			c.count = &g->stats.entries;
			*last_entry = s->address;
		}
	}
	return c;
}

/*
 * The pieces asm_claim() finds among the symbols, each inside the section
 * it starts in.  Pieces already claimed are trimmed by gen_sort_pieces().
 */
static struct kms_error *asm_pieces(struct gen *g,
				    const struct kms_dwarf_units *u)
{
	struct kms_dwarf_range *sorted;
	const struct kms_symbols *syms;
	uint64_t last_entry = 0;
	struct kms_error *err;
	size_t i;

	sorted = malloc((u->nr_ranges ? u->nr_ranges : 1) * sizeof(*sorted));
	if (!sorted)
		return &kms_error_nomem;
	if (u->nr_ranges) {
		memcpy(sorted, u->ranges, u->nr_ranges * sizeof(*sorted));
		qsort(sorted, u->nr_ranges, sizeof(*sorted),
		      compare_dwarf_ranges);
	}
	err = gen_symtab(g, &syms);
	if (err) {
		free(sorted);
		return err;
	}
	for (i = 0; i < syms->nr && !err; i++) {
		const struct kms_symbol *s = &syms->syms[i];
		struct asm_claim c;
		uint32_t section;

		if (!s->size)
			continue;
		c = asm_claim(g, u, sorted, s, &last_entry);
		section = c.obj ? section_of(g, s->address) : KMS_NONE;
		if (section == KMS_NONE ||
		    s->address + c.size > g->sections[section].end)
			continue;
		err = gen_add_piece(g, section, s->address, c.size, c.obj,
				    g->opts->vmlinux);
		if (!err)
			(*c.count)++;
	}
	free(sorted);
	return err;
}

/*
 * Pieces of @r's units, each clipped to the section it starts in; those
 * that start in none are counted in *@outside.
 */
static struct kms_error *unit_pieces(struct gen *g,
				     const struct kms_dwarf_units *u,
				     const struct kms_dwarf_range *r, size_t n,
				     size_t *outside)
{
	struct kms_error *err;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *obj = u->objects[r[i].unit];
		uint32_t section;
		uint64_t end;

		if (!obj)
			continue;
		section = section_of(g, r[i].start);
		if (section == KMS_NONE) {
			(*outside)++;
			continue;
		}
		end = r[i].end < g->sections[section].end ? r[i].end :
			g->sections[section].end;
		err = gen_add_piece(g, section, r[i].start, end - r[i].start,
				    obj, g->opts->vmlinux);
		if (err)
			return err;
	}
	return NULL;
}

/*
 * A data symbol no variable holds (__func__, compound literals: the
 * compiler's objects) whose nearest variables before and after it, in
 * its section, are of one object: that object's, up to the next
 * variable.  Without -fdata-sections an object's data in one section is
 * one input section, which no other object's bytes interrupt.  Sizeless
 * symbols are left alone.
 */
static struct kms_error *enclosed_pieces(struct gen *g,
					 const struct kms_dwarf_units *u,
					 const struct kms_dwarf_range *sorted)
{
	const struct kms_symbols *syms;
	struct kms_error *err;
	size_t i, n = u->nr_variables;

	err = gen_symtab(g, &syms);
	for (i = 0; i < syms->nr && !err; i++) {
		const struct kms_symbol *s = &syms->syms[i];
		const struct kms_dwarf_range *before, *after;
		uint32_t section;
		size_t k;

		if (!s->size || !n)
			continue;
		k = kms_upper_bound(&s->address, sorted, n, sizeof(*sorted),
				    compare_range_start);
		if (!k || k == n || s->address < sorted[k - 1].end)
			continue;
		before = &sorted[k - 1];
		after = &sorted[k];
		section = section_of(g, s->address);
		if (section == KMS_NONE ||
		    g->sections[section].flags & SHF_EXECINSTR ||
		    section_of(g, before->start) != section ||
		    section_of(g, after->start) != section ||
		    !u->objects[before->unit] || !u->objects[after->unit] ||
		    strcmp(u->objects[before->unit], u->objects[after->unit]))
			continue;
		err = gen_add_piece(g, section, s->address,
				    (s->address + s->size < after->start ?
				     s->address + s->size : after->start) -
				    s->address, u->objects[after->unit],
				    g->opts->vmlinux);
		if (!err)
			g->stats.enclosed_data++;
	}
	return err;
}

/* The storage of the units' variables (--dwarf --all-classes). */
static struct kms_error *variable_pieces(struct gen *g,
					 const struct kms_dwarf_units *u)
{
	size_t before = g->nr_pieces;
	struct kms_dwarf_range *sorted;
	struct kms_error *err;

	err = unit_pieces(g, u, u->variables, u->nr_variables,
			  &g->stats.outside_variables);
	g->stats.variables = g->nr_pieces - before;
	g->stats.unsized_variables = u->unsized_variables;
	g->stats.discarded_variables = u->discarded_variables;
	if (err || !g->opts->dwarf)
		return err;
	sorted = malloc((u->nr_variables ? u->nr_variables : 1) *
			sizeof(*sorted));
	if (!sorted)
		return &kms_error_nomem;
	if (u->nr_variables) {
		memcpy(sorted, u->variables, u->nr_variables * sizeof(*sorted));
		qsort(sorted, u->nr_variables, sizeof(*sorted),
		      compare_dwarf_ranges);
	}
	err = enclosed_pieces(g, u, sorted);
	free(sorted);
	return err;
}

/* Pieces from the address ranges of the compile units. */
struct kms_error *gen_read_dwarf(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	size_t nr_map_pieces = g->nr_pieces;
	/*
	 * Variables place data where no map can: without a build tree, and
	 * in LTO's output, which the maps give to lto.tmp.
	 */
	bool variables = o->all_classes && (o->dwarf || g->nr_lto);
	struct kms_dwarf_units *u;
	struct kms_error *err;

	err = kms_dwarf_units_read(o->vmlinux, variables ? g->elf : NULL, &u);
	if (err)
		return err;
	g->reading_dwarf = true;
	g->stats.units = u->nr_units;
	g->stats.skipped_units = u->skipped_units;
	g->stats.dwarf_ranges = u->nr_ranges;
	/* Counted outside their sections: .exit.text, .altinstr_aux, data */
	err = unit_pieces(g, u, u->ranges, u->nr_ranges,
			  &g->stats.outside_text);
	if (!err)
		err = asm_pieces(g, u);
	if (!err && g->nr_pieces == nr_map_pieces)
		err = kms_error_file(o->vmlinux,
				     "no compile unit's code lies in its text");
	if (!err && variables)
		err = variable_pieces(g, u);
	g->reading_dwarf = false;
	kms_dwarf_units_destroy(u);
	return err;
}
