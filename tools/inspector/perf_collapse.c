// SPDX-License-Identifier: GPL-2.0
/*
 * perf --collapse: stackcollapse-perf.pl's rules, on the annotated text.
 * A sample is its header line (the process, the event and its period),
 * its frames, leaf first, and a blank line; it adds its period to the
 * stack "process;root;...;leaf", its functions tidied as the script tidies
 * them.  Only the first event met is counted.  The stacks are printed
 * sorted, each with its count, for flamegraph.pl.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/util.h>

#include "perf.h"

/*
 * Its sample header, /^(\S.+?)\s+(\d+)/ and "/TID" (slashes and digits),
 * then white space: the length of the
 * command name, 0 if @line is none.
 */
static size_t header_comm(const char *line)
{
	size_t i;

	if (!line[0] || isspace((unsigned char)line[0]))
		return 0;
	for (i = 2; line[i - 1]; i++) {
		const char *p = line + i;

		if (!isspace((unsigned char)*p))
			continue;
		while (isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			continue;
		while (isdigit((unsigned char)*p) || *p == '/')
			p++;
		if (isspace((unsigned char)*p))
			return i;
	}
	return 0;
}

/*
 * Its event, /:\s*(\d+)*\s+(\S+):\s*$/: false if the header has none; the
 * period, 1 when there is none.
 */
static bool header_event(const char *line, const char **ret_event,
			 size_t *ret_len, uint64_t *ret_period)
{
	const char *end = line + strlen(line), *ev, *p;

	while (end > line && isspace((unsigned char)end[-1]))
		end--;
	if (end == line || end[-1] != ':')
		return false;
	for (ev = end - 1; ev > line && !isspace((unsigned char)ev[-1]); ev--)
		;
	if (ev == end - 1 || ev == line)
		return false;
	for (p = ev; p > line && isspace((unsigned char)p[-1]); p--)
		;
	*ret_period = 0;
	if (p > line && isdigit((unsigned char)p[-1])) {
		while (p > line && isdigit((unsigned char)p[-1]))
			p--;
		*ret_period = strtoull(p, NULL, 10);
	}
	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	if (p == line || p[-1] != ':')
		return false;
	*ret_event = ev;
	*ret_len = end - 1 - ev;
	if (!*ret_period)
		*ret_period = 1;
	return true;
}

/* A sample's header: its process, unless another event's. */
static struct kms_error *collapse_header(struct collapse *c, const char *line,
					 size_t comm_len)
{
	const char *event;
	uint64_t period = 1;
	size_t len, i;

	if (header_event(line, &event, &len, &period)) {
		if (!c->event) {
			c->event = strndup(event, len);
			if (!c->event)
				return &kms_error_nomem;
		} else if (strlen(c->event) != len ||
			   strncmp(c->event, event, len)) {
			return NULL;
		}
	}
	free(c->pname);
	c->pname = strndup(line, comm_len);
	if (!c->pname)
		return &kms_error_nomem;
	for (i = 0; i < comm_len; i++)
		if (c->pname[i] == ' ')
			c->pname[i] = '_';
	c->period = period;
	return NULL;
}

/* One function of a frame, tidied as $tidy_generic and $tidy_java do. */
static void tidy(char *func, const char *pname)
{
	char *p, *q;

	for (p = func; *p; p++)
		if (*p == ';')
			*p = ':';
	p = strstr(func, ".(");
	if (!p || !strstr(p + 2, ").")) {
		for (p = func; (p = strchr(p, '(')); p++)
			if (strncmp(p, "(anonymous namespace)", 21)) {
				*p = '\0';
				break;
			}
	}
	for (p = q = func; *p; p++)
		if (*p != '"' && *p != '\'')
			*q++ = *p;
	*q = '\0';
	if (!strncmp(pname, "java", 4) && strchr(func, '/') && func[0] == 'L')
		memmove(func, func + 1, strlen(func));
}

/* A stack line, /^\s*(\w+)\s*(.+) \((.*)\)/: its function(s) and DSO. */
static bool stack_line(const char *line, const char **ret_func,
		       size_t *ret_func_len, const char **ret_dso,
		       size_t *ret_dso_len)
{
	const char *p = line, *close, *open;

	while (isspace((unsigned char)*p))
		p++;
	if (!isalnum((unsigned char)*p) && *p != '_')
		return false;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	while (isspace((unsigned char)*p))
		p++;
	close = strrchr(p, ')');
	if (!close || !*p)
		return false;
	open = perf_last_paren(p + 1, close);
	if (!open)
		return false;
	*ret_func = p;
	*ret_func_len = open - p;
	*ret_dso = open + 2;
	*ret_dso_len = close - open - 2;
	return true;
}

/*
 * One function of a frame, @n bytes at @p, as the script names it: perf's
 * "[unknown]" becomes the DSO's base name in brackets; then tidied.
 */
static char *frame_piece(const struct collapse *c, const char *p, size_t n,
			 const char *dso, size_t dso_len)
{
	const char *base;
	char *piece;

	if (n != 9 || strncmp(p, "[unknown]", 9))
		piece = strndup(p, n);
	else if (dso_len == 9 && !strncmp(dso, "[unknown]", 9))
		piece = strdup("[unknown]");
	else {
		base = memrchr(dso, '/', dso_len);
		base = base ? base + 1 : dso;
		if (asprintf(&piece, "[%.*s]", (int)(dso + dso_len - base),
			     base) < 0)
			piece = NULL;
	}
	if (piece)
		tidy(piece, c->pname);
	return piece;
}

/* The functions of @func, joined by ";", as the script pushes them. */
static struct kms_error *collapse_frame(struct collapse *c, const char *func,
					size_t len, const char *dso,
					size_t dso_len)
{
	struct kms_error *err = NULL;
	size_t flen = 0, cap = 0;
	char *joined = NULL, *piece;
	const char *p, *end;

	/* s/\+0x[\da-f]+$// */
	for (p = func + len; p > func && (isdigit((unsigned char)p[-1]) ||
					  (p[-1] >= 'a' && p[-1] <= 'f')); p--)
		;
	if (p < func + len && p - func >= 3 && !strncmp(p - 3, "+0x", 3))
		len = p - 3 - func;
	if (len && func[0] == '(')
		return NULL;
	/* Inlined functions, "a->b", are one frame each. */
	for (p = func; !err && p <= func + len; p = end + 2) {
		for (end = p; end < func + len && strncmp(end, "->", 2); end++)
			;
		piece = frame_piece(c, p, end - p, dso, dso_len);
		if (!piece)
			return &kms_error_nomem;
		if (flen)
			err = perf_append(&joined, &cap, &flen, ";", 1);
		if (!err)
			err = perf_append(&joined, &cap, &flen, piece,
				     strlen(piece));
		free(piece);
	}
	if (!err && !joined)
		err = perf_append(&joined, &cap, &flen, "", 0);
	if (!err)
		err = KMS_RESERVE(c->frames, c->cap_frames, c->nr_frames + 1);
	if (err) {
		free(joined);
		return err;
	}
	c->frames[c->nr_frames++] = joined;
	return NULL;
}

/* The end of a sample: "pname;root;...;leaf" += its period. */
struct kms_error *perf_collapse_end(struct collapse *c)
{
	struct kms_error *err = NULL;
	size_t i, len = 0, cap = 0;
	char *stack = NULL;
	uint32_t index;
	int added;

	if (c->pname && c->nr_frames) {
		err = perf_append(&stack, &cap, &len, c->pname, strlen(c->pname));
		for (i = c->nr_frames; !err && i-- > 0;) {
			err = perf_append(&stack, &cap, &len, ";", 1);
			if (!err)
				err = perf_append(&stack, &cap, &len, c->frames[i],
					     strlen(c->frames[i]));
		}
		if (!err)
			err = kms_strmap_intern(&c->stacks, stack, &index,
						&added);
		if (!err && added) {
			err = KMS_RESERVE(c->counts, c->cap_counts, index + 1);
			if (!err)
				c->counts[index] = 0;
		}
		if (!err)
			c->counts[index] += c->period;
		free(stack);
	}
	for (i = 0; i < c->nr_frames; i++)
		free(c->frames[i]);
	c->nr_frames = 0;
	free(c->pname);
	c->pname = NULL;
	return err;
}

struct kms_error *perf_collapse_line(struct collapse *c, const char *line)
{
	const char *func, *dso;
	size_t comm_len, func_len, dso_len;

	if (line[0] == '#')
		return NULL;
	if (!line[0])
		return perf_collapse_end(c);
	comm_len = header_comm(line);
	if (comm_len)
		return collapse_header(c, line, comm_len);
	if (!stack_line(line, &func, &func_len, &dso, &dso_len) || !c->pname)
		return NULL;
	return collapse_frame(c, func, func_len, dso, dso_len);
}

static int compare_keys(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct kms_error *perf_collapse_print(struct collapse *c)
{
	char **keys = malloc((c->stacks.nr + 1) * sizeof(*keys));
	size_t i;

	if (!keys)
		return &kms_error_nomem;
	memcpy(keys, c->stacks.keys, c->stacks.nr * sizeof(*keys));
	qsort(keys, c->stacks.nr, sizeof(*keys), compare_keys);
	for (i = 0; i < c->stacks.nr; i++)
		printf("%s %llu\n", keys[i], (unsigned long long)
		       c->counts[kms_strmap_find(&c->stacks, keys[i])]);
	free(keys);
	return NULL;
}

void perf_collapse_release(struct collapse *c)
{
	size_t i;

	for (i = 0; i < c->nr_frames; i++)
		free(c->frames[i]);
	free(c->frames);
	free(c->pname);
	free(c->event);
	free(c->counts);
	kms_strmap_release(&c->stacks);
}
