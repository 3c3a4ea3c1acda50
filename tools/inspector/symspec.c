// SPDX-License-Identifier: GPL-2.0
/* Symbol specifications: one grammar, one resolver; see symspec.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

#include "symspec.h"

void symspec_release(struct symspec *spec)
{
	free(spec->name);
	free(spec->modules);
	free(spec->module);
	free(spec->object);
	free(spec->source);
	memset(spec, 0, sizeof(*spec));
}

static int parse_hex(const char *s, const char **end, uint64_t *ret)
{
	const char *p = s;
	char *e;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!isxdigit((unsigned char)*p))
		return -1;
	errno = 0;
	*ret = strtoull(p, &e, 16);
	*end = e;
	return errno ? -1 : 0;
}

static bool ends_in(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

/* Keep a path: an object when it ends in ".o", else a source file. */
static struct kms_error *set_path(struct symspec *spec, const char *p,
				  size_t len)
{
	char **slot;

	while (len >= 2 && p[0] == '.' && p[1] == '/') {
		p += 2;
		len -= 2;
	}
	if (!len)
		return kms_error_fmt("empty file name");
	slot = ends_in(p, len, ".o") ? &spec->object : &spec->source;
	if (*slot)
		return kms_error_fmt("two object or source files");
	*slot = strndup(p, len);
	return *slot ? NULL : &kms_error_nomem;
}

static bool is_name_end(char c)
{
	return !c || isspace((unsigned char)c) || c == '+' || c == ',' ||
	       c == '@' || c == '/';
}

/* The qualifiers before the name: file::, mod: or obj.o:; *@pp past them. */
static struct kms_error *parse_prefix(const char **pp, const char *end,
				      struct symspec *spec)
{
	const char *p = *pp, *colon;
	struct kms_error *err;

	/* gdb's unquoted file.c::name. */
	for (colon = p; colon + 1 < end; colon++)
		if (colon[0] == ':' && colon[1] == ':')
			break;
	if (colon + 1 < end) {
		err = set_path(spec, p, colon - p);
		if (err)
			return err;
		p = colon + 2;
	}
	colon = memchr(p, ':', end - p);
	if (colon) {
		if (colon == p)
			return kms_error_fmt("nothing before ':'");
		if (ends_in(p, colon - p, ".o")) {
			err = set_path(spec, p, colon - p);
			if (err)
				return err;
		} else {
			/* kbuild's module names say '_' for '-'. */
			spec->module = strndup(p, colon - p);
			if (!spec->module)
				return &kms_error_nomem;
			kms_underscores(spec->module);
		}
		p = colon + 1;
		if (memchr(p, ':', end - p))
			return kms_error_fmt("more than one ':'");
	}
	*pp = p;
	return NULL;
}

/* One suffix after the name: ,N or @file or +off[/size]; *@pp past it. */
static struct kms_error *parse_suffix(const char **pp, const char *end,
				      struct symspec *spec)
{
	const char *p = *pp, *q;
	struct kms_error *err;
	char *e;

	switch (*p) {
	case ',':
		if (spec->have_sympos)
			return kms_error_fmt("two sympos after ','");
		if (!isdigit((unsigned char)p[1]))
			return kms_error_fmt("no position after ','");
		errno = 0;
		spec->sympos = strtoul(p + 1, &e, 10);
		if (errno)
			return kms_error_fmt("bad position after ','");
		spec->have_sympos = true;
		*pp = e;
		return NULL;
	case '@':
		for (q = ++p; q < end && *q != '+' && *q != ','; q++)
			;
		err = set_path(spec, p, q - p);
		*pp = q;
		return err;
	case '+':
		if (spec->have_offset)
			return kms_error_fmt("two offsets");
		if (parse_hex(p + 1, &q, &spec->offset))
			return kms_error_fmt("bad offset after +");
		spec->have_offset = true;
		if (q < end && *q == '/') {
			if (parse_hex(q + 1, &q, &spec->size))
				return kms_error_fmt("bad size after /");
			spec->have_size = true;
		}
		*pp = q;
		return NULL;
	default:
		return kms_error_fmt("unexpected '%c' after the symbol name",
				     *p);
	}
}

