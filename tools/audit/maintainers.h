/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel tree's MAINTAINERS file, read once, to find the section that
 * looks after a file as scripts/get_maintainer.pl does: the F:, X: and N:
 * lines of every section, the most specific match winning.  Grouping the
 * audit's files this way costs one parse instead of one get_maintainer.pl
 * run per file; the patches' Cc lines still come from get_maintainer.pl.
 */
#ifndef KMS_AUDIT_MAINTAINERS_H
#define KMS_AUDIT_MAINTAINERS_H

#include <kms/error.h>

struct maintainers;

/*
 * Read @srctree/MAINTAINERS.  A tree without one is no error: *@ret is
 * then NULL, and so is every answer below.
 */
struct kms_error *maintainers_load(const char *srctree,
				   struct maintainers **ret);

/*
 * The section that looks after @path (relative to the tree), as
 * get_maintainer.pl ranks them: the deepest matching F: pattern (a file
 * pattern counts one level deeper than its directory), N: regexes at
 * depth 0, a section whose X: matches left out; ties go to the section
 * first in the file.  -1: none.
 */
long maintainers_section(const struct maintainers *m, const char *path);

/* Its title line, "PCI SUBSYSTEM". */
const char *maintainers_name(const struct maintainers *m, long section);

void maintainers_destroy(struct maintainers *m);

#endif /* KMS_AUDIT_MAINTAINERS_H */
