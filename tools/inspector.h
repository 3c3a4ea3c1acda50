/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inspector's shared state: one vmlinux, its symbols in /proc/kallsyms
 * order, the kallmodsyms tables, and the questions every command asks of
 * them (which symbol holds an address, which attribution a symbol has).
 */
#ifndef KMS_INSPECTOR_H
#define KMS_INSPECTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <kms/blob.h>
#include <kms/elf_file.h>
#include <kms/error.h>
#include <kms/symbols.h>

#include "json.h"

#define PROG "kallmodsyms"

struct symspec_dwarf;

struct options {
	const char *tables;		/* -t */
	enum kms_symbol_source source;	/* -S */
	bool json;
	const char *module;		/* list --module */
	const char *objfile;		/* list --objfile */
	bool have_kaslr_offset;
	uint64_t kaslr_offset;		/* lookup --kaslr-offset */
	const char *kallsyms;		/* lookup --kallsyms FILE */
	const char *build_dir;		/* verify -b */
	const char *map;		/* verify --map */
	const char *o_map;		/* verify --o-map */
	const char *builtin;		/* verify --builtin */
	const char *format;		/* export --format */
	const char *probe_name;		/* probe --name */
	const char *tracefs;		/* probe --tracefs */
};

struct inspector {
	const char *vmlinux;
	const struct options *opts;
	struct kms_elf *elf;
	struct kms_symbols *syms;
	struct kms_tables *tables;
	/* Symbols by address; among aliases, in kallsyms order. */
	const struct kms_symbol **by_address;
	size_t nr_by_address;
	/* Symbols by name; among equal names, in kallsyms order. */
	const struct kms_symbol **by_name;
	struct symspec_dwarf *dwarf;	/* symspec.c's, opened on demand */
	struct json json;
};

/* The symbol holding link-time @addr and its size, or NULL. */
const struct kms_symbol *inspector_symbol_at(struct inspector *in,
					     uint64_t addr,
					     uint64_t *ret_size);

/* Does a symbol start in [@lo, @hi) (link-time addresses)? */
bool inspector_symbol_between(struct inspector *in, uint64_t lo,
			      uint64_t hi);

/*
 * The symbols called @name, in /proc/kallsyms order: (*ret_first)[0] to
 * (*ret_first)[*ret_count - 1].  Lookups by name are a binary search.
 */
struct kms_error *inspector_symbols_named(struct inspector *in,
					  const char *name,
					  const struct kms_symbol *const **ret_first,
					  size_t *ret_count);

/* The size of @sym as the kernel computes it (to the next address). */
uint64_t inspector_symbol_size(struct inspector *in,
			       const struct kms_symbol *sym);

/* @sym's object entry (KMS_NONE: data, or plain core text). */
uint32_t inspector_object(struct inspector *in, const struct kms_symbol *sym,
			  uint32_t *cursor);

/* "modules": [...], "objfile": ... of object entry @obj. */
void inspector_json_attribution(struct inspector *in, uint32_t obj);

/* The KASLR offset from opts->kallsyms, a copy of /proc/kallsyms. */
struct kms_error *inspector_kaslr_from_kallsyms(struct inspector *in,
						uint64_t *ret);

/* The same from @path: /proc/kallsyms, /proc/kallmodsyms or a copy. */
struct kms_error *inspector_kaslr_from_file(struct inspector *in,
					    const char *path, uint64_t *ret);

/* Print "PROG: message" and return 1. */
int inspector_fail(struct kms_error *err);

int cmd_list(struct inspector *in, int argc, char **argv);
int cmd_lookup(struct inspector *in, int argc, char **argv);
int cmd_find(struct inspector *in, int argc, char **argv);
int cmd_ambiguous(struct inspector *in, int argc, char **argv);
int cmd_modules(struct inspector *in, int argc, char **argv);
int cmd_stats(struct inspector *in, int argc, char **argv);
int cmd_dump(struct inspector *in, int argc, char **argv);
int cmd_decode(struct inspector *in, int argc, char **argv);
int cmd_verify(struct inspector *in, int argc, char **argv);
int cmd_export(struct inspector *in, int argc, char **argv);
int cmd_probe(struct inspector *in, int argc, char **argv);

#endif /* KMS_INSPECTOR_H */
