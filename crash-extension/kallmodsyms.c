// SPDX-License-Identifier: GPL-2.0
/*
 * A crash extension: the built-in module and object file of kernel
 * addresses and symbols, from the kallmodsyms note in the dumped kernel's
 * own memory (between __start_kallmodsyms and __stop_kallmodsyms, or in
 * .notes for a kernel that kept it there), decoded by the format library
 * every C reader uses.
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
#include <kms/blob.h>
#include <kms/note.h>
#include <kms/error.h>
#include <kms/format.h>
#include <kms/tables.h>

static struct kms_tables *kms_tables;
static ulong kms_text;

/*
 * The bounds of the kernel's note section, by vmlinux's symbols: its own
 * section, or .notes where a kernel kept the note there (FORMAT.md 1).
 */
static bool note_bounds(ulong *start, ulong *stop)
{
	static const char *const pairs[][2] = {
		{ KMS_TABLES_START_SYMBOL, KMS_TABLES_STOP_SYMBOL },
		{ KMS_NOTES_START_SYMBOL, KMS_NOTES_STOP_SYMBOL },
	};
	size_t i;

	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (symbol_exists((char *)pairs[i][0]) &&
		    symbol_exists((char *)pairs[i][1])) {
			*start = symbol_value((char *)pairs[i][0]);
			*stop = symbol_value((char *)pairs[i][1]);
			return true;
		}
	}
	error(INFO, "vmlinux has neither %s and %s nor %s and %s\n",
	      KMS_TABLES_START_SYMBOL, KMS_TABLES_STOP_SYMBOL,
	      KMS_NOTES_START_SYMBOL, KMS_NOTES_STOP_SYMBOL);
	return false;
}

/* The kernel's note section as the dump holds it: NULL on error, said. */
static char *read_notes(size_t *ret_size)
{
	ulong start, stop;
	char *buf;

	if (!note_bounds(&start, &stop))
		return NULL;
	if (stop <= start || stop - start > 16 << 20) {
		error(INFO, "implausible note section at %lx-%lx\n", start,
		      stop);
		return NULL;
	}
	buf = malloc(stop - start);
	if (!buf) {
		error(INFO, "out of memory\n");
		return NULL;
	}
	if (!readmem(start, KVADDR, buf, stop - start, "kernel notes",
		     RETURN_ON_ERROR | QUIET)) {
		error(INFO, "the dump has no bytes of the note section at %lx\n",
		      start);
		free(buf);
		return NULL;
	}
	*ret_size = stop - start;
	return buf;
}

/* Decode the note once per session: false, said, when it cannot be. */
static bool load_tables(void)
{
	struct kms_error *err;
	const void *desc;
	size_t size, desc_size;
	char *notes;

	if (kms_tables)
		return true;
	notes = read_notes(&size);
	if (!notes)
		return false;
	err = kms_note_find(notes, size, "the kernel's .notes", &desc,
			    &desc_size);
	if (!err && !desc)
		err = kms_error_new(KMS_ERR_NO_NOTE, "the kernel's .notes hold no kallmodsyms note: built without CONFIG_KALLMODSYMS?");
	if (!err)
		err = kms_blob_decode(desc, desc_size, "the kernel's note",
				      &kms_tables);
	free(notes);
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
	"  From the kallmodsyms note in the dumped kernel's memory:",
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
