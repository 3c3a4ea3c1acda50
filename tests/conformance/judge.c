// SPDX-License-Identifier: GPL-2.0
/*
 * The C library's verdict on conformance corpus files (FORMAT.md 7): each
 * FILE is loaded as the inspector loads `-t FILE` (kms_tables_load) and
 * its verdict line printed (verdict.h).  -v adds the library's message
 * after a refusal, -a an accepted file's annotation lines, by the
 * library's rule (kms/annotate.h).
 *
 *   kms-judge [-v] [-a] FILE...
 */
#include <kms/annotate.h>
#include <kms/format.h>
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

/* FORMAT.md 7's probes of @t: each range's start, each section's edges. */
static void probes_of(const struct kms_tables *t, struct verdict_probes *p)
{
	uint32_t k, i;

	for (k = 0; k < t->nr_sections; k++) {
		const struct kms_section *s = &t->sections[k];
		uint64_t base = kms_class_base(s->cls) == KMS_BASE_PERCPU ?
			VERDICT_PER_CPU_START : VERDICT_TEXT;

		verdict_probe_section(p, base, s->start, s->end);
		for (i = s->first; i < s->first + s->nr_ranges; i++)
			verdict_probe(p, base + kms_range_start(t, i));
	}
	verdict_probes_sort(p);
}

/* The annotation lines of accepted @path's tables @t. */
static void annotations(const char *path, const struct kms_tables *t)
{
	static const struct kms_bases bases = {
		VERDICT_TEXT, VERDICT_PER_CPU_START, true
	};
	uint32_t cursor[VERDICT_NR_TYPES];
	char buf[VERDICT_NR_TYPES][4096];
	const char *ann[VERDICT_NR_TYPES];
	struct verdict_probes p = { 0 };
	size_t i;
	int k;

	probes_of(t, &p);
	for (k = 0; k < VERDICT_NR_TYPES; k++) {
		cursor[k] = KMS_NONE;
		ann[k] = buf[k];
	}
	for (i = 0; i < p.nr; i++) {
		for (k = 0; k < VERDICT_NR_TYPES; k++)
			kms_format_object(buf[k], sizeof(buf[k]), t,
					  kms_symbol_object(t, &bases, p.addr[i],
							    VERDICT_TYPES[k],
							    &cursor[k]),
					  false);
		verdict_annotation(path, p.addr[i], ann);
	}
	free(p.addr);
}

int main(int argc, char **argv)
{
	int i = 1;
	int verbose = verdict_option(argc, argv, &i, "-v");
	int annotate = verdict_option(argc, argv, &i, "-a");

	for (; i < argc; i++) {
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
		if (annotate)
			annotations(argv[i], t);
		kms_tables_destroy(t);
	}
	return fflush(stdout) ? 1 : 0;
}
