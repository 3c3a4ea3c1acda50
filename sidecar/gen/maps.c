// SPDX-License-Identifier: GPL-2.0
/*
 * The link-map input mode: the pieces of text from the final link's map,
 * and, where vmlinux was linked from vmlinux.o (IBT, LTO), from vmlinux.o's
 * own map, placed at the address the final map gives vmlinux.o's output
 * section.  An LTO link's code, which the maps give to ld.lld's "lto.tmp",
 * is set aside for lto.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>
#include <kms/linker_map.h>
#include <kms/util.h>

#include "state.h"

static uint32_t text_section_index(const struct gen *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nr_sections; i++)
		if (!strcmp(g->sections[i].name, name))
			return i;
	return KMS_NONE;
}

/*
 * Merged constants and strings (.rodata.str1.1, .rodata.cst16, and up to
 * Linux 6.4 __ksymtab_strings, which every exporting object wrote as an
 * "aMS" section until commit ddb5cdbafaaa ("kbuild: generate KSYMTAB
 * entries by modpost") moved them all into .vmlinux.export.o): the linker
 * folds equal ones across objects, so their map sizes need not add up,
 * and they hold no named symbols; nobody's bytes.
 */
static bool is_merged(const char *input_section)
{
	return !strncmp(input_section, ".rodata.str", 11) ||
	       !strncmp(input_section, ".rodata.cst", 11) ||
	       !strcmp(input_section, "__ksymtab_strings");
}

/*
 * What the linker makes itself: the GOT and PLT (arm64 up to Linux 6.1,
 * built with -fPIE relocations, keeps a .got in .text and a 24-byte
 * .got.plt after it).  GNU ld's map files them under one input object
 * (init/main.o), whose bytes they are not; nobody's.
 */
static bool is_linker_made(const char *input_section)
{
	static const char *const names[] = {
		".got", ".got.plt", ".igot", ".igot.plt", ".plt", ".iplt",
	};
	size_t i;

	for (i = 0; i < KMS_ARRAY_SIZE(names); i++)
		if (!strcmp(input_section, names[i]))
			return true;
	return false;
}

static int is_vmlinux_o(const char *file)
{
	const char *base = strrchr(file, '/');

	return !strcmp(base ? base + 1 : file, "vmlinux.o");
}

/* Where each output section of a relocatable link's map starts and ends. */
struct section_index {
	struct kms_strmap names;
	size_t *first, *count;
};

/* vmlinux.o's map, read when the final map first names vmlinux.o. */
struct o_map {
	char *path;
	struct kms_linker_map *map;
	struct section_index idx;
};

static struct kms_error *index_sections(const struct kms_linker_map *map,
					struct section_index *idx)
{
	struct kms_error *err;
	size_t i;

	idx->first = calloc(map->nr_pieces, sizeof(*idx->first));
	idx->count = calloc(map->nr_pieces, sizeof(*idx->count));
	if (!idx->first || !idx->count)
		return &kms_error_nomem;
	for (i = 0; i < map->nr_pieces; i++) {
		uint32_t id;
		int added;

		err = kms_strmap_intern(&idx->names,
					map->pieces[i].output_section, &id,
					&added);
		if (err)
			return err;
		if (added)
			idx->first[id] = i;
		else if (idx->first[id] + idx->count[id] != i)
			/* ld lists an output section's inputs together. */
			continue;
		idx->count[id]++;
	}
	return NULL;
}

static void release_o_map(struct o_map *om)
{
	kms_strmap_release(&om->idx.names);
	free(om->idx.first);
	free(om->idx.count);
	kms_linker_map_destroy(om->map);
	free(om->path);
}

/*
 * A map of another architecture's link than VMLINUX's is no map of it
 * (GNU ld's maps say their object format; ld.lld's do not).
 */
static struct kms_error *check_map_format(struct gen *g, const char *path,
					  const struct kms_linker_map *map)
{
	const struct kms_arch *arch = g->elf->arch;

	if (!map->output_format || !strcmp(map->output_format, arch->bfd))
		return NULL;
	return kms_error_file(path, "a map of an %s link, but %s is %s (%s)",
			      map->output_format, g->opts->vmlinux, arch->name,
			      arch->bfd);
}

