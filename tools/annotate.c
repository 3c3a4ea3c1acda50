// SPDX-License-Identifier: GPL-2.0
#include <kms/format.h>

#include "annotate.h"

/* Range @r is in a _text-based section and holds @off. */
static int range_holds(const struct kms_tables *t, uint32_t r, uint32_t off)
{
	return r < t->nr_ranges &&
	       kms_class_base(t->sections[kms_range_section(t, r)].cls) ==
	       KMS_BASE_TEXT &&
	       kms_range_start(t, r) <= off && off < kms_range_end(t, r);
}

uint32_t kms_address_object(const struct kms_tables *t, uint64_t text_address,
			    uint64_t addr, uint32_t *cursor)
{
	uint64_t off64 = addr - text_address;
	uint32_t off, r;

	if (addr < text_address || off64 > UINT32_MAX)
		return KMS_NONE;
	off = off64;
	r = *cursor;
	if (r != KMS_NONE && range_holds(t, r, off))
		return kms_range_object(t, r);
	if (r != KMS_NONE && range_holds(t, r + 1, off)) {
		*cursor = r + 1;
		return kms_range_object(t, r + 1);
	}
	r = kms_tables_find_range(t, off);
	if (r == KMS_NONE)
		return KMS_NONE;
	*cursor = r;
	return kms_range_object(t, r);
}

/* "[m1] [m2]", then " {name}" (or "{name}" alone) unless @modules_only. */
static void write_object(FILE *f, const struct kms_tables *t, uint32_t obj,
			 bool modules_only)
{
	uint32_t list = kms_object_modlist(t, obj), n, k;
	const char *name = kms_object_name(t, obj);

	n = list == KMS_NONE ? 0 : kms_modlist_count(t, list);
	for (k = 0; k < n; k++)
		fprintf(f, "%s[%s]", k ? " " : "", kms_modlist_name(t, list, k));
	if (name && !modules_only)
		fprintf(f, "%s{%s}", n ? " " : "", name);
}

void kms_print_object(FILE *f, const struct kms_tables *t, uint32_t obj,
		      const char *sep)
{
	/* An entry with neither says what plain core-kernel text says. */
	if (obj == KMS_NONE || (kms_object_modlist(t, obj) == KMS_NONE &&
				!kms_object_name(t, obj)))
		return;
	fputs(sep, f);
	write_object(f, t, obj, false);
}

void kms_format_object(char *buf, size_t size, const struct kms_tables *t,
		       uint32_t obj, bool modules_only)
{
	FILE *f;

	if (!size)
		return;
	buf[0] = '\0';
	if (obj == KMS_NONE)
		return;
	f = fmemopen(buf, size, "w");
	if (!f)
		return;
	write_object(f, t, obj, modules_only);
	fclose(f);
	buf[size - 1] = '\0';
}
