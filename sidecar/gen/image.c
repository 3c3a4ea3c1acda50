// SPDX-License-Identifier: GPL-2.0
/*
 * The image phase: the blob's string table, module lists, object table
 * (one entry per distinct module list and name) and address ranges, from
 * the sorted pieces, with the paths images' pieces (paths.c), then
 * encoded (kms_blob_encode()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

#include "state.h"

/* The string table, module lists, objects and ranges of the image. */
struct image_builder {
	struct kms_strmap strings;
	uint32_t *string_offset;	/* by string id */
	size_t string_offset_cap;
	char *strtab;
	size_t strtab_size, strtab_cap;

	uint32_t *modlist_word;		/* by modlist id, KMS_NONE: not yet */
	uint32_t *modlist_words;
	size_t nr_modlist_words, modlist_words_cap;
	struct kms_strmap module_names;

	struct kms_strmap attributions;	/* "modlist name" -> index */
	uint32_t *object_modlist, *object_name;
	size_t object_modlist_cap, object_name_cap;

	uint32_t *range_start, *range_object;
	size_t nr_ranges;

	struct kms_encode_section *sections;	/* up to one a piece */
	size_t nr_sections;
	size_t section_first;		/* the open section's first range */

	struct paths_builder paths[KMS_NR_PATHS];	/* FORMAT.md 3.9 */
};

static struct kms_error *add_string(struct image_builder *b, const char *s,
				    uint32_t *ret_offset)
{
	struct kms_error *err;
	uint32_t id;
	int added;

	err = kms_strmap_intern(&b->strings, s, &id, &added);
	if (err)
		return err;
	if (added) {
		size_t len = strlen(s) + 1;

		err = KMS_RESERVE(b->string_offset, b->string_offset_cap,
				  b->strings.nr);
		if (!err)
			err = KMS_RESERVE(b->strtab, b->strtab_cap,
					  b->strtab_size + len);
		if (err)
			return err;
		b->string_offset[id] = b->strtab_size;
		memcpy(b->strtab + b->strtab_size, s, len);
		b->strtab_size += len;
	}
	*ret_offset = b->string_offset[id];
	return NULL;
}

static struct kms_error *add_word(struct image_builder *b, uint32_t w)
{
	struct kms_error *err = KMS_RESERVE(b->modlist_words,
					    b->modlist_words_cap,
					    b->nr_modlist_words + 1);

	if (err)
		return err;
	b->modlist_words[b->nr_modlist_words++] = w;
	return NULL;
}

/*
 * The word where @obj's module list starts: written, its names with it,
 * when the first object of that list asks.
 */
static struct kms_error *add_modlist(struct image_builder *b,
				     const struct object *obj,
				     uint32_t *ret_word)
{
	struct kms_error *err;
	uint32_t id;
	size_t i;

	if (b->modlist_word[obj->modlist] == KMS_NONE) {
		b->modlist_word[obj->modlist] = b->nr_modlist_words;
		err = add_word(b, obj->nr_modules);
		for (i = 0; !err && i < obj->nr_modules; i++) {
			uint32_t off;

			err = add_string(b, obj->modules[i], &off);
			if (!err)
				err = add_word(b, off);
			if (!err)
				err = kms_strmap_intern(&b->module_names,
							obj->modules[i], &id,
							NULL);
		}
		if (err)
			return err;
	}
	*ret_word = b->modlist_word[obj->modlist];
	return NULL;
}

/* Give @obj its attribution: an object-table entry, or KMS_NONE. */
static struct kms_error *attribute(struct image_builder *b,
				   struct object *obj)
{
	const char *name = obj->name_components ?
		gen_path_suffix(obj->path, obj->name_components) : NULL;
	struct kms_error *err;
	uint32_t list = KMS_NONE, name_off = KMS_NONE, id;
	char *key;
	int added;

