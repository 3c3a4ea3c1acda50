// SPDX-License-Identifier: GPL-2.0
/* The annotation rule of FORMAT.md section 4 (kms/annotate.h). */
#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/tables.h>

/* The _text-based range holding @addr, or KMS_NONE; @cursor may be NULL. */
static uint32_t text_range(const struct kms_tables *t, uint64_t text_address,
			   uint64_t addr, uint32_t *cursor)
{
	if (addr < text_address || addr - text_address > UINT32_MAX)
		return KMS_NONE;
	return kms_tables_find_hinted(t, KMS_BASE_TEXT, addr - text_address,
				      cursor);
}

uint32_t kms_address_object(const struct kms_tables *t, uint64_t text_address,
			    uint64_t addr, uint32_t *cursor)
{
	uint32_t r = text_range(t, text_address, addr, cursor);

	return r == KMS_NONE ? KMS_NONE : kms_range_object(t, r);
}

uint32_t kms_symbol_object(const struct kms_tables *t,
			   const struct kms_bases *bases, uint64_t addr,
			   char type, uint32_t *cursor)
{
	uint32_t r, cls;

	/* Per-CPU data first: its section decides, a gap included. */
	if (bases->has_percpu && addr >= bases->percpu &&
	    addr - bases->percpu <= UINT32_MAX) {
		r = kms_tables_find(t, KMS_BASE_PERCPU, addr - bases->percpu,
				    NULL);
		if (r != KMS_NONE)
			return kms_range_object(t, r);
	}
	if (type == 'A' || type == 'a')
		return KMS_NONE;
	r = text_range(t, bases->text, addr, cursor);
	if (r == KMS_NONE)
		return KMS_NONE;
	cls = kms_range_class(t, r);
	if ((cls == KMS_CLASS_TEXT || cls == KMS_CLASS_INIT_TEXT) &&
	    !kms_is_text_type(type))
		return KMS_NONE;
	return kms_range_object(t, r);
}

/* "[m1] [m2]", then " {name}" (or "{name}" alone) unless @modules_only. */
static void write_object(FILE *f, const struct kms_tables *t, uint32_t obj,
			 bool modules_only)
{
	uint32_t list = kms_object_modlist(t, obj), n, k;
	const char *name = kms_object_name(t, obj);

	/* Pieces, not fprintf(): lookup prints this for every address. */
	n = list == KMS_NONE ? 0 : kms_modlist_count(t, list);
	for (k = 0; k < n; k++) {
		fputs(k ? " [" : "[", f);
		fputs(kms_modlist_name(t, list, k), f);
		putc(']', f);
	}
	if (name && !modules_only) {
		fputs(n ? " {" : "{", f);
		fputs(name, f);
		putc('}', f);
	}
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

bool kms_tables_all_classes(const struct kms_tables *t)
{
	for (uint32_t i = 0; i < t->nr_sections; i++)
		if (t->sections[i].cls != KMS_CLASS_TEXT &&
		    t->sections[i].cls != KMS_CLASS_INIT_TEXT)
			return true;
	return false;
}
