/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallmodsyms-audit --patches DIR: the audit's findings as a
 * "git format-patch" series against the tree, one patch per MAINTAINERS
 * section (per directory in a tree without MAINTAINERS), each taking
 * MODULE_LICENSE() out of the files that can never be modules, with the
 * tree's own scripts/get_maintainer.pl Cc lines, and a cover letter.
 */
#ifndef KMS_AUDIT_PATCHES_H
#define KMS_AUDIT_PATCHES_H

#include <stddef.h>
#include <stdio.h>

#include <kms/error.h>

/* One source file that can never be a module. */
struct patch_finding {
	const char *source;	/* relative to the tree: "drivers/pci/foo.c" */
	const char *reason;	/* why: "CONFIG_PCI is bool" */
	const char *license;	/* MODULE_LICENSE()'s string */
	const char *tags;	/* its other MODULE_* tags, space-separated;
				 * NULL or "": none */
	const char *arches;	/* where that holds, space-separated; NULL:
				 * the audited architecture (x86_64) */
};

struct patches_options {
	const char *srctree;	/* the tree the patches apply to */
	const char *dir;	/* the series, a directory that must not exist */
	const char *author;	/* "Name <email>"; NULL: $GIT_AUTHOR_NAME and
				 * _EMAIL, git config user.*, a default */
	const char *changes;	/* the cover letter's "Changes since the
				 * previous version" paragraph, or NULL */
	FILE *warnings;		/* one line each ("PROG: ..."), or NULL */
	const char *prog;	/* that PROG */
};

struct patches_stats {
	size_t patches;
	size_t files;		/* rewritten */
	size_t refused;		/* left alone: macro, #ifdef MODULE, ... */
};

/*
 * Write the series for @findings (any order) into o->dir: first into a
 * temporary directory beside it, renamed into place when complete.
 */
struct kms_error *patches_write(const struct patches_options *o,
				const struct patch_finding *findings, size_t n,
				struct patches_stats *ret);

#endif /* KMS_AUDIT_PATCHES_H */
