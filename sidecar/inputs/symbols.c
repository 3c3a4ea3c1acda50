// SPDX-License-Identifier: GPL-2.0
/* The core kernel's symbols in /proc/kallsyms order (kms/symbols.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <kms/symbols.h>
#include <kms/util.h>

#include "kallsyms_tables.h"

void kms_symbols_destroy(struct kms_symbols *symbols)
{
	if (!symbols)
		return;
	free(symbols->syms);
	free(symbols->names);
	free(symbols);
}

/* binutils' coff_section_type(): the name decides when the flags do not. */
static char section_type_by_name(const char *name)
{
	static const struct {
		const char *prefix;
		char type;
	} table[] = {
		{ ".bss", 'b' }, { ".code", 't' }, { ".data", 'd' },
		{ "*DEBUG*", 'N' }, { ".debug", 'N' }, { ".drectve", 'i' },
		{ ".edata", 'e' }, { ".fini", 't' }, { ".idata", 'i' },
		{ ".init", 't' }, { ".pdata", 'p' }, { ".rdata", 'r' },
		{ ".rodata", 'r' }, { ".sbss", 's' }, { ".scommon", 'c' },
		{ ".sdata", 'g' }, { ".text", 't' }, { "vars", 'd' },
		{ "zerovars", 'b' },
	};
	size_t i;

	for (i = 0; i < KMS_ARRAY_SIZE(table); i++) {
		size_t len = strlen(table[i].prefix);

		if (!strncmp(name, table[i].prefix, len) &&
		    memchr(".$0123456789", name[len], 13))
			return table[i].type;
	}
	return '?';
}

/* binutils' decode_section_type() on the flags BFD derives from ELF. */
static char section_type_by_flags(const char *name, const GElf_Shdr *shdr)
{
	bool contents = shdr->sh_type != SHT_NOBITS;
	bool readonly = !(shdr->sh_flags & SHF_WRITE);

	if (shdr->sh_flags & SHF_EXECINSTR)
		return 't';
	if ((shdr->sh_flags & SHF_ALLOC) && contents)
		return readonly ? 'r' : 'd';
	if (!contents)
		return 'b';
	if (!strncmp(name, ".debug", 6) || !strncmp(name, ".zdebug", 7) ||
	    !strncmp(name, ".stab", 5) || !strncmp(name, ".gnu.linkonce.wi.", 17))
		return 'N';
	if (readonly)
		return 'n';
	return '?';
}

char kms_nm_type(struct kms_elf *elf, const GElf_Sym *sym)
{
	unsigned char bind = GELF_ST_BIND(sym->st_info);
	unsigned char type = GELF_ST_TYPE(sym->st_info);
	bool object = type == STT_OBJECT || type == STT_TLS ||
		      type == STT_COMMON;
	Elf_Scn *scn;
	GElf_Shdr shdr;
	const char *name;
	char c;

	if (sym->st_shndx == SHN_COMMON)
		return 'C';
	if (sym->st_shndx == SHN_UNDEF)
		return bind == STB_WEAK ? (object ? 'v' : 'w') : 'U';
	if (type == STT_GNU_IFUNC)
		return 'i';
	if (bind == STB_WEAK)
		return object ? 'V' : 'W';
	if (bind == STB_GNU_UNIQUE)
		return 'u';
	if (bind != STB_LOCAL && bind != STB_GLOBAL)
		return '?';
	if (sym->st_shndx == SHN_ABS) {
		c = 'a';
	} else {
		scn = elf_getscn(elf->elf, sym->st_shndx);
		if (!scn || !gelf_getshdr(scn, &shdr))
			return '?';
		name = kms_elf_section_name(elf, scn);
		c = section_type_by_flags(name, &shdr);
		if (c == '?')
			c = section_type_by_name(name);
	}
	return bind == STB_GLOBAL ? toupper((unsigned char)c) : c;
}

