// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel parser's verdict on conformance corpus files (FORMAT.md 7):
 * kernel/kallmodsyms.c as the patch series creates it, compiled against
 * tests/fuzz/kshim like the fuzz target kernel_note, but with a main()
 * and any compiler.  Each FILE is taken as the contents of the note's
 * section (.note.kallmodsyms, or a copy of .notes: notes are skipped
 * alike) and kallmodsyms_init() runs on it as at boot; the line printed is
 * the one kms-judge prints for the C library (verdict.h).  -v adds the
 * kernel's log line after a refusal.  -k prints instead, for an accepted
 * FILE, the bytes of the tables the kernel keeps after boot ("FILE kept
 * N"), which bench/table-size.sh reports.
 *
 *   kms-kernel-judge [-v|-k] FILE...
 */
#include "kallmodsyms.c"
#include "notes.h"

#include <kms/util.h>

#include "verdict.h"

/* The kernel's log lines, by reason class: the one place they are mapped. */
static const struct verdict_reason reasons[] = {
	{ "disabled: no kallmodsyms note", "no-note" },
	{ "disabled: bad note header", "bad-header" },
	{ "disabled: format version", "bad-version" },
	{ "disabled: payload is not one zstd frame", "bad-frame" },
	{ "disabled: zstd frame does not decompress", "bad-zstd" },
	{ "lie outside the image", "bad-offset" },
	{ "disabled: tables overlap", "overlap" },
	{ "disabled: string table", "bad-strtab" },
	{ "disabled: module list", "bad-modlist" },
	{ "disabled: object", "bad-object" },
	{ "has unknown class", "unknown-class" },
	{ "disabled: section", "bad-section" },
	{ "disabled: range", "bad-range" },
};

int main(int argc, char **argv)
{
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	int kept = argc > 1 && !strcmp(argv[1], "-k");
	int i;

	for (i = 1 + verbose + kept; i < argc; i++) {
		struct kms_error *err;
		char *data;
		size_t size;

		err = kms_read_file(argv[i], KSHIM_NOTES_AREA - 12, &data,
				    &size);
		if (err) {
			fprintf(stderr, "kms-kernel-judge: %s\n", err->message);
			return 1;
		}
		kshim_place_notes(data, size);
		free(data);

		kallmodsyms_init();
		if (kept && kms_ready)
			printf("%s kept %u\n", argv[i], kms.size);
		else if (kms_ready)
			verdict_accept(argv[i], &(struct verdict_counts){
				kms.nr_sections, kms.nr_ranges,
				kms.nr_objects, kms.nr_modules,
				kms.nr_modlist_words, kms.strtab_size,
				kms.image_size });
		else
			verdict_refuse(argv[i],
				       verdict_reason_of(reasons,
							 sizeof(reasons) / sizeof(reasons[0]),
							 kshim_last_log),
				       kshim_last_log, verbose);
		kshim_reset();
	}
	return fflush(stdout) ? 1 : 0;
}
