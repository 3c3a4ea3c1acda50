// SPDX-License-Identifier: GPL-2.0
/*
 * export --format=ranges --map (map_order.h): the order the awk script
 * reads its records in when vmlinux was linked from vmlinux.o, which no
 * table and not vmlinux itself holds.  vmlinux.map says where each of
 * vmlinux.o's sections went; vmlinux.o's own map lists them in the order
 * the script meets them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/linker_map.h>
#include <kms/strmap.h>
#include <kms/util.h>

#include "map_order.h"

/* kms_upper_bound()'s order of an address among sections' starts. */
static int addr_before_sect(const void *key, const void *element)
{
	uint64_t addr = *(const uint64_t *)key;
	uint64_t start = ((const struct osect *)element)->addr;

	return addr < start ? -1 : addr > start;
}

/* The output section holding @addr, or NULL. */
static const struct osect *section_at(const struct osect *sects,
				      size_t nr_sects, uint64_t addr)
{
	size_t lo = kms_upper_bound(&addr, sects, nr_sects, sizeof(*sects),
				    addr_before_sect);

	if (!lo)
		return NULL;
	if (addr >= sects[lo - 1].addr + sects[lo - 1].size)
		return NULL;
	return &sects[lo - 1];
}

static bool is_vmlinux_o(const char *file)
{
	const char *base = strrchr(file, '/');

	return !strcmp(base ? base + 1 : file, "vmlinux.o");
}

static int compare_chunk(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/*
 * The sections of vmlinux.o in vmlinux.map (@map), each where vmlinux
 * has it (in one of @sects), into @chunks (indexed as @names, their names), unranked: the
 * first piece of each name (awk line 284), merged constants left out
 * (awk line 287: they have no objects' bytes).
 */
static struct kms_error *read_chunks(const struct osect *sects,
				     size_t nr_sects,
				     const struct kms_linker_map *map,
				     struct kms_strmap *names,
				     struct chunk **chunks, size_t *nr)
{
	size_t i, cap = 0;
	uint32_t k;
	int added;

	for (i = 0; i < map->nr_pieces; i++) {
		const struct kms_map_piece *p = &map->pieces[i];
		const struct osect *s = section_at(sects, nr_sects,
						   p->address);
		struct kms_error *err;

		if (!is_vmlinux_o(p->file) || !s ||
		    strcmp(s->name, p->output_section) ||
		    !strncmp(p->input_section, ".rodata.cst", 11) ||
		    !strncmp(p->input_section, ".rodata.str", 11))
			continue;
		err = kms_strmap_intern(names, p->input_section, &k, &added);
		if (!err && added && KMS_RESERVE(*chunks, cap, *nr + 1))
			err = &kms_error_nomem;
		if (err)
			return err;
		if (added)
			(*chunks)[(*nr)++] = (struct chunk){
				.sect = s, .addr = p->address,
				.size = p->size, .rank = SIZE_MAX,
			};
	}
	return NULL;
}

/* vmlinux.o.map beside @map_path. */
static char *default_o_map(const char *map_path)
{
	const char *slash = strrchr(map_path, '/');
	char *path;

	if (asprintf(&path, "%.*svmlinux.o.map",
		     slash ? (int)(slash - map_path + 1) : 0, map_path) < 0)
		return NULL;
	return path;
}

/*
 * Rank @chunks (named @names) by where vmlinux.o's map @o_map_path lists
 * them: vmlinux.o's output sections are the final link's input sections.
 * An error when it lists none of them (not the map of @map_path's
 * vmlinux.o).
 */
static struct kms_error *rank_chunks(const char *o_map_path,
				     const char *map_path,
				     const struct kms_strmap *names,
				     struct chunk *chunks)
{
	struct kms_linker_map *o_map = NULL;
	struct kms_error *err;
	size_t i, rank = 0;

	err = kms_linker_map_read(o_map_path, &o_map);
	if (err)
		return err;
	for (i = 0; i < o_map->nr_pieces; i++) {
		uint32_t k = kms_strmap_find(names,
					     o_map->pieces[i].output_section);

		if (k != UINT32_MAX && chunks[k].rank == SIZE_MAX)
			chunks[k].rank = rank++;
	}
	kms_linker_map_destroy(o_map);
	if (!rank)
		return kms_error_file(o_map_path, "lists none of the sections %s gives vmlinux.o: not vmlinux.o's map?",
				      map_path);
	return NULL;
}

/*
 * Rank vmlinux.o's sections of @map_path (vmlinux.map) by vmlinux.o's map
 * @o_map_path into *@ret_chunks (the caller frees them), *@ret_nr of them.
 */
struct kms_error *map_order(const struct osect *sects, size_t nr_sects,
			    const char *map_path, const char *o_map_path,
			    struct chunk **ret_chunks, size_t *ret_nr)
{
	struct kms_linker_map *map = NULL;
	_cleanup_free_ char *o_default = NULL;
	_cleanup_free_ struct chunk *chunks = NULL;
	struct kms_strmap names = { 0 };
	struct kms_error *err;
	size_t nr = 0;

	*ret_chunks = NULL;
	*ret_nr = 0;
	err = kms_linker_map_read(map_path, &map);
	if (err)
		return err;
	err = read_chunks(sects, nr_sects, map, &names, &chunks, &nr);
	if (err || !nr)
		goto out;
	if (!o_map_path) {
		o_map_path = o_default = default_o_map(map_path);
		if (!o_default) {
			err = &kms_error_nomem;
			goto out;
		}
	}
	err = rank_chunks(o_map_path, map_path, &names, chunks);
	if (err)
		goto out;
	/* Those vmlinux.o's map does not list (objtool's) have no records. */
	qsort(chunks, nr, sizeof(*chunks), compare_chunk);
	while (*ret_nr < nr && chunks[*ret_nr].rank != SIZE_MAX)
		++*ret_nr;
	*ret_chunks = chunks;
	chunks = NULL;
out:
	kms_strmap_release(&names);
	kms_linker_map_destroy(map);
	return err;
}
