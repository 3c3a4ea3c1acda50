// SPDX-License-Identifier: GPL-2.0
/*
 * The pieces of text: the vmlinux's executable sections, and the store of
 * pieces (an address range of one object file, in one section) that the
 * input modes fill in.  Sorting them settles who owns bytes claimed twice,
 * which only DWARF does: --dwarf's overlapping units, and an LTO link's
 * units under the map's own objects.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>
#include <kms/linker_map.h>
#include <kms/util.h>

#include "state.h"

/*
 * Executable sections; with --all-classes every allocated one but notes
 * (.notes holds the tables themselves, whose size changes between links).
 */
static bool wanted_section(const struct gen *g, const GElf_Shdr *shdr)
{
	if (!(shdr->sh_flags & SHF_ALLOC))
		return false;
	if (g->opts->all_classes)
		return shdr->sh_type != SHT_NOTE;
	return shdr->sh_flags & SHF_EXECINSTR;
}

struct kms_error *gen_find_text_sections(struct gen *g)
{
	struct kms_error *err;
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	while ((scn = elf_nextscn(g->elf->elf, scn))) {
		struct text_section *s;
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr) || !shdr.sh_size ||
		    !wanted_section(g, &shdr))
			continue;
		err = KMS_RESERVE(g->sections, cap, g->nr_sections + 1);
		if (err)
			return err;
		s = &g->sections[g->nr_sections++];
		s->name = kms_elf_section_name(g->elf, scn);
		s->start = shdr.sh_addr;
		s->end = shdr.sh_addr + shdr.sh_size;
		s->flags = shdr.sh_flags;
		s->nobits = shdr.sh_type == SHT_NOBITS;
	}
	if (!g->nr_sections)
		return kms_error_file(g->opts->vmlinux, "no executable sections");
	return NULL;
}

static struct kms_error *object_index(struct gen *g, const char *file,
				      uint32_t *ret)
{
	struct kms_error *err;
	char *path;
	int added;

	path = kms_map_object_path(file);
	if (!path)
		return &kms_error_nomem;
	err = kms_strmap_intern(&g->object_paths, path, ret, &added);
	if (err || !added) {
		free(path);
		return err;
	}
	err = KMS_RESERVE(g->objects, g->objects_cap, g->object_paths.nr);
	if (err) {
		free(path);
		return err;
	}
	memset(&g->objects[*ret], 0, sizeof(g->objects[*ret]));
	g->objects[*ret].path = path;
	g->objects[*ret].modlist = KMS_NONE;
	return NULL;
}

struct kms_error *gen_check_in_section(const struct gen *g, uint32_t section,
				       uint64_t start, uint64_t size,
				       const char *file, const char *map_path)
{
	const struct text_section *s = &g->sections[section];

	if (start < s->start || start > s->end || size > s->end - start)
		return kms_error_file(map_path,
				      "%s at %#llx+%#llx lies outside section %s of %s: is the map from another build?",
				      file, (unsigned long long)start,
				      (unsigned long long)size, s->name,
				      g->opts->vmlinux);
	return NULL;
}

struct piece *gen_append_piece(struct piece **pieces, size_t *nr,
			       size_t *cap, uint32_t section,
			       uint64_t start, uint64_t size)
{
	struct piece *p;

	if (kms_reserve(pieces, cap, *nr + 1, sizeof(**pieces)))
		return NULL;
	p = &(*pieces)[(*nr)++];
	memset(p, 0, sizeof(*p));
	p->start = start;
	p->end = start + size;
	p->section = section;
	return p;
}

struct kms_error *gen_add_piece(struct gen *g, uint32_t section,
				uint64_t start, uint64_t size,
				const char *file, const char *map_path)
{
	struct kms_error *err;
	struct piece *p;
	uint32_t object;

	err = gen_check_in_section(g, section, start, size, file, map_path);
	if (err)
		return err;
	err = object_index(g, file, &object);
	if (err)
		return err;
	p = gen_append_piece(&g->pieces, &g->nr_pieces, &g->pieces_cap,
			     section, start, size);
	if (!p)
		return &kms_error_nomem;
	p->object = object;
	p->from_dwarf = g->reading_dwarf;
	return NULL;
}