/* scripts/mksysmap: what never reaches System.map or kallsyms. */
static bool mksysmap_drops(const char *name, char type)
{
	static const char *const prefixes[] = {
		"$", ".L", "__efistub_", "__kvm_nvhe_$",
		"__kvm_nvhe_.L", "__kcfi_typeid_", "__kvm_nvhe___kcfi_typeid_",
		"__pi___kcfi_typeid_", "__crc_", "__kstrtab_", "__kstrtabns_",
	};
	static const char *const suffixes[] = {
		"_from_arm", "_from_thumb", "_veneer",
	};
	size_t i, len = strlen(name);
	const char *p;

	if (strchr("aNUw", type))
		return true;
	/* Every prefix starts with one of these: most names skip the loop. */
	if (name[0] == '$' || name[0] == '.' || name[0] == '_')
		for (i = 0; i < KMS_ARRAY_SIZE(prefixes); i++)
			if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
				return true;
	for (i = 0; i < KMS_ARRAY_SIZE(suffixes); i++) {
		size_t n = strlen(suffixes[i]);

		if (len >= n && !strcmp(name + len - n, suffixes[i]))
			return true;
	}
	/* "__<alnum>*Thunk_" anywhere from the start */
	if (!strncmp(name, "__", 2)) {
		for (p = name + 2; isalnum((unsigned char)*p); p++)
			;
		if (p > name + 2 && !strncmp(p - 5, "Thunk", 5) && *p == '_')
			return true;
	}
	if (!strcmp(name, "L0") || !strcmp(name, "_SDA_BASE_") ||
	    !strcmp(name, "_SDA2_BASE_") || strstr(name, ".long_branch.") ||
	    strstr(name, ".plt_branch."))
		return true;
	return false;
}

/* scripts/kallsyms: is_ignored_symbol(). */
static bool kallsyms_ignores(const char *name, char type)
{
	if (type == 'u' || type == 'n')
		return true;
	if (toupper((unsigned char)type) == 'A')
		return strcmp(name, "__kernel_syscall_via_break") &&
		       strcmp(name, "__kernel_syscall_via_epc") &&
		       strcmp(name, "__kernel_sigtramp") && strcmp(name, "__gp");
	return false;
}

/*
 * Symbols whose listing changed between kernel versions, as bits; which
 * rules an image followed shows in its symbol count (kallsyms_num_syms).
 *  - LATE_OWN_TABLE: kallsyms' own tables.  Before Linux 6.10
 *    scripts/kallsyms left them out (they appeared only after its first
 *    pass); since then an empty first table defines them in every pass,
 *    and they are listed.
 *  - LATE_PI_LOCAL: arm64's local symbols in the PI namespace (__pi_$x,
 *    __pi_.L...), which objcopy --prefix-symbols makes of mapping symbols
 *    and local labels: listed until Linux 6.5 ("scripts/mksysmap: Ignore
 *    __pi_ local arm64 symbols"; kallsyms reads mksysmap's output).
 */
enum { LATE_OWN_TABLE = 1, LATE_PI_LOCAL = 2 };

static unsigned int late_rule(const char *name)
{
	static const char *const tables[] = {
		"kallsyms_addresses", "kallsyms_offsets",
		"kallsyms_relative_base", "kallsyms_num_syms",
		"kallsyms_names", "kallsyms_markers", "kallsyms_token_table",
		"kallsyms_token_index", "kallsyms_seqs_of_names",
	};
	size_t i;

	if (!strncmp(name, "__pi_$", 6) || !strncmp(name, "__pi_.L", 7))
		return LATE_PI_LOCAL;
	if (strncmp(name, "kallsyms_", 9))
		return 0;
	for (i = 0; i < KMS_ARRAY_SIZE(tables); i++)
		if (!strcmp(name, tables[i]))
			return LATE_OWN_TABLE;
	return 0;
}

struct sort_entry {
	struct kms_symbol sym;
	size_t seq;
};

static bool linker_provided(const char *s)
{
	size_t len = strlen(s);

	if (len < 8 || s[0] != '_' || s[1] != '_')
		return false;
	return !memcmp(s + 2, "start_", 6) || !memcmp(s + 2, "stop_", 5) ||
	       !memcmp(s + 2, "end_", 4) || !memcmp(s + len - 6, "_start", 6) ||
	       !memcmp(s + len - 4, "_end", 4);
}

/*
 * scripts/kallsyms: compare_symbols(), on the order of `nm -n` (address,
 * then name) that kallsyms reads: one sort does both.
 */
