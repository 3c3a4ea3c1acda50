// SPDX-License-Identifier: GPL-2.0
/*
 * The text of `perf script`, lexed: a frame line, "ADDRESS SYMBOL[+0xOFF]
 * (DSO)" (a callchain's indented frame, or the frame on a single-line
 * sample's header), and what its DSO names.  Nothing here reads vmlinux:
 * the frames are checked against it by cmd_perf.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/util.h>

#include "perf.h"

bool perf_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The last " (" of [@line, @end), or NULL. */
const char *perf_last_paren(const char *line, const char *end)
{
	const char *p;

	for (p = end - 1; p > line; p--)
		if (p[-1] == ' ' && p[0] == '(')
			return p - 1;
	return NULL;
}

/* "+0xHEX" ending the symbol [@sym, @end): its offset. */
static void split_offset(struct frame *f, const char *end)
{
	const char *p;

	f->sym_len = end - f->sym;
	f->rest = end;
	f->has_offset = false;
	for (p = end; p > f->sym && isxdigit((unsigned char)p[-1]); p--)
		;
	if (p == end || p - f->sym < 4 || strncmp(p - 3, "+0x", 3))
		return;
	f->has_offset = true;
	f->offset = strtoull(p, NULL, 16);
	f->sym_len = p - 3 - f->sym;
	f->rest = p - 3;
}

/* Parse @line (@len bytes, no newline) as a frame; false if it is none. */
bool perf_parse_frame(const char *line, size_t len, struct frame *f)
{
	const char *open, *sym, *ip, *p;

	if (len < 4 || line[len - 1] != ')')
		return false;
	open = perf_last_paren(line, line + len - 1);
	if (!open)
		return false;
	f->dso = open + 2;
	f->dso_len = line + len - 1 - f->dso;
	for (sym = open; sym > line && !perf_is_blank(sym[-1]); sym--)
		;
	if (sym == open || sym - line < 2 || sym[-1] != ' ')
		return false;
	for (ip = sym - 1; ip > line && isxdigit((unsigned char)ip[-1]); ip--)
		;
	if (ip == sym - 1 || sym - 1 - ip > 16 ||
	    (ip > line && !perf_is_blank(ip[-1])))
		return false;
	f->ip = strtoull(ip, NULL, 16);
	for (p = line; p < ip && perf_is_blank(*p); p++)
		;
	f->after_header = p < ip;
	f->sym = sym;
	split_offset(f, open);
	return true;
}

bool perf_dso_is(const struct frame *f, const char *name)
{
	return f->dso_len == strlen(name) && !memcmp(f->dso, name, f->dso_len);
}

/* A frame of the core kernel, whose symbols VMLINUX has. */
bool perf_is_kernel(const struct frame *f)
{
	return perf_dso_is(f, "[kernel.kallsyms]") ||
	       perf_dso_is(f, "[guest.kernel.kallsyms]");
}

/* perf's "[unknown]", or "[0x...]" with --show-unknown-as-addr... */
bool perf_is_unnamed(const struct frame *f)
{
	return !f->sym_len || f->sym[0] == '[';
}

/* The frame's symbol as a string, in @buf; false if too long. */
bool perf_frame_name(const struct frame *f, char *buf, size_t size)
{
	if (f->sym_len >= size)
		return false;
	memcpy(buf, f->sym, f->sym_len);
	buf[f->sym_len] = '\0';
	return true;
}

/* The hex digits of a build id into @buf; false if it is none. */
bool perf_hex_build_id(const unsigned char *id, size_t size, char *buf,
		       size_t cap)
{
	size_t i;

	if (2 * size >= cap)
		return false;
	for (i = 0; i < size; i++)
		sprintf(buf + 2 * i, "%02x", id[i]);
	return true;
}

static const char *const not_modules[] = {
	"[unknown]", "[vdso]", "[vdso32]", "[vdsox32]", "[vsyscall]",
	"[heap]", "[stack]", "[uprobes]", "[vectors]", "[sigpage]", "[vvar]",
};

/* A loadable module's DSO, as perf names it: "[name]". */
bool perf_is_module_dso(const struct frame *f)
{
	size_t i;

	if (f->dso_len < 3 || f->dso[0] != '[' || f->dso[f->dso_len - 1] != ']')
		return false;
	for (i = 1; i < f->dso_len - 1; i++)
		if (!isalnum((unsigned char)f->dso[i]) && f->dso[i] != '_' &&
		    f->dso[i] != '-')
			return false;
	for (i = 0; i < KMS_ARRAY_SIZE(not_modules); i++)
		if (perf_dso_is(f, not_modules[i]))
			return false;
	return true;
}

/* Append @s (@n bytes) to the string *@buf, of capacity *@cap. */
struct kms_error *perf_append(char **buf, size_t *cap, size_t *len,
			      const char *s, size_t n)
{
	struct kms_error *err = KMS_RESERVE(*buf, *cap, *len + n + 1);

	if (err)
		return err;
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
	return NULL;
}
