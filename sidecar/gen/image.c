// SPDX-License-Identifier: GPL-2.0
/*
 * The image phase: the blob's string table, module lists, object table
 * (one entry per distinct module list and name) and address ranges, from
 * the sorted pieces, then encoded (kms_blob_encode()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>
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

/* Give @obj its attribution: an object-table entry, or KMS_NONE. */
static struct kms_error *attribute(struct image_builder *b,
				   struct object *obj)
{
	const char *name = obj->name_components ?
		gen_path_suffix(obj->path, obj->name_components) : NULL;
	struct kms_error *err;
	uint32_t list = KMS_NONE, name_off = KMS_NONE, id;
	size_t i;
	char *key;
	int added;

	if (obj->attribution != KMS_NONE - 1)
		return NULL;		/* done already */
	if (obj->modlist == KMS_NONE && !name) {
		obj->attribution = KMS_NONE;
		return NULL;
	}
	if (obj->modlist != KMS_NONE) {
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
								obj->modules[i],
								&id, NULL);
			}
			if (err)
				return err;
		}
		list = b->modlist_word[obj->modlist];
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

static void push_range(struct image_builder *b, uint32_t start,
		       uint32_t object)
{
	if (b->nr_ranges && b->range_object[b->nr_ranges - 1] == object)
		return;
	if (b->nr_ranges && b->range_start[b->nr_ranges - 1] == start) {
		/* An empty range: the new one replaces it. */
		b->nr_ranges--;
		if (b->nr_ranges && b->range_object[b->nr_ranges - 1] == object)
			return;
	}
	b->range_start[b->nr_ranges] = start;
	b->range_object[b->nr_ranges] = object;
	b->nr_ranges++;
}

static void release_builder(struct image_builder *b)
{
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
}

/*
 * Ranges start where pieces start.  Padding between two pieces of one
 * attribution and section goes with them; any other gap belongs to no
 * object, so that a linker-script label at the end of an object's text
 * (__cpuidle_text_end) does not read as that object's.  Leading and
 * trailing core code need no range.  *@ret_text_size: where the last
 * range ends, above @text (_text).
 */
static struct kms_error *add_ranges(struct gen *g, struct image_builder *b,
				    uint64_t text, uint32_t *ret_text_size)
{
	struct kms_error *err;
	uint64_t prev_end = 0;
	size_t i;

	for (i = 0; i < g->nr_pieces; i++) {
		const struct piece *p = &g->pieces[i];
		struct object *obj = &g->objects[p->object];

		err = attribute(b, obj);
		if (err)
			return err;
		if (i && p->start > prev_end &&
		    (p->section != g->pieces[i - 1].section ||
		     obj->attribution != g->objects[g->pieces[i - 1].object].attribution))
			push_range(b, prev_end - text, KMS_NONE);
		push_range(b, p->start - text, obj->attribution);
		prev_end = p->end;
	}
	if (b->nr_ranges && b->range_object[0] == KMS_NONE) {
		memmove(b->range_start, b->range_start + 1,
			(b->nr_ranges - 1) * sizeof(*b->range_start));
		memmove(b->range_object, b->range_object + 1,
			(b->nr_ranges - 1) * sizeof(*b->range_object));
		b->nr_ranges--;
	}
	*ret_text_size = prev_end - text;
	if (b->nr_ranges && b->range_object[b->nr_ranges - 1] == KMS_NONE) {
		*ret_text_size = b->range_start[b->nr_ranges - 1];
		b->nr_ranges--;
	}
	if (!b->nr_ranges)
		*ret_text_size = 0;
	return NULL;
}

static struct kms_error *encode(struct gen *g, struct image_builder *b,
				uint32_t text_size, void **ret_blob,
				size_t *ret_size)
{
	/* Text only for now: one section of class text, if any ranges. */
	struct kms_encode_section text = {
		KMS_CLASS_TEXT, b->nr_ranges, text_size
	};
	struct kms_encode_input in = {
		.nr_sections = b->nr_ranges ? 1 : 0,
		.sections = &text,
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

	err = kms_blob_encode(&in, ret_blob, ret_size);
	if (err)
		return err;
	g->stats.ranges = in.nr_ranges;
	g->stats.attributions = in.nr_objects;
	g->stats.modules = in.nr_modules;
	g->stats.strtab_bytes = in.strtab_size;
	g->stats.blob_bytes = *ret_size;
	return NULL;
}

struct kms_error *gen_build_image(struct gen *g, void **ret_blob,
				  size_t *ret_size)
{
	struct image_builder b = { 0 };
	const struct kms_symbols *syms;
	struct kms_error *err;
	uint32_t text_size;
	uint64_t text;
	size_t i;

	err = gen_symtab(g, &syms);
	if (err)
		return err;
	text = syms->text_address;
	if (g->pieces[0].start < text ||
	    g->pieces[g->nr_pieces - 1].end - text > UINT32_MAX)
		return kms_error_file(g->opts->vmlinux,
				      "text from %#llx to %#llx is not within 4 GiB above _text at %#llx",
				      (unsigned long long)g->pieces[0].start,
				      (unsigned long long)g->pieces[g->nr_pieces - 1].end,
				      (unsigned long long)text);

	b.modlist_word = malloc((g->modlists.nr + 1) * sizeof(*b.modlist_word));
	b.range_start = malloc(2 * g->nr_pieces * sizeof(*b.range_start));
	b.range_object = malloc(2 * g->nr_pieces * sizeof(*b.range_object));
	if (!b.modlist_word || !b.range_start || !b.range_object) {
		err = &kms_error_nomem;
		goto out;
	}
	memset(b.modlist_word, 0xff, (g->modlists.nr + 1) * sizeof(*b.modlist_word));
	for (i = 0; i < g->object_paths.nr; i++)
		g->objects[i].attribution = KMS_NONE - 1;
	err = add_ranges(g, &b, text, &text_size);
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
	err = encode(g, &b, text_size, ret_blob, ret_size);
out:
	release_builder(&b);
	return err;
}
