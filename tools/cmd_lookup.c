// SPDX-License-Identifier: GPL-2.0
/*
 * lookup: name addresses the way the kernel's %pS does, with the
 * annotations; or find the address of symbol+off, picking the instance by
 * its [module] {objfile} qualifiers.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>

#include "annotate.h"
#include "inspector.h"

struct query {
	char *name;		/* NULL: an address */
	uint64_t value;		/* the address, or the offset into name */
	bool have_size;
	uint64_t size;
	char *modules;		/* "[a] [b]" as written, or NULL */
	char *objfile;		/* or NULL */
};

static void free_query(struct query *q)
{
	free(q->name);
	free(q->modules);
	free(q->objfile);
}

static int parse_hex(const char *s, char **end, uint64_t *ret)
{
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!isxdigit((unsigned char)*p))
		return -1;
	errno = 0;
	*ret = strtoull(p, end, 16);
	return errno ? -1 : 0;
}

/*
 * "ffffffff81000000", "0xffffffff81000000", "name+0x1c", "name+0x1c/0x40",
 * each optionally followed by "[mod]..." and "{objfile}".
 */
static const char *parse_query(const char *text, struct query *q)
{
	const char *p = text, *plus, *word_end;
	char *end;

	memset(q, 0, sizeof(*q));
	while (isspace((unsigned char)*p))
		p++;
	word_end = p + strcspn(p, " \t\n");
	plus = memchr(p, '+', word_end - p);
	if (!plus) {
		if (parse_hex(p, &end, &q->value) || end != word_end)
			return "not a hexadecimal address or symbol+offset";
	} else {
		if (plus == p)
			return "no symbol name before +";
		q->name = strndup(p, plus - p);
		if (!q->name || parse_hex(plus + 1, &end, &q->value))
			return "bad offset after +";
		if (*end == '/') {
			if (parse_hex(end + 1, &end, &q->size))
				return "bad size after /";
			q->have_size = true;
		}
		if (end != word_end)
			return "trailing characters after symbol+offset";
	}
	p = word_end;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '[') {
		const char *close = p;
		const char *last = NULL;

		/* "[a] [b]": up to the last "]" before any "{". */
		while ((close = strchr(close, ']')) &&
		       (!strchr(p, '{') || close < strchr(p, '{'))) {
			last = close;
			close++;
		}
		if (!last)
			return "unterminated [module]";
		q->modules = strndup(p, last + 1 - p);
		p = last + 1;
		while (isspace((unsigned char)*p))
			p++;
	}
	if (*p == '{') {
		const char *close = strchr(p, '}');

		if (!close)
			return "unterminated {objfile}";
		q->objfile = strndup(p + 1, close - p - 1);
		p = close + 1;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		return "trailing characters";
	if (!q->name && (q->modules || q->objfile))
		return "[module] {objfile} qualify a symbol name, not an address";
	return NULL;
}

static bool matches(struct inspector *in, const struct query *q,
		    uint32_t obj)
{
	const char *name = obj == KMS_NONE ? NULL :
			   kms_object_name(in->tables, obj);
	char mods[4096];

	if (q->modules) {
		kms_format_object(mods, sizeof(mods), in->tables, obj, true);
		if (strcmp(mods, q->modules))
			return false;
	}
	if (q->objfile && (!name || strcmp(name, q->objfile)))
		return false;
	return true;
}

static void print_result(struct inspector *in, const char *input,
			 bool with_address, uint64_t addr, uint64_t offset,
			 const struct kms_symbol *sym, uint64_t size,
			 uint32_t obj)
{
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_string(&in->json, "input", input);
		json_hex(&in->json, "address", addr);
		json_string(&in->json, "symbol", sym->name);
		json_hex(&in->json, "offset", offset);
		json_hex(&in->json, "size", size);
		inspector_json_attribution(in, obj);
		json_end_object(&in->json);
		return;
	}
	if (with_address)
		printf("%016llx ", (unsigned long long)addr);
	printf("%s+0x%llx/0x%llx", sym->name, (unsigned long long)offset,
	       (unsigned long long)size);
	kms_print_object(stdout, in->tables, obj, " ");
	putchar('\n');
}

static void report(struct inspector *in, const char *where, const char *input,
		   const char *problem)
{
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_string(&in->json, "input", input);
		json_string(&in->json, "error", problem);
		json_end_object(&in->json);
	}
	fprintf(stderr, PROG ": %s%s\"%s\": %s\n", where ? where : "",
		where ? ": " : "", input, problem);
}

