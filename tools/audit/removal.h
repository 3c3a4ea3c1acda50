/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Taking MODULE_LICENSE() out of one C source: which lines go, or why the
 * file is better left to a human, and the unified diff that says so.
 */
#ifndef KMS_AUDIT_REMOVAL_H
#define KMS_AUDIT_REMOVAL_H

#include <stddef.h>
#include <stdio.h>

struct removal {
	size_t first;		/* the first line deleted, from 0 */
	size_t count;		/* how many */
};

/*
 * The lines of @text to delete: the MODULE_LICENSE(...); statement, all
 * of its lines when it spans several, and one blank line when it sat
 * between two (or before the end of the file).  NULL, or why not, and
 * then nothing is rewritten: MODULE_LICENSE() is in a macro, under
 * "#if 0" (never compiled), inside an #if that names MODULE (comments in
 * the directive do not count), only in a comment, shares a line with other
 * code, comes more than once, or the file does not end with a newline.
 */
const char *removal_find(const char *text, struct removal *ret);

/*
 * "diff --git" for @path (relative to the tree) deleting @r's lines of
 * @text, one hunk with three lines of context.
 */
void removal_diff(FILE *f, const char *path, const char *text,
		  const struct removal *r);

#endif /* KMS_AUDIT_REMOVAL_H */
