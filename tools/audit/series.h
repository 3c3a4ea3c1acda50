/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MODULE_LICENSE() removal series while it is made (private to
 * patches.c, which reads the files and writes the series, and the files it
 * calls: patch_groups.c, which puts the files into patches, and
 * patch_text.c, which writes a patch's and the cover letter's text).
 */
#ifndef KMS_AUDIT_SERIES_H
#define KMS_AUDIT_SERIES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <kms/error.h>

#include "patches.h"
#include "removal.h"

#define SUBJECT "remove MODULE_LICENSE in non-modules"

struct maintainers;

/* One finding, the file read. */
struct item {
	const struct patch_finding *f;
	char *text;		/* the source */
	struct removal r;
	const char *refusal;	/* not rewritten, and why */
	bool duplicate;		/* the same file as the item before */
	char key[PATH_MAX];	/* its group */
};

/* One patch: the files of one MAINTAINERS section or directory. */
struct group {
	char *key;
	char *area;		/* "PCI", in the subject */
	char *key2;		/* the area to be, while it is chosen */
	char *file;		/* "0001-kbuild-PCI-....patch" */
	struct item **items;
	size_t nr, cap;
};

/* The series being made, in patches_write(). */
struct series {
	const struct patches_options *o;
	struct maintainers *m;
	bool no_maintainers;	/* no MAINTAINERS: by directory, no Cc */
	bool no_get_maintainer;
	char *author;
	char date[64];
	char *tmp;		/* the directory being written, absolute */
	struct item *items;
	size_t nr;
	struct group *groups;
	size_t nr_groups, cap;
};

/*
 * patch_groups.c: @s's items that are rewritten into groups, one per
 * MAINTAINERS section (per directory without MAINTAINERS), each with the
 * area its subject names, the groups in the order of their areas.
 */
struct kms_error *series_group(struct series *s);

/* patch_text.c: format-patch's file name of patch @number of @area. */
char *patch_file_name(size_t number, const char *area);

/* patch_text.c: patch @number, of group @g, with @cc's lines (or NULL). */
void write_patch(FILE *f, const struct series *s, size_t number,
		 const struct group *g, const char *cc);

/*
 * patch_text.c: the cover letter: why, the counts, the files left alone,
 * the changes since the previous version.
 */
void write_cover(FILE *f, const struct series *s);

#endif /* KMS_AUDIT_SERIES_H */