/* Resolve one input; returns 0 on success. */
static int lookup_one(struct inspector *in, uint64_t kaslr, const char *where,
		      const char *input)
{
	const struct kms_symbol *sym = NULL, *const *named;
	uint32_t cursor = KMS_NONE, obj = KMS_NONE;
	const char *problem;
	struct query q;
	uint64_t size, addr;
	struct kms_error *err;
	size_t i, count, nr = 0;
	char msg[128];
	int status = 1;

	problem = parse_query(input, &q);
	if (problem) {
		report(in, where, input, problem);
		goto out;
	}
	if (!q.name) {
		addr = q.value - kaslr;
		if (q.value < kaslr) {
			report(in, where, input, "below the KASLR offset");
			goto out;
		}
		sym = inspector_symbol_at(in, addr, &size);
		if (!sym) {
			report(in, where, input, kaslr ?
			       "not in the kernel's symbols at this KASLR offset" :
			       "not in any symbol");
			goto out;
		}
		obj = inspector_object(in, sym, &cursor);
		print_result(in, input, false, q.value, addr - sym->address,
			     sym, size, obj);
		status = 0;
		goto out;
	}

	err = inspector_symbols_named(in, q.name, &named, &count);
	if (err) {
		report(in, where, input, err->message);
		kms_error_destroy(err);
		goto out;
	}
	for (i = 0; i < count; i++) {
		const struct kms_symbol *s = named[i];
		uint32_t o;

		o = inspector_object(in, s, &cursor);
		if (!matches(in, &q, o))
			continue;
		if (!nr++) {
			sym = s;
			obj = o;
		}
	}
	if (!nr) {
		report(in, where, input, q.modules || q.objfile ?
		       "no instance of the symbol has these qualifiers" :
		       "no such symbol");
		goto out;
	}
	if (nr > 1) {
		snprintf(msg, sizeof(msg),
			 "%zu instances; add [module] {objfile} to pick one", nr);
		report(in, where, input, msg);
		goto out;
	}
	size = inspector_symbol_size(in, sym);
	if (size && q.value >= size) {
		report(in, where, input, "offset past the end of the symbol");
		goto out;
	}
	if (q.have_size && q.size != size) {
		snprintf(msg, sizeof(msg), "this kernel's %s is 0x%llx bytes",
			 sym->name, (unsigned long long)size);
		report(in, where, input, msg);
		goto out;
	}
	print_result(in, input, true, sym->address + q.value + kaslr, q.value,
		     sym, size, obj);
	status = 0;
out:
	free_query(&q);
	return status;
}

/* The KASLR offset from a copy of /proc/kallsyms: its _text vs ours. */
struct kms_error *inspector_kaslr_from_kallsyms(struct inspector *in,
						uint64_t *ret)
{
	const char *path = in->opts->kallsyms;
	char *line = NULL;
	size_t cap = 0;
	struct kms_error *err = NULL;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return kms_error_errno(path, "cannot open");
	while (getline(&line, &cap, f) > 0) {
		unsigned long long addr;
		char type, name[16];

		if (sscanf(line, "%llx %c %15s", &addr, &type, name) != 3 ||
		    strcmp(name, "_text"))
			continue;
		if (!addr)
			err = kms_error_file(path,
					     "_text reads as 0: the copy was made without the right to see addresses");
		else
			*ret = addr - in->syms->text_address;
		goto out;
	}
	err = kms_error_file(path, "no _text line: not a copy of /proc/kallsyms");
out:
	free(line);
	fclose(f);
	return err;
}

int cmd_lookup(struct inspector *in, int argc, char **argv)
{
	struct kms_error *err;
	uint64_t kaslr = in->opts->kaslr_offset;
	int a, status = 0;

	if (in->opts->kallsyms) {
		err = inspector_kaslr_from_kallsyms(in, &kaslr);
		if (err)
			return inspector_fail(err);
	}
	if (in->opts->json) {
		json_begin_object(&in->json, NULL);
		json_hex(&in->json, "kaslr_offset", kaslr);
		json_begin_array(&in->json, "results");
	}
	for (a = 0; a < argc; a++) {
		char *line = NULL, where[64];
		unsigned long lineno = 0;
		size_t cap = 0;
		ssize_t len;

		if (strcmp(argv[a], "-")) {
			status |= lookup_one(in, kaslr, NULL, argv[a]);
			continue;
		}
		/* Batch: one input a line; a bad line is reported, not fatal. */
		while ((len = getline(&line, &cap, stdin)) >= 0) {
			lineno++;
			if (len && line[len - 1] == '\n')
				line[--len] = '\0';
			if (!line[strspn(line, " \t")])
				continue;
			snprintf(where, sizeof(where), "stdin:%lu", lineno);
			status |= lookup_one(in, kaslr, where, line);
		}
		free(line);
	}
	if (in->opts->json) {
		json_end_array(&in->json);
		json_end_object(&in->json);
		json_finish(&in->json);
	}
	return status;
}
