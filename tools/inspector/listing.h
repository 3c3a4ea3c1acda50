/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The listing list prints and export --format=kallmodsyms writes: every
 * symbol of the inspector's vmlinux in /proc/kallsyms order, with the
 * attribution /proc/kallmodsyms gives it ("ADDRESS TYPE NAME\t[mod]
 * {obj}"), or the same as JSON with -j; optionally only those of one
 * built-in module or object.
 */
#ifndef KMS_LISTING_H
#define KMS_LISTING_H

#include "inspector.h"

/* The symbols listed: those whose attribution has both, when given. */
struct list_filter {
	const char *module;		/* --module: one of its modules */
	const char *objfile;		/* --objfile: its object, as printed */
};

/* Print the symbols @filter passes on stdout; 0. */
int list_symbols(struct inspector *in, const struct list_filter *filter);

#endif /* KMS_LISTING_H */
