// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms: read the kallmodsyms tables of a kernel image offline.
 *
 *   list     every symbol, as /proc/kallmodsyms prints it
 *   lookup   symbol+off/size [modules] {objfile} of addresses
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/elf_file.h>
#include <kms/error.h>
#include <kms/format.h>
#include <kms/source.h>
#include <kms/symbols.h>

#include "annotate.h"

#define PROG "kallmodsyms"

#ifndef KMS_VERSION_STRING
#define KMS_VERSION_STRING "0"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " COMMAND [options] VMLINUX [ARG...]\n"
		"\n"
		"Commands:\n"
		"  list VMLINUX            every symbol in /proc/kallsyms order and format,\n"
		"                          with the [module] {objfile} annotations of\n"
		"                          /proc/kallmodsyms\n"
		"  lookup VMLINUX ADDR...  symbol+0xoff/0xsize [module] {objfile} of each\n"
		"                          address (hexadecimal, with or without 0x)\n"
		"\n"
		"Options:\n"
		"  -t, --tables FILE       read the tables from FILE (a vmlinux with the note,\n"
		"                          a sidecar or note file) instead of VMLINUX\n"
		"  -S, --symbols SOURCE    auto (default): the kallsyms tables built into\n"
		"                          VMLINUX when it has them, else its symbol table;\n"
		"                          kallsyms; symtab\n"
		"      --version           print the version\n"
		"  -h, --help              this text\n"
		"\n"
		"Exit status: 0 on success, 1 on errors (for lookup: some address did not\n"
		"resolve), 2 on bad usage.\n");
}

struct context {
	struct kms_elf *elf;
	struct kms_symbols *syms;
	struct kms_tables *tables;
};

static struct kms_error *open_context(const char *vmlinux, const char *tables,
				      enum kms_symbol_source source,
				      struct context *ctx)
{
	struct kms_error *err;

	err = kms_elf_open(vmlinux, &ctx->elf);
	if (err)
		return err;
	err = kms_symbols_read(ctx->elf, source, &ctx->syms);
	if (err)
		return err;
	return kms_tables_load(tables ? tables : vmlinux, &ctx->tables);
}

static void close_context(struct context *ctx)
{
	kms_tables_destroy(ctx->tables);
	kms_symbols_destroy(ctx->syms);
	kms_elf_close(ctx->elf);
}