static int compare_kallsyms(const void *a, const void *b)
{
	const struct sort_entry *x = a, *y = b;
	int wx, wy;

	if (x->sym.address != y->sym.address)
		return x->sym.address < y->sym.address ? -1 : 1;
	wx = x->sym.type == 'w' || x->sym.type == 'W';
	wy = y->sym.type == 'w' || y->sym.type == 'W';
	if (wx != wy)
		return wx - wy;
	wx = linker_provided(x->sym.name);
	wy = linker_provided(y->sym.name);
	if (wx != wy)
		return wx - wy;
	wx = strspn(x->sym.name, "_");
	wy = strspn(y->sym.name, "_");
	if (wx != wy)
		return wx - wy;
	wx = strcmp(x->sym.name, y->sym.name);
	if (wx)
		return wx;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Sort @entries as compare_kallsyms() does.  A vmlinux has a few hundred
 * thousand symbols and few share an address: a stable radix sort by
 * address, then the comparison only within runs of one address.
 */
static struct kms_error *sort_kallsyms(struct sort_entry *entries, size_t n)
{
	struct sort_entry *tmp, *from = entries, *to;
	uint64_t differ = 0;
	size_t i, j, count[256];
	unsigned int shift;

	if (n < 2)
		return NULL;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return &kms_error_nomem;
	to = tmp;
	for (i = 1; i < n; i++)
		differ |= entries[i].sym.address ^ entries[0].sym.address;
	for (shift = 0; shift < 64; shift += 8) {
		struct sort_entry *swap;
		size_t sum = 0;

		if (!((differ >> shift) & 0xff))
			continue;	/* every address has this byte */
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(from[i].sym.address >> shift) & 0xff]++;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i].sym.address >> shift) & 0xff]++] =
				from[i];
		swap = from;
		from = to;
		to = swap;
	}
	if (from != entries)
		memcpy(entries, from, n * sizeof(*entries));
	free(tmp);

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n; j++)
			if (entries[j].sym.address != entries[i].sym.address)
				break;
		if (j - i > 1)
			qsort(entries + i, j - i, sizeof(*entries),
			      compare_kallsyms);
	}
	return NULL;
}

/*
 * scripts/kallsyms --absolute-percpu, which x86-64 SMP kernels use
 * (CONFIG_KALLSYMS_ABSOLUTE_PERCPU): their per-CPU section is linked at 0,
 * and kallsyms lists its symbols as absolute, type 'A'.
 */
static void make_percpus_absolute(struct sort_entry *entries, size_t n)
{
	uint64_t start = UINT64_MAX, end = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(entries[i].sym.name, "__per_cpu_start"))
			start = entries[i].sym.address;
		else if (!strcmp(entries[i].sym.name, "__per_cpu_end"))
			end = entries[i].sym.address;
	}
	if (start != 0 || end <= start)
		return;
	for (i = 0; i < n; i++)
		if (entries[i].sym.address <= end)
			entries[i].sym.type = 'A';
}

/*
 * The LATE_* rules by which the image's kallsyms left symbols out of the
 * @n we kept, @nr[rule] of them each rule's: those whose count is the
 * image's, the current kernel's (tables listed, PI locals not) first and
 * by default (also when the image has no kallsyms_num_syms).
 */
static struct kms_error *late_dropped(struct kms_elf *elf, size_t n,
				      const size_t nr[], unsigned int *ret)
{
	static const unsigned int tries[] = {
		LATE_PI_LOCAL, LATE_OWN_TABLE, LATE_OWN_TABLE | LATE_PI_LOCAL,
	};
	struct kms_error *err;
	uint32_t nr_syms;
	size_t k;

	err = kallsyms_num_syms(elf, &nr_syms);
	if (kms_error_is_absent(err)) {
		kms_error_destroy(err);
		*ret = tries[0];
		return NULL;
	}
	if (err)
		return err;
	for (k = 0; k < KMS_ARRAY_SIZE(tries); k++)
		if (n - (tries[k] & LATE_OWN_TABLE ? nr[LATE_OWN_TABLE] : 0) -
		    (tries[k] & LATE_PI_LOCAL ? nr[LATE_PI_LOCAL] : 0) ==
		    nr_syms)
			break;
	*ret = tries[k < KMS_ARRAY_SIZE(tries) ? k : 0];
	return NULL;
}

/* The @n @entries without those late_dropped() says the image left out. */
static struct kms_error *drop_late(struct kms_elf *elf,
				   struct sort_entry *entries, size_t *n,
				   const size_t nr[])
{
	struct kms_error *err;
	unsigned int dropped;
	size_t i, kept;

	err = late_dropped(elf, *n, nr, &dropped);
	if (err)
		return err;
	for (i = kept = 0; i < *n; i++)
		if (!(late_rule(entries[i].sym.name) & dropped))
			entries[kept++] = entries[i];
	*n = kept;
	return NULL;
}

static struct kms_error *symbols_from_symtab(struct kms_elf *elf,
					     struct kms_symbols *out)
{
	struct sort_entry *entries;
	size_t i, n = 0, nr_late[LATE_PI_LOCAL + 1] = { 0 };
	struct kms_error *err;

