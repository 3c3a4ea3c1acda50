/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel crash dump, read-only: an ELF64 core as QEMU's dump-guest-memory
 * (without paging) and kdump's /proc/vmcore write it, or, for its
 * VMCOREINFO alone, a kdump-compressed dump (makedumpfile, QEMU's
 * dump-guest-memory -z).
 *
 * Contract:
 *  - kms_vmcore_open() refuses, in one line naming the file, anything it
 *    could not read whole: not a dump, a dump without a VMCOREINFO note
 *    (QEMU without -device vmcoreinfo), one cut short (a segment past the
 *    end of the file), a malformed note, a machine other than x86_64 and
 *    aarch64 (ELF64 little-endian), a flattened kdump (makedumpfile -F);
 *  - a dump is of physical memory: its PT_LOAD segments by p_paddr (in
 *    QEMU's non-paging dumps p_vaddr is 0 or p_paddr, no kernel address),
 *    the bytes the file holds (p_filesz; past it, as in a filtered dump,
 *    memory is not in the dump); kernel virtual addresses are read through
 *    the dumped kernel's own page tables (x86_64, 4 or 5 levels);
 *  - the CPUs are the NT_PRSTATUS notes, in the order the dump holds them
 *    (QEMU: every CPU in order; kdump: the CPUs that saved their
 *    registers);
 *  - the errors follow kms/error.h, each message starting with the dump's
 *    path; nothing here prints.
 */
#ifndef KMS_VMCORE_H
#define KMS_VMCORE_H

#include <stddef.h>
#include <stdint.h>

#include <kms/elf_file.h>
#include <kms/error.h>

struct kms_vmcore;

/* One CPU's registers, as its NT_PRSTATUS note saved them. */
struct kms_vmcore_cpu {
	uint64_t pc;
	uint64_t sp;
};

struct kms_error *kms_vmcore_open(const char *path, struct kms_vmcore **ret);
void kms_vmcore_close(struct kms_vmcore *vc);

const char *kms_vmcore_path(const struct kms_vmcore *vc);

/*
 * The value of VMCOREINFO's @key ("OSRELEASE", "SYMBOL(init_top_pgt)"),
 * the text after "KEY=" up to the end of its line, or NULL.  It lives as
 * long as @vc.
 */
const char *kms_vmcore_info(const struct kms_vmcore *vc, const char *key);

/*
 * The value of @key read as the kernel writes it: hexadecimal without
 * "0x" for SYMBOL() and KERNELOFFSET (%lx); otherwise decimal, maybe
 * negative (NUMBER(): %ld; SIZE(), OFFSET(), LENGTH(): %lu), or hex with
 * "0x" (arm64's NUMBER(kimage_voffset)).  A missing key or another value
 * is an error.
 */
struct kms_error *kms_vmcore_info_number(const struct kms_vmcore *vc,
					 const char *key, uint64_t *ret);

/*
 * Check that @vmlinux is the kernel dumped: its GNU build-id note against
 * VMCOREINFO's BUILD-ID.  Refuses a dump of another kernel, a dump without
 * BUILD-ID (before Linux 5.16) and a vmlinux without a build id.
 */
struct kms_error *kms_vmcore_check_vmlinux(const struct kms_vmcore *vc,
					   struct kms_elf *vmlinux);

/* The CPUs: kms_vmcore_cpus(vc)[i] for i below the count. */
size_t kms_vmcore_nr_cpus(const struct kms_vmcore *vc);
const struct kms_vmcore_cpu *kms_vmcore_cpus(const struct kms_vmcore *vc);

/*
 * Whether kernel virtual memory can be read, NULL if so, else why not (a
 * compressed dump, aarch64, VMCOREINFO without the page tables' root).
 */
struct kms_error *kms_vmcore_memory(const struct kms_vmcore *vc);

/*
 * The @n 64-bit words of kernel virtual memory from @addr, in the host's
 * byte order.  An address not mapped, or mapped to a page the dump does
 * not hold, is an error naming it.
 */
struct kms_error *kms_vmcore_read_words(const struct kms_vmcore *vc,
					uint64_t addr, uint64_t *words,
					size_t n);

#endif /* KMS_VMCORE_H */
