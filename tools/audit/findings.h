/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallmodsyms-audit's findings kept for --patches (patches.h), from this
 * run's listing or read back from an earlier one (--findings FILE), each
 * checked again against the tree: its MODULE_LICENSE() still outside
 * comments, and no Makefile line that can make it a module (exact.h).
 */
#ifndef KMS_AUDIT_FINDINGS_H
#define KMS_AUDIT_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include <kms/error.h>

#include "patches.h"

/* With --patches, the findings, kept for patches_write(). */
struct patch_list {
	struct patch_finding *f;
	size_t nr, cap;
};

/*
 * A finding for @source, appended to @list: *@reason, *@license and
 * *@tags are taken (set to NULL); on error they are still the caller's.
 */
struct kms_error *keep_finding(struct patch_list *list, const char *source,
			       char **reason, char **license, char **tags);

/* Frees what @list holds. */
void patch_list_release(struct patch_list *list);

/*
 * --findings FILE: the findings of FILE (a listing of a configured tree,
 * --allmodconfig or --tree-wide) that still hold in @srctree, appended
 * to @list, or their lines printed on stdout (@print); one note on
 * stderr for each that no longer holds.
 */
struct kms_error *read_findings(const char *file, const char *srctree,
				struct patch_list *list, bool print);

#endif /* KMS_AUDIT_FINDINGS_H */
