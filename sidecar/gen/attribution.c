// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kms/blob.h>
#include <kms/dwarf_units.h>
#include <kms/elf_file.h>
#include <kms/format.h>
#include <kms/gen.h>
#include <kms/kbuild.h>
#include <kms/modularity.h>
#include <kms/linker_map.h>
#include <kms/strmap.h>
#include <kms/symbols.h>

struct object {
	char *path;
	char **modules;		/* names, sorted, unique */
	size_t nr_modules;
	/* modules.builtin's names for an object that can never be a module */
	char **not_modules;
	size_t nr_not_modules;
	enum kms_linkage linkage;
	uint32_t modlist;	/* index in gen.modlists, KMS_NONE: core */
	unsigned int name_components;	/* 0: no name needed */
	uint32_t attribution;
};

struct piece {
	uint64_t start, end;
	uint32_t object;
	uint32_t section;	/* index in gen.sections */
	bool from_dwarf;	/* a compile unit's, not a link map's */
};

struct text_section {
	const char *name;
	uint64_t start, end;
};

struct gen {
	const struct kms_gen_options *opts;
	struct kms_elf *elf;
	struct kms_symbols *symtab;	/* read once, by gen_symtab() */
	struct kms_builtin *builtin;
	struct kms_modularity *modularity;	/* NULL: not analysed */
	uint64_t text_address;

	struct text_section *sections;
	size_t nr_sections;

	struct kms_strmap object_paths;	/* path -> index in objects */
	struct object *objects;
	size_t objects_cap;

	struct piece *pieces;
	size_t nr_pieces, pieces_cap;

	struct kms_strmap modlists;	/* "a b" -> id */
	struct kms_gen_stats stats;

	bool reading_dwarf;	/* the pieces added now are from DWARF */
	/* An LTO link: the text the maps give to LTO's output, by address */
	struct piece *lto;
	size_t nr_lto, lto_cap;

	/* DWARF mode: modules.builtin.ranges, and its names by object */
	struct kms_module_ranges *module_ranges;
	const char ***range_modules;	/* borrowed from module_ranges */
	size_t *nr_range_modules;
};

static void warn(struct gen *g, const char *fmt, ...) KMS_PRINTF(2, 3);

/* The vmlinux's symbols as kallsyms orders them; read and sorted once. */
static struct kms_error *gen_symtab(struct gen *g,
				    const struct kms_symbols **ret)
{
	if (!g->symtab) {
		struct kms_error *err = kms_symbols_read(g->elf,
							 KMS_SYMBOLS_SYMTAB,
							 &g->symtab);
		if (err)
			return err;
	}
	*ret = g->symtab;
	return NULL;
}

static void warn(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	if (!g->opts->warnings)
		return;
	fputs("kallmodsyms-gen: warning: ", g->opts->warnings);
	va_start(ap, fmt);
	vfprintf(g->opts->warnings, fmt, ap);
	va_end(ap);
	fputc('\n', g->opts->warnings);
}

static struct kms_error *find_text_sections(struct gen *g)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	while ((scn = elf_nextscn(g->elf->elf, scn))) {
		struct text_section *s;
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
			    (SHF_ALLOC | SHF_EXECINSTR) || !shdr.sh_size)
			continue;
		if (g->nr_sections == cap) {
			cap = cap ? 2 * cap : 16;
			s = realloc(g->sections, cap * sizeof(*s));
			if (!s)
				return &kms_error_nomem;
			g->sections = s;
		}
		s = &g->sections[g->nr_sections++];
		s->name = kms_elf_section_name(g->elf, scn);
		s->start = shdr.sh_addr;
		s->end = shdr.sh_addr + shdr.sh_size;
	}
	if (!g->nr_sections)
		return kms_error_file(g->opts->vmlinux, "no executable sections");
	return NULL;
}

static uint32_t text_section_index(const struct gen *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nr_sections; i++)
		if (!strcmp(g->sections[i].name, name))
			return i;
	return KMS_NONE;
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
	if (g->object_paths.nr > g->objects_cap) {
		size_t cap = g->objects_cap ? 2 * g->objects_cap : 1024;
		struct object *o = realloc(g->objects, cap * sizeof(*o));

		if (!o) {
			free(path);
			return &kms_error_nomem;
		}
		g->objects = o;
		g->objects_cap = cap;
	}
	memset(&g->objects[*ret], 0, sizeof(g->objects[*ret]));
	g->objects[*ret].path = path;
	g->objects[*ret].modlist = KMS_NONE;
	return NULL;
}

static struct kms_error *check_in_section(const struct gen *g,
					  uint32_t section, uint64_t start,
					  uint64_t size, const char *file,
					  const char *map_path)
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

/* A new piece at the end of *@pieces (grown as needed), or NULL. */
static struct piece *append_piece(struct piece **pieces, size_t *nr,
				  size_t *cap, uint32_t section,
				  uint64_t start, uint64_t size)
{
	struct piece *p;

	if (*nr == *cap) {
		size_t n = *cap ? 2 * *cap : 1024;

		p = realloc(*pieces, n * sizeof(*p));
		if (!p)
			return NULL;
		*pieces = p;
		*cap = n;
	}
	p = &(*pieces)[(*nr)++];
	memset(p, 0, sizeof(*p));
	p->start = start;
	p->end = start + size;
	p->section = section;
	return p;
}