static int cmd_list(struct context *ctx)
{
	const struct kms_symbols *s = ctx->syms;
	uint32_t cursor = KMS_NONE;
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct kms_symbol *sym = &s->syms[i];

		printf("%016llx %c %s", (unsigned long long)sym->address,
		       sym->type, sym->name);
		if (kms_is_text_type(sym->type))
			kms_print_object(stdout, ctx->tables,
					 kms_address_object(ctx->tables,
							    s->text_address,
							    sym->address,
							    &cursor),
					 "\t");
		putchar('\n');
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": standard output: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* Symbols sorted by address, first of each alias group as the kernel does. */
struct by_address {
	const struct kms_symbol **syms;
	size_t nr;
};

static int compare_address(const void *a, const void *b)
{
	const struct kms_symbol *x = *(const struct kms_symbol *const *)a;
	const struct kms_symbol *y = *(const struct kms_symbol *const *)b;

	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	/* Keep kallsyms order among aliases: compare positions. */
	return x < y ? -1 : x > y;
}

static struct kms_error *index_by_address(const struct kms_symbols *s,
					  struct by_address *idx)
{
	size_t i, n = 0;

	idx->syms = malloc((s->nr ? s->nr : 1) * sizeof(*idx->syms));
	if (!idx->syms)
		return &kms_error_nomem;
	for (i = 0; i < s->nr; i++)
		idx->syms[n++] = &s->syms[i];
	qsort(idx->syms, n, sizeof(*idx->syms), compare_address);
	idx->nr = n;
	return NULL;
}

static struct kms_error *parse_address(const char *text, uint64_t *ret)
{
	const char *p = text;
	char *end;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (!isxdigit((unsigned char)*p))
		return kms_error_file(text, "not a hexadecimal address");
	errno = 0;
	*ret = strtoull(p, &end, 16);
	if (errno || *end)
		return kms_error_file(text, "not a hexadecimal address");
	return NULL;
}

static int cmd_lookup(struct context *ctx, char **addrs, int nr_addrs)
{
	const struct kms_symbols *s = ctx->syms;
	struct by_address idx;
	struct kms_error *err;
	int i, status = 0;

	err = index_by_address(s, &idx);
	if (err) {
		kms_error_report(PROG, err);
		return 1;
	}
	for (i = 0; i < nr_addrs; i++) {
		const struct kms_symbol *sym;
		uint32_t cursor = KMS_NONE;
		size_t lo = 0, hi = idx.nr, next;
		uint64_t addr = 0, size;

		err = parse_address(addrs[i], &addr);
		if (err) {
			kms_error_report(PROG, err);
			status = 1;
			continue;
		}
		/* The last symbol at or below addr, first of its aliases. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (idx.syms[mid]->address <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0) {
			fprintf(stderr, PROG ": %s: below the first symbol\n",
				addrs[i]);
			status = 1;
			continue;
		}
		sym = idx.syms[lo - 1];
		while (lo - 1 > 0 && idx.syms[lo - 2]->address == sym->address)
			sym = idx.syms[--lo - 1];
		for (next = lo; next < idx.nr &&
		     idx.syms[next]->address == sym->address; next++)
			;
		if (next < idx.nr)
			size = idx.syms[next]->address - sym->address;
		else
			size = sym->size;
		if (addr - sym->address >= size && size) {
			fprintf(stderr, PROG ": %s: past the end of %s\n",
				addrs[i], sym->name);
			status = 1;
			continue;
		}
		printf("%s+0x%llx/0x%llx", sym->name,
		       (unsigned long long)(addr - sym->address),
		       (unsigned long long)size);
		if (kms_is_text_type(sym->type))
			kms_print_object(stdout, ctx->tables,
					 kms_address_object(ctx->tables,
							    s->text_address,
							    sym->address,
							    &cursor),
					 " ");
		putchar('\n');
	}
	free(idx.syms);
	return status;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "tables", required_argument, NULL, 't' },
		{ "symbols", required_argument, NULL, 'S' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum kms_symbol_source source = KMS_SYMBOLS_AUTO;
	struct context ctx = { 0 };
	const char *tables = NULL, *cmd;
	struct kms_error *err;
	int c, status;

	while ((c = getopt_long(argc, argv, "+t:S:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'V': puts(PROG " " KMS_VERSION_STRING); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	cmd = argv[optind++];
	while ((c = getopt_long(argc, argv, "t:S:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			tables = optarg;
			break;
		case 'S':
			if (!strcmp(optarg, "auto")) {
				source = KMS_SYMBOLS_AUTO;
			} else if (!strcmp(optarg, "kallsyms")) {
				source = KMS_SYMBOLS_KALLSYMS;
			} else if (!strcmp(optarg, "symtab")) {
				source = KMS_SYMBOLS_SYMTAB;
			} else {
				fprintf(stderr, PROG ": unknown symbol source \"%s\" (auto, kallsyms, symtab)\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if ((strcmp(cmd, "list") && strcmp(cmd, "lookup")) ||
	    optind >= argc || (!strcmp(cmd, "list") && optind != argc - 1) ||
	    (!strcmp(cmd, "lookup") && optind > argc - 2)) {
		usage(stderr);
		return 2;
	}
	err = open_context(argv[optind], tables, source, &ctx);
	if (err) {
		kms_error_report(PROG, err);
		close_context(&ctx);
		return 1;
	}
	if (!strcmp(cmd, "list"))
		status = cmd_list(&ctx);
	else
		status = cmd_lookup(&ctx, argv + optind + 1, argc - optind - 1);
	close_context(&ctx);
	return status;
}
