// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel parser's verdict on conformance corpus files (FORMAT.md 7):
 * kernel/kallmodsyms.c as the patch series creates it, compiled against
 * tests/fuzz/kshim like the fuzz target kernel_note, but with a main()
 * and any compiler.  Each FILE is taken as the contents of the note's
 * section (.note.kallmodsyms, or a copy of .notes: notes are skipped
 * alike) and kallmodsyms_init() runs on it as at boot; the line printed is
 * the one kms-judge prints for the C library (verdict.h), a refusal's
 * class the reason the parser recorded, never read from its log line.
 * -v adds the kernel's log line after a refusal.  -k prints instead, for
 * an accepted FILE, the bytes of the tables the kernel keeps after boot
 * ("FILE kept N"), which bench/table-size.sh reports.  -a adds an
 * accepted FILE's annotation lines, each probe shown by
 * kallmodsyms_seq_show() as /proc/kallmodsyms shows a symbol, with the
 * kshim's _text and __per_cpu_start, and its path lines, from the
 * compressed paths the kernel keeps and the init paths it reads in the
 * note until boot ends, decoded with its parser's helpers.
 *
 *   kms-kernel-judge [-v|-k] [-a] FILE...
 */
#include "kallmodsyms.c"
#include "notes.h"

#include <kms/util.h>

#include "verdict.h"

/*
 * The reason the parser records for a refusal (kallmod_reason), by the words
 * of the kernel's own list (include/linux/kallmodsyms_reasons.h); none for
 * a refusal without a class (memory).
 */
static const char *const reason_words[KALLMODSYMS_NR_REASONS] = {
#define KALLMODSYMS_REASON(name, word, ...) [KALLMODSYMS_REASON_##name] = word,
#include <linux/kallmodsyms_reasons.h>
};

static const char *reason_word(enum kallmodsyms_reason reason)
{
	return (unsigned int)reason < KALLMODSYMS_NR_REASONS &&
	       reason_words[reason] ? reason_words[reason] : "unclassified";
}

/*
 * FORMAT.md 7's probes of the tables boot kept: each range's start, walked
 * as lookups walk them, and each section's edges.
 */
static void probes_of(struct verdict_probes *p)
{
	struct kallmod_walk w;
	u32 k, i;

	for (k = 0; k < kallmod.nr_sections; k++) {
		const struct kallmod_section *s = &kallmod.sections[k];
		unsigned long base = class_base(s->cls) == KALLMOD_BASE_PERCPU ?
			(unsigned long)__per_cpu_start : (unsigned long)_text;

		verdict_probe_section(p, base, s->start, s->end);
		walk_block(&w, s->first / KALLMOD_BLOCK);
		while (w.r < s->first)
			walk_next(&w);
		for (i = 0; i < s->nr; i++) {
			if (i)
				walk_next(&w);
			verdict_probe(p, (uint64_t)base + w.start);
		}
	}
	verdict_probes_sort(p);
}

/* The annotation lines of accepted @path, as the kernel prints them. */
static void annotations(const char *path)
{
	struct kallmodsyms_cursor cursor[VERDICT_NR_TYPES];
	static struct seq_file m[VERDICT_NR_TYPES];
	const char *ann[VERDICT_NR_TYPES];
	struct verdict_probes p = { 0 };
	size_t i;
	int k;

	if ((unsigned long)_text != VERDICT_TEXT ||
	    (unsigned long)__per_cpu_start != VERDICT_PER_CPU_START)
		abort();	/* kshim.h and verdict.h disagree */
	/* All ones at first: the cursor is checked before it is used. */
	memset(cursor, 0xff, sizeof(cursor));
	probes_of(&p);
	for (i = 0; i < p.nr; i++) {
		for (k = 0; k < VERDICT_NR_TYPES; k++) {
			m[k].len = 0;
			kallmodsyms_seq_show(&m[k], p.addr[i], VERDICT_TYPES[k],
					     &cursor[k]);
			m[k].buf[m[k].len] = '\0';
			/* The TAB before the annotation is not printed. */
			ann[k] = m[k].buf + (m[k].buf[0] == '\t');
		}
		verdict_annotation(path, p.addr[i], ann);
	}
	free(p.addr);
}

/*
 * A paths image as the kept tables hold it (compressed), or the init paths
 * image as the note does, decoded with the parser's own helpers; exits if
 * it does not decode as at boot.
 */
struct judge_paths {
	struct kallmod_paths_image pi;
	void *image;		/* NULL: there is none (init paths) */
	u32 *starts;		/* restored */
	char **path;		/* each path, decoded */
};

/* The paths images: the text's and the init text's. */
#define JUDGE_NR_PATHS	2

static void *judge_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		abort();
	return p;
}

