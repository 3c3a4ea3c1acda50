/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A vmlinux's kallsyms tables (kallsyms_names, kallsyms_offsets, ...), read
 * in place (kallsyms_tables.c): shared by the reader of every symbol
 * (symbols.c) and the one that expands a symbol at a time (kallsyms.c).
 *
 * Contract: errors follow kms/error.h and name the vmlinux; an image
 * without kallsyms tables gives an ABSENT error (its symbol is missing).
 */
#ifndef KMS_INPUTS_KALLSYMS_TABLES_H
#define KMS_INPUTS_KALLSYMS_TABLES_H

#include <stdint.h>

#include <kms/elf_file.h>
#include <kms/error.h>

#define KSYM_NAME_LEN 512

/*
 * The kallsyms tables.  Every look-up is bounds-checked: a vmlinux is input
 * like any other.
 */
struct kallsyms_tables {
	const unsigned char *names, *token_table, *token_index, *offsets;
	uint64_t names_size, token_table_size;
	uint32_t nr_syms;
	uint64_t relative_base;
};

/*
 * kallsyms_num_syms, the number of symbols the image's kallsyms lists,
 * without checking the other tables.
 */
struct kms_error *kallsyms_num_syms(struct kms_elf *elf, uint32_t *ret);

/* Find @elf's tables, and check that they hold what they claim. */
struct kms_error *find_kallsyms_tables(struct kms_elf *elf,
				       struct kallsyms_tables *k);

/* kallsyms_offsets[@i], @i < nr_syms. */
int32_t kallsyms_offset(const struct kallsyms_tables *k, uint32_t i);

/*
 * Symbol @i's type and name, expanded from its tokens at *@pos (moved past
 * them) into @buf (KSYM_NAME_LEN + 1 bytes), *@ret_len bytes of it.
 */
struct kms_error *expand_name(struct kms_elf *elf,
			      const struct kallsyms_tables *k, uint32_t i,
			      uint64_t *pos, char *buf, size_t *ret_len);

#endif /* KMS_INPUTS_KALLSYMS_TABLES_H */
