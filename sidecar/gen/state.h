/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generator's private state, shared by its phases (kms_generate() in
 * gen.c runs them in this order):
 *
 *   pieces   the vmlinux's text sections (every allocated one with
 *            --all-classes), then pieces, each from one object file: from
 *            the link maps (maps.c), from DWARF's compile units (dwarf.c:
 *            --dwarf, with its variables' data under --all-classes, and
 *            an LTO link's code, lto.c); sorted and made disjoint
 *            (pieces.c); then an LTO link's code that no unit placed is
 *            counted (lto.c);
 *   modules  each object's built-in modules: from the build tree
 *            (modules.c) or, with --dwarf, from the files installed beside
 *            a kernel (dwarf_modules.c);
 *   naming   which objects print {objfile}, and how much of the path
 *            (naming.c);
 *   image    the blob's tables (image.c), with the paths images' pieces
 *            (paths.c); then the report (explain.c).
 *
 * An input mode (struct gen_mode) says where pieces and modules come from:
 * gen.c has kbuild's (the link maps and the build tree, modules.builtin's
 * word), all that kbuild's own copy of the generator holds; modes.c has
 * kms_generate()'s two, the maps' (kbuild's, with --modularity and
 * --explain) and --dwarf's.
 *
 * Contract: a phase reads what the phases before it filled in and adds its
 * own; nothing here prints except through gen_warn() and gen_explain().
 * A phase calls services.c (gen_warn(), gen_symtab()) and the files of its
 * own and earlier phases, never gen.c, and no two files call each other,
 * directly or not (scripts/check-cycles.sh).
 * Fallible functions follow kms/error.h; on failure, whatever they added
 * to struct gen is still owned by it and freed by kms_generate().
 */
#ifndef KMS_GEN_STATE_H
#define KMS_GEN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/elf_file.h>
#include <kms/error.h>
#include <kms/gen.h>
#include <kms/kbuild.h>
#include <kms/modularity.h>
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

/* The modules whose ranges hold an object's code, borrowed, unique. */
struct range_modules {
	const char **names;
	size_t nr, cap;
};

struct text_section {
	const char *name;
	uint64_t start, end;
	uint64_t flags;		/* SHF_* */
	bool nobits;
};

struct gen;

/* An input mode's phases; NULL hooks are skipped. */
struct gen_mode {
	struct kms_error *(*read_pieces)(struct gen *g);
	struct kms_error *(*read_modules)(struct gen *g);
	/* Run by gen_read_modules() once modules.builtin is read. */
	struct kms_error *(*prepare_modules)(struct gen *g);
	/*
	 * True if @obj, listed in modules.builtin, can never be a module:
	 * its modules are then moved to obj->not_modules.
	 */
	bool (*never_modular)(struct gen *g, struct object *obj);
	/* Frees what the mode's phases added to struct gen. */
	void (*release)(struct gen *g);
	/* The report, after the phases (--explain). */
	void (*explain)(struct gen *g);
};

struct gen {
	const struct kms_gen_options *opts;
	const struct gen_mode *mode;
	struct kms_elf *elf;
	struct kms_symbols *symtab;	/* read once, by gen_symtab() */
	struct kms_builtin *builtin;
	struct kms_modularity *modularity;	/* NULL: not analysed */

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
	struct range_modules *range_modules;
	/*
	 * DWARF mode with -S: the sources' Makefiles evaluated with the
	 * kernel's config, and the module paths an object got through them
	 */
	struct kms_modularity *composition;
	struct kms_strmap composed_modules;
};

/* services.c: what every phase may call; it calls no other file here */
void gen_warn(struct gen *g, const char *fmt, ...) KMS_PRINTF(2, 3);
/* The vmlinux's symbols as kallsyms orders them; read and sorted once. */
struct kms_error *gen_symtab(struct gen *g, const struct kms_symbols **ret);

/* pieces.c: the text sections and the pieces of text */
struct kms_error *gen_find_text_sections(struct gen *g);
/* Fails, naming @map_path, unless @start+@size lies inside @section. */
struct kms_error *gen_check_in_section(const struct gen *g, uint32_t section,
				       uint64_t start, uint64_t size,
				       const char *file, const char *map_path);
