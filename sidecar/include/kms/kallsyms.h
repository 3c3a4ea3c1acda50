/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A vmlinux's kallsyms tables, read one symbol at a time: what
 * kms_symbols_read() gives with KMS_SYMBOLS_KALLSYMS, without expanding
 * every name first.  For the inspector, whose one lookup needs a few
 * symbols of a few hundred thousand.
 *
 * kms_kallsyms_open() checks every name as kms_symbols_read() would, with
 * the same errors, but expands none: it measures them, from the lengths
 * of the tokens.  Symbols are then expanded on first use into storage
 * made at open, so that no later call fails.
 */
#ifndef KMS_KALLSYMS_H
#define KMS_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/elf_file.h>
#include <kms/error.h>
#include <kms/symbols.h>

struct kms_kallsyms;

/*
 * Have @elf look up the symbols kms_kallsyms_open() needs in the same pass
 * as the names its caller gave kms_elf_symbols_ahead().
 */
void kms_kallsyms_ahead(struct kms_elf *elf);

/* @elf's kallsyms tables; @elf must outlive them. */
struct kms_error *kms_kallsyms_open(struct kms_elf *elf,
				    struct kms_kallsyms **ret);

void kms_kallsyms_close(struct kms_kallsyms *k);

size_t kms_kallsyms_count(const struct kms_kallsyms *k);

/*
 * Whether the addresses ascend with the index, as scripts/kallsyms sorts
 * them: then the index is the order by address too.
 */
bool kms_kallsyms_sorted(const struct kms_kallsyms *k);

/* The address of symbol @i (< count), its name unread. */
uint64_t kms_kallsyms_address(const struct kms_kallsyms *k, size_t i);

/*
 * The index of the first symbol above @addr, count if none: a binary
 * search, for sorted tables only (after a few, through an index of every
 * few addresses made then).
 */
size_t kms_kallsyms_upper_bound(struct kms_kallsyms *k, uint64_t addr);

/* Symbol @i (< count), expanded on first use; it lives as long as @k. */
const struct kms_symbol *kms_kallsyms_symbol(struct kms_kallsyms *k,
					     size_t i);

/*
 * The array kms_kallsyms_symbol() fills, @k's: its nr and text_address
 * from the start, element i once symbol i is expanded (a NULL name before).
 */
const struct kms_symbols *kms_kallsyms_table(const struct kms_kallsyms *k);

/*
 * Every symbol expanded: then the table is what kms_symbols_read() gives
 * with KMS_SYMBOLS_KALLSYMS.
 */
const struct kms_symbols *kms_kallsyms_all(struct kms_kallsyms *k);

#endif /* KMS_KALLSYMS_H */
