/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inspector: one vmlinux opened for questions, as libdwfl's Dwfl is
 * for a process.  It owns the ELF file, its symbols in /proc/kallsyms
 * order, the kallmodsyms tables, the KASLR offset the options give and
 * the DWARF (opened on first use, once), and answers the questions every
 * command asks of them: which symbol holds an address, which attribution
 * a symbol has, which source file an address was compiled from.
 */
#ifndef KMS_INSPECTOR_H
#define KMS_INSPECTOR_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <kms/elf_file.h>
#include <kms/error.h>
#include <kms/kallsyms.h>
#include <kms/symbols.h>
#include <kms/tables.h>
#include <kms/vmcore.h>

#include <kms/json.h>

#define PROG "kallmodsyms"

/* The options several commands share (kallmodsyms(1), OPTIONS). */
struct inspector_options {
	const char *tables;		/* -t */
	enum kms_symbol_source source;	/* -S */
	bool json;			/* -j */
	bool have_kaslr_offset;
	uint64_t kaslr_offset;		/* -k */
	const char *kallsyms;		/* -K: a copy of /proc/kallsyms */
	const char *vmcore;		/* --vmcore: a crash dump */
};

struct inspector {
	const char *vmlinux;
	const struct inspector_options *opts;
	struct kms_elf *elf;
	/*
	 * The symbols: nr and text_address at once, the entries through
	 * inspector_symbols() (every one) or the look-ups below, since the
	 * kallsyms tables are expanded a symbol at a time.
	 */
	const struct kms_symbols *syms;
	struct kms_kallsyms *kallsyms;	/* the image's kallsyms tables, */
	struct kms_symbols *symtab;	/* or its symbol table, read whole */
	struct kms_tables *tables;
	/*
	 * Symbols by address, among aliases in kallsyms order (made on first
	 * use, when the kallsyms tables are not in that order already), and
	 * by name, among equal names in kallsyms order (made on first use).
	 * Both arrays are allocated at open, so that no look-up fails.
	 */
	const struct kms_symbol **by_address;
	const struct kms_symbol **by_name;
	bool by_address_made, by_name_made;
	Dwfl *dwfl;			/* NULL until asked, or without DWARF */
	Dwfl_Module *dwarf;
	bool dwarf_tried;
	/* __per_cpu_start, the per-CPU class's base (FORMAT.md 3.1) */
	uint64_t percpu_start, percpu_end;	/* the per-CPU template */
	bool percpu_known, percpu_tried;
	struct kms_vmcore *vmcore;	/* --vmcore's, opened on first use */
	/* What inspector_print_name() prints of each object, on first use. */
	struct inspector_object_text *object_texts;
	struct json json;
};

/*
 * Open @vmlinux with @opts (kept, not copied), once: its symbols, and the
 * tables from opts->tables or from @vmlinux.  Every symbol is read and
 * checked, but from kallsyms tables a name is expanded only when asked
 * for (a lookup by address expands a few).  Close @in with
 * inspector_close(), also after an error.
 */
struct kms_error *inspector_open(struct inspector *in, const char *vmlinux,
				 const struct inspector_options *opts);

void inspector_close(struct inspector *in);

/* Every symbol, in /proc/kallsyms order (expanded now if need be). */
const struct kms_symbols *inspector_symbols(struct inspector *in);

/*
 * The symbol holding link-time @addr and its size, or NULL.  A symbol
 * holds the addresses up to the next symbol's, as kallsyms computes
 * sizes; the last one only its own size, none past the image's end.
 */
const struct kms_symbol *inspector_symbol_at(struct inspector *in,
					     uint64_t addr,
					     uint64_t *ret_size);

/* Does a symbol start in [@lo, @hi) (link-time addresses)? */
bool inspector_symbol_between(struct inspector *in, uint64_t lo,
			      uint64_t hi);

/*
 * How many symbols are called @name; they are (*ret_first)[0], ..., in
 * /proc/kallsyms order.  A binary search.
 */
