/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core kernel's symbols in /proc/kallsyms order, with the type letters
 * /proc/kallsyms prints.
 *
 * Two sources give them:
 *  - the kallsyms tables built into the vmlinux (kallsyms_names,
 *    kallsyms_offsets, ...): exactly what the running kernel will list;
 *  - the ELF symbol table, classified as nm(1) does, filtered as
 *    scripts/mksysmap and scripts/kallsyms do with --all-symbols, ordered as
 *    scripts/kallsyms orders them (per-CPU symbols made absolute when the
 *    per-CPU section is linked at 0, as on x86-64 SMP).  For images without
 *    kallsyms tables (the first link of vmlinux, test programs).
 */
#ifndef KMS_SYMBOLS_H
#define KMS_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include <kms/annotate.h>	/* kms_is_text_type() */
#include <kms/elf_file.h>
#include <kms/error.h>

struct kms_symbol {
	uint64_t address;
	uint64_t size;		/* 0 when the source does not say */
	const char *name;
	char type;
};

struct kms_symbols {
	struct kms_symbol *syms;
	size_t nr;
	uint64_t text_address;	/* _text */
	char *names;		/* storage the names point into */
};

enum kms_symbol_source {
	KMS_SYMBOLS_AUTO,	/* kallsyms tables when the image has them */
	KMS_SYMBOLS_KALLSYMS,
	KMS_SYMBOLS_SYMTAB,
};

struct kms_error *kms_symbols_read(struct kms_elf *elf,
				   enum kms_symbol_source source,
				   struct kms_symbols **ret);

void kms_symbols_destroy(struct kms_symbols *symbols);

/* nm's letter for one ELF symbol ('?' when nm would print '?'). */
char kms_nm_type(struct kms_elf *elf, const GElf_Sym *sym);

#endif /* KMS_SYMBOLS_H */
