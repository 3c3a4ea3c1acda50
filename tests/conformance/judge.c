// SPDX-License-Identifier: GPL-2.0
/*
 * The C library's verdict on conformance corpus files (FORMAT.md 7): each
 * FILE is loaded as the inspector loads `-t FILE` (kms_tables_load) and
 * its verdict line printed (verdict.h).  The reason of a refusal is the
 * error's class (kms/error.h), named as FORMAT.md 7 names it, never read
 * from its message; -v adds the library's message after a refusal, -a an
 * accepted file's annotation lines, by the library's rule (kms/annotate.h),
 * and its path lines (kms_tables_path_at()).
 *
 *   kms-judge [-v] [-a] FILE...
 */
#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/source.h>
#include <kms/tables.h>

#include "verdict.h"

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

/*
 * FORMAT.md 7.1's path lines of @t: at each piece's first and last byte,
 * the byte before an image's first piece and an image's end, of both.
 */
static void paths(const char *path, const struct kms_tables *t)
{
	struct verdict_probes p = { 0 };
	unsigned int im;
	uint32_t i;
	size_t k;

	for (im = 0; im < KMS_NR_PATHS; im++) {
		const struct kms_paths *ps = &t->paths[im];

		if (!ps->nr_pieces)
			continue;
		if (kms_piece_start(ps, 0))
			verdict_probe(&p, VERDICT_TEXT +
				      kms_piece_start(ps, 0) - 1);
		for (i = 0; i < ps->nr_pieces; i++) {
			verdict_probe(&p, VERDICT_TEXT + kms_piece_start(ps, i));
			verdict_probe(&p, VERDICT_TEXT +
				      kms_piece_end(ps, i) - 1);
		}
		verdict_probe(&p, VERDICT_TEXT + ps->end);
	}
	verdict_probes_sort(&p);
	for (k = 0; k < p.nr; k++)
		verdict_path(path, p.addr[k],
			     kms_tables_path_at(t, p.addr[k] - VERDICT_TEXT));
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
			verdict_refuse(argv[i], kms_error_class_name(err->class),
				       err->message, verbose);
			kms_error_destroy(err);
			continue;
		}
		verdict_accept_paths(argv[i], &(struct verdict_counts){
			t->nr_sections, t->nr_ranges, t->nr_objects,
			t->nr_modules, t->nr_modlist_words, t->strtab_size,
			t->image_size }, (struct verdict_paths[2]){
			{ t->paths[0].nr_pieces, t->paths[0].nr_paths,
			  t->paths[0].image_size },
			{ t->paths[1].nr_pieces, t->paths[1].nr_paths,
			  t->paths[1].image_size } });
		if (annotate) {
			annotations(argv[i], t);
			paths(argv[i], t);
		}
		kms_tables_destroy(t);
	}
	return fflush(stdout) ? 1 : 0;
}
