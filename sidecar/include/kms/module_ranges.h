/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modules.builtin.ranges (Linux 6.12, CONFIG_BUILTIN_MODULE_RANGES), for
 * kernels without a build tree: the address ranges of each built-in
 * module, as offsets from anchor symbols ("SECTION START-END = SYMBOL")
 * that the vmlinux's symbol table resolves, then "SECTION START-END
 * MODULE..." lines.  Which objects make up a multi-object module only
 * this file tells (kms/dwarf_units.h gives the objects).
 */
#ifndef KMS_MODULE_RANGES_H
#define KMS_MODULE_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include <kms/elf_file.h>
#include <kms/error.h>

/*
 * modules.builtin.ranges, resolved against @elf's symbols.  Entries are
 * sorted by start and do not overlap; each carries the names of the
 * modules that share its code ("-" turned into "_", sorted).  Sections
 * whose anchor symbol @elf does not define are skipped, and so are empty
 * or reversed entries (6.12's script writes some in data sections).
 */
struct kms_module_range {
	uint64_t start, end;
	char **modules;
	size_t nr_modules;
};

struct kms_module_ranges {
	struct kms_module_range *ranges;
	size_t nr;
};

struct kms_error *kms_module_ranges_read(const char *path,
					 struct kms_elf *elf,
					 struct kms_module_ranges **ret);
/* The entry holding @addr, or NULL. */
const struct kms_module_range *
kms_module_ranges_find(const struct kms_module_ranges *r, uint64_t addr);
void kms_module_ranges_destroy(struct kms_module_ranges *r);

#endif /* KMS_MODULE_RANGES_H */