/* The word: [file::|mod:|obj.o:]name{,N|@file|+off[/size]}. */
static struct kms_error *parse_word(const char *p, const char *end,
				    bool allow_address, struct symspec *spec)
{
	struct kms_error *err;
	const char *q;
	uint64_t v;

	/* A bare address. */
	if (allow_address && !parse_hex(p, &q, &v) && q == end) {
		spec->is_address = true;
		spec->offset = v;
		return NULL;
	}
	err = parse_prefix(&p, end, spec);
	if (err)
		return err;
	for (q = p; q < end && !is_name_end(*q); q++)
		;
	if (q == p)
		return kms_error_fmt("no symbol name");
	spec->name = strndup(p, q - p);
	if (!spec->name)
		return &kms_error_nomem;
	for (p = q; p < end; ) {
		err = parse_suffix(&p, end, spec);
		if (err)
			return err;
	}
	if (p != end)
		return kms_error_fmt("trailing characters after the symbol name");
	return NULL;
}

/* "[a] [b]" up to the last ']' before any '{', normalised. */
static struct kms_error *parse_modules(const char **pp, struct symspec *spec)
{
	const char *p = *pp, *last = NULL, *brace = strchr(p, '{'), *c;
	char *out;
	size_t n = 0;

	for (c = p; (c = strchr(c, ']')) && (!brace || c < brace); c++)
		last = c;
	if (!last)
		return kms_error_fmt("unterminated [module]");
	out = malloc(last + 2 - p);
	if (!out)
		return &kms_error_nomem;
	for (c = p; c <= last; c++) {
		if (isspace((unsigned char)*c)) {
			if (n && out[n - 1] != ' ')
				out[n++] = ' ';
			continue;
		}
		if (*c == '[' && n && out[n - 1] == ']')
			out[n++] = ' ';
		out[n++] = *c;
	}
	out[n] = '\0';
	spec->modules = out;
	*pp = last + 1;
	return NULL;
}

bool symspec_bare_address(const char *text, uint64_t *ret)
{
	const char *p = text, *digits;
	uint64_t v = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (digits = p; isxdigit((unsigned char)*p); p++) {
		if (p - digits == 16)
			return false;
		v = v << 4 | (*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
	}
	/* symspec_parse()'s word ends at a space, a tab or a newline only. */
	if (p == digits || (*p && *p != ' ' && *p != '\t' && *p != '\n'))
		return false;
	while (isspace((unsigned char)*p))
		p++;
	*ret = v;
	return !*p;
}

struct kms_error *symspec_parse(const char *text, bool allow_address,
				struct symspec *spec)
{
	const char *p = text, *end;
	struct kms_error *err;

	memset(spec, 0, sizeof(*spec));
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return kms_error_fmt("empty");
	/* gdb's 'file.c'::name */
	if (*p == '\'') {
		const char *close = strchr(p + 1, '\'');

		if (!close)
			return kms_error_fmt("unterminated quote");
		if (strncmp(close + 1, "::", 2))
			return kms_error_fmt("no :: after the quoted file name");
		err = set_path(spec, p + 1, close - p - 1);
		if (err)
			return err;
		p = close + 3;
	}
	/* The word ends at a space, or at the kernel's SYM{OBJ} brace. */
	end = p + strcspn(p, " \t\n{");
	err = parse_word(p, end, allow_address && !spec->source &&
			 !spec->object, spec);
	if (err)
		return err;
	p = end;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '[') {
		err = parse_modules(&p, spec);
		if (err)
			return err;
		while (isspace((unsigned char)*p))
			p++;
	}
	if (*p == '{') {
		const char *close = strchr(p, '}');

		if (!close)
			return kms_error_fmt("unterminated {objfile}");
		if (spec->object)
			return kms_error_fmt("two object files");
		spec->object = strndup(p + 1, close - p - 1);
		if (!spec->object)
			return &kms_error_nomem;
		spec->object_braced = true;
		p = close + 1;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return kms_error_fmt("trailing characters");
	if (spec->is_address && (spec->modules || spec->object))
		return kms_error_fmt("[module] {objfile} qualify a symbol name, not an address");
	return NULL;
}

/* Does @path end in @suffix, in whole components? */
static bool path_ends_with(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);

	if (k > n || strcmp(path + n - k, suffix))
		return false;
	return k == n || path[n - k - 1] == '/' || suffix[0] == '/';
}

enum verdict { NO, UNSURE, YES };