	if (obj->attribution != KMS_NONE - 1)
		return NULL;		/* done already */
	if (obj->modlist == KMS_NONE && !name) {
		obj->attribution = KMS_NONE;
		return NULL;
	}
	if (obj->modlist != KMS_NONE) {
		err = add_modlist(b, obj, &list);
		if (err)
			return err;
	}
	if (name) {
		err = add_string(b, name, &name_off);
		if (err)
			return err;
	}
	if (asprintf(&key, "%u %u", list, name_off) < 0)
		return &kms_error_nomem;
	err = kms_strmap_intern(&b->attributions, key, &id, &added);
	free(key);
	if (err)
		return err;
	if (added) {
		err = KMS_RESERVE(b->object_modlist, b->object_modlist_cap,
				  b->attributions.nr);
		if (!err)
			err = KMS_RESERVE(b->object_name, b->object_name_cap,
					  b->attributions.nr);
		if (err)
			return err;
		b->object_modlist[id] = list;
		b->object_name[id] = name_off;
	}
	obj->attribution = id;
	return NULL;
}

/* A range at @start of the open section; equal neighbours merge. */
static void push_range(struct image_builder *b, uint32_t start,
		       uint32_t object)
{
	size_t first = b->section_first;

	if (b->nr_ranges > first &&
	    b->range_object[b->nr_ranges - 1] == object)
		return;
	if (b->nr_ranges > first && b->range_start[b->nr_ranges - 1] == start) {
		/* An empty range: the new one replaces it. */
		b->nr_ranges--;
		if (b->nr_ranges > first &&
		    b->range_object[b->nr_ranges - 1] == object)
			return;
	}
	b->range_start[b->nr_ranges] = start;
	b->range_object[b->nr_ranges] = object;
	b->nr_ranges++;
}

static void release_builder(struct image_builder *b)
{
	gen_paths_release(&b->paths[KMS_PATHS_TEXT]);
	gen_paths_release(&b->paths[KMS_PATHS_INIT]);
	kms_strmap_release(&b->strings);
	kms_strmap_release(&b->module_names);
	kms_strmap_release(&b->attributions);
	free(b->string_offset);
	free(b->strtab);
	free(b->modlist_word);
	free(b->modlist_words);
	free(b->object_modlist);
	free(b->object_name);
	free(b->range_start);
	free(b->range_object);
	free(b->sections);
}

/*
 * The marker symbols that bound the section classes (FORMAT.md 3.1), in
 * pairs: start, end.
 */
enum {
	M_PERCPU, M_TEXT = 2, M_INIT = 4, M_INITTEXT = 6, M_RO_AFTER_INIT = 8,
	M_RODATA = 10, M_DATA = 12, M_BSS = 14, NR_MARKERS = 16
};

static const char *const marker_names[NR_MARKERS] = {
	"__per_cpu_start", "__per_cpu_end", "_text", "_etext",
	"__init_begin", "__init_end", "_sinittext", "_einittext",
	"__start_ro_after_init", "__end_ro_after_init",
	"__start_rodata", "__end_rodata", "_sdata", "_edata",
	"__bss_start", "__bss_stop",
};

struct markers {
	uint64_t addr[NR_MARKERS];
	bool have[NR_MARKERS];
};

static void find_markers(const struct kms_symbols *syms, struct markers *m)
{
	size_t i;
	int k;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < syms->nr; i++)
		for (k = 0; k < NR_MARKERS; k++)
			if (!m->have[k] && !strcmp(syms->syms[i].name,
						   marker_names[k])) {
				m->addr[k] = syms->syms[i].address;
				m->have[k] = true;
			}
}

/* @addr lies in the interval of markers @k and @k + 1. */
static bool in_markers(const struct markers *m, int k, uint64_t addr)
{
	return m->have[k] && m->have[k + 1] && m->addr[k] <= addr &&
	       addr < m->addr[k + 1];
}

/*
 * The class of piece @p (FORMAT.md 3.1, in its order).  Without
 * --all-classes the pieces are executable: text or init text.
 */