/* A new piece at the end of *@pieces (grown as needed), or NULL. */
struct piece *gen_append_piece(struct piece **pieces, size_t *nr,
			       size_t *cap, uint32_t section,
			       uint64_t start, uint64_t size);
/* A piece of object file @file, which @map_path (the error's file) says. */
struct kms_error *gen_add_piece(struct gen *g, uint32_t section,
				uint64_t start, uint64_t size,
				const char *file, const char *map_path);
int gen_compare_pieces(const void *a, const void *b);
/* Sort the pieces; where DWARF placed any, the first claim wins. */
struct kms_error *gen_sort_pieces(struct gen *g);

/* maps.c: the pieces of a link, from its maps */
struct kms_error *gen_read_maps(struct gen *g);

/* lto.c: an LTO link's code, which its maps give to no object */
bool gen_is_lto_output(const char *file);
struct kms_error *gen_add_lto_piece(struct gen *g, uint32_t section,
				    uint64_t start, uint64_t size);
struct kms_error *gen_place_lto(struct gen *g, const char *map_path);
/* After gen_sort_pieces(), when the maps gave anything to lto.tmp. */
void gen_check_lto_coverage(struct gen *g);

/* dwarf.c: pieces from the compile units of the vmlinux's DWARF */
struct kms_error *gen_read_dwarf(struct gen *g);

/* modules.c: each object's modules, from the build tree */
int gen_compare_strings(const void *a, const void *b);
/*
 * Every object's modules by @list, sorted, with their list's id.  @list is
 * one input mode's rule for an object's modules: obj->modules, *ret_n of
 * them, unsorted and perhaps repeated.
 */
struct kms_error *
gen_objects_modules(struct gen *g,
		    struct kms_error *(*list)(struct gen *g, struct object *obj,
					      size_t *ret_n));
struct kms_error *gen_read_modules(struct gen *g);

/* modules_modularity.c: --modularity's hooks of struct gen_mode */
struct kms_error *gen_analyse_modularity(struct gen *g);
bool gen_never_modular(struct gen *g, struct object *obj);

/* dwarf_modules.c: each object's modules, without a build tree */
struct kms_error *gen_read_dwarf_modules(struct gen *g);
/* The built-in modules whose objects are unknown, each passed to @fn. */
size_t gen_unknown_modules(const struct gen *g,
			   void (*fn)(const struct gen *, const char *));

/*
 * paths.c: a paths image's pieces (FORMAT.md 3.9), from the pieces of one
 * executable class in address order, offsets from _text
 */
struct paths_builder {
	uint32_t *start, *path;		/* path: KMS_NONE for none */
	size_t nr, start_cap, path_cap;
	uint32_t end;			/* of the last piece */
	uint32_t last_object, last_section;
	struct kms_strmap paths;	/* path -> number */
};

/* Piece @p of an executable class, its offsets from @base (_text). */
struct kms_error *gen_paths_add(struct gen *g, struct paths_builder *pb,
				const struct piece *p, uint64_t base);
/* The encoder's paths image, borrowing @pb's arrays. */
struct kms_encode_paths;
void gen_paths_input(const struct paths_builder *pb,
		     struct kms_encode_paths *in);
void gen_paths_release(struct paths_builder *pb);

/* naming.c: which objects print {objfile}, and how much of it */
struct kms_error *gen_name_objects(struct gen *g);
/* The last @n components of @path. */
const char *gen_path_suffix(const char *path, unsigned int n);

/* image.c: the blob's tables */
struct kms_error *gen_build_image(struct gen *g, void **ret_blob,
				  size_t *ret_size);

/* explain.c: --explain */
void gen_explain(struct gen *g);

/* gen.c: run @mode's phases (modes.c picks the mode) */
struct kms_error *gen_generate(const struct kms_gen_options *opts,
			       const struct gen_mode *mode, void **ret_blob,
			       size_t *ret_size, struct kms_gen_stats *ret_stats);

#endif /* KMS_GEN_STATE_H */