static struct kms_error *read_o_map(struct gen *g, struct o_map *om)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_error *err;

	if (o->o_map)
		om->path = strdup(o->o_map);
	else if (asprintf(&om->path, "%s/vmlinux.o.map", o->build_dir) < 0)
		om->path = NULL;
	if (!om->path)
		return &kms_error_nomem;
	err = kms_linker_map_read(om->path, &om->map);
	if (err)
		return kms_error_prefix(err,
					"%s links vmlinux.o, whose map is needed",
					o->map);
	err = check_map_format(g, om->path, om->map);
	if (err)
		return err;
	return index_sections(om->map, &om->idx);
}

/* The pieces vmlinux.o's map places in @p, vmlinux.o's part of @section. */
static struct kms_error *add_o_map_pieces(struct gen *g, struct o_map *om,
					  const struct kms_map_piece *p,
					  uint32_t section)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_error *err;
	uint32_t id;
	size_t j;

	id = kms_strmap_find(&om->idx.names, p->input_section);
	/*
	 * Data sections objtool adds to vmlinux.o after its link
	 * (.static_call_sites, .retpoline_sites) are in no map: no object's.
	 */
	if (id == UINT32_MAX && g->opts->all_classes &&
	    !(g->sections[section].flags & SHF_EXECINSTR))
		return NULL;
	if (id == UINT32_MAX)
		return kms_error_file(om->path,
				      "no output section %s, which %s places at %#llx: are the maps from one build?",
				      p->input_section, o->map,
				      (unsigned long long)p->address);
	for (j = om->idx.first[id];
	     j < om->idx.first[id] + om->idx.count[id]; j++) {
		const struct kms_map_piece *q = &om->map->pieces[j];
		uint64_t off = q->address - q->output_address;

		if (is_merged(q->input_section))
			continue;
		if (q->address < q->output_address || off > p->size ||
		    q->size > p->size - off)
			return kms_error_file(om->path,
					      "%s of %s at +%#llx runs past the %#llx bytes %s gives vmlinux.o's %s: are the maps from one build?",
					      q->input_section, q->file,
					      (unsigned long long)off,
					      (unsigned long long)p->size,
					      o->map, p->input_section);
		if (gen_is_lto_output(q->file))
			err = gen_add_lto_piece(g, section, p->address + off,
						q->size);
		else
			err = gen_add_piece(g, section, p->address + off,
					    q->size, q->file, om->path);
		if (err)
			return err;
	}
	return NULL;
}

/* The pieces of one line of the final link's map. */
static struct kms_error *add_map_piece(struct gen *g, struct o_map *om,
				       const struct kms_map_piece *p)
{
	const struct kms_gen_options *o = g->opts;
	uint32_t section = text_section_index(g, p->output_section);
	struct kms_error *err;

	if (section == KMS_NONE || is_linker_made(p->input_section) ||
	    (is_merged(p->input_section) && !is_vmlinux_o(p->file)))
		return NULL;
	if (gen_is_lto_output(p->file))
		return gen_add_lto_piece(g, section, p->address, p->size);
	if (!is_vmlinux_o(p->file))
		return gen_add_piece(g, section, p->address, p->size, p->file,
				     o->map);

	/* Linked from vmlinux.o: its own map says what is inside. */
	err = gen_check_in_section(g, section, p->address, p->size, p->file,
				   o->map);
	if (!err && !om->map)
		err = read_o_map(g, om);
	if (!err)
		err = add_o_map_pieces(g, om, p, section);
	return err;
}

struct kms_error *gen_read_maps(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_linker_map *map = NULL;
	struct o_map om = { 0 };
	struct kms_error *err;
	size_t i;

	err = kms_linker_map_read(o->map, &map);
	if (!err)
		err = check_map_format(g, o->map, map);
	if (err) {
		kms_linker_map_destroy(map);
		return err;
	}
	for (i = 0; i < map->nr_pieces && !err; i++)
		err = add_map_piece(g, &om, &map->pieces[i]);
	if (!err && g->nr_lto)
		err = gen_place_lto(g, om.map ? om.path : o->map);
	else if (!err && !g->nr_pieces)
		err = kms_error_file(o->map, "no input sections of %s's text",
				     o->vmlinux);
	release_o_map(&om);
	kms_linker_map_destroy(map);
	return err;
}
