/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdict lines of the conformance judges (FORMAT.md 7), written once
 * for kms-judge (the C library) and kms-kernel-judge (the kernel's parser):
 *
 *   NAME accept sections=C ranges=N attributions=M modules=K modlist-words=W strtab=S image=I
 *   NAME refuse CLASS[<TAB>the reader's message]

 *
 * NAME is the file's name without directory and ".kms".
 */
#ifndef KMS_CONFORMANCE_VERDICT_H
#define KMS_CONFORMANCE_VERDICT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A reader's message containing @text is refused for @reason. */
struct verdict_reason {
	const char *text;
	const char *reason;
};

struct verdict_counts {
	uint32_t sections, ranges, attributions, modules, modlist_words;
	uint32_t strtab;
	size_t image;
};


/* The class of @message by the reader's table, the first match wins. */
static inline const char *verdict_reason_of(const struct verdict_reason *r,
					    size_t n, const char *message)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(message, r[i].text))
			return r[i].reason;
	return "unclassified";
}

static inline int verdict_name_len(const char *path, const char **name)
{
	const char *base = strrchr(path, '/');
	int len;

	*name = base ? base + 1 : path;
	len = strlen(*name);
	return len > 4 && !strcmp(*name + len - 4, ".kms") ? len - 4 : len;
}

static inline void verdict_accept(const char *path,
				  const struct verdict_counts *c)
{
	const char *name;
	int len = verdict_name_len(path, &name);

	printf("%.*s accept sections=%u ranges=%u attributions=%u modules=%u modlist-words=%u strtab=%u image=%zu\n",
	       len, name, c->sections, c->ranges, c->attributions, c->modules,
	       c->modlist_words, c->strtab, c->image);
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

#endif /* KMS_CONFORMANCE_VERDICT_H */
