// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel virtual memory in a crash dump (kms/vmcore.h): translated through
 * the dumped kernel's own x86_64 page tables, 4 or 5 levels, whose root
 * VMCOREINFO gives, then read from the physical memory the dump holds
 * (vmcore_dump.h).
 */
#include <stdint.h>

#include <kms/util.h>
#include <kms/vmcore.h>

#include "vmcore_dump.h"

#define X86_START_KERNEL_MAP 0xffffffff80000000ull
#define X86_PFN_MASK 0x000ffffffffff000ull	/* bits 51..12 */
#define X86_PRESENT 0x1ull
#define X86_HUGE 0x80ull			/* _PAGE_PSE */
#define X86_PAGE_SIZE 4096u

struct x86_paging {
	uint64_t root;		/* init_top_pgt, physical */
	uint64_t pfn_mask;	/* without SME's encryption bit */
	int levels;
};

/* The page tables' root from VMCOREINFO, or why memory cannot be read. */
static struct kms_error *x86_paging(const struct kms_vmcore *vc,
				    struct x86_paging *ret)
{
	const struct vmcore_arch *arch = vmcore_arch(vc);
	uint64_t pgt, phys_base, l5 = 0, sme = 0;
	struct kms_error *err;

	if (!arch)
		return kms_error_file(kms_vmcore_path(vc), "reading memory is not supported for kdump-compressed dumps: use an ELF dump");
	if (arch->machine != EM_X86_64)
		return kms_error_file(kms_vmcore_path(vc), "reading %s kernel memory is not supported yet",
				      arch->name);
	err = kms_vmcore_info_number(vc, "SYMBOL(init_top_pgt)", &pgt);
	if (!err)
		err = kms_vmcore_info_number(vc, "NUMBER(phys_base)",
					     &phys_base);
	if (!err && kms_vmcore_info(vc, "NUMBER(pgtable_l5_enabled)"))
		err = kms_vmcore_info_number(vc, "NUMBER(pgtable_l5_enabled)",
					     &l5);
	if (!err && kms_vmcore_info(vc, "NUMBER(sme_mask)"))
		err = kms_vmcore_info_number(vc, "NUMBER(sme_mask)", &sme);
	if (err)
		return err;
	if (pgt < X86_START_KERNEL_MAP)
		return kms_error_file(kms_vmcore_path(vc), "VMCOREINFO: SYMBOL(init_top_pgt)=%llx is below the kernel image's mapping",
				      (unsigned long long)pgt);
	ret->root = pgt - X86_START_KERNEL_MAP + phys_base;
	ret->pfn_mask = X86_PFN_MASK & ~sme;
	ret->levels = l5 ? 5 : 4;
	return NULL;
}

struct kms_error *kms_vmcore_memory(const struct kms_vmcore *vc)
{
	struct x86_paging pg;

	return x86_paging(vc, &pg);
}

static const char *x86_level(const struct x86_paging *pg, int shift)
{
	static const char *const names[] = { "PTE", "PMD", "PUD", "P4D" };

	return shift == 3 + 9 * pg->levels ? "PGD" : names[(shift - 12) / 9];
}

/* The physical address of kernel virtual @va. */
static struct kms_error *x86_translate(const struct kms_vmcore *vc,
				       const struct x86_paging *pg,
				       uint64_t va, uint64_t *ret)
{
	int shift = 3 + 9 * pg->levels, bits = shift + 9;
	uint64_t table = pg->root, entry, mask;
	const unsigned char *p;
	size_t avail;

	if ((uint64_t)((int64_t)(va << (64 - bits)) >> (64 - bits)) != va)
		return kms_error_file(kms_vmcore_path(vc), "kernel address %016llx is not canonical",
				      (unsigned long long)va);
	for (;; shift -= 9) {
		p = vmcore_physical(vc, table + ((va >> shift) & 511) * 8, &avail);
		if (!p || avail < 8)
			return kms_error_file(kms_vmcore_path(vc), "kernel address %016llx: its %s table (physical 0x%llx) is not in the dump",
					      (unsigned long long)va,
					      x86_level(pg, shift),
					      (unsigned long long)table);
		entry = kms_get_le64(p);
		if (!(entry & X86_PRESENT))
			return kms_error_file(kms_vmcore_path(vc), "kernel address %016llx is not mapped (no %s entry)",
					      (unsigned long long)va,
					      x86_level(pg, shift));
		if (shift == 12 ||
		    ((shift == 21 || shift == 30) && (entry & X86_HUGE)))
			break;
		table = entry & pg->pfn_mask;
	}
	mask = (1ull << shift) - 1;
	*ret = (entry & pg->pfn_mask & ~mask) | (va & mask);
	return NULL;
}

/* How many of the @n words at @p, physical @avail bytes, @va's page holds. */
static size_t words_in_page(uint64_t va, size_t avail, size_t n)
{
	size_t in_page = (X86_PAGE_SIZE - (va & (X86_PAGE_SIZE - 1))) / 8;

	if (n > in_page)
		n = in_page;
	return n < avail / 8 ? n : avail / 8;
}

struct kms_error *kms_vmcore_read_words(const struct kms_vmcore *vc,
					uint64_t addr, uint64_t *words,
					size_t n)
{
	struct x86_paging pg;
	struct kms_error *err;
	const unsigned char *p;
	size_t i = 0, avail, k, nr;
	uint64_t va, pa = 0;

	if (addr & 7)
		return kms_error_fmt("internal error: reading words at %016llx, not a multiple of 8",
				     (unsigned long long)addr);
	err = x86_paging(vc, &pg);
	while (!err && i < n) {
		va = addr + 8 * i;
		err = x86_translate(vc, &pg, va, &pa);
		if (err)
			break;
		p = vmcore_physical(vc, pa, &avail);
		if (!p || avail < 8)
			return kms_error_file(kms_vmcore_path(vc), "kernel address %016llx (physical 0x%llx) is not in the dump",
					      (unsigned long long)va,
					      (unsigned long long)pa);
		nr = words_in_page(va, avail, n - i);
		for (k = 0; k < nr; k++)
			words[i++] = kms_get_le64(p + 8 * k);
	}
	return err;
}
