/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The annotation rules of docs/DESIGN.md / FORMAT.md section 4, for the
 * inspector: which attribution an address has, and how it prints.
 */
#ifndef KMS_ANNOTATE_H
#define KMS_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <kms/blob.h>

/*
 * The object entry for @addr (a link-time address; @text_address is _text),
 * or KMS_NONE.  @cursor remembers the last range: walking addresses in
 * order costs O(1) each.  Start it at KMS_NONE.
 */
uint32_t kms_address_object(const struct kms_tables *t, uint64_t text_address,
			    uint64_t addr, uint32_t *cursor);

/*
 * Print object @obj's annotation: @sep, then "[m1] [m2]" and " {name}" (or
 * "{name}" alone).  Prints nothing for KMS_NONE.
 */
void kms_print_object(FILE *f, const struct kms_tables *t, uint32_t obj,
		      const char *sep);

/*
 * The same into @buf: "[m1] [m2] {name}", "" for KMS_NONE.  @modules_only
 * leaves out the name.  Truncates to @size like snprintf().
 */
void kms_format_object(char *buf, size_t size, const struct kms_tables *t,
		       uint32_t obj, bool modules_only);

#endif /* KMS_ANNOTATE_H */