int gen_compare_pieces(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Where a link map names an object, it comes first (and wins). */
	if (x->from_dwarf != y->from_dwarf)
		return x->from_dwarf ? 1 : -1;
	/*
	 * Of DWARF's claims, the longer comes first (and wins): a weak
	 * variable that another unit overrides has the strong one's address,
	 * and one whose size DWARF does not say (one byte) yields to the
	 * definition that has it.
	 */
	if (x->end != y->end)
		return (x->end < y->end) != x->from_dwarf ? -1 : 1;
	/* Equal claims: the first object, in input order, whatever qsort does. */
	return x->object < y->object ? -1 : x->object > y->object;
}

/*
 * Objects whose every piece another claim overlaid (an LTO link's units
 * of an object linked with ld -r before) are no objects of this image.
 */
static struct kms_error *drop_unused_objects(struct gen *g)
{
	struct kms_strmap paths = { 0 };
	struct kms_error *err = NULL;
	uint32_t *index;
	size_t i;

	index = calloc(g->object_paths.nr ? g->object_paths.nr : 1,
		       sizeof(*index));
	if (!index)
		return &kms_error_nomem;
	for (i = 0; i < g->nr_pieces; i++)
		index[g->pieces[i].object] = 1;
	/* The new map first: on failure nothing has changed. */
	for (i = 0; i < g->object_paths.nr && !err; i++) {
		if (index[i])
			err = kms_strmap_intern(&paths, g->objects[i].path,
						&index[i], NULL);
		else
			index[i] = KMS_NONE;
	}
	if (err) {
		kms_strmap_release(&paths);
		free(index);
		return err;
	}
	for (i = 0; i < g->object_paths.nr; i++) {
		if (index[i] == KMS_NONE)
			free(g->objects[i].path);
		else
			g->objects[index[i]] = g->objects[i];
	}
	for (i = 0; i < g->nr_pieces; i++)
		g->pieces[i].object = index[g->pieces[i].object];
	kms_strmap_release(&g->object_paths);
	g->object_paths = paths;
	free(index);
	return NULL;
}

struct kms_error *gen_sort_pieces(struct gen *g)
{
	struct kms_error *err;
	size_t i;

	qsort(g->pieces, g->nr_pieces, sizeof(*g->pieces), gen_compare_pieces);
	/* Objects from DWARF (--dwarf, or an LTO link): pieces may overlap. */
	if (g->opts->dwarf || g->nr_lto) {
		/*
		 * Units that claim the same bytes (rare: an alias emitted
		 * twice) keep the first claim; what is left over goes on.
		 * In an LTO link, the map's objects (not compiled to bitcode:
		 * assembler files, objects linked with ld -r before) win over
		 * the units they were made of.
		 */
		size_t n = g->nr_pieces ? 1 : 0;

		for (i = 1; i < g->nr_pieces; i++) {
			struct piece *last = &g->pieces[n - 1];
			struct piece p = g->pieces[i];

			if (p.start < last->end) {
				g->stats.overlaps++;
				if (p.end <= last->end)
					continue;
				p.start = last->end;
			}
			g->pieces[n++] = p;
		}
		g->nr_pieces = n;
		err = drop_unused_objects(g);
		if (err)
			return err;
	}
	for (i = 1; i < g->nr_pieces; i++) {
		const struct piece *a = &g->pieces[i - 1], *b = &g->pieces[i];

		if (b->start < a->end)
			return kms_error_file(g->opts->dwarf ? g->opts->vmlinux :
					      g->opts->map,
					      "%s and %s overlap at %#llx: are the maps from one build?",
					      g->objects[a->object].path,
					      g->objects[b->object].path,
					      (unsigned long long)b->start);
	}
	g->stats.pieces = g->nr_pieces;
	return NULL;
}