	if (!elf->symtab)
		return kms_error_file(elf->path, "no symbol table");
	entries = calloc(elf->nr_symbols, sizeof(*entries));
	if (!entries)
		return &kms_error_nomem;
	for (i = 1; i < elf->nr_symbols; i++) {
		unsigned char type;
		const char *name;
		GElf_Sym sym;
		char c;

		if (!gelf_getsym(elf->symtab_data, i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE)
			continue;
		name = elf_strptr(elf->elf, elf->strtab_index, sym.st_name);
		if (!name || !*name || strlen(name) >= KSYM_NAME_LEN)
			continue;
		if (!strcmp(name, "_text"))
			out->text_address = sym.st_value;
		c = kms_nm_type(elf, &sym);
		if (mksysmap_drops(name, c) || kallsyms_ignores(name, c))
			continue;
		entries[n].sym.address = sym.st_value;
		entries[n].sym.size = sym.st_size;
		entries[n].sym.name = name;
		entries[n].sym.type = c;
		entries[n].seq = i;
		nr_late[late_rule(name)]++;
		n++;
	}
	err = drop_late(elf, entries, &n, nr_late);
	if (err) {
		free(entries);
		return err;
	}
	make_percpus_absolute(entries, n);

	out->syms = malloc((n ? n : 1) * sizeof(*out->syms));
	if (!out->syms || sort_kallsyms(entries, n)) {
		free(out->syms);
		out->syms = NULL;
		free(entries);
		return &kms_error_nomem;
	}
	for (i = 0; i < n; i++)
		out->syms[i] = entries[i].sym;
	out->nr = n;
	free(entries);
	return NULL;
}

static struct kms_error *symbols_from_kallsyms(struct kms_elf *elf,
					       struct kms_symbols *out)
{
	struct kallsyms_tables k;
	struct kms_error *err;
	uint64_t pos = 0, names_used = 0;
	bool absolute_percpu = false;
	size_t store_cap;
	uint32_t i;

	err = find_kallsyms_tables(elf, &k);
	if (err)
		return err;
	for (i = 0; i < k.nr_syms; i++)
		if (kallsyms_offset(&k, i) < 0)
			absolute_percpu = true;

	out->syms = calloc(k.nr_syms, sizeof(*out->syms));
	store_cap = (size_t)k.nr_syms * 64;
	out->names = malloc(store_cap);
	if (!out->syms || !out->names)
		return &kms_error_nomem;
	for (i = 0; i < k.nr_syms; i++) {
		char buf[KSYM_NAME_LEN + 1];
		size_t blen = 0;
		int32_t off;

		err = expand_name(elf, &k, i, &pos, buf, &blen);
		if (!err)
			err = KMS_RESERVE(out->names, store_cap,
					  names_used + blen);
		if (err)
			return err;
		/* Remember offsets until the store stops moving. */
		memcpy(out->names + names_used, buf + 1, blen);
		out->syms[i].name = (const char *)(uintptr_t)names_used;
		out->syms[i].type = buf[0];
		names_used += blen;

		off = kallsyms_offset(&k, i);
		if (!absolute_percpu)
			out->syms[i].address = k.relative_base + (uint32_t)off;
		else if (off >= 0)
			out->syms[i].address = off;
		else
			out->syms[i].address = k.relative_base - 1 - off;
	}
	for (i = 0; i < k.nr_syms; i++)
		out->syms[i].name = out->names + (uintptr_t)out->syms[i].name;
	out->nr = k.nr_syms;
	return kms_elf_symbol(elf, "_text", &out->text_address);
}

struct kms_error *kms_symbols_read(struct kms_elf *elf,
				   enum kms_symbol_source source,
				   struct kms_symbols **ret)
{
	struct kms_symbols *s;
	struct kms_error *err;
	uint64_t dummy;

	s = calloc(1, sizeof(*s));
	if (!s)
		return &kms_error_nomem;
	if (source == KMS_SYMBOLS_AUTO) {
		/*
		 * No kallsyms tables: the symbol table; any other error goes
		 * up.
		 */
		err = kms_elf_symbol(elf, "kallsyms_names", &dummy);
		if (err && !kms_error_is_absent(err)) {
			kms_symbols_destroy(s);
			return err;
		}
		source = err ? KMS_SYMBOLS_SYMTAB : KMS_SYMBOLS_KALLSYMS;
		kms_error_destroy(err);
	}
	if (source == KMS_SYMBOLS_KALLSYMS) {
		err = symbols_from_kallsyms(elf, s);
	} else {
		err = symbols_from_symtab(elf, s);
		if (!err && !s->text_address)
			err = kms_elf_symbol(elf, "_text", &s->text_address);
	}
	if (err) {
		kms_symbols_destroy(s);
		return err;
	}
	*ret = s;
	return NULL;
}