static uint32_t piece_class(const struct gen *g, const struct markers *m,
			    const struct piece *p)
{
	const struct text_section *s = &g->sections[p->section];
	bool exec = s->flags & SHF_EXECINSTR;

	if (in_markers(m, M_PERCPU, p->start))
		return KMS_CLASS_PERCPU;
	if (in_markers(m, M_TEXT, p->start))
		return KMS_CLASS_TEXT;
	if (in_markers(m, M_INITTEXT, p->start) ||
	    (exec && in_markers(m, M_INIT, p->start)))
		return KMS_CLASS_INIT_TEXT;
	if (in_markers(m, M_INIT, p->start))
		return KMS_CLASS_INIT_DATA;
	if (in_markers(m, M_RO_AFTER_INIT, p->start))
		return KMS_CLASS_RO_AFTER_INIT;
	if (in_markers(m, M_RODATA, p->start))
		return KMS_CLASS_RODATA;
	if (in_markers(m, M_DATA, p->start))
		return KMS_CLASS_DATA;
	if (in_markers(m, M_BSS, p->start) || s->nobits)
		return KMS_CLASS_BSS;
	if (exec)
		return KMS_CLASS_TEXT;
	return s->flags & SHF_WRITE ? KMS_CLASS_DATA : KMS_CLASS_RODATA;
}

/*
 * Close the open section at @end (an address): its leading gap is
 * dropped, and a trailing one ends it where it starts; a section left
 * without ranges is no section.
 */
static void close_section(struct image_builder *b, uint32_t cls,
			  uint64_t base, uint64_t end)
{
	size_t first = b->section_first;
	uint32_t end_off = end - base;

	if (b->nr_ranges > first && b->range_object[first] == KMS_NONE) {
		memmove(b->range_start + first, b->range_start + first + 1,
			(b->nr_ranges - first - 1) * sizeof(*b->range_start));
		memmove(b->range_object + first, b->range_object + first + 1,
			(b->nr_ranges - first - 1) * sizeof(*b->range_object));
		b->nr_ranges--;
	}
	if (b->nr_ranges > first &&
	    b->range_object[b->nr_ranges - 1] == KMS_NONE) {
		end_off = b->range_start[b->nr_ranges - 1];
		b->nr_ranges--;
	}
	if (b->nr_ranges > first)
		b->sections[b->nr_sections++] = (struct kms_encode_section){
			cls, b->nr_ranges - first, end_off };
	b->section_first = b->nr_ranges;
}

/* Where the pieces of a section, and the section, may lie from @base. */
static struct kms_error *check_offset(const struct gen *g, uint64_t base,
				      const struct piece *p, uint32_t cls)
{
	if (p->start >= base && p->end - base <= UINT32_MAX)
		return NULL;
	return kms_error_file(g->opts->vmlinux,
			      "%s at %#llx-%#llx is not within 4 GiB above its class's base %#llx",
			      kms_class_name(cls),
			      (unsigned long long)p->start,
			      (unsigned long long)p->end,
			      (unsigned long long)base);
}

/*
 * Ranges start where pieces start, in sections of one class each
 * (FORMAT.md 3.2).  Padding between two pieces of one attribution and
 * output section goes with them; any other gap belongs to no object, so
 * that a linker-script label at the end of an object's text
 * (__cpuidle_text_end) does not read as that object's.  Leading and
 * trailing gaps of a section need no range.
 */
