/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallmodsyms-audit --tree-wide's state, private to its files:
 *   treewide.c           the driver: reads each child's answers into
 *                        records, notes the variants left out;
 *   treewide_arches.c    the variants (architectures, 32/64-bit) asked for
 *                        and their scratch directories;
 *   treewide_children.c  one child process per variant, --jobs at a time:
 *                        configure, analyse, write the answers;
 *   treewide_report.c    the records merged per source file: the listing,
 *                        -j or -c.
 */
#ifndef KMS_AUDIT_TREEWIDE_STATE_H
#define KMS_AUDIT_TREEWIDE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <kms/error.h>
#include <kms/strmap.h>

#include "exact.h"
#include "treewide.h"

struct variant {
	char *name;		/* what --arch and the listing say */
	char *srcarch;		/* its directory in arch/ */
	const char *arch;	/* ARCH for make and kconfig */
	const char *allconfig;	/* fragment, or NULL */
	char *dir;		/* SCRATCH/name */
	bool answered;
};

/* One object on one architecture. */
struct record {
	uint32_t object;	/* in the objects map */
	uint32_t variant;
	int class;		/* enum audit_class; -1: a module */
	char *why;
};

struct treewide {
	const struct treewide_options *o;
	char *scratch;
	struct variant *variants;
	size_t nr_variants, variants_cap;
	struct kms_strmap objects;
	struct record *records;
	size_t nr_records, records_cap;
};

/*
 * Every variant of SRCTREE/arch that o->arches selects, into t->variants,
 * each with its directory under t->scratch; an unknown name in --arch,
 * or none at all, is an error.
 */
struct kms_error *treewide_list_variants(struct treewide *t);

/* "SCRATCH/name/FILE", or NULL when out of memory. */
char *treewide_variant_file(const struct variant *v, const char *file);

/*
 * Each variant in a child process, o->jobs at a time: its answers in
 * SCRATCH/name/kms-audit, or its error in kms-audit.err; v->answered
 * says which.  An error only when the children cannot be run.
 */
struct kms_error *treewide_run_variants(struct treewide *t);

/*
 * The listing of t->records (sorted here, by object) on stdout: each
 * object that no variant builds as a module and no Makefile line can
 * make one (@x; a note on @notes for those left out so).
 */
void treewide_report(struct treewide *t, const struct exact *x, FILE *notes);

#endif /* KMS_AUDIT_TREEWIDE_STATE_H */
