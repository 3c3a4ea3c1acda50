// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz the kernel's own note parser: kernel/kallmodsyms.c as the patch
 * series creates it (extracted by extract-kernel.sh, not a copy), compiled
 * against kshim/.  The input is the contents of the note's section: it is
 * placed at the end of the area between __start_kallmodsyms and
 * __stop_kallmodsyms, after a padding note, and kallmodsyms_init() runs on
 * it as at boot.  When the kernel
 * accepts, every range of the tables it keeps is looked up and printed as
 * /proc/kallmodsyms would.
 *
 * Differential check: on the descriptor the kernel picked, the userspace
 * decoder (kms_blob_decode) must agree: a blob one accepts the other
 * accepts, with the same counts, and the ranges the kernel keeps (its own
 * compact form) are the image's, start for start and object for object.
 */
#include "kallmodsyms.c"
#include "notes.h"

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The kernel's kept objects are the image's? */
static bool same_objects(const struct kms_tables *t)
{
	u32 i, list, name;

	for (i = 0; i < t->nr_objects; i++) {
		object_entry(i, &list, &name);
		if (list != kms_get_le32(t->objects + 8 * (size_t)i) ||
		    name != kms_get_le32(t->objects + 8 * (size_t)i + 4))
			return false;
	}
	return true;
}

/* The kernel's kept ranges and sections are the image's? */
static bool same_ranges(const struct kms_tables *t)
{
	struct kallmod_walk w;
	u32 i, k;

	for (k = 0; k < kallmod.nr_sections; k++) {
		if (kallmod.sections[k].cls != t->sections[k].cls ||
		    kallmod.sections[k].nr != t->sections[k].nr_ranges ||
		    kallmod.sections[k].end != t->sections[k].end ||
		    kallmod.sections[k].first != t->sections[k].first ||
		    kallmod.sections[k].start != kms_range_start(t, t->sections[k].first))
			return false;
	}
	for (i = 0; i < kallmod.nr_ranges; i++) {
		if (i)
			walk_next(&w);
		else
			walk_block(&w, 0);
		if (w.r != i || w.start != kms_range_start(t, i) ||
		    walk_object(&w) != kms_range_object(t, i))
			return false;
	}
	return true;
}

/* @kept: the kernel kept its tables; false when it refused the note. */
static void differential(const u8 *desc, u32 size, bool kept)
{
	struct kms_tables *t = NULL;
	struct kms_error *err;

	err = kms_blob_decode(desc, size, "fuzz", &t);
	if (err) {
		/* Stricter in userspace is allowed; show where, on request. */
		if (kept && getenv("KSHIM_VERBOSE"))
			fprintf(stderr, "kernel accepts, userspace refuses: %s\n",
				err->message);
		kms_error_destroy(err);
		return;
	}
	if (!kept) {
		fprintf(stderr, "userspace accepts a blob the kernel refuses: %s\n",
			kshim_last_log);
		abort();
	}
	if (t->nr_sections != kallmod.nr_sections ||
	    t->nr_ranges != kallmod.nr_ranges ||
	    t->nr_objects != kallmod.nr_objects ||
	    t->nr_modlist_words != kallmod.nr_modlist_words ||
	    t->strtab_size != kallmod.strtab_size ||
	    t->nr_modules != kallmod.nr_modules ||
	    t->image_size != kallmod.image_size ||
	    !same_objects(t) ||
	    memcmp(t->modlists, kallmod.modlists, 4 * (size_t)t->nr_modlist_words) ||
	    memcmp(t->strtab, kallmod.strtab, t->strtab_size) ||
	    !same_ranges(t)) {
		fprintf(stderr, "kernel and userspace decode differently\n");
		abort();
	}
	kms_tables_destroy(t);
}
/* Every range's first and last byte, looked up from its section's base. */
static void show_ranges(struct seq_file *m)
{
	/* All ones at first: the cursor is checked before it is used. */
	struct kallmodsyms_cursor cursor;
	struct kallmod_walk w;
	u32 k, i;

	memset(&cursor, 0xff, sizeof(cursor));

	for (k = 0; k < kallmod.nr_sections; k++) {
		const struct kallmod_section *s = &kallmod.sections[k];
		unsigned long base = class_base(s->cls) == KALLMOD_BASE_PERCPU ?
			(unsigned long)__per_cpu_start : (unsigned long)_text;

		for (i = s->first; i < s->first + s->nr; i++) {
			u32 last;

			if (i == s->first) {
				walk_block(&w, i / KALLMOD_BLOCK);
				while (w.r < i)
					walk_next(&w);
			} else {
				walk_next(&w);
			}
			/* Starts increase: this walks nowhere. */
			last = walk_to(&w, s, w.start) - 1;
			m->len = 0;
			/* As a text symbol, then as a data symbol. */
			kallmodsyms_seq_show(m, base + w.start, 't', &cursor);
			kallmodsyms_seq_show(m, base + last, 'd', NULL);
		}
	}
}

#ifdef KSHIM_IMAGE_INPUT
/*
 * fuzz-kernel_image: the input is the uncompressed image (FORMAT.md 3),
 * wrapped here in a valid note (header, zstd frame, checksum), so that the
 * mutations reach the validation of the tables instead of the checksum.
 */
static int note_of_image(const uint8_t *image, size_t size, uint8_t **ret,
			 size_t *ret_size)
{
	size_t bound = ZSTD_compressBound(size), frame;
	uint8_t *note = malloc(24 + 32 + bound + 4);
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	u32 desc_size;

	if (!note || !cctx)
		abort();
	/* The frame checksum is the note's checksum (FORMAT.md 2). */
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	frame = ZSTD_compress2(cctx, note + 24 + 32, bound, image, size);
	ZSTD_freeCCtx(cctx);
	if (ZSTD_isError(frame))
		abort();
	desc_size = 32 + frame;
	memset(note, 0, 24 + 32);
	memcpy(note, &(Elf32_Nhdr){ 12, desc_size, KMS_NOTE_TYPE }, 12);
	memcpy(note + 12, KMS_NOTE_NAME, 12);
	memcpy(note + 24, KMS_MAGIC, 4);
	note[28] = KMS_VERSION;
	note[30] = KMS_HEADER_SIZE;
	note[32] = KMS_FLAG_ZSTD;
	memcpy(note + 36, &(u32){ frame }, 4);
	memcpy(note + 40, &(u32){ size }, 4);
	*ret = note;
	*ret_size = (24 + desc_size + 3) & ~(size_t)3;
	memset(note + 24 + desc_size, 0, *ret_size - 24 - desc_size);
	return 0;
}

static int test_note(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *note;
	size_t note_size;

	if (size > (1u << 19))
		return -1;
	note_of_image(data, size, &note, &note_size);
	test_note(note, note_size);
	free(note);
	return 0;
}

static int test_note(const uint8_t *data, size_t size)
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#endif
{
	const u8 *desc;
	u32 desc_size = 0, i;
	bool kept;

	if (!kshim_place_notes(data, size))
		return -1;

	desc = find_note(&desc_size);
	kallmodsyms_init();
	kept = kallmodsyms_available();
	if (kept) {
		struct seq_file *m = malloc(sizeof(*m));

		show_ranges(m);
		free(m);
	}
	if (desc)
		differential(desc, desc_size, kept);
	kshim_reset();
	return 0;
}
