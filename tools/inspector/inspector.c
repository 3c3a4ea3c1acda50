// SPDX-License-Identifier: GPL-2.0
/*
 * The inspector's one vmlinux and the questions asked of it; inspector.h.
 * Its DWARF is inspector_dwarf.c's.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/source.h>
#include <kms/tables.h>
#include <kms/util.h>

#include "inspector.h"
#include "kallsyms_copy.h"

int inspector_fail(struct kms_error *err)
{
	kms_error_report(PROG, err);
	return 1;
}

/* kms_format_object()'s text of an object entry, and its length. */
struct inspector_object_text {
	char *text;		/* NULL: not made yet, or too long */
	size_t len;
	bool made;
};

static int compare_address(const void *a, const void *b)
{
	const struct kms_symbol *x = *(const struct kms_symbol *const *)a;
	const struct kms_symbol *y = *(const struct kms_symbol *const *)b;

	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int compare_name(const void *a, const void *b)
{
	const struct kms_symbol *x = *(const struct kms_symbol *const *)a;
	const struct kms_symbol *y = *(const struct kms_symbol *const *)b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x < y ? -1 : x > y;
}

/* How the vmlinux lists its symbols: as kms_symbols_read() decides. */
static enum kms_symbol_source symbol_source(struct inspector *in)
{
	struct kms_error *err;
	uint64_t dummy;

	if (in->opts->source != KMS_SYMBOLS_AUTO)
		return in->opts->source;
	/* Its only error is "absent" (kms/elf_file.h). */
	err = kms_elf_symbol(in->elf, "kallsyms_names", &dummy);
	kms_error_destroy(err);
	return err ? KMS_SYMBOLS_SYMTAB : KMS_SYMBOLS_KALLSYMS;
}

/* in->syms, from the kallsyms tables or the symbol table. */
static struct kms_error *open_symbols(struct inspector *in)
{
	struct kms_error *err;

	if (symbol_source(in) == KMS_SYMBOLS_SYMTAB) {
		err = kms_symbols_read(in->elf, KMS_SYMBOLS_SYMTAB,
				       &in->symtab);
		in->syms = in->symtab;
	} else {
		err = kms_kallsyms_open(in->elf, &in->kallsyms);
		if (!err)
			in->syms = kms_kallsyms_table(in->kallsyms);
	}
	return err;
}

/*
 * The ELF symbols the inspector looks up by name: in one pass, with those
 * of the kallsyms tables.
 */
static const char *const looked_up[] = {
	"kallsyms_names", "__per_cpu_start", "__per_cpu_end",
};

struct kms_error *inspector_open(struct inspector *in, const char *vmlinux,
				 const struct inspector_options *opts)
{
	struct kms_error *err;
	size_t n;

	memset(in, 0, sizeof(*in));
	in->vmlinux = vmlinux;
	in->opts = opts;
	json_init(&in->json, stdout);
	err = kms_elf_open(vmlinux, &in->elf);
	if (!err) {
		kms_elf_symbols_ahead(in->elf, looked_up,
				      KMS_ARRAY_SIZE(looked_up));
		kms_kallsyms_ahead(in->elf);
		err = open_symbols(in);
	}
	if (!err)
		err = opts->tables ? kms_tables_load(opts->tables, &in->tables) :
		      kms_tables_from_elf(in->elf, &in->tables);
	if (err)
		return err;
	n = in->syms->nr ? in->syms->nr : 1;
	in->by_address = malloc(n * sizeof(*in->by_address));
	in->by_name = malloc(n * sizeof(*in->by_name));
	return in->by_address && in->by_name ? NULL : &kms_error_nomem;
}

void inspector_close(struct inspector *in)
{
	if (in->dwfl)
		dwfl_end(in->dwfl);
	for (size_t i = 0; in->object_texts && i < in->tables->nr_objects; i++)
		free(in->object_texts[i].text);
	free(in->object_texts);
	free(in->by_address);
	free(in->by_name);
	kms_vmcore_close(in->vmcore);
	kms_tables_destroy(in->tables);
	kms_kallsyms_close(in->kallsyms);
	kms_symbols_destroy(in->symtab);
	kms_elf_close(in->elf);
	memset(in, 0, sizeof(*in));
}

const struct kms_symbols *inspector_symbols(struct inspector *in)
{
	return in->kallsyms ? kms_kallsyms_all(in->kallsyms) : in->syms;
}

/* @v, every symbol's address, sorted by @cmp (unless already in order). */
static void sort_symbols(struct inspector *in, const struct kms_symbol **v,
			 int (*cmp)(const void *, const void *))
{
	const struct kms_symbols *syms = inspector_symbols(in);
	bool sorted = true;
	size_t i;

	for (i = 0; i < syms->nr; i++) {
		v[i] = &syms->syms[i];
		sorted = sorted && (!i || cmp(&v[i - 1], &v[i]) < 0);
	}
	if (!sorted)
		qsort(v, syms->nr, sizeof(*v), cmp);
}

static int name_before(const void *key, const void *element)
{
	return strcmp(key, (*(const struct kms_symbol *const *)element)->name);
}

size_t inspector_symbols_named(struct inspector *in, const char *name,
			       const struct kms_symbol *const **ret_first)
{
	size_t n = in->syms->nr, sz = sizeof(*in->by_name), lo;

	if (!in->by_name_made) {
		sort_symbols(in, in->by_name, compare_name);
		in->by_name_made = true;
	}
	lo = kms_lower_bound(name, in->by_name, n, sz, name_before);
	*ret_first = in->by_name + lo;
	return kms_upper_bound(name, in->by_name, n, sz, name_before) - lo;
}

/*
 * Look-ups by address: the kallsyms tables' own order when it is the
 * order by address (as scripts/kallsyms sorts them), so that no name is
 * expanded but those asked for; else by_address, made on first use.
 */
static bool in_table_order(const struct inspector *in)
{
	return in->kallsyms && kms_kallsyms_sorted(in->kallsyms);
}

/* The address of the @i-th symbol by address. */
static uint64_t address_of(struct inspector *in, size_t i)
{
	return in_table_order(in) ? kms_kallsyms_address(in->kallsyms, i) :
	       in->by_address[i]->address;
}

/* The @i-th symbol by address. */
static const struct kms_symbol *symbol_of(struct inspector *in, size_t i)
{
	return in_table_order(in) ? kms_kallsyms_symbol(in->kallsyms, i) :
	       in->by_address[i];
}

/* kms_upper_bound()'s order of an address among symbol pointers. */
static int compare_key_address(const void *key, const void *element)
{
	uint64_t addr = *(const uint64_t *)key;
	const struct kms_symbol *sym = *(const struct kms_symbol *const *)element;

	return addr < sym->address ? -1 : addr > sym->address;
}

/* Index by address of the first symbol above @addr. */
static size_t upper_bound(struct inspector *in, uint64_t addr)
{
	if (in_table_order(in))
		return kms_kallsyms_upper_bound(in->kallsyms, addr);
	if (!in->by_address_made) {
		sort_symbols(in, in->by_address, compare_address);
		in->by_address_made = true;
	}
	return kms_upper_bound(&addr, in->by_address, in->syms->nr,
			       sizeof(*in->by_address), compare_key_address);
}

uint64_t inspector_symbol_size(struct inspector *in,
			       const struct kms_symbol *sym)
{
	size_t next = upper_bound(in, sym->address);

	if (next < in->syms->nr)
		return address_of(in, next) - sym->address;
	return sym->size;
}

bool inspector_symbol_between(struct inspector *in, uint64_t lo,
			      uint64_t hi)
{
	size_t i;

	if (lo >= hi)
		return false;
	i = lo ? upper_bound(in, lo - 1) : 0;
	return i < in->syms->nr && address_of(in, i) < hi;
}

const struct kms_symbol *inspector_symbol_at(struct inspector *in,
					     uint64_t addr,
					     uint64_t *ret_size)
{
	const struct kms_symbol *sym;
	size_t next = upper_bound(in, addr), i = next;
	uint64_t start;

	if (i == 0)
		return NULL;
	/* The kernel names an address by the first of its aliases. */
	start = address_of(in, i - 1);
	while (i > 1 && address_of(in, i - 2) == start)
		i--;
	sym = symbol_of(in, i - 1);
	/*
	 * Its size, as inspector_symbol_size() says: to the next symbol's
	 * address, which is @next's.  The last symbol (_end) holds only its
	 * own size, often none: as kallsyms resolves nothing past the
	 * image's end, %pS prints such addresses raw.
	 */
	*ret_size = next < in->syms->nr ? address_of(in, next) - start :
		    sym->size;
	if (addr - sym->address >= *ret_size)
		return NULL;
	return sym;
}

/*
 * Whether a symbol is called @name, and the address of the first: found
 * through the symbol table, since kallsyms tables list a symbol at its
 * value there (both come from one link), so that only the names at that
 * address are expanded.
 */
static bool table_symbol(struct inspector *in, const char *name,
			 uint64_t *ret)
{
	struct kms_error *err;
	uint64_t value;
	size_t i;

	err = kms_elf_symbol(in->elf, name, &value);	/* only "absent" */
	kms_error_destroy(err);
	if (err)
		return false;
	for (i = value ? upper_bound(in, value - 1) : 0;
	     i < in->syms->nr && address_of(in, i) == value; i++) {
		if (!strcmp(symbol_of(in, i)->name, name)) {
			*ret = value;
			return true;
		}
	}
	return false;
}

/* The same, in every symbol: true when both are found. */
static bool listed_symbols(struct inspector *in, uint64_t *ret_start,
			   uint64_t *ret_end, bool *ret_have_end)
{
	const struct kms_symbols *syms = inspector_symbols(in);
	bool have_start = false;
	size_t i;

	for (i = 0; i < syms->nr; i++) {
		const struct kms_symbol *sym = &syms->syms[i];

		if (!have_start && !strcmp(sym->name, "__per_cpu_start")) {
			*ret_start = sym->address;
			have_start = true;
		} else if (!*ret_have_end &&
			   !strcmp(sym->name, "__per_cpu_end")) {
			*ret_end = sym->address;
			*ret_have_end = true;
		}
	}
	return have_start;
}

/*
 * The per-CPU class's base, and the end of the template, looked up once:
 * false if there is no base.
 */
static bool percpu_base(struct inspector *in, uint64_t *ret)
{
	bool have_end = false;

	if (!in->percpu_tried) {
		in->percpu_tried = true;
		if (in_table_order(in)) {
			in->percpu_known = table_symbol(in, "__per_cpu_start",
							&in->percpu_start);
			have_end = table_symbol(in, "__per_cpu_end",
						&in->percpu_end);
		} else {
			in->percpu_known = listed_symbols(in,
							  &in->percpu_start,
							  &in->percpu_end,
							  &have_end);
		}
		if (!have_end)
			in->percpu_end = in->percpu_start;
	}
	*ret = in->percpu_start;
	return in->percpu_known;
}

bool inspector_class_base(struct inspector *in, uint32_t cls, uint64_t *ret)
{
	if (kms_class_base(cls) == KMS_BASE_PERCPU)
		return percpu_base(in, ret);
	*ret = in->syms->text_address;
	return true;
}

const char *inspector_path(struct inspector *in, uint64_t addr)
{
	uint64_t text = in->syms->text_address;

	if (addr < text || addr - text > UINT32_MAX)
		return NULL;
	return kms_tables_path_at(in->tables, addr - text);
}

bool inspector_absolute_percpu(struct inspector *in, uint64_t addr)
{
	uint64_t start;

	return percpu_base(in, &start) && start < in->syms->text_address &&
	       start <= addr && addr < in->percpu_end;
}

uint32_t inspector_object_in(struct inspector *in, const struct kms_tables *t,
			     const struct kms_symbol *sym, uint32_t *cursor)
{
	struct kms_bases bases = { .text = in->syms->text_address };

	bases.has_percpu = percpu_base(in, &bases.percpu);
	return kms_symbol_object(t, &bases, sym->address, sym->type, cursor);
}

uint32_t inspector_object(struct inspector *in, const struct kms_symbol *sym,
			  uint32_t *cursor)
{
	return inspector_object_in(in, in->tables, sym, cursor);
}

void inspector_json_attribution(struct inspector *in, uint32_t obj)
{
	const struct kms_tables *t = in->tables;
	uint32_t list = obj == KMS_NONE ? KMS_NONE : kms_object_modlist(t, obj);
	const char *name = obj == KMS_NONE ? NULL : kms_object_name(t, obj);
	uint32_t k, n = list == KMS_NONE ? 0 : kms_modlist_count(t, list);

	json_begin_array(&in->json, "modules");
	for (k = 0; k < n; k++)
		json_string(&in->json, NULL, kms_modlist_name(t, list, k));
	json_end_array(&in->json);
	if (name)
		json_string(&in->json, "objfile", name);
	else
		json_null(&in->json, "objfile");
}

bool inspector_name_address(struct inspector *in, uint64_t addr,
			    struct inspector_name *ret)
{
	uint32_t cursor = KMS_NONE;
	uint64_t size;
	const struct kms_symbol *sym = inspector_symbol_at(in, addr, &size);

	if (!sym)
		return false;
	ret->sym = sym;
	ret->offset = addr - sym->address;
	ret->size = size;
	ret->obj = inspector_object(in, sym, &cursor);
	return true;
}

/* @v as printf()'s "%llx" writes it, ending at @end; returns its start. */
static char *hex_before(char *end, uint64_t v)
{
	do
		*--end = "0123456789abcdef"[v & 0xf];
	while (v >>= 4);
	return end;
}

/*
 * What kms_print_object() prints of @obj after its separator, made on
 * first use: NULL when too long to keep, or memory is short.
 */
static const struct inspector_object_text *object_text(struct inspector *in,
						       uint32_t obj)
{
	struct inspector_object_text *o;
	char buf[1024];

	if (!in->object_texts)
		in->object_texts = calloc(in->tables->nr_objects,
					  sizeof(*in->object_texts));
	if (!in->object_texts)
		return NULL;
	o = &in->object_texts[obj];
	if (!o->made) {
		o->made = true;
		kms_format_object(buf, sizeof(buf), in->tables, obj, false);
		o->len = strlen(buf);
		if (o->len < sizeof(buf) - 1)
			o->text = strdup(buf);
	}
	return o->text ? o : NULL;
}

const char *inspector_object_text(struct inspector *in, uint32_t obj,
				  size_t *ret_len)
{
	const struct inspector_object_text *o;

	if (obj == KMS_NONE || obj >= in->tables->nr_objects)
		return NULL;
	o = object_text(in, obj);
	if (o)
		*ret_len = o->len;
	return o ? o->text : NULL;
}

void inspector_print_name(struct inspector *in, FILE *f,
			  const struct inspector_name *name)
{
	/*
	 * By hand, in one write, not fprintf(): lookup prints this for every
	 * address.
	 */
	const struct inspector_object_text *o = NULL;
	size_t len = strlen(name->sym->name), n;
	char buf[2 * (3 + 16)], *p = buf + sizeof(buf), line[1024];

	p = hex_before(p, name->size) - 3;
	memcpy(p, "/0x", 3);
	p = hex_before(p, name->offset) - 3;
	memcpy(p, "+0x", 3);
	n = buf + sizeof(buf) - p;
	if (name->obj != KMS_NONE && name->obj < in->tables->nr_objects)
		o = object_text(in, name->obj);
	if ((name->obj == KMS_NONE || o) &&
	    len + n + 1 + (o ? o->len : 0) <= sizeof(line)) {
		memcpy(line, name->sym->name, len);
		memcpy(line + len, p, n);
		len += n;
		if (o && o->len) {
			line[len++] = ' ';
			memcpy(line + len, o->text, o->len);
			len += o->len;
		}
		fwrite(line, 1, len, f);
		return;
	}
	fputs(name->sym->name, f);
	fwrite(p, 1, n, f);
	kms_print_object(f, in->tables, name->obj, " ");
}

void inspector_json_name(struct inspector *in,
			 const struct inspector_name *name)
{
	json_string(&in->json, "symbol", name->sym->name);
	json_hex(&in->json, "offset", name->offset);
	json_hex(&in->json, "size", name->size);
	inspector_json_attribution(in, name->obj);
}

struct kms_error *inspector_vmcore(struct inspector *in,
				   struct kms_vmcore **ret)
{
	struct kms_vmcore *vc;
	struct kms_error *err;

	if (!in->vmcore) {
		if (!in->opts->vmcore)
			return kms_error_fmt("no crash dump: --vmcore FILE is needed");
		err = kms_vmcore_open(in->opts->vmcore, &vc);
		if (err)
			return err;
		err = kms_vmcore_check_vmlinux(vc, in->elf);
		if (err) {
			kms_vmcore_close(vc);
			return err;
		}
		in->vmcore = vc;
	}
	*ret = in->vmcore;
	return NULL;
}

struct kms_error *inspector_kaslr_from(struct inspector *in,
				       const char *path, uint64_t *ret)
{
	struct kms_error *err;
	uint64_t text;

	err = kallsyms_copy_text(path, &text);
	if (err)
		return err;
	*ret = text - in->syms->text_address;
	return NULL;
}

struct kms_error *inspector_kaslr(struct inspector *in, uint64_t *ret)
{
	struct kms_vmcore *vc;
	struct kms_error *err;

	if (in->opts->kallsyms)
		return inspector_kaslr_from(in, in->opts->kallsyms, ret);
	if (in->opts->vmcore) {
		err = inspector_vmcore(in, &vc);
		return err ? err :
		       kms_vmcore_info_number(vc, "KERNELOFFSET", ret);
	}
	*ret = in->opts->kaslr_offset;
	return NULL;
}