/* Decode the paths frame @frame of @size bytes, @image_size decoded. */
static void paths_decode_one(const char *file, struct judge_paths *jp,
			     const u8 *frame, u32 size, u32 image_size)
{
	int err = 0;
	u32 i, start = 0;
	const char *s;

	jp->image = kallmod_inflate(frame, size, image_size, &err);
	if (!jp->image || !paths_image_init(&jp->pi, jp->image, image_size)) {
		fprintf(stderr, "kms-kernel-judge: %s: the kept paths do not decode\n",
			file);
		exit(1);
	}
	jp->starts = judge_calloc(jp->pi.nr_pieces, sizeof(*jp->starts));
	jp->path = judge_calloc(jp->pi.nr_paths, sizeof(*jp->path));
	for (i = 0; i < jp->pi.nr_pieces; i++) {
		start += plane_value(jp->pi.starts, jp->pi.nr_pieces, 4, i);
		jp->starts[i] = start;
	}
	/*
	 * Front-coded (FORMAT.md 3.9): a byte, the count of bytes shared with
	 * the path before plus one, then the rest.  Boot checked them.
	 */
	for (i = 0, s = jp->pi.strings; i < jp->pi.nr_paths; i++) {
		size_t k = (unsigned char)s[0] - 1, rest = strlen(s + 1);

		jp->path[i] = judge_calloc(k + rest + 1, 1);
		if (k)
			memcpy(jp->path[i], jp->path[i - 1], k);
		memcpy(jp->path[i] + k, s + 1, rest);
		s += rest + 2;
	}
}

/*
 * The kept paths frame into @jp[0], and the init paths frame the kernel
 * reads in the note until boot ends, if there is one, into @jp[1].
 */
static void paths_decode(const char *file, struct judge_paths *jp)
{
	memset(jp, 0, JUDGE_NR_PATHS * sizeof(*jp));
	paths_decode_one(file, &jp[0], kallmod.paths, kallmod.paths_size,
			 kallmod.paths_image_size);
	if (kallmod.init_paths)
		paths_decode_one(file, &jp[1], kallmod.init_paths,
				 kallmod.init_paths_size,
				 kallmod.init_paths_image_size);
}

static void paths_free(struct judge_paths *jp)
{
	u32 i;
	int k;

	for (k = 0; k < JUDGE_NR_PATHS; k++) {
		for (i = 0; jp[k].path && i < jp[k].pi.nr_paths; i++)
			free(jp[k].path[i]);
		free(jp[k].path);
		free(jp[k].starts);
		vfree(jp[k].image);
	}
}

/*
 * The path of the byte at offset @off from _text, in whichever image has
 * a piece that holds it, or NULL.
 */
static const char *path_at(const struct judge_paths *jp, uint64_t off)
{
	u32 i, path;
	int k;

	for (k = 0; k < JUDGE_NR_PATHS; k++) {
		if (!jp[k].image || off >= jp[k].pi.end || off < jp[k].starts[0])
			continue;
		for (i = jp[k].pi.nr_pieces - 1; jp[k].starts[i] > off; i--)
			;
		path = piece_path(&jp[k].pi, i);
		return path < jp[k].pi.nr_paths ? jp[k].path[path] : NULL;
	}
	return NULL;
}

/* The accept line of @file, with the paths images' counts. */
static void accept(const char *file)
{
	struct judge_paths jp[JUDGE_NR_PATHS];

	paths_decode(file, jp);
	verdict_accept_paths(file, &(struct verdict_counts){
		kallmod.nr_sections, kallmod.nr_ranges, kallmod.nr_objects,
		kallmod.nr_modules, kallmod.nr_modlist_words,
		kallmod.strtab_size, kallmod.image_size },
		(struct verdict_paths[2]){
			{ jp[0].pi.nr_pieces, jp[0].pi.nr_paths,
			  kallmod.paths_image_size },
			{ jp[1].pi.nr_pieces, jp[1].pi.nr_paths,
			  jp[1].image ? kallmod.init_paths_image_size : 0 } });
	paths_free(jp);
}

/*
 * FORMAT.md 7.1's path lines of accepted @file: at each piece's first and
 * last byte, the byte before an image's first piece and an image's end,
 * of both images.
 */
static void path_lines(const char *file)
{
	struct judge_paths jp[JUDGE_NR_PATHS];
	struct verdict_probes p = { 0 };
	u32 i;
	int k;

	paths_decode(file, jp);
	for (k = 0; k < JUDGE_NR_PATHS && jp[k].image; k++) {
		const struct judge_paths *j = &jp[k];

		if (j->starts[0])
			verdict_probe(&p, VERDICT_TEXT + j->starts[0] - 1);
		for (i = 0; i < j->pi.nr_pieces; i++) {
			u32 end = i + 1 < j->pi.nr_pieces ? j->starts[i + 1] :
							    j->pi.end;

			verdict_probe(&p, VERDICT_TEXT + j->starts[i]);
			verdict_probe(&p, VERDICT_TEXT + end - 1);
		}
		verdict_probe(&p, VERDICT_TEXT + j->pi.end);
	}
	verdict_probes_sort(&p);
	for (i = 0; i < p.nr; i++)
		verdict_path(file, p.addr[i], path_at(jp, p.addr[i] - VERDICT_TEXT));
	free(p.addr);
	paths_free(jp);
}

int main(int argc, char **argv)
{
	int i = 1;
	int verbose = verdict_option(argc, argv, &i, "-v");
	int kept = !verbose && verdict_option(argc, argv, &i, "-k");
	int annotate = verdict_option(argc, argv, &i, "-a");

	for (; i < argc; i++) {
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

		kallmod_reason = KALLMODSYMS_REASON_NONE;
		kallmodsyms_init();
		if (kept && kallmod_ready)
			printf("%s kept %u\n", argv[i], kallmod.size);
		else if (kallmod_ready)
			accept(argv[i]);
		else
			verdict_refuse(argv[i], reason_word(kallmod_reason),
				       kshim_last_log, verbose);
		if (kallmod_ready && annotate) {
			annotations(argv[i]);
			path_lines(argv[i]);
		}
		kshim_reset();
	}
	return fflush(stdout) ? 1 : 0;
}
