/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generator: from a linked vmlinux, its link maps and the build tree
 * (or the vmlinux's DWARF alone), decide which object file and which
 * built-in modules every byte of text came from, which objects need their
 * name printed (and how much of it), and encode the result as a blob
 * (FORMAT.md).  kallmodsyms-gen writes it out; the inspector's verify
 * compares it with a note.
 *
 * Contract: kms_generate() follows kms/error.h; it prints nothing but
 * the warnings and the report @opts asks for, on the streams it names.
 */
#ifndef KMS_GEN_H
#define KMS_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <kms/elf_file.h>
#include <kms/error.h>

struct kms_gen_options {
	const char *vmlinux;
	/*
	 * VMLINUX already open (kms_elf_open()), the caller's to close; NULL:
	 * kms_generate() opens it.
	 */
	struct kms_elf *elf;
	const char *build_dir;		/* where the .<obj>.cmd files are */
	const char *map;		/* the final link's map */
	const char *o_map;		/* vmlinux.o's map, NULL: by default */
	const char *builtin;		/* modules.builtin, NULL: by default */
	/*
	 * The kernel sources, for the modularity analysis (kms/modularity.h);
	 * NULL: the build tree's "source" link, or the build tree itself.
	 * With dwarf: the sources of the vmlinux's own version, whose
	 * Makefiles, evaluated with config (NULL: srctree/.config), say which
	 * objects make each multi-object module; NULL: none.
	 */
	const char *srctree;
	const char *config;
	/*
	 * Judge which objects can be modules by the tree's Kconfig and
	 * Makefiles (kms/modularity.h), when the build tree has a .config,
	 * instead of by modules.builtin alone: for trees whose non-modules
	 * still say MODULE_LICENSE().  Off by default, and off in kbuild:
	 * modules.builtin is the kernel's one definition of a built-in
	 * module, and a tree fixed at the source makes it right.
	 */
	bool modularity;
	/*
	 * No build tree: objects from the compile units of VMLINUX's DWARF,
	 * modules from modules.builtin (builtin), modules.builtin.modinfo
	 * (modinfo) and modules.builtin.ranges (ranges), each optional
	 * (kms/dwarf_units.h, kms/modinfo.h, kms/module_ranges.h), and
	 * srctree's Makefiles.  map, o_map and build_dir are unused.
	 *
	 * Without it, an LTO link (ld.lld's maps name "lto.tmp" in place of
	 * the object files) takes the objects of that text from the DWARF
	 * compile units too, and its modules from the build tree as usual;
	 * text no unit holds counts as core kernel, with a warning.
	 */
	bool dwarf;
	const char *modinfo;
	const char *ranges;
	/*
	 * Every section class kallsyms lists symbols in (FORMAT.md 3.1), not
	 * text alone: pieces of every allocated section of the link maps (with
	 * dwarf: the storage of the compile units' variables), names among
	 * symbols of every type.
	 */
	bool all_classes;
	FILE *warnings;			/* NULL: no warnings */
	const char *prog;		/* theirs, NULL: kallmodsyms-gen */
	FILE *explain;			/* NULL: no per-object report */
	bool explain_ranges;		/* ...then every text range's object */
};

struct kms_gen_stats {
	size_t pieces;			/* input sections of text */
	size_t objects;			/* object files they came from */
	size_t modular_objects;		/* ...that are part of built-in modules */
	size_t multi_module_objects;
	size_t named_objects;		/* ...that print {objfile} */
	size_t missing_cmd;		/* objects without a .cmd file */
	bool modularity;		/* the Makefiles were evaluated */
	bool kconfig_cached;		/* ...with kconfig's answer cached */
	size_t not_modules;		/* in modules.builtin, never modules */
	size_t ambiguous;		/* symbols that stay ambiguous */
	size_t ranges, attributions, modules, strtab_bytes;
	size_t image_bytes, blob_bytes;
	size_t path_pieces, paths;	/* the paths image (FORMAT.md 3.9) */
	/* LTO links: text of LTO's output, ...in no unit's ranges */
	size_t lto_bytes, lto_unplaced;		/* code */
	size_t lto_data_bytes, lto_data_unplaced;
	/* DWARF mode, and LTO links */
	size_t units, skipped_units;	/* compile units, ...without an object */
	size_t dwarf_ranges, outside_text; /* their ranges, ...not in text */
	size_t static_calls;	/* trampolines placed by their keys' units */
	size_t paddings;	/* __pfx_ paddings placed by their functions */
	size_t entries;		/* symbols placed by the range they reach */
	size_t overlaps;		/* ranges trimmed where units overlap */
	/* --dwarf --all-classes: variables placed, ...of no size in DWARF, */
	size_t variables, unsized_variables;
	/* ...at 0 with no symbol there, ...in no section */
	size_t discarded_variables, outside_variables;
	/* ...data symbols between two variables of one object, placed */
	size_t enclosed_data;
	bool module_ranges;		/* modules.builtin.ranges was read */
	bool module_makefiles;		/* srctree's Makefiles were read */
	size_t modules_by_path;		/* modules found as one object */
	size_t modules_by_makefiles;	/* ...as a member of a composite */
	size_t unknown_modules;		/* ...not: their objects are unknown */
};

struct kms_error *kms_generate(const struct kms_gen_options *opts,
			       void **ret_blob, size_t *ret_size,
			       struct kms_gen_stats *ret_stats);

/*
 * kms_generate() in kbuild's mode alone: the link maps, the .cmd files and
 * modules.builtin (DWARF for an LTO link's code); @opts may ask for neither
 * dwarf nor modularity.  The same bytes as kms_generate() from the same
 * inputs: it is what kbuild's copy of the generator runs.
 */
struct kms_error *kms_generate_kbuild(const struct kms_gen_options *opts,
				      void **ret_blob, size_t *ret_size,
				      struct kms_gen_stats *ret_stats);

#endif /* KMS_GEN_H */
