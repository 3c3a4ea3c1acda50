/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A crash dump as vmcore.c, which reads the dump's file, shows it to
 * vmcore_memory.c, which reads kernel virtual memory: the machine dumped,
 * and the physical memory the dump holds.  Private to sidecar/inputs.
 *
 * Contract: both answer from what kms_vmcore_open() read; neither fails
 * nor allocates, and the bytes returned live as long as the dump.
 */
#ifndef KMS_INPUTS_VMCORE_DUMP_H
#define KMS_INPUTS_VMCORE_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include <kms/vmcore.h>

/* A machine whose ELF cores are read. */
struct vmcore_arch {
	uint16_t machine;		/* e_machine: EM_X86_64, EM_AARCH64 */
	const char *name;
	unsigned int nr_regs, pc, sp;	/* pr_reg's size, pc and sp, in words */
};

/* The machine of @vc, or NULL for a kdump-compressed dump. */
const struct vmcore_arch *vmcore_arch(const struct kms_vmcore *vc);

/*
 * The bytes the dump holds at physical @pa, *@ret_avail of them, or NULL.
 * Segments may overlap (kdump's kernel text and direct map).
 */
const unsigned char *vmcore_physical(const struct kms_vmcore *vc,
				     uint64_t pa, size_t *ret_avail);

#endif /* KMS_INPUTS_VMCORE_DUMP_H */
