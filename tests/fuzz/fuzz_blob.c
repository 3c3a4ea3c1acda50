// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the note decoder: the input is a file as `kallmodsyms -t` reads it,
 * a note record (sidecar) or a bare blob.  An accepted blob is walked
 * through every accessor, which the decoder promises is safe.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/note.h>
#include <kms/format.h>
#include <kms/tables.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Range @i of section @k is where a lookup of its start finds it: with no
 * hint, with the previous range as the hint (a walk in order) and with a
 * range elsewhere.
 */
static void check_found(const struct kms_tables *t, uint32_t k, uint32_t i)
{
	unsigned int base = kms_class_base(t->sections[k].cls);
	uint32_t start = kms_range_start(t, i), found;
	uint32_t hints[] = { i ? i - 1 : KMS_NONE, t->nr_ranges - 1 - i };

	if (kms_tables_find(t, base, start, &found) != i || found != k)
		abort();
	for (size_t h = 0; h < sizeof(hints) / sizeof(hints[0]); h++)
		if (kms_tables_find_hinted(t, base, start, &hints[h]) != i ||
		    hints[h] != i)
			abort();
}

static void walk(const struct kms_tables *t)
{
	volatile size_t sum = 0;
	uint32_t i, k;

	for (k = 0; k < t->nr_sections; k++)
		for (i = t->sections[k].first;
		     i < t->sections[k].first + t->sections[k].nr_ranges; i++)
			check_found(t, k, i);
	for (i = 0; i < t->nr_ranges; i++) {
		uint32_t obj = kms_range_object(t, i);

		sum += kms_range_end(t, i) - kms_range_start(t, i);
		if (obj == 0xffffffffu)
			continue;
		if (kms_object_name(t, obj))
			sum += strlen(kms_object_name(t, obj));
		if (kms_object_modlist(t, obj) == 0xffffffffu)
			continue;
		for (k = 0; k < kms_modlist_count(t, kms_object_modlist(t, obj)); k++)
			sum += strlen(kms_modlist_name(t, kms_object_modlist(t, obj), k));
	}
	for (k = 0; k < t->nr_sections; k++) {
		const struct kms_section *sec = &t->sections[k];
		unsigned int base = kms_class_base(sec->cls);
		uint32_t found;

		if (kms_tables_find(t, base, sec->start, &found) != sec->first ||
		    found != k)
			abort();
		(void)kms_tables_find(t, base, sec->end, NULL);
	}
	(void)kms_tables_find_range(t, 0);
	(void)kms_tables_find(t, KMS_BASE_PERCPU, 0, NULL);
}

static void decode(const void *blob, size_t size)
{
	struct kms_tables *t;
	struct kms_error *err = kms_blob_decode(blob, size, "fuzz", &t);

	if (err) {
		kms_error_destroy(err);
		return;
	}
	walk(t);
	kms_tables_destroy(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const void *desc;
	size_t desc_size;
	struct kms_error *err;

	decode(data, size);
	err = kms_note_find(data, size, "fuzz", &desc, &desc_size);
	if (err)
		kms_error_destroy(err);
	else if (desc)
		decode(desc, desc_size);
	return 0;
}
