// SPDX-License-Identifier: GPL-2.0
/*
 * Find the MODULE_LICENSE() statement of a C source with a small lexer
 * (comments, strings, preprocessor lines) and write its removal as a
 * unified diff (removal.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "removal.h"

#define MAX_IF_DEPTH 64

struct lexer {
	const char *text;
	const char *p;
	/* For each open #if: does it, or an #elif of it, name MODULE? */
	bool if_module[MAX_IF_DEPTH];
	/* ...is it an "#if 0" whose branch is still the dead one? */
	bool if_zero[MAX_IF_DEPTH];
	int depth;
	int in_module_if;	/* open #ifs that name MODULE */
	int in_zero_if;		/* open "#if 0" branches */
	const char *found;	/* the MODULE_LICENSE token, outside macros */
	int nr_found;
	bool in_macro;		/* one sits in a #define */
	bool found_in_module_if;
	bool found_in_zero_if;
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Is @word an identifier of the @len bytes at @s? */
static bool has_ident(const char *s, size_t len, const char *word)
{
	size_t wlen = strlen(word);
	const char *end = s + len, *q;

	for (q = s; q + wlen <= end; q++)
		if (!strncmp(q, word, wlen) && (q == s || !ident_char(q[-1])) &&
		    (q + wlen == end || !ident_char(q[wlen])))
			return true;
	return false;
}

/* Past the string or character literal starting at @p. */
static const char *skip_literal(const char *p)
{
	char quote = *p++;

	while (*p && *p != quote && *p != '\n') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p == quote ? p + 1 : p;
}

/* Past a comment at @p, or @p when there is none. */
static const char *skip_comment(const char *p)
{
	if (p[0] == '/' && p[1] == '*') {
		const char *end = strstr(p + 2, "*/");

		return end ? end + 2 : p + strlen(p);
	}
	if (p[0] == '/' && p[1] == '/')
		return p + strcspn(p, "\n");
	return p;
}

/*
 * The directive's text from @start to @end into @buf, its comments made
 * blanks: an "#if 0" whose comment says "def MODULE" (drivers/tty/serial/
 * sunhv.c) names no MODULE.
 */
static void directive_code(const char *start, const char *end, char *buf,
			   size_t size)
{
	size_t n = 0;

	while (start < end && n + 1 < size) {
		const char *q = skip_comment(start);

		if (q != start) {
			buf[n++] = ' ';
			start = q < end ? q : end;
			continue;
		}
		buf[n++] = *start++;
	}
	buf[n] = '\0';
}

/* Is @cond, a condition without its comments, "0"? */
static bool is_zero(const char *cond)
{
	cond += strspn(cond, " \t\\\n");
	return cond[0] == '0' && !cond[1 + strspn(cond + 1, " \t\\\n")];
}

/* #if, #ifdef, #ifndef: one level more, naming MODULE or "#if 0". */
static void open_if(struct lexer *lx, const char *word, size_t len,
		    const char *cond)
{
	bool module = has_ident(cond, strlen(cond), "MODULE");
	bool zero = len == 2 && !strncmp(word, "if", 2) && is_zero(cond);

	if (lx->depth < MAX_IF_DEPTH) {
		lx->if_module[lx->depth] = module;
		lx->if_zero[lx->depth] = zero;
	}
	lx->depth++;
	lx->in_module_if += module;
	lx->in_zero_if += zero;
}

/* #else or #elif of the innermost #if, @cond for an #elif. */
static void next_branch(struct lexer *lx, const char *cond)
{
	int i = lx->depth - 1;

	if (lx->depth <= 0 || lx->depth > MAX_IF_DEPTH)
		return;
	if (lx->if_zero[i]) {
		lx->if_zero[i] = false;
		lx->in_zero_if--;
	}
	if (cond && !lx->if_module[i] &&
	    has_ident(cond, strlen(cond), "MODULE")) {
		lx->if_module[i] = true;
		lx->in_module_if++;
	}
}

/* A preprocessor line at @lx->p ('#'), continuations included. */
static void directive(struct lexer *lx)
{
	const char *start = lx->p + 1, *end = start, *word;
	char cond[512];
	size_t len;

	while (*end && !(*end == '\n' && end[-1] != '\\'))
		end++;
	lx->p = end;
	while (*start == ' ' || *start == '\t')
		start++;
	word = start;
	while (ident_char(*start))
		start++;
	len = (size_t)(start - word);
	directive_code(start, end, cond, sizeof(cond));
	if (len == 6 && !strncmp(word, "define", 6)) {
		if (has_ident(start, (size_t)(end - start), "MODULE_LICENSE"))
			lx->in_macro = true;
	} else if (len >= 2 && !strncmp(word, "if", 2)) {
		open_if(lx, word, len, cond);
	} else if (len == 4 && !strncmp(word, "elif", 4)) {
		next_branch(lx, cond);
	} else if (len == 4 && !strncmp(word, "else", 4)) {
		next_branch(lx, NULL);
	} else if (len == 5 && !strncmp(word, "endif", 5) && lx->depth > 0) {
		lx->depth--;
		if (lx->depth < MAX_IF_DEPTH) {
			lx->in_module_if -= lx->if_module[lx->depth];
			lx->in_zero_if -= lx->if_zero[lx->depth];
		}
	}
}

