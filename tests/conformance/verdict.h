/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict lines of the conformance judges (FORMAT.md 7), written once
 * for kms-judge (the C library) and kms-kernel-judge (the kernel's parser):
 *
 *   NAME accept sections=C ranges=N attributions=M modules=K modlist-words=W strtab=S image=I pieces=P paths=Q paths-image=Z init-pieces=P2 init-paths=Q2 init-paths-image=Z2
 *   NAME at 0xADDR TYPES[ ANNOTATION]	(after an accept, one a probe)
 *   NAME path 0xADDR PATH		(after those, one a path probe)
 *   NAME refuse CLASS[<TAB>the reader's message]
 *
 * NAME is the file's name without directory and ".kms".  The probes and
 * the bases they are read against are FORMAT.md 7's: each judge collects
 * them from its own tables (verdict_probe*()), asks its own reader for
 * the annotation of each of VERDICT_TYPES there, and prints the line with
 * verdict_annotation().
 */
#ifndef KMS_CONFORMANCE_VERDICT_H
#define KMS_CONFORMANCE_VERDICT_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct verdict_counts {
	uint32_t sections, ranges, attributions, modules, modlist_words;
	uint32_t strtab;
	size_t image;
};


/* Option @opt at argv[*@i]: true, and *@i moved past it, if it is there. */
static inline int verdict_option(int argc, char **argv, int *i,
				 const char *opt)
{
	if (*i >= argc || strcmp(argv[*i], opt))
		return 0;
	++*i;
	return 1;
}

static inline int verdict_name_len(const char *path, const char **name)
{
	const char *base = strrchr(path, '/');
	int len;

	*name = base ? base + 1 : path;
	len = strlen(*name);
	return len > 4 && !strcmp(*name + len - 4, ".kms") ? len - 4 : len;
}

/*
 * What the paths images (FORMAT.md 3.9) hold: their headers' counts and
 * sizes, [0] the paths image's, [1] the init paths image's (all 0 if the
 * blob has none).
 */
struct verdict_paths {
	uint32_t pieces, paths;
	size_t paths_image;
};

/* The accept line; without the paths fields if @pc is NULL. */
static inline void verdict_accept_paths(const char *path,
					const struct verdict_counts *c,
					const struct verdict_paths pc[2])
{
	const char *name;
	int len = verdict_name_len(path, &name);

	printf("%.*s accept sections=%u ranges=%u attributions=%u modules=%u modlist-words=%u strtab=%u image=%zu",
	       len, name, c->sections, c->ranges, c->attributions, c->modules,
	       c->modlist_words, c->strtab, c->image);
	if (pc)
		printf(" pieces=%u paths=%u paths-image=%zu init-pieces=%u init-paths=%u init-paths-image=%zu",
		       pc[0].pieces, pc[0].paths, pc[0].paths_image,
		       pc[1].pieces, pc[1].paths, pc[1].paths_image);
	putchar('\n');
}

static inline void verdict_accept(const char *path,
				  const struct verdict_counts *c)
{
	verdict_accept_paths(path, c, NULL);
}

/* The path line of probe @addr of @path: @p, or "-" for none. */
static inline void verdict_path(const char *path, uint64_t addr,
				const char *p)
{
	const char *name;
	int len = verdict_name_len(path, &name);

	printf("%.*s path 0x%" PRIx64 " %s\n", len, name, addr, p ? p : "-");
}

/* The refusal of @path, with @message (one line, a trailing \n dropped)
 * after a tab when @verbose. */
static inline void verdict_refuse(const char *path, const char *reason,
				  const char *message, int verbose)
{
	const char *name;
	int len = verdict_name_len(path, &name);
	int mlen = strlen(message);

	if (mlen && message[mlen - 1] == '\n')
		mlen--;
	printf("%.*s refuse %s", len, name, reason);
	if (verbose)
		printf("\t%.*s", mlen, message);
	putchar('\n');
}

/* Where the judges place _text and __per_cpu_start (FORMAT.md 7). */
#define VERDICT_TEXT		0x0ul
#define VERDICT_PER_CPU_START	0x40ul

/* The symbol types each probe is asked about, in the order printed. */
#define VERDICT_TYPES		"tdA"
#define VERDICT_NR_TYPES	3

/* A set of probe addresses, each below 2^32. */
struct verdict_probes {
	uint64_t *addr;
	size_t nr, cap;
};

static inline void verdict_probe(struct verdict_probes *p, uint64_t addr)
{
	if (addr > UINT32_MAX)
		return;
	if (p->nr == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->addr = realloc(p->addr, p->cap * sizeof(*p->addr));
		if (!p->addr)
			abort();
	}
	p->addr[p->nr++] = addr;
}

/*
 * The probes of a section at [@start, @end) from @base (its class's), but
 * for its ranges' starts: the byte before it, its last byte, its end.
 */
static inline void verdict_probe_section(struct verdict_probes *p,
					 uint64_t base, uint32_t start,
					 uint32_t end)
{
	if (base + start)
		verdict_probe(p, base + start - 1);
	verdict_probe(p, base + end - 1);
	verdict_probe(p, base + end);
}

static inline int verdict_compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort @p and drop repeats. */
static inline void verdict_probes_sort(struct verdict_probes *p)
{
	size_t i, n = 0;

	if (!p->nr)
		return;
	qsort(p->addr, p->nr, sizeof(*p->addr), verdict_compare_u64);
	for (i = 1; i < p->nr; i++)
		if (p->addr[i] != p->addr[n])
			p->addr[++n] = p->addr[i];
	p->nr = n + 1;
}

/*
 * The annotation line of probe @addr of @path: @ann[k] is what a symbol of
 * type VERDICT_TYPES[k] gets there ("" for nothing).  Types that get
 * different annotations break FORMAT.md 4: the line then shows each.
 */
static inline void verdict_annotation(const char *path, uint64_t addr,
				      const char *const ann[VERDICT_NR_TYPES])
{
	const char *name, *first = NULL;
	int len = verdict_name_len(path, &name), k, mixed = 0;
	char types[VERDICT_NR_TYPES + 1];
	int n = 0;

	for (k = 0; k < VERDICT_NR_TYPES; k++) {
		if (!*ann[k])
			continue;
		if (first && strcmp(first, ann[k]))
			mixed = 1;
		first = first ? first : ann[k];
		types[n++] = VERDICT_TYPES[k];
	}
	types[n] = '\0';
	printf("%.*s at 0x%" PRIx64, len, name, addr);
	if (mixed) {
		for (k = 0; k < VERDICT_NR_TYPES; k++)
			printf(" %c=\"%s\"", VERDICT_TYPES[k], ann[k]);
		putchar('\n');
	} else if (first) {
		printf(" %s %s\n", types, first);
	} else {
		printf(" -\n");
	}
}

#endif /* KMS_CONFORMANCE_VERDICT_H */
