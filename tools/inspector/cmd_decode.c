// SPDX-License-Identifier: GPL-2.0
/*
 * decode: read a kernel log or oops and write it back with [module]
 * {objfile} after each core-kernel symbol they tell apart, the way
 * scripts/decode_stacktrace.sh adds file:line.
 *
 * Recognised: "func+0x1c/0x50" (call traces, RIP: lines; the size picks
 * among same-named instances), and "[<ffffffff81234567>]" raw addresses
 * (relocated with --kaslr-offset or --kallsyms).  A symbol already followed
 * by " [module]" belongs to a loadable module and is left alone.  When the
 * vmlinux has DWARF, the source file:line follows, as with
 * scripts/decode_stacktrace.sh.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/util.h>

#include "command.h"

static bool is_symbol_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/*
 * If @p starts "name+0xOFF/0xSIZE", return its length and the pieces.
 * @line is the start of the line, to check what precedes the name.
 */
static size_t match_symbol(const char *line, const char *p, char *name,
			   size_t name_cap, uint64_t *size, uint64_t *offset)
{
	const char *q = p, *plus;
	char *end;

	if (p > line && is_symbol_char(p[-1]))
		return 0;
	while (is_symbol_char(*q))
		q++;
	if (q == p || *q != '+' || (size_t)(q - p) >= name_cap)
		return 0;
	plus = q;
	if (strncmp(plus + 1, "0x", 2))
		return 0;
	*offset = strtoull(plus + 3, &end, 16);
	if (end == plus + 3 || *end != '/' || strncmp(end + 1, "0x", 2))
		return 0;
	*size = strtoull(end + 3, &end, 16);
	memcpy(name, p, q - p);
	name[q - p] = '\0';
	return end - p;
}

/* " file:line" of link-time @addr, when the vmlinux has DWARF. */
static void print_line(struct inspector *in, uint64_t addr)
{
	int lineno;
	const char *file = inspector_line(in, addr, &lineno);

	if (file)
		printf(" %s:%d", file, lineno);
}

/*
 * The text instance of @name of @size: its object entry and address.
 * False when there is none, or several that do not print alike.
 */
static bool resolve_by_size(struct inspector *in, const char *name,
			    uint64_t size, uint32_t *ret_obj,
			    uint64_t *ret_address)
{
	const struct kms_symbol *const *named;
	uint32_t cursor = KMS_NONE, obj = KMS_NONE;
	size_t i, count, nr = 0, same_print = 0;

	count = inspector_symbols_named(in, name, &named);
	for (i = 0; i < count; i++) {
		const struct kms_symbol *s = named[i];
		uint32_t o;

		if (!kms_is_text_type(s->type) ||
		    inspector_symbol_size(in, s) != size)
			continue;
		o = inspector_object(in, s, &cursor);
		if (!nr++) {
			obj = o;
			*ret_address = s->address;
		}
		same_print += o == obj;
	}
	/* Several instances of one size: fine if they print alike. */
	if (!nr || same_print != nr)
		return false;
	*ret_obj = obj;
	return nr == 1 || obj != KMS_NONE;
}

/*
 * If @p starts "[<ADDR>]", copy it and name the address (at @kaslr) after
 * it; returns what follows, or NULL.
 */
static const char *decode_address(struct inspector *in, uint64_t kaslr,
				  const char *p)
{
	struct inspector_name name;
	uint64_t addr;
	char *end;

	if (strncmp(p, "[<", 2) || !isxdigit((unsigned char)p[2]))
		return NULL;
	addr = strtoull(p + 2, &end, 16);
	if (strncmp(end, ">]", 2))
		return NULL;
	fwrite(p, 1, end + 2 - p, stdout);
	if (addr >= kaslr && inspector_name_address(in, addr - kaslr, &name)) {
		putchar(' ');
		inspector_print_name(in, stdout, &name);
		print_line(in, addr - kaslr);
	}
	return end + 2;
}

/*
 * If @p starts "func+0xoff/0xsize", copy it and annotate it; returns what
 * follows, or NULL.  @line is the start of the line.
 */
static const char *decode_symbol(struct inspector *in, const char *line,
				 const char *p)
{
	uint64_t size, addr = 0, offset;
	char name[512];
	uint32_t obj;
	size_t n;

	n = match_symbol(line, p, name, sizeof(name), &size, &offset);
	if (!n)
		return NULL;
	fwrite(p, 1, n, stdout);
	p += n;
	/* A loadable module's symbol says so already. */
	if ((p[0] != ' ' || p[1] != '[') &&
	    resolve_by_size(in, name, size, &obj, &addr)) {
		kms_print_object(stdout, in->tables, obj, " ");
		print_line(in, addr + offset);
	}
	return p;
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	_cleanup_free_ char *line = NULL;
	struct kms_error *err;
	const char *p, *next;
	size_t cap = 0;
	uint64_t kaslr;

	(void)settings;
	(void)argc;
	(void)argv;
	err = inspector_kaslr(in, &kaslr);
	if (err)
		return inspector_fail(err);
	while (getline(&line, &cap, stdin) >= 0) {
		for (p = line; *p; p = next) {
			next = decode_address(in, kaslr, p);
			if (!next)
				next = decode_symbol(in, line, p);
			if (!next) {
				putchar(*p);
				next = p + 1;
			}
		}
	}
	return 0;
}

const struct command command_decode = {
	.name = "decode", .run = run, .args = "< LOG",
	.help = "a kernel log or oops, with [module] {objfile} added",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_kaslr_offset,
		&option_kallsyms, &option_vmcore, NULL },
	.check = command_check_kaslr,
};
