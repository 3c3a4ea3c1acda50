// SPDX-License-Identifier: GPL-2.0
/*
 * perf's verdict on conformance corpus files (FORMAT.md 7): the note
 * decoder of the series' perf patch (tools/perf/util/kallmodsyms.c as
 * 0015 creates it, extracted by tests/fuzz/extract-kernel.sh), compiled
 * with HAVE_ZSTD_SUPPORT against tests/conformance/perfshim for the two
 * perf headers it includes.  Each FILE is read as perf reads a sidecar
 * beside vmlinux (note records, little-endian); the reason of a refusal
 * is the decoder's own (kallmodsyms__reason_name()), never read from its
 * message; -v adds the message, -a an accepted file's annotation lines,
 * by the decoder's kallmodsyms__symbol_object() and
 * kallmodsyms__snprintf().
 *
 *   kms-perf-judge [-v] [-a] FILE...
 */
#define HAVE_ZSTD_SUPPORT
#include "util/kallmodsyms.c"

#include <kms/util.h>

#include "verdict.h"

static void probes_of(const struct kallmodsyms *t, struct verdict_probes *p)
{
	u32 k, i;

	for (k = 0; k < t->nr_sections; k++) {
		const struct kallmodsyms_section *s = &t->sections[k];
		uint64_t base = class_base(s->cls) == KMS_BASE_PERCPU ?
			VERDICT_PER_CPU_START : VERDICT_TEXT;

		verdict_probe_section(p, base, s->start, s->end);
		for (i = s->first; i < s->first + s->nr_ranges; i++)
			verdict_probe(p, base + range_start(t, i));
	}
	verdict_probes_sort(p);
}

static void annotations(const char *path, const struct kallmodsyms *t)
{
	char buf[VERDICT_NR_TYPES][4096];
	const char *ann[VERDICT_NR_TYPES];
	struct verdict_probes p = { 0 };
	size_t i;
	int k;

	probes_of(t, &p);
	for (k = 0; k < VERDICT_NR_TYPES; k++)
		ann[k] = buf[k];
	for (i = 0; i < p.nr; i++) {
		for (k = 0; k < VERDICT_NR_TYPES; k++)
			kallmodsyms__snprintf(t, kallmodsyms__symbol_object(t,
					VERDICT_TEXT, VERDICT_PER_CPU_START,
					p.addr[i], VERDICT_TYPES[k]),
				buf[k], sizeof(buf[k]));
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
		enum kallmodsyms_reason reason;
		struct kallmodsyms *t = NULL;
		const void *desc;
		size_t size, desc_size;
		struct kms_error *err;
		char msg[512] = "no kallmodsyms note";
		char *buf;

		err = kms_read_file(argv[i], 0, &buf, &size);
		if (err) {
			fprintf(stderr, "kms-perf-judge: %s\n", err->message);
			return 1;
		}
		reason = kallmodsyms__find_note(buf, size, true, &desc,
						&desc_size);
		if (reason == KMS_OK)
			t = kallmodsyms__decode(desc, desc_size, &reason, msg,
						sizeof(msg));
		if (t) {
			verdict_accept(argv[i], &(struct verdict_counts){
				t->nr_sections, t->nr_ranges, t->nr_objects,
				t->nr_modules, t->nr_modlist_words,
				t->strtab_size, t->image_size });
			if (annotate)
				annotations(argv[i], t);
		} else {
			verdict_refuse(argv[i], kallmodsyms__reason_name(reason),
				       msg, verbose);
		}
		kallmodsyms__delete(t);
		free(buf);
	}
	return fflush(stdout) ? 1 : 0;
}
