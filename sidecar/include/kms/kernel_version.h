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
 * The release of the kernel in @elf, from "Linux version RELEASE (...":
 * the string at linux_banner, into @buf (at least KMS_RELEASE_MAX + 1
 * bytes).  No linux_banner is KMS_ERR_ABSENT.
 */
struct kms_error *kms_elf_kernel_release(struct kms_elf *elf, char *buf,
					 size_t size);

/*
 * The version of the tree at @srctree, as its top-level Makefile composes
 * KERNELVERSION from VERSION, PATCHLEVEL, SUBLEVEL and EXTRAVERSION, into
 * @buf (at least KMS_RELEASE_MAX + 1 bytes).
 */
struct kms_error *kms_tree_version(const char *srctree, char *buf,
				   size_t size);

/*
 * Was a kernel of release @release built from a tree of version
 * @version?  The release must start with the version, and what follows
 * must not continue its numbers (6.12.1 is not 6.12.118) nor be a
 * release candidate's "-rcN" that the tree's EXTRAVERSION would say.
 */
bool kms_release_of_version(const char *release, const char *version);

#endif /* KMS_KERNEL_VERSION_H */