/* @file with its extension replaced by ".o", into @buf. */
static const char *object_of(char *buf, size_t size, const char *file)
{
	const char *dot = strrchr(file, '.'), *slash = strrchr(file, '/');
	size_t len = dot && (!slash || dot > slash) ? (size_t)(dot - file) :
		     strlen(file);

	snprintf(buf, size, "%.*s.o", (int)len, file);
	return buf;
}

/* Is @inst from an object whose path ends in @path? */
static enum verdict match_object(struct inspector *in,
				 const struct symspec_instance *inst,
				 const char *path)
{
	const char *named = inst->obj == KMS_NONE ? NULL :
			    kms_object_name(in->tables, inst->obj);
	const char *src, *full = NULL;
	char buf[4096];

	/*
	 * Code: the full path of its object file (FORMAT.md 3.9) decides,
	 * but for the sources of an object linked from several (ld -r),
	 * which only DWARF names.
	 */
	if (inst->sym->type && strchr("tTwW", inst->sym->type))
		full = inspector_path(in, inst->sym->address);
	if ((full && kms_path_has_suffix(full, path)) ||
	    (named && path_ends_with(named, path)))
		return YES;
	src = inspector_unit_file(in, inst->sym->address);
	if (src)
		return path_ends_with(object_of(buf, sizeof(buf), src), path) ?
		       YES : NO;
	if (full)
		return NO;
	/* The tables' name is the shortest suffix that tells it apart. */
	if (named && !path_ends_with(path, named))
		return NO;
	return UNSURE;
}

/* Is @inst compiled from a file whose path ends in @path? */
static enum verdict match_source(struct inspector *in,
				 const struct symspec_instance *inst,
				 const char *path)
{
	uint64_t addr = inst->sym->address;
	const char *src = inspector_unit_file(in, addr), *file;
	char buf[4096];
	int line;

	if (src) {
		/* The line table names headers too. */
		file = inspector_line(in, addr, &line);
		return path_ends_with(src, path) ||
		       (file && path_ends_with(file, path)) ? YES : NO;
	}
	return match_object(in, inst, object_of(buf, sizeof(buf), path));
}

static enum verdict match(struct inspector *in, const struct symspec *spec,
			  const struct symspec_instance *inst, bool printed)
{
	const struct kms_tables *t = in->tables;
	enum verdict v = YES, w;
	char buf[4096];

	if (spec->have_sympos && spec->sympos && inst->sympos != spec->sympos)
		return NO;
	if (spec->modules) {
		kms_format_object(buf, sizeof(buf), t, inst->obj, true);
		if (strcmp(buf, spec->modules))
			return NO;
	}
	if (spec->module) {
		uint32_t list = inst->obj == KMS_NONE ? KMS_NONE :
				kms_object_modlist(t, inst->obj);
		uint32_t k, n = list == KMS_NONE ? 0 : kms_modlist_count(t, list);

		for (k = 0; k < n; k++)
			if (!strcmp(kms_modlist_name(t, list, k), spec->module))
				break;
		if (k == n)
			return NO;
	}
	if (printed) {
		if (inst->obj == KMS_NONE || !kms_object_name(t, inst->obj) ||
		    strcmp(kms_object_name(t, inst->obj), spec->object))
			return NO;
	} else if (spec->object) {
		w = match_object(in, inst, spec->object);
		if (w == NO)
			return NO;
		if (w == UNSURE)
			v = UNSURE;
	}
	if (spec->source) {
		w = match_source(in, inst, spec->source);
		if (w == NO)
			return NO;
		if (w == UNSURE)
			v = UNSURE;
	}
	return v;
}