static struct kms_error *add_ranges(struct gen *g, struct image_builder *b,
				    const struct kms_symbols *syms)
{
	uint32_t cls = KMS_NONE;
	uint64_t base = 0, prev_end = 0;
	struct kms_error *err;
	struct markers m;
	size_t i;

	find_markers(syms, &m);
	for (i = 0; i < g->nr_pieces; i++) {
		const struct piece *p = &g->pieces[i];
		struct object *obj = &g->objects[p->object];
		uint32_t c = piece_class(g, &m, p);

		err = attribute(b, obj);
		if (err)
			return err;
		if (c != cls) {
			if (cls != KMS_NONE)
				close_section(b, cls, base, prev_end);
			cls = c;
			base = c == KMS_CLASS_PERCPU ? m.addr[M_PERCPU] :
				syms->text_address;
		} else if (p->start > prev_end &&
			   (p->section != g->pieces[i - 1].section ||
			    obj->attribution != g->objects[g->pieces[i - 1].object].attribution)) {
			push_range(b, prev_end - base, KMS_NONE);
		}
		err = check_offset(g, base, p, c);
		if (!err && (c == KMS_CLASS_TEXT || c == KMS_CLASS_INIT_TEXT))
			err = gen_paths_add(g, &b->paths[c == KMS_CLASS_TEXT ?
							 KMS_PATHS_TEXT :
							 KMS_PATHS_INIT],
					    p, base);
		if (err)
			return err;
		push_range(b, p->start - base, obj->attribution);
		prev_end = p->end;
	}
	if (cls != KMS_NONE)
		close_section(b, cls, base, prev_end);
	return NULL;
}

static struct kms_error *encode(struct gen *g, struct image_builder *b,
				void **ret_blob, size_t *ret_size)
{
	struct kms_encode_input in = {
		.nr_sections = b->nr_sections,
		.sections = b->sections,
		.nr_ranges = b->nr_ranges,
		.range_start = b->range_start,
		.range_object = b->range_object,
		.nr_objects = b->attributions.nr,
		.object_modlist = b->object_modlist,
		.object_name = b->object_name,
		.nr_modlist_words = b->nr_modlist_words,
		.modlists = b->modlist_words,
		.strtab_size = b->strtab_size,
		.strtab = b->strtab,
		.nr_modules = b->module_names.nr,
	};
	struct kms_error *err;
	unsigned int k;

	for (k = 0; k < KMS_NR_PATHS; k++)
		gen_paths_input(&b->paths[k], &in.paths[k]);
	err = kms_blob_encode(&in, ret_blob, ret_size);
	if (err)
		return err;
	g->stats.ranges = in.nr_ranges;
	g->stats.attributions = in.nr_objects;
	g->stats.modules = in.nr_modules;
	g->stats.strtab_bytes = in.strtab_size;
	g->stats.blob_bytes = *ret_size;
	for (k = 0; k < KMS_NR_PATHS; k++) {
		g->stats.path_pieces += in.paths[k].nr_pieces;
		g->stats.paths += in.paths[k].nr_paths;
	}
	return NULL;
}

struct kms_error *gen_build_image(struct gen *g, void **ret_blob,
				  size_t *ret_size)
{
	struct image_builder b = { 0 };
	const struct kms_symbols *syms;
	struct kms_error *err;
	size_t i;

	err = gen_symtab(g, &syms);
	if (err)
		return err;
	b.modlist_word = malloc((g->modlists.nr + 1) * sizeof(*b.modlist_word));
	b.range_start = malloc(2 * g->nr_pieces * sizeof(*b.range_start));
	b.range_object = malloc(2 * g->nr_pieces * sizeof(*b.range_object));
	b.sections = malloc(g->nr_pieces * sizeof(*b.sections));
	if (!b.modlist_word || !b.range_start || !b.range_object ||
	    !b.sections) {
		err = &kms_error_nomem;
		goto out;
	}
	memset(b.modlist_word, 0xff, (g->modlists.nr + 1) * sizeof(*b.modlist_word));
	for (i = 0; i < g->object_paths.nr; i++)
		g->objects[i].attribution = KMS_NONE - 1;
	err = add_ranges(g, &b, syms);
	if (err)
		goto out;
	if (!b.strtab_size) {
		/* An empty table still holds its terminating NUL. */
		b.strtab = calloc(1, 1);
		if (!b.strtab) {
			err = &kms_error_nomem;
			goto out;
		}
		b.strtab_size = 1;
	}
	err = encode(g, &b, ret_blob, ret_size);
out:
	release_builder(&b);
	return err;
}