size_t inspector_symbols_named(struct inspector *in, const char *name,
			       const struct kms_symbol *const **ret_first);

/* The size of @sym as the kernel computes it (to the next address). */
uint64_t inspector_symbol_size(struct inspector *in,
			       const struct kms_symbol *sym);

/*
 * @sym's object entry in the inspector's tables (KMS_NONE: no attribution,
 * or plain core kernel), by FORMAT.md 4's rule; inspector_object_in() in
 * other tables @t, of the same vmlinux.
 */
uint32_t inspector_object(struct inspector *in, const struct kms_symbol *sym,
			  uint32_t *cursor);
uint32_t inspector_object_in(struct inspector *in, const struct kms_tables *t,
			     const struct kms_symbol *sym, uint32_t *cursor);

/*
 * The full path of the object file of the code at link-time @addr (the
 * paths image, FORMAT.md 3.9), or NULL: not code, or code of no path.
 */
const char *inspector_path(struct inspector *in, uint64_t addr);

/*
 * Whether @addr is a per-CPU offset as kallsyms lists it under
 * CONFIG_KALLSYMS_ABSOLUTE_PERCPU (x86-64 SMP): inside [__per_cpu_start,
 * __per_cpu_end), linked below _text.  KASLR does not move those.
 */
bool inspector_absolute_percpu(struct inspector *in, uint64_t addr);

/*
 * The address the offsets of class @cls count from (FORMAT.md 3.1): _text,
 * or __per_cpu_start; false when the image has no such symbol.
 */
bool inspector_class_base(struct inspector *in, uint32_t cls, uint64_t *ret);

/* "modules": [...], "objfile": ... of object entry @obj. */
void inspector_json_attribution(struct inspector *in, uint32_t obj);

/* An address named as the kernel's %pS names it. */
struct inspector_name {
	const struct kms_symbol *sym;
	uint64_t offset, size;
	uint32_t obj;			/* its object entry, or KMS_NONE */
};

/* Name link-time @addr: false when no symbol holds it. */
bool inspector_name_address(struct inspector *in, uint64_t addr,
			    struct inspector_name *ret);

/*
 * What kms_print_object() prints of object entry @obj after its separator
 * ("[m1] [m2] {name}", "" for none), made once and kept: NULL for
 * KMS_NONE, or when too long to keep or memory is short.
 */
const char *inspector_object_text(struct inspector *in, uint32_t obj,
				  size_t *ret_len);

/* "sym+0xoff/0xsize [mod] {obj}" on @f, without a newline. */
void inspector_print_name(struct inspector *in, FILE *f,
			  const struct inspector_name *name);

/* "symbol", "offset", "size" and the attribution, in the current object. */
void inspector_json_name(struct inspector *in,
			 const struct inspector_name *name);

/*
 * The dump --vmcore names, opened on first use once its build id is the
 * vmlinux's; an error without --vmcore.
 */
struct kms_error *inspector_vmcore(struct inspector *in,
				   struct kms_vmcore **ret);

/*
 * The KASLR offset the options give: --kaslr-offset, the difference of
 * _text in the copy --kallsyms names and in the vmlinux, the KERNELOFFSET
 * of the dump --vmcore names, else 0.
 */
struct kms_error *inspector_kaslr(struct inspector *in, uint64_t *ret);

/* The same from @path: /proc/kallsyms, /proc/kallmodsyms or a copy. */
struct kms_error *inspector_kaslr_from(struct inspector *in,
				       const char *path, uint64_t *ret);

/*
 * The source file of the compilation unit holding link-time @addr,
 * relative to its compilation directory, or NULL (no DWARF for it).
 */
const char *inspector_unit_file(struct inspector *in, uint64_t addr);

/*
 * The source file and line of link-time @addr from the line table,
 * relative to its compilation directory, or NULL.  Both answers live as
 * long as @in.
 */
const char *inspector_line(struct inspector *in, uint64_t addr,
			   int *ret_line);

/* Print "PROG: message" and return 1. */
int inspector_fail(struct kms_error *err);

#endif /* KMS_INSPECTOR_H */
