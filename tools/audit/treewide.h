/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallmodsyms-audit --tree-wide: the audit for every architecture of a
 * source tree.  Each architecture (and 32/64-bit variant) is configured
 * allyesconfig in a scratch directory of its own and analysed as a
 * configured tree is (every tristate y asked whether it could be m); a
 * source file is listed when some architecture builds it, none builds it
 * as a module, and it says MODULE_LICENSE().
 */
#ifndef KMS_AUDIT_TREEWIDE_H
#define KMS_AUDIT_TREEWIDE_H

#include <stdbool.h>
#include <stdio.h>

#include <kms/error.h>

struct treewide_options {
	const char *srctree;	/* absolute */
	const char *scratch;	/* NULL: a temporary directory, removed */
	const char *arches;	/* comma-separated names; NULL: all */
	unsigned int jobs;	/* architectures at once; 0: nproc */
	bool json;
	bool count;
};

/*
 * The listing on stdout, sorted by file.  An architecture that cannot be
 * configured or analysed here gets one line on @notes and is left out;
 * it is an error only when none is answered.
 */
struct kms_error *treewide_audit(const struct treewide_options *o,
				 FILE *notes);

#endif /* KMS_AUDIT_TREEWIDE_H */
