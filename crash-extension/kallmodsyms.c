// SPDX-License-Identifier: GPL-2.0
/*
 * A crash extension: the built-in module and object file of kernel
 * addresses and symbols, from the kallmodsyms note in the vmlinux file crash
 * was given (the dumped kernel freed its copy after boot), once the dump's
 * linux_banner has said the file is the dumped kernel's, decoded by the
 * format library every C reader uses.
 *
 *   crash> extend /path/to/kallmodsyms.so
 *   crash> kms lookup ADDR|SYMBOL...   sym+off/size [mod] {obj}
 *   crash> kms sym NAME                every symbol of that name, annotated
 *
 * Symbols are crash's (vmlinux's, relocated by the dump's KASLR offset);
 * the annotation follows FORMAT.md 4 as /proc/kallmodsyms prints it, for
 * core-kernel text and data (per-CPU variables are left bare).
 */
#include <crash/defs.h>

#include <kms/annotate.h>
#include <kms/elf_file.h>
#include <kms/error.h>
#include <kms/source.h>
#include <kms/tables.h>

/* At most this much of linux_banner is compared: all of it, in practice. */
#define BANNER_MAX 512

static struct kms_tables *kms_tables;
static ulong kms_text;

/*
 * Refuse, said, a vmlinux that is not the dumped kernel's: its
 * linux_banner against the dump's, at crash's (relocated) symbol.  The
 * tables come from the file, so they describe the dump only if it is the
 * file's.
 */
static bool same_banner(struct kms_elf *elf)
{
	const unsigned char *want = NULL;
	struct kms_error *err;
	char got[BANNER_MAX];
	uint64_t link, size;
	size_t n;

	err = kms_elf_symbol(elf, "linux_banner", &link);
	/* As much of it as its section holds, up to BANNER_MAX bytes. */
	for (size = BANNER_MAX; !err && size; size /= 2) {
		err = kms_elf_bytes_at(elf, link, size, &want);
		if (err && size > 1) {
			kms_error_destroy(err);
			err = NULL;
			continue;
		}
		break;
	}
	if (err) {
		error(INFO, "%s\n", err->message);
		kms_error_destroy(err);
		return false;
	}
	n = strnlen((const char *)want, size);
	if (!symbol_exists("linux_banner") ||
	    !readmem(symbol_value("linux_banner"), KVADDR, got, n,
		     "linux_banner", RETURN_ON_ERROR | QUIET) ||
	    memcmp(want, got, n)) {
		error(INFO, "%s is not the dumped kernel's vmlinux (its linux_banner differs)\n",
		      elf->path);
		return false;
	}
	return true;
}

/*
 * Decode the note of the vmlinux file once per session: false, said, when
 * it cannot be.  The dumped kernel freed its own copy of the note after
 * boot (FORMAT.md 5); the file's is the one it checked.
 */
static bool load_tables(void)
{
	struct kms_error *err;
	struct kms_elf *elf;

	if (kms_tables)
		return true;
	err = kms_elf_open(pc->namelist, &elf);
	if (err) {
		error(INFO, "%s\n", err->message);
		kms_error_destroy(err);
		return false;
	}
	if (!same_banner(elf)) {
		kms_elf_close(elf);
		return false;
	}
	err = kms_tables_from_elf(elf, &kms_tables);
	kms_elf_close(elf);
	if (err) {
		error(INFO, "%s\n", err->message);
		kms_error_destroy(err);
		return false;
	}
	kms_text = symbol_value("_text");
	return true;
}

/*
 * The object of symbol @sp (FORMAT.md 4, kms/annotate.h), KMS_NONE when
 * none.  Per-CPU sections are not looked at: crash's per-CPU symbols are
 * left bare.
 */
static uint32_t symbol_object(const struct syment *sp)
{
	struct kms_bases bases = { .text = kms_text };

	return kms_symbol_object(kms_tables, &bases, sp->value, sp->type,
				 NULL);
}

/* The size of @sp: up to the next symbol at another address. */
static ulong symbol_size(struct syment *sp)
{
	struct syment *next = next_symbol(NULL, sp);

	while (next && next->value == sp->value)
		next = next_symbol(NULL, next);
	return next ? next->value - sp->value : 0;
}

static void lookup_one(char *arg)
{
	struct syment *sp;
	ulong addr, offset = 0;

	if (symbol_exists(arg)) {
		sp = symbol_search(arg);
		addr = sp->value;
	} else if (hexadecimal(arg, 0)) {
		addr = htol(arg, RETURN_ON_ERROR, NULL);
		sp = value_search(addr, &offset);
	} else {
		error(INFO, "%s: neither an address nor a symbol\n", arg);
		return;
	}
	if (!sp) {
		fprintf(fp, "%016lx: not in a symbol\n", addr);
		return;
	}
	fprintf(fp, "%016lx %s+0x%lx/0x%lx", addr, sp->name, offset,
		symbol_size(sp));
	kms_print_object(fp, kms_tables, symbol_object(sp), " ");
	fputc('\n', fp);
}

static void sym_all(char *name)
{
	struct syment *sp;

	if (!symbol_exists(name)) {
		error(INFO, "no symbol %s\n", name);
		return;
	}
	for (sp = symbol_search(name); sp; sp = symbol_search_next(name, sp)) {
		fprintf(fp, "%016lx %c %s", sp->value, sp->type, sp->name);
		kms_print_object(fp, kms_tables, symbol_object(sp), "\t");
		fputc('\n', fp);
	}
}

static void cmd_kms(void)
{
	int i;

	if (argcnt < 3 || (strcmp(args[1], "lookup") &&
			   (strcmp(args[1], "sym") || argcnt != 3)))
		cmd_usage(pc->curcmd, SYNOPSIS);
	if (!load_tables())
		return;
	for (i = 2; i < argcnt; i++) {
		if (!strcmp(args[1], "sym"))
			sym_all(args[i]);
		else
			lookup_one(args[i]);
	}
}

static char *help_kms[] = {
	"kms",
	"built-in module and object file of kernel addresses (kallmodsyms)",
	"lookup ADDR|SYMBOL... | sym NAME",
	"  From the kallmodsyms note in the vmlinux file:",
	"    lookup  each address or symbol as sym+off/size [mod] {obj}",
	"    sym     every symbol called NAME, as /proc/kallmodsyms lists it",
	NULL
};

static struct command_table_entry command_table[] = {
	/* MINIMAL: crash --minimal, the mode crash 8.0.2 reads 6.12 in. */
	{ "kms", cmd_kms, help_kms, MINIMAL },
	{ NULL, NULL, NULL, 0 },
};

static void __attribute__((constructor)) kallmodsyms_init(void)
{
	register_extension(command_table);
}

static void __attribute__((destructor)) kallmodsyms_fini(void)
{
	kms_tables_destroy(kms_tables);
	kms_tables = NULL;
}
