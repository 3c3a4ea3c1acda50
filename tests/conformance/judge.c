// SPDX-License-Identifier: GPL-2.0
/*
 * The C library's verdict on conformance corpus files (FORMAT.md 7): each
 * FILE is loaded as the inspector loads `-t FILE` (kms_tables_load) and
 * its verdict line printed (verdict.h).  -v adds the library's message
 * after a refusal.
 *
 *   kms-judge [-v] FILE...
 */
#include <kms/source.h>

#include "verdict.h"

/* The library's messages, by reason class: the one place they are mapped. */
static const struct verdict_reason reasons[] = {
	{ "cannot open", "no-note" },
	{ "empty file", "no-note" },
	{ "not an ELF file, a note file or a kallmodsyms blob", "no-note" },
	{ "no kallmodsyms note", "no-note" },
	{ "runs past the end of its", "no-note" },
	{ "shorter than the 32-byte header", "bad-header" },
	{ "note: bad magic", "bad-header" },
	{ "note: header size", "bad-header" },
	{ "note: flags ", "bad-header" },
	{ "note: reserved header fields", "bad-header" },
	{ "payload bytes, the note holds", "bad-header" },
	{ "after the payload is not zero", "bad-header" },
	{ "note: implausible image size", "bad-header" },
	{ "note: format version", "bad-version" },
	{ "note: payload is not", "bad-frame" },
	{ "zstd frame does not declare the image size", "bad-frame" },
	{ "bytes after the zstd frame", "bad-frame" },
	{ "note: zstd: ", "bad-zstd" },
	{ "note: decompressed to", "bad-zstd" },
	{ "is not aligned", "bad-offset" },
	{ "lie outside the", "bad-offset" },
	{ " overlap ", "overlap" },
	{ "string table is empty or not NUL-terminated", "bad-strtab" },
	{ "is not a printable character", "bad-strtab" },
	{ "note: module list ", "bad-modlist" },
	{ "note: object ", "bad-object" },
	{ "has unknown class", "unknown-class" },
	{ "note: section", "bad-section" },
	{ "note: range", "bad-range" },
};

int main(int argc, char **argv)
{
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	int i;

	for (i = 1 + verbose; i < argc; i++) {
		struct kms_tables *t;
		struct kms_error *err = kms_tables_load(argv[i], &t);

		if (err) {
			verdict_refuse(argv[i],
				       verdict_reason_of(reasons,
							 sizeof(reasons) / sizeof(reasons[0]),
							 err->message),
				       err->message, verbose);
			kms_error_destroy(err);
			continue;
		}
		verdict_accept(argv[i], &(struct verdict_counts){
			t->nr_sections, t->nr_ranges, t->nr_objects,
			t->nr_modules, t->nr_modlist_words, t->strtab_size,
			t->image_size });
		kms_tables_destroy(t);
	}
	return fflush(stdout) ? 1 : 0;
}
