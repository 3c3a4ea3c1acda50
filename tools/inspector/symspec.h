/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol specifications: the notations people use to name one instance of
 * a kernel symbol, parsed by one grammar and resolved against the
 * inspector's symbols and tables.
 *
 *   sym                      every instance of sym (one, or an error)
 *   sym+0xoff                an offset into it (hex, "0x" optional)
 *   sym+0xoff/0xsize         ... whose size must be 0xsize (%pS notation)
 *   sym [mod] [mod2] {obj.o} the qualifiers /proc/kallmodsyms prints: the
 *                            module list exactly; the object as printed
 *                            when an instance prints so, else by path
 *   mod:sym                  an instance in built-in module mod (one of its
 *                            modules; '-' and '_' alike)
 *   mod:sym{fs/fat/cache.o}  the kernel's probe notation: the braces
 *                            follow the name without a space
 *   path/obj.o:sym           an instance linked from an object whose path
 *                            ends in path/obj.o
 *   'file.c'::sym            gdb's: an instance compiled from a source file
 *   file.c::sym              whose path ends in file.c
 *   sym@path/file.c          (a path ending in ".o" names an object)
 *   sym,N                    livepatch's sympos: the Nth (1-based) of the
 *                            symbols called sym in /proc/kallsyms order
 *                            (all types counted, as klp_find_object_symbol
 *                            counts); sym,0 means "must be unique"
 *
 * The suffixes combine: "ext9:ext9_helper,2+0x4/0x10 [ext9] {super.o}".
 * A word that is all hex digits ("ffffffff81000000", "0x1c") is an address
 * where the caller allows addresses: write "name+0" for a symbol that looks
 * like one.
 *
 * Objects and source files are matched by path suffix, whole components
 * only ("core.o" matches "kernel/sched/core.o", "ed/core.o" does not).
 * A function's object is in the note's paths image (FORMAT.md 3.9) by its
 * full path, as the linker read it; the resolver also asks the vmlinux's
 * DWARF (the compilation unit of the symbol's address) when it has it,
 * which names the sources of an object linked with ld -r.  Where neither
 * names an instance's object (data, code without a path), the instance
 * is "unsure": it might match, and the resolver says so instead of
 * guessing.
 */
#ifndef KMS_SYMSPEC_H
#define KMS_SYMSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>

#include "inspector.h"

struct symspec {
	bool is_address;	/* a bare address: only @offset is set */
	char *name;
	uint64_t offset;	/* +0xoff, or the address */
	bool have_offset;
	bool have_size;
	uint64_t size;		/* /0xsize */
	char *modules;		/* "[a] [b]", normalised to single spaces */
	char *module;		/* mod:sym */
	char *object;		/* {obj.o}, path/obj.o:sym, sym@obj.o */
	bool object_braced;	/* {obj.o}: as printed, when one prints so */
	char *source;		/* 'file.c'::sym, sym@file.c */
	bool have_sympos;
	unsigned long sympos;	/* sym,N; 0: must be unique */
};

struct symspec_instance {
	const struct kms_symbol *sym;
	uint32_t obj;		/* object entry, KMS_NONE for none */
	size_t sympos;		/* 1-based among the symbols of its name */
	bool unsure;		/* the object is unknown: might match */
};

struct symspec_matches {
	struct symspec_instance *v;	/* in /proc/kallsyms order */
	size_t nr;
	size_t nr_unsure;
	size_t nr_named;	/* symbols of the name, before the filters */
};

/*
 * Whether @text is a bare address of at most 16 hex digits, "0x" before
 * them or not, spaces around: then symspec_parse() with @allow_address
 * would read it as that address, *@ret.  Quick, for lookup's batches; a
 * false answer means "ask symspec_parse()".
 */
bool symspec_bare_address(const char *text, uint64_t *ret);

/*
 * Parse @text into @ret (release it with symspec_release(), also after
 * an error).  On a syntax error, returns an error whose message says
 * what is wrong, without the input: the caller names it.  @allow_address:
 * a bare hex word is an address.
 */
struct kms_error *symspec_parse(const char *text, bool allow_address,
				struct symspec *ret);

/*
 * Free what @spec holds (not @spec itself, which callers keep on the
 * stack) and zero it, as kms_strmap_release() does.
 */
void symspec_release(struct symspec *spec);

/* Every instance of @spec's name that passes its qualifiers. */
struct kms_error *symspec_match(struct inspector *in,
				const struct symspec *spec,
				struct symspec_matches *ret);

void symspec_matches_free(struct symspec_matches *m);

/* Why @m is empty: "no such symbol", a sympos past the count, ... */
struct kms_error *symspec_no_match(const struct symspec *spec,
				   const struct symspec_matches *m);

/*
 * The one instance @spec names.  Otherwise an error, without the input:
 * "no such symbol", "no instance of the symbol has these qualifiers", or
 * "N instances of NAME match; ..." followed by one line per candidate,
 * "\tADDR t name\t[mod] {obj}\tsympos=N" (ADDR relocated by @kaslr).
 */
struct kms_error *symspec_resolve(struct inspector *in,
				  const struct symspec *spec, uint64_t kaslr,
				  struct symspec_instance *ret);

/*
 * The size of @inst's symbol (to the next symbol, as the kernel computes
 * it) when @spec's +0xoff lies inside it and its /0xsize, if any, is that
 * size; otherwise an error, without the input.
 */
struct kms_error *symspec_check_size(struct inspector *in,
				     const struct symspec *spec,
				     const struct symspec_instance *inst,
				     uint64_t *ret_size);

/*
 * One line in /proc/kallmodsyms notation, "ADDR t name[\t[mod] {obj}]",
 * with @addr for the address, into @f (no newline).
 */
void symspec_print_instance(FILE *f, struct inspector *in,
			    const struct symspec_instance *inst,
			    uint64_t addr);

#endif /* KMS_SYMSPEC_H */