/* Every MODULE_LICENSE token of the text, and where each sits. */
static void lex(struct lexer *lx)
{
	bool line_start = true;

	for (lx->p = lx->text; *lx->p;) {
		const char *p = lx->p, *q = skip_comment(p);

		if (q != p) {
			lx->p = q;
		} else if (*p == '\n') {
			line_start = true;
			lx->p++;
		} else if (*p == ' ' || *p == '\t') {
			lx->p++;
		} else if (*p == '#' && line_start) {
			directive(lx);
		} else if (*p == '"' || *p == '\'') {
			lx->p = skip_literal(p);
			line_start = false;
		} else if (ident_char(*p)) {
			while (ident_char(*lx->p))
				lx->p++;
			if (lx->p - p == 14 && !strncmp(p, "MODULE_LICENSE", 14) &&
			    (p == lx->text || !ident_char(p[-1]))) {
				lx->found = p;
				lx->nr_found++;
				lx->found_in_module_if |= lx->in_module_if > 0;
				lx->found_in_zero_if |= lx->in_zero_if > 0;
			}
			line_start = false;
		} else {
			lx->p++;
			line_start = false;
		}
	}
}

/* Past the ')' closing the '(' at @p, or NULL. */
static const char *close_paren(const char *p)
{
	int level = 0;

	while (*p) {
		const char *q = skip_comment(p);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			p = skip_literal(p);
			continue;
		}
		if (*p == '(')
			level++;
		else if (*p == ')' && --level == 0)
			return p + 1;
		p++;
	}
	return NULL;
}

static size_t line_of(const char *text, const char *p)
{
	size_t line = 0;

	for (; text < p; text++)
		line += *text == '\n';
	return line;
}

/* The start of line @n (from 0) of @text, or NULL past the end. */
static const char *line_start(const char *text, size_t n)
{
	for (; n; n--) {
		text = strchr(text, '\n');
		if (!text || !*++text)
			return NULL;
	}
	return text;
}

static bool blank_line(const char *text, size_t n)
{
	const char *p = line_start(text, n);

	if (!p)
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '\n';
}

/* The statement at @lx->found: on lines of its own? */
static const char *statement_lines(const struct lexer *lx, struct removal *r)
{
	const char *p = lx->found, *end;

	while (p > lx->text && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	if (p > lx->text && p[-1] != '\n')
		return "MODULE_LICENSE() shares its line with other code";
	p = lx->found + 14;
	while (*p == ' ' || *p == '\t')
		p++;
	end = *p == '(' ? close_paren(p) : NULL;
	if (!end)
		return "MODULE_LICENSE without an argument list";
	end += strspn(end, " \t");
	if (*end != ';')
		return "MODULE_LICENSE() is not a statement of its own";
	end++;
	end += strspn(end, " \t");
	if (*end != '\n')
		return "MODULE_LICENSE() shares its line with other code";
	r->first = line_of(lx->text, lx->found);
	r->count = line_of(lx->text, end) - r->first + 1;
	return NULL;
}

const char *removal_find(const char *text, struct removal *ret)
{
	struct lexer lx = { .text = text };
	struct removal r;
	size_t len = strlen(text);
	const char *why;

	if (!len || text[len - 1] != '\n')
		return "no newline at the end of the file";
	lex(&lx);
	if (lx.in_macro)
		return "MODULE_LICENSE() inside a macro";
	if (!lx.nr_found)
		return strstr(text, "MODULE_LICENSE") ?
		       "MODULE_LICENSE() only in a comment or a string" :
		       "no MODULE_LICENSE()";
	if (lx.nr_found > 1)
		return "MODULE_LICENSE() more than once";
	if (lx.found_in_zero_if)
		return "MODULE_LICENSE() under #if 0";
	if (lx.found_in_module_if)
		return "MODULE_LICENSE() inside #ifdef MODULE";
	why = statement_lines(&lx, &r);
	if (why)
		return why;
	/* Leave no blank line doubled, nor one at the end. */
	if (r.first && blank_line(text, r.first - 1)) {
		if (blank_line(text, r.first + r.count))
			r.count++;
		else if (!line_start(text, r.first + r.count)) {
			r.first--;
			r.count++;
		}
	}
	*ret = r;
	return NULL;
}

static void put_line(FILE *f, char mark, const char *line)
{
	putc(mark, f);
	fwrite(line, 1, strcspn(line, "\n") + 1, f);
}

void removal_diff(FILE *f, const char *path, const char *text,
		  const struct removal *r)
{
	size_t nr_lines = line_of(text, text + strlen(text));
	size_t from = r->first > 3 ? r->first - 3 : 0;
	size_t to = r->first + r->count + 3, i;
	const char *line;

	if (to > nr_lines)
		to = nr_lines;
	fprintf(f, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", path, path,
		path, path);
	fprintf(f, "@@ -%zu,%zu +%zu,%zu @@\n", from + 1, to - from,
		to - from - r->count ? from + 1 : from, to - from - r->count);
	line = line_start(text, from);
	for (i = from; i < to && line; i++) {
		bool gone = i >= r->first && i < r->first + r->count;

		put_line(f, gone ? '-' : ' ', line);
		line = strchr(line, '\n') + 1;
	}
}
