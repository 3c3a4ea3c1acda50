/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The annotation rule (FORMAT.md section 4): which object entry of a
 * decoded table a core-kernel symbol belongs to, and how that entry
 * prints ("[m1] [m2] {name}").  The one C home of the rule: the inspector,
 * the crash extension and the conformance judge call it.
 *
 * A symbol is an address and its kallsyms type letter.  The per-CPU
 * sections decide first, whatever the type, when __per_cpu_start is known
 * and the address is at or above it: a per-CPU section holding the offset
 * gives its range's object, a gap included.  Otherwise an absolute symbol
 * (A, a) gets nothing; any other is looked up in the _text-based sections,
 * where the executable classes (text, init text) annotate only the text
 * types (t, T, w, W) and the other classes any type.  An address in no
 * section, or in a no-object range, gets KMS_NONE.
 */
#ifndef KMS_ANNOTATE_H
#define KMS_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kms_tables;	/* kms/tables.h */

/* Is this a type letter the executable classes annotate (t T w W)? */
static inline int kms_is_text_type(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/* What the classes' offsets count from, as link-time (or runtime) addresses. */
struct kms_bases {
	uint64_t text;		/* _text */
	uint64_t percpu;	/* __per_cpu_start, when has_percpu */
	bool has_percpu;	/* false: per-CPU sections are never looked at */
};

/*
 * The object entry of a symbol of type @type at @addr, or KMS_NONE, by the
 * rule above.  @cursor (may be NULL) remembers the last _text-based range:
 * walking addresses in order costs O(1) each.  Start it at KMS_NONE.
 */
uint32_t kms_symbol_object(const struct kms_tables *t,
			   const struct kms_bases *bases, uint64_t addr,
			   char type, uint32_t *cursor);

/*
 * The object entry of @addr in the _text-based sections, whatever their
 * class (@text_address is _text), or KMS_NONE; @cursor as above.  For
 * text symbols, and for comparing two tables range by range.
 */
uint32_t kms_address_object(const struct kms_tables *t, uint64_t text_address,
			    uint64_t addr, uint32_t *cursor);

/*
 * Print object @obj's annotation: @sep, then "[m1] [m2]" and " {name}" (or
 * "{name}" alone).  Prints nothing, not even @sep, for KMS_NONE or an
 * entry with neither a module list nor a name.
 */
void kms_print_object(FILE *f, const struct kms_tables *t, uint32_t obj,
		      const char *sep);

/*
 * The same into @buf, without a separator: "[m1] [m2] {name}", "" for
 * nothing.  @modules_only leaves out the name.  Truncates to @size like
 * snprintf().
 */
void kms_format_object(char *buf, size_t size, const struct kms_tables *t,
		       uint32_t obj, bool modules_only);

/*
 * Whether @t describes more than code (kallmodsyms-gen --all-classes):
 * then data symbols may be annotated too.
 */
bool kms_tables_all_classes(const struct kms_tables *t);

#endif /* KMS_ANNOTATE_H */
