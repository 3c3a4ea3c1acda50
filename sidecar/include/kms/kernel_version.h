/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which kernel version a vmlinux is and a source tree holds, so that the
 * tree's Makefiles are read only for the kernel they built (kallmodsyms-gen
 * --dwarf -S).
 *
 * A vmlinux says its release (UTS_RELEASE, "6.12.118+deb12-amd64") in
 * linux_banner; a tree says its version (KERNELVERSION, "6.12.118") in
 * its top-level Makefile.  The release is the version followed by what the
 * build added (CONFIG_LOCALVERSION, localversion* files, a distribution's
 * KERNELRELEASE: Debian's "+deb12-amd64", Ubuntu's "-45-generic",
 * Fedora's "-301.fc41.x86_64"), which no Makefile of the tree says.
 */
#ifndef KMS_KERNEL_VERSION_H
#define KMS_KERNEL_VERSION_H

#include <stdbool.h>
#include <stddef.h>

#include <kms/elf_file.h>
#include <kms/error.h>

/* The longest release the kernel allows (__NEW_UTS_LEN). */
#define KMS_RELEASE_MAX 64

/*
 * What linux_banner says, "Linux version RELEASE (BUILDER) (COMPILER)
 * UTS_VERSION": the release ("6.12.118+deb12-amd64") and UTS_VERSION,
 * from its last '#' ("#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3
 * (2026-11-26)": Debian 12's own kernels, whose release is an ABI name,
 * 6.1.0-57-amd64, say their version there).
 */
struct kms_banner {
	char release[KMS_RELEASE_MAX + 1];
	char uts_version[KMS_RELEASE_MAX + 1];
};

/* @elf's linux_banner.  No linux_banner is KMS_ERR_ABSENT. */
struct kms_error *kms_elf_banner(struct kms_elf *elf, struct kms_banner *ret);

/*
 * The version of the tree at @srctree, as its top-level Makefile composes
 * KERNELVERSION from VERSION, PATCHLEVEL, SUBLEVEL and EXTRAVERSION, into
 * @buf (at least KMS_RELEASE_MAX + 1 bytes).
 */
struct kms_error *kms_tree_version(const char *srctree, char *buf,
				   size_t size);

/*
 * Was the kernel of @banner built from a tree of version @version?  Its
 * release, or else a word of its UTS_VERSION, must start with the
 * version, and what follows must not continue its numbers (6.12.1 is not
 * 6.12.118) nor be a release candidate's "-rcN" that the tree's
 * EXTRAVERSION would say.
 */
bool kms_banner_of_version(const struct kms_banner *banner,
			   const char *version);

#endif /* KMS_KERNEL_VERSION_H */