static struct kms_error *add_piece(struct gen *g, uint32_t section,
				   uint64_t start, uint64_t size,
				   const char *file, const char *map_path)
{
	struct kms_error *err;
	struct piece *p;
	uint32_t object;

	err = check_in_section(g, section, start, size, file, map_path);
	if (err)
		return err;
	err = object_index(g, file, &object);
	if (err)
		return err;
	p = append_piece(&g->pieces, &g->nr_pieces, &g->pieces_cap, section,
			 start, size);
	if (!p)
		return &kms_error_nomem;
	p->object = object;
	p->from_dwarf = g->reading_dwarf;
	return NULL;
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

static void release_section_index(struct section_index *idx)
{
	kms_strmap_release(&idx->names);
	free(idx->first);
	free(idx->count);
}

/*
 * ld.lld names the object that LTO made of the bitcode "lto.tmp": the map
 * no longer says which object file any of its code came from.
 */
static bool is_lto_output(const char *file)
{
	return !strcmp(file, "lto.tmp");
}

/* Keep the text of LTO's output aside: DWARF will say whose it is. */
static struct kms_error *add_lto_piece(struct gen *g, uint32_t section,
				       uint64_t start, uint64_t size)
{
	struct piece *p;

	p = append_piece(&g->lto, &g->nr_lto, &g->lto_cap, section, start,
			 size);
	if (!p)
		return &kms_error_nomem;
	p->object = KMS_NONE;
	g->stats.lto_bytes += size;
	return NULL;
}

static struct kms_error *read_dwarf(struct gen *g);

static struct kms_error *read_maps(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_linker_map *map = NULL, *omap = NULL;
	struct section_index idx = { 0 };
	struct kms_error *err;
	char *o_map_path = NULL;
	size_t i, j;

	err = kms_linker_map_read(o->map, &map);
	if (err)
		return err;
	for (i = 0; i < map->nr_pieces; i++) {
		const struct kms_map_piece *p = &map->pieces[i];
		uint32_t section = text_section_index(g, p->output_section);
		uint32_t id;

		if (section == KMS_NONE)
			continue;
		if (is_lto_output(p->file)) {
			err = add_lto_piece(g, section, p->address, p->size);
			if (err)
				goto out;
			continue;
		}
		if (!is_vmlinux_o(p->file)) {
			err = add_piece(g, section, p->address, p->size,
					p->file, o->map);
			if (err)
				goto out;
			continue;
		}

		/* Linked from vmlinux.o: its own map says what is inside. */
		err = check_in_section(g, section, p->address, p->size,
				       p->file, o->map);
		if (err)
			goto out;
		if (!omap) {
			if (o->o_map) {
				o_map_path = strdup(o->o_map);
			} else if (asprintf(&o_map_path, "%s/vmlinux.o.map",
					    o->build_dir) < 0) {
				o_map_path = NULL;
			}
			if (!o_map_path) {
				err = &kms_error_nomem;
				goto out;
			}
			err = kms_linker_map_read(o_map_path, &omap);
			if (err) {
				err = kms_error_prefix(err,
						       "%s links vmlinux.o, whose map is needed",
						       o->map);
				goto out;
			}
			err = index_sections(omap, &idx);
			if (err)
				goto out;
		}
		id = kms_strmap_find(&idx.names, p->input_section);
		if (id == UINT32_MAX) {
			err = kms_error_file(o_map_path,
					     "no output section %s, which %s places at %#llx: are the maps from one build?",
					     p->input_section, o->map,
					     (unsigned long long)p->address);
			goto out;
		}
		for (j = idx.first[id]; j < idx.first[id] + idx.count[id]; j++) {
			const struct kms_map_piece *q = &omap->pieces[j];
			uint64_t off = q->address - q->output_address;

			if (q->address < q->output_address || off > p->size ||
			    q->size > p->size - off) {
				err = kms_error_file(o_map_path,
						     "%s of %s at +%#llx runs past the %#llx bytes %s gives vmlinux.o's %s: are the maps from one build?",
						     q->input_section, q->file,
						     (unsigned long long)off,
						     (unsigned long long)p->size,
						     o->map, p->input_section);
				goto out;
			}
			if (is_lto_output(q->file))
				err = add_lto_piece(g, section,
						    p->address + off, q->size);
			else
				err = add_piece(g, section, p->address + off,
						q->size, q->file, o_map_path);
			if (err)
				goto out;
		}
	}
	if (g->nr_lto) {
		/*
		 * Objects compiled to machine code (assembler files) are
		 * still in the map; the compile units of the image's DWARF
		 * place the rest.
		 */
		err = read_dwarf(g);
		if (err)
			err = kms_error_prefix(err,
					       "%s: the link used LTO (ld.lld's lto.tmp, not object files), so objects come from DWARF",
					       omap ? o_map_path : o->map);
	} else if (!g->nr_pieces) {
		err = kms_error_file(o->map, "no input sections of %s's text",
				     o->vmlinux);
	}
out:
	release_section_index(&idx);
	kms_linker_map_destroy(omap);
	kms_linker_map_destroy(map);
	free(o_map_path);
	return err;
}

static int compare_pieces(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* Where a link map names an object, it comes first (and wins). */
	if (x->from_dwarf != y->from_dwarf)
		return x->from_dwarf ? 1 : -1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/*
 * What DWARF could not place of an LTO link's text: code in no compile
 * unit's ranges (top-level asm, functions the compiler made up) counts as
 * core kernel.  @g->pieces are sorted and do not overlap.
 */
static void check_lto_coverage(struct gen *g)
{
	size_t i, j, k = 0;

	qsort(g->lto, g->nr_lto, sizeof(*g->lto), compare_pieces);
	for (i = 0; i < g->nr_lto; i++) {
		uint64_t at = g->lto[i].start, end = g->lto[i].end;

		while (k < g->nr_pieces && g->pieces[k].end <= at)
			k++;
		for (j = k; j < g->nr_pieces && at < end; j++) {
			const struct piece *p = &g->pieces[j];

			if (p->start >= end)
				break;
			if (p->start > at)
				g->stats.lto_unplaced += p->start - at;
			if (p->end > at)
				at = p->end;
		}
		if (at < end)
			g->stats.lto_unplaced += end - at;
	}
	if (g->stats.lto_unplaced)
		warn(g, "%zu of %zu bytes of LTO code lie in no compile unit's ranges; they count as core kernel",
		     g->stats.lto_unplaced, g->stats.lto_bytes);
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

static struct kms_error *sort_pieces(struct gen *g)
{
	struct kms_error *err;
	size_t i;

	qsort(g->pieces, g->nr_pieces, sizeof(*g->pieces), compare_pieces);
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
	if (g->nr_lto)
		check_lto_coverage(g);
	return NULL;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* obj->modules: the built-in modules its .cmd file names, *ret_n of them. */
static struct kms_error *cmd_modules(struct gen *g, struct object *obj,
				     size_t *ret_n)
{
	struct kms_error *err = NULL;
	char **paths;
	size_t nr, i, n = 0;
	bool missing;

	err = kms_cmd_modfiles(g->opts->build_dir, obj->path, &paths, &nr,
			       &missing);
	if (err)
		return err;
	if (missing)
		g->stats.missing_cmd++;
	obj->modules = calloc(nr ? nr : 1, sizeof(*obj->modules));
	if (!obj->modules) {
		kms_free_strings(paths, nr);
		return &kms_error_nomem;
	}
	for (i = 0; i < nr; i++) {
		if (!kms_builtin_has(g->builtin, paths[i]))
			continue;
		obj->modules[n] = kms_module_name(paths[i]);
		if (!obj->modules[n]) {
			err = &kms_error_nomem;
			break;
		}
		n++;
	}
	kms_free_strings(paths, nr);
	*ret_n = n;
	return err;
}

/*
 * obj->modules from what a kernel without its build tree has: the modules
 * modules.builtin.ranges places the object's code in, or else the module
 * whose path is the object's own (a single-object module).
 */
static struct kms_error *dwarf_modules(struct gen *g, struct object *obj,
				       size_t *ret_n)
{
	size_t idx = obj - g->objects, n = 0, i;
	size_t nr = g->module_ranges ? g->nr_range_modules[idx] : 1;
	size_t len = strlen(obj->path);
	char *modpath;

	obj->modules = calloc(nr ? nr : 1, sizeof(*obj->modules));
	if (!obj->modules)
		return &kms_error_nomem;
	if (g->module_ranges) {
		for (i = 0; i < nr; i++) {
			obj->modules[n] = strdup(g->range_modules[idx][i]);
			if (!obj->modules[n]) {
				*ret_n = n;
				return &kms_error_nomem;
			}
			n++;
		}
	} else if (len > 2 && !strcmp(obj->path + len - 2, ".o")) {
		modpath = strndup(obj->path, len - 2);
		if (!modpath)
			return &kms_error_nomem;
		if (kms_builtin_has(g->builtin, modpath)) {
			obj->modules[n] = kms_module_name(modpath);
			if (!obj->modules[n]) {
				free(modpath);
				return &kms_error_nomem;
			}
			n++;
			g->stats.modules_by_path++;
		}
		free(modpath);
	}
	*ret_n = n;
	return NULL;
}

static struct kms_error *object_modules(struct gen *g, struct object *obj)
{
	struct kms_error *err;
	char *key = NULL;
	size_t i, n = 0, len = 0;

	err = g->opts->dwarf ? dwarf_modules(g, obj, &n) :
			       cmd_modules(g, obj, &n);
	if (err) {
		obj->nr_modules = n;
		return err;
	}
	qsort(obj->modules, n, sizeof(*obj->modules), compare_strings);
	/* Drop duplicates; build the list's key "a b c" as we go. */
	obj->nr_modules = 0;
	for (i = 0; i < n; i++) {
		if (obj->nr_modules &&
		    !strcmp(obj->modules[obj->nr_modules - 1], obj->modules[i])) {
			free(obj->modules[i]);
			continue;
		}
		obj->modules[obj->nr_modules++] = obj->modules[i];
		len += strlen(obj->modules[i]) + 1;
	}
	if (!obj->nr_modules)
		goto out;
	/*
	 * modules.builtin comes from MODULE_LICENSE(); the Makefiles and
	 * Kconfig say whether the object could have been a module at all.
	 */
	if (g->modularity) {
		obj->linkage = kms_modularity_linkage(g->modularity, obj->path,
						      NULL);
		if (obj->linkage == KMS_LINK_BUILTIN ||
		    obj->linkage == KMS_LINK_LIB) {
			obj->not_modules = obj->modules;
			obj->nr_not_modules = obj->nr_modules;
			obj->modules = NULL;
			obj->nr_modules = 0;
			g->stats.not_modules++;
			goto out;
		}
	}
	key = malloc(len);
	if (!key) {
		err = &kms_error_nomem;
		goto out;
	}
	key[0] = '\0';
	for (i = 0; i < obj->nr_modules; i++) {
		if (i)
			strcat(key, " ");
		strcat(key, obj->modules[i]);
	}
	err = kms_strmap_intern(&g->modlists, key, &obj->modlist, NULL);
	g->stats.modular_objects++;
	if (obj->nr_modules > 1)
		g->stats.multi_module_objects++;
out:
	free(key);
	return err;
}

/*
 * Decide modularity from the tree's Kconfig and Makefiles when the build
 * tree is a configured kernel tree (it has a .config); a synthetic tree
 * without one trusts modules.builtin.
 */
static struct kms_error *analyse_modularity(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_modularity_options mo = { 0 };
	char *config = NULL, *source = NULL, *srctree = NULL, *cache = NULL;
	struct kms_error *err = NULL;

	if (o->no_modularity)
		return NULL;
	if (asprintf(&config, "%s/.config", o->build_dir) < 0)
		return &kms_error_nomem;
	if (access(config, F_OK)) {
		free(config);
		return NULL;
	}
	if (o->srctree) {
		srctree = realpath(o->srctree, NULL);
		if (!srctree)
			err = kms_error_errno(o->srctree, "cannot open");
	} else if (asprintf(&source, "%s/source", o->build_dir) < 0) {
		err = &kms_error_nomem;
	} else {
		/* O= builds link "source" to the sources. */
		srctree = realpath(source, NULL);
		if (!srctree)
			srctree = realpath(o->build_dir, NULL);
		if (!srctree)
			err = kms_error_errno(o->build_dir, "cannot open");
	}
	mo.objtree = realpath(o->build_dir, NULL);
	if (!err && !mo.objtree)
		err = kms_error_errno(o->build_dir, "cannot open");
	/* kbuild's "make clean" removes .tmp_* files. */
	if (!err && asprintf(&cache, "%s/.tmp_kallmodsyms_bools",
			     mo.objtree) < 0)
		err = &kms_error_nomem;
	if (!err) {
		mo.srctree = srctree;
		mo.config = config;
		mo.cache = cache;
		err = kms_modularity_analyze(&mo, &g->modularity);
	}
	if (!err) {
		g->stats.modularity = true;
		g->stats.kconfig_cached =
			kms_modularity_kconfig_cached(g->modularity);
	}
	free((char *)mo.objtree);
	free(cache);
	free(srctree);
	free(source);
	free(config);
	return err;
}

/* The executable section holding @addr, or KMS_NONE. */
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

/* The unit whose range (in @sorted, by start) holds @addr, or NULL. */
static const struct kms_dwarf_range *
range_holding(const struct kms_dwarf_range *sorted, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && addr < sorted[lo - 1].end ? &sorted[lo - 1] : NULL;
}

/*
 * Code that no unit's ranges hold but whose unit is known all the same:
 *  - static-call trampolines __SCT__foo (top-level asm) belong to the unit
 *    that defines their key __SCK__foo;
 *  - the padding before a function (__pfx_foo, CONFIG_FUNCTION_PADDING)
 *    belongs to the unit of the function right after it; a unit's ranges
 *    start at its first function, not at the padding before it.
 * Pieces already claimed are trimmed by sort_pieces().
 */
static struct kms_error *asm_pieces(struct gen *g,
				    const struct kms_dwarf_units *u)
{
	struct kms_dwarf_range *sorted;
	const struct kms_symbols *syms;
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
		const struct kms_dwarf_static_call *c;
		const struct kms_dwarf_range *r;
		const char *obj = NULL;
		size_t *count = NULL;
		uint32_t section;

		if (!s->size)
			continue;
		if (!strncmp(s->name, "__SCT__", 7)) {
			c = bsearch(s->name + 7, u->static_calls,
				    u->nr_static_calls, sizeof(*c),
				    compare_static_call_name);
			obj = c ? u->objects[c->unit] : NULL;
			count = &g->stats.static_calls;
		} else if (!strncmp(s->name, "__pfx_", 6) &&
			   !range_holding(sorted, u->nr_ranges, s->address)) {
			r = range_holding(sorted, u->nr_ranges,
					  s->address + s->size);
			obj = r ? u->objects[r->unit] : NULL;
			count = &g->stats.paddings;
		}
		section = obj ? section_of(g, s->address) : KMS_NONE;
		if (section == KMS_NONE ||
		    s->address + s->size > g->sections[section].end)
			continue;
		err = add_piece(g, section, s->address, s->size, obj,
				g->opts->vmlinux);
		if (!err)
			(*count)++;
	}
	free(sorted);
	return err;
}

/* Pieces from the address ranges of the compile units. */
static struct kms_error *read_dwarf(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	size_t i, nr_map_pieces = g->nr_pieces;
	struct kms_dwarf_units *u;
	struct kms_error *err;

	err = kms_dwarf_units_read(o->vmlinux, &u);
	if (err)
		return err;
	g->reading_dwarf = true;
	g->stats.units = u->nr_units;
	g->stats.skipped_units = u->skipped_units;
	g->stats.dwarf_ranges = u->nr_ranges;
	for (i = 0; i < u->nr_ranges; i++) {
		const struct kms_dwarf_range *r = &u->ranges[i];
		const char *obj = u->objects[r->unit];
		uint32_t section;
		uint64_t end;

		if (!obj)
			continue;
		section = section_of(g, r->start);
		if (section == KMS_NONE) {
			/* .exit.text, .altinstr_aux, data */
			g->stats.outside_text++;
			continue;
		}
		end = r->end < g->sections[section].end ? r->end :
			g->sections[section].end;
		err = add_piece(g, section, r->start, end - r->start, obj,
				o->vmlinux);
		if (err)
			break;
	}
	if (!err)
		err = asm_pieces(g, u);
	g->reading_dwarf = false;
	if (!err && g->nr_pieces == nr_map_pieces)
		err = kms_error_file(o->vmlinux,
				     "no compile unit's code lies in its text");
	kms_dwarf_units_destroy(u);
	return err;
}

/* modules.builtin and modinfo's "file=" paths, either or both. */
static struct kms_error *dwarf_builtin(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_builtin *b;
	struct kms_error *err;
	char **paths = NULL, **n;
	size_t nr = 0, i, k;

	if (o->builtin) {
		err = kms_builtin_read(o->builtin, &b);
		if (err)
			return err;
	} else {
		b = calloc(1, sizeof(*b));
		if (!b)
			return &kms_error_nomem;
	}
	g->builtin = b;
	if (!o->modinfo)
		return NULL;
	err = kms_modinfo_files(o->modinfo, &paths, &nr);
	if (err)
		return err;
	n = realloc(b->paths, (b->nr + nr + 1) * sizeof(*n));
	if (!n) {
		kms_free_strings(paths, nr);
		return &kms_error_nomem;
	}
	b->paths = n;
	memcpy(b->paths + b->nr, paths, nr * sizeof(*paths));
	b->nr += nr;
	free(paths);
	qsort(b->paths, b->nr, sizeof(*b->paths), compare_strings);
	for (i = k = 0; i < b->nr; i++) {
		if (k && !strcmp(b->paths[k - 1], b->paths[i])) {
			free(b->paths[i]);
			continue;
		}
		b->paths[k++] = b->paths[i];
	}
	b->nr = k;
	return NULL;
}

/* Each object's modules from modules.builtin.ranges: where its code lies. */
static struct kms_error *dwarf_range_modules(struct gen *g)
{
	const struct kms_module_ranges *r;
	struct kms_error *err;
	size_t i, nr = g->object_paths.nr;

	err = kms_module_ranges_read(g->opts->ranges, g->elf,
				     &g->module_ranges);
	if (err)
		return err;
	r = g->module_ranges;
	g->stats.module_ranges = true;
	g->range_modules = calloc(nr ? nr : 1, sizeof(*g->range_modules));
	g->nr_range_modules = calloc(nr ? nr : 1,
				     sizeof(*g->nr_range_modules));
	if (!g->range_modules || !g->nr_range_modules)
		return &kms_error_nomem;
	for (i = 0; i < g->nr_pieces; i++) {
		const struct piece *p = &g->pieces[i];
		size_t lo = 0, hi = r->nr, j, k;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (r->ranges[mid].end <= p->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < r->nr && r->ranges[lo].start < p->end; lo++) {
			const struct kms_module_range *m = &r->ranges[lo];
			uint32_t o = p->object;

			for (j = 0; j < m->nr_modules; j++) {
				const char **l;

				for (k = 0; k < g->nr_range_modules[o]; k++)
					if (!strcmp(g->range_modules[o][k],
						    m->modules[j]))
						break;
				if (k < g->nr_range_modules[o])
					continue;
				l = realloc(g->range_modules[o],
					    (k + 1) * sizeof(*l));
				if (!l)
					return &kms_error_nomem;
				l[k] = m->modules[j];
				g->range_modules[o] = l;
				g->nr_range_modules[o]++;
			}
		}
	}
	return NULL;
}

/*
 * Without modules.builtin.ranges, a module is found only as an object of
 * its own path; the others (multi-object modules, or modules with no
 * text) are unknown.  Calls @fn with each; returns how many.
 */
static size_t unknown_modules(const struct gen *g,
			      void (*fn)(const struct gen *, const char *))
{
	size_t i, n = 0;
	char *obj;

	if (g->module_ranges)
		return 0;
	for (i = 0; i < g->builtin->nr; i++) {
		if (asprintf(&obj, "%s.o", g->builtin->paths[i]) < 0)
			continue;
		if (kms_strmap_find(&g->object_paths, obj) == UINT32_MAX) {
			n++;
			if (fn)
				fn(g, g->builtin->paths[i]);
		}
		free(obj);
	}
	return n;
}

static struct kms_error *read_dwarf_modules(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_error *err;
	size_t i;

	err = dwarf_builtin(g);
	if (!err && o->ranges)
		err = dwarf_range_modules(g);
	if (err)
		return err;
	g->stats.objects = g->object_paths.nr;
	for (i = 0; i < g->object_paths.nr; i++) {
		err = object_modules(g, &g->objects[i]);
		if (err)
			return err;
	}
	g->stats.unknown_modules = unknown_modules(g, NULL);
	if (g->stats.unknown_modules)
		warn(g, "%zu of %zu built-in modules have no object of their own name (multi-object modules, or no text); without modules.builtin.ranges their code counts as core kernel",
		     g->stats.unknown_modules, g->builtin->nr);
	return NULL;
}

static struct kms_error *read_modules(struct gen *g)
{
	const struct kms_gen_options *o = g->opts;
	struct kms_error *err;
	char *path = NULL;
	size_t i;

	/*
	 * kbuild defines KBUILD_MODFILE for built-in core code too
	 * ("kernel/fork"): only modules.builtin tells modules apart.
	 */
	if (o->builtin) {
		err = kms_builtin_read(o->builtin, &g->builtin);
	} else {
		if (asprintf(&path, "%s/modules.builtin", o->build_dir) < 0)
			return &kms_error_nomem;
		err = kms_builtin_read(path, &g->builtin);
		free(path);
	}
	if (err)
		return err;
	err = analyse_modularity(g);
	if (err)
		return err;
	g->stats.objects = g->object_paths.nr;
	for (i = 0; i < g->object_paths.nr; i++) {
		err = object_modules(g, &g->objects[i]);
		if (err)
			return err;
	}
	if (g->stats.missing_cmd)
		warn(g, "%zu of %zu objects have no .cmd file in %s; they count as core kernel",
		     g->stats.missing_cmd, g->stats.objects, o->build_dir);
	return NULL;
}

/* The piece holding @addr, or NULL. */
static const struct piece *find_piece(const struct gen *g, uint64_t addr)
{
	size_t lo = 0, hi = g->nr_pieces;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->pieces[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < g->nr_pieces && g->pieces[lo].start <= addr)
		return &g->pieces[lo];
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
static const char *path_suffix(const char *path, unsigned int n)
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
			const char *s = path_suffix(o->path, k);

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
		for (i = 0, m = 0; i < n; i++)
			if (comps[i] >= k)
				refs[m++] = (struct suffix_ref){
					path_suffix(g->objects[set[i]].path, k), i
				};
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

static struct kms_error *name_objects(struct gen *g)
{
	const struct kms_symbols *syms;
	struct symbol_ref *refs;
	struct kms_error *err;
	uint32_t *set = NULL;
	size_t i, j, n = 0;

	err = gen_symtab(g, &syms);
	if (err)
		return err;
	g->text_address = syms->text_address;
	refs = calloc(syms->nr ? syms->nr : 1, sizeof(*refs));
	set = calloc(g->object_paths.nr + 1, sizeof(*set));
	if (!refs || !set) {
		err = &kms_error_nomem;
		goto out;
	}
	for (i = 0; i < syms->nr; i++) {
		const struct kms_symbol *s = &syms->syms[i];
		const struct piece *p;

		if (!kms_is_text_type(s->type))
			continue;
		p = find_piece(g, s->address);
		refs[n].name = s->name;
		refs[n].object = p ? p->object : KMS_NONE;
		refs[n].modlist = p ? g->objects[p->object].modlist : KMS_NONE;
		n++;
	}
	qsort(refs, n, sizeof(*refs), compare_refs);

	for (i = 0; i < n; i = j) {
		size_t nr_set = 0, k;

		for (j = i + 1; j < n && !strcmp(refs[j].name, refs[i].name) &&
				refs[j].modlist == refs[i].modlist; j++)
			;
		if (j - i < 2)
			continue;
		for (k = i; k < j; k++) {
			size_t same = 1;

			while (k + 1 < j && refs[k + 1].object == refs[k].object) {
				k++;
				same++;
			}
			if (same > 1) {
				g->stats.ambiguous += same;
				warn(g, "%zu symbols %s in %s cannot be told apart: same name, same object",
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
	for (i = 0; i < g->object_paths.nr; i++)
		g->stats.named_objects += g->objects[i].name_components > 0;
out:
	free(set);
	free(refs);
	return err;
}

/* The string table, module lists, objects and ranges of the image. */
struct image_builder {
	struct kms_strmap strings;
	uint32_t *string_offset;	/* by string id */
	char *strtab;
	size_t strtab_size;

	uint32_t *modlist_word;		/* by modlist id, KMS_NONE: not yet */
	uint32_t *modlist_words;
	size_t nr_modlist_words, modlist_words_cap;
	struct kms_strmap module_names;

	struct kms_strmap attributions;	/* "modlist name" -> index */
	uint32_t *object_modlist, *object_name;

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
		uint32_t *o = realloc(b->string_offset,
				      b->strings.nr * sizeof(*o));
		char *t = realloc(b->strtab, b->strtab_size + len);

		if (o)
			b->string_offset = o;
		if (t)
			b->strtab = t;
		if (!o || !t)
			return &kms_error_nomem;
		b->string_offset[id] = b->strtab_size;
		memcpy(b->strtab + b->strtab_size, s, len);
		b->strtab_size += len;
	}
	*ret_offset = b->string_offset[id];
	return NULL;
}

static struct kms_error *add_word(struct image_builder *b, uint32_t w)
{
	if (b->nr_modlist_words == b->modlist_words_cap) {
		size_t cap = b->modlist_words_cap ? 2 * b->modlist_words_cap : 256;
		uint32_t *n = realloc(b->modlist_words, cap * sizeof(*n));

		if (!n)
			return &kms_error_nomem;
		b->modlist_words = n;
		b->modlist_words_cap = cap;
	}
	b->modlist_words[b->nr_modlist_words++] = w;
	return NULL;
}

/* Give @obj its attribution: an object-table entry, or KMS_NONE. */
static struct kms_error *attribute(struct image_builder *b,
				   struct object *obj)
{
	const char *name = obj->name_components ?
		path_suffix(obj->path, obj->name_components) : NULL;
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
		uint32_t *m = realloc(b->object_modlist,
				      b->attributions.nr * sizeof(*m));
		uint32_t *n;

		if (!m)
			return &kms_error_nomem;
		b->object_modlist = m;
		n = realloc(b->object_name, b->attributions.nr * sizeof(*n));
		if (!n)
			return &kms_error_nomem;
		b->object_name = n;
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

static struct kms_error *build_image(struct gen *g, void **ret_blob,
				     size_t *ret_size)
{
	struct image_builder b = { 0 };
	struct kms_encode_input in = { 0 };
	struct kms_error *err = NULL;
	uint64_t prev_end = 0;
	size_t i;

	if (g->pieces[0].start < g->text_address ||
	    g->pieces[g->nr_pieces - 1].end - g->text_address > UINT32_MAX)
		return kms_error_file(g->opts->vmlinux,
				      "text from %#llx to %#llx is not within 4 GiB above _text at %#llx",
				      (unsigned long long)g->pieces[0].start,
				      (unsigned long long)g->pieces[g->nr_pieces - 1].end,
				      (unsigned long long)g->text_address);

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

	/*
	 * Ranges start where pieces start.  Padding between two pieces of one
	 * attribution and section goes with them; any other gap belongs to no
	 * object, so that a linker-script label at the end of an object's
	 * text (__cpuidle_text_end) does not read as that object's.
	 */
	for (i = 0; i < g->nr_pieces; i++) {
		const struct piece *p = &g->pieces[i];
		struct object *obj = &g->objects[p->object];

		err = attribute(&b, obj);
		if (err)
			goto out;
		if (i && p->start > prev_end &&
		    (p->section != g->pieces[i - 1].section ||
		     obj->attribution != g->objects[g->pieces[i - 1].object].attribution))
			push_range(&b, prev_end - g->text_address, KMS_NONE);
		push_range(&b, p->start - g->text_address, obj->attribution);
		prev_end = p->end;
	}
	if (b.nr_ranges && b.range_object[0] == KMS_NONE) {
		/* Leading core code needs no range. */
		memmove(b.range_start, b.range_start + 1,
			(b.nr_ranges - 1) * sizeof(*b.range_start));
		memmove(b.range_object, b.range_object + 1,
			(b.nr_ranges - 1) * sizeof(*b.range_object));
		b.nr_ranges--;
	}
	/* Trailing core code neither. */
	in.text_size = prev_end - g->text_address;
	if (b.nr_ranges && b.range_object[b.nr_ranges - 1] == KMS_NONE) {
		in.text_size = b.range_start[b.nr_ranges - 1];
		b.nr_ranges--;
	}
	if (!b.nr_ranges)
		in.text_size = 0;
	if (!b.strtab_size) {
		/* An empty table still holds its terminating NUL. */
		b.strtab = calloc(1, 1);
		if (!b.strtab) {
			err = &kms_error_nomem;
			goto out;
		}
		b.strtab_size = 1;
	}

	in.nr_ranges = b.nr_ranges;
	in.range_start = b.range_start;
	in.range_object = b.range_object;
	in.nr_objects = b.attributions.nr;
	in.object_modlist = b.object_modlist;
	in.object_name = b.object_name;
	in.nr_modlist_words = b.nr_modlist_words;
	in.modlists = b.modlist_words;
	in.strtab_size = b.strtab_size;
	in.strtab = b.strtab;
	in.nr_modules = b.module_names.nr;
	err = kms_blob_encode(&in, ret_blob, ret_size);
	if (err)
		goto out;

	g->stats.ranges = in.nr_ranges;
	g->stats.attributions = in.nr_objects;
	g->stats.modules = in.nr_modules;
	g->stats.strtab_bytes = in.strtab_size;
	g->stats.blob_bytes = *ret_size;
out:
	release_builder(&b);
	return err;
}

static void explain_unknown(const struct gen *g, const char *modpath)
{
	fprintf(g->opts->explain,
		"module %s: objects unknown (no %s.o: a multi-object module, or no text; modules.builtin.ranges would tell)\n",
		modpath, modpath);
}

static void explain(struct gen *g)
{
	FILE *f = g->opts->explain;
	size_t i, k;

	if (!f)
		return;
	if (g->opts->dwarf)
		unknown_modules(g, explain_unknown);
	for (i = 0; i < g->object_paths.nr; i++) {
		const struct object *o = &g->objects[i];

		fputs(o->path, f);
		for (k = 0; k < o->nr_modules; k++)
			fprintf(f, "%s[%s]", k ? " " : "\t", o->modules[k]);
		if (o->name_components)
			fprintf(f, "%s{%s}", o->nr_modules ? " " : "\t",
				path_suffix(o->path, o->name_components));
		if (o->nr_not_modules) {
			fputs("\tnot a module:", f);
			for (k = 0; k < o->nr_not_modules; k++)
				fprintf(f, " [%s]", o->not_modules[k]);
			fprintf(f, " (%s)", o->linkage == KMS_LINK_LIB ?
				"lib-y" : "obj-y with every tristate at m");
		}
		fputc('\n', f);
	}
	for (i = 0; g->opts->explain_ranges && i < g->nr_pieces; i++)
		fprintf(f, "range %#llx-%#llx %s\n",
			(unsigned long long)g->pieces[i].start,
			(unsigned long long)g->pieces[i].end,
			g->objects[g->pieces[i].object].path);
}

struct kms_error *kms_generate(const struct kms_gen_options *opts,
			       void **ret_blob, size_t *ret_size,
			       struct kms_gen_stats *ret_stats)
{
	struct gen g = { .opts = opts };
	struct kms_tables *check;
	struct kms_error *err;
	size_t i;

	err = kms_elf_open(opts->vmlinux, &g.elf);
	if (err)
		return err;
	err = find_text_sections(&g);
	if (!err)
		err = opts->dwarf ? read_dwarf(&g) : read_maps(&g);
	if (!err)
		err = sort_pieces(&g);
	if (!err)
		err = opts->dwarf ? read_dwarf_modules(&g) : read_modules(&g);
	if (!err)
		err = name_objects(&g);
	if (!err)
		err = build_image(&g, ret_blob, ret_size);
	if (!err) {
		/* Never hand out a blob our own reader would refuse. */
		err = kms_blob_decode(*ret_blob, *ret_size, "generated", &check);
		if (err) {
			/* Out-parameters are only written on success. */
			free(*ret_blob);
			*ret_blob = NULL;
			err = kms_error_prefix(err, "internal error");
		} else {
			g.stats.image_bytes = check->image_size;
			kms_tables_destroy(check);
		}
	}
	if (!err) {
		explain(&g);
		if (ret_stats)
			*ret_stats = g.stats;
	}

	for (i = 0; i < g.object_paths.nr; i++) {
		free(g.objects[i].path);
		kms_free_strings(g.objects[i].modules, g.objects[i].nr_modules);
		kms_free_strings(g.objects[i].not_modules,
				 g.objects[i].nr_not_modules);
	}
	if (g.range_modules)
		for (i = 0; i < g.object_paths.nr; i++)
			free(g.range_modules[i]);
	free(g.range_modules);
	free(g.nr_range_modules);
	kms_module_ranges_destroy(g.module_ranges);
	kms_symbols_destroy(g.symtab);
	kms_modularity_destroy(g.modularity);
	free(g.objects);
	free(g.pieces);
	free(g.lto);
	free(g.sections);
	kms_strmap_release(&g.object_paths);
	kms_strmap_release(&g.modlists);
	kms_builtin_destroy(g.builtin);
	kms_elf_close(g.elf);
	return err;
}