void symspec_matches_free(struct symspec_matches *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

struct kms_error *symspec_match(struct inspector *in,
				const struct symspec *spec,
				struct symspec_matches *ret)
{
	const struct kms_symbol *const *named;
	uint32_t cursor = KMS_NONE;
	struct symspec_matches m = { 0 };
	struct kms_error *err;
	bool printed = false;
	size_t i, count, cap = 0;

	count = inspector_symbols_named(in, spec->name, &named);
	/* {obj.o} as /proc/kallmodsyms prints it, if any instance does. */
	for (i = 0; spec->object_braced && i < count && !printed; i++) {
		uint32_t obj = inspector_object(in, named[i], &cursor);
		const char *name = obj == KMS_NONE ? NULL :
				   kms_object_name(in->tables, obj);

		printed = name && !strcmp(name, spec->object);
	}
	cursor = KMS_NONE;
	m.nr_named = count;
	err = KMS_RESERVE(m.v, cap, count);
	if (err)
		return err;
	for (i = 0; i < count; i++) {
		struct symspec_instance *inst = &m.v[m.nr];
		enum verdict v;

		inst->sym = named[i];
		inst->obj = inspector_object(in, named[i], &cursor);
		inst->sympos = i + 1;
		v = match(in, spec, inst, printed);
		if (v == NO)
			continue;
		inst->unsure = v == UNSURE;
		m.nr_unsure += inst->unsure;
		m.nr++;
	}
	*ret = m;
	return NULL;
}

struct kms_error *symspec_check_size(struct inspector *in,
				     const struct symspec *spec,
				     const struct symspec_instance *inst,
				     uint64_t *ret_size)
{
	uint64_t size = inspector_symbol_size(in, inst->sym);

	/* The last symbol, _end, may have no size: only +0 is inside. */
	if (spec->offset && spec->offset >= size)
		return kms_error_fmt("offset past the end of the symbol");
	if (spec->have_size && spec->size != size)
		return kms_error_fmt("this kernel's %s is 0x%llx bytes",
				     inst->sym->name, (unsigned long long)size);
	*ret_size = size;
	return NULL;
}

void symspec_print_instance(FILE *f, struct inspector *in,
			    const struct symspec_instance *inst,
			    uint64_t addr)
{
	fprintf(f, "%016llx %c %s", (unsigned long long)addr,
		inst->sym->type, inst->sym->name);
	kms_print_object(f, in->tables, inst->obj, "\t");
}

static bool qualified(const struct symspec *spec)
{
	return spec->modules || spec->module || spec->object || spec->source ||
	       (spec->have_sympos && spec->sympos);
}

struct kms_error *symspec_no_match(const struct symspec *spec,
				   const struct symspec_matches *m)
{
	if (!m->nr_named)
		return kms_error_fmt("no such symbol");
	if (spec->have_sympos && spec->sympos > m->nr_named)
		return kms_error_fmt("sympos %lu, but there %s %zu symbol%s called %s",
				     spec->sympos, m->nr_named == 1 ? "is" : "are",
				     m->nr_named, m->nr_named == 1 ? "" : "s",
				     spec->name);
	return kms_error_fmt("no instance of the symbol has these qualifiers");
}

/* The error of several instances in @m, each on a line of its own. */
static struct kms_error *ambiguity(struct inspector *in,
				   const struct symspec *spec,
				   const struct symspec_matches *m,
				   uint64_t kaslr)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0, i;
	FILE *f;

	f = open_memstream(&text, &len);
	if (!f)
		return &kms_error_nomem;
	if (m->nr_unsure)
		fprintf(f, "%zu instance%s of %s may match: the tables do not say which object %zu of them come%s from, and %s has no DWARF to tell",
			m->nr, m->nr == 1 ? "" : "s", spec->name, m->nr_unsure,
			m->nr_unsure == 1 ? "s" : "", in->vmlinux);
	else
		fprintf(f, "%zu instances of %s%s; pick one by sympos (%s,N), [module] {objfile}, mod:, obj.o: or file.c::",
			m->nr, spec->name, qualified(spec) ? " match" : "",
			spec->name);
	for (i = 0; i < m->nr; i++) {
		fputs("\n\t", f);
		symspec_print_instance(f, in, &m->v[i],
				       m->v[i].sym->address + kaslr);
		fprintf(f, "\tsympos=%zu%s", m->v[i].sympos,
			m->v[i].unsure ? " (object unknown)" : "");
	}
	if (fclose(f) || !text)
		return &kms_error_nomem;
	return kms_error_fmt("%s", text);
}

struct kms_error *symspec_resolve(struct inspector *in,
				  const struct symspec *spec, uint64_t kaslr,
				  struct symspec_instance *ret)
{
	struct symspec_matches m;
	struct kms_error *err;

	err = symspec_match(in, spec, &m);
	if (err)
		return err;
	if (m.nr == 1 && !m.nr_unsure)
		*ret = m.v[0];
	else if (!m.nr)
		err = symspec_no_match(spec, &m);
	else
		err = ambiguity(in, spec, &m, kaslr);
	symspec_matches_free(&m);
	return err;
}
