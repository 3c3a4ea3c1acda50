// SPDX-License-Identifier: GPL-2.0
/* An ELF file through libelf, its architecture, and its look-ups (kms/elf_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kms/elf_file.h>
#include <kms/util.h>

/*
 * The architectures whose kernels the tools have been proven on (a booted
 * kernel's /proc/kallmodsyms equals what they list).  bfd: the name GNU ld
 * writes in its map's OUTPUT() line.  Both are ELF64, little-endian: so is
 * what kms_emit_append() writes.
 */
static const struct kms_arch kms_arches[] = {
	{ EM_X86_64, "x86_64", "elf64-x86-64", 0 },
	{ EM_AARCH64, "aarch64", "elf64-littleaarch64", R_AARCH64_RELATIVE },
};

const struct kms_arch *kms_arch_by_bfd(const char *bfd)
{
	size_t i;

	for (i = 0; i < KMS_ARRAY_SIZE(kms_arches); i++)
		if (!strcmp(kms_arches[i].bfd, bfd))
			return &kms_arches[i];
	return NULL;
}

bool kms_is_elf(const void *buf, size_t size)
{
	return size >= SELFMAG && !memcmp(buf, ELFMAG, SELFMAG);
}

/*
 * libelf quietly hands out fewer sections, or none, when a file was cut
 * short; say so instead.
 */
static struct kms_error *check_extents(struct kms_elf *e, const GElf_Ehdr *ehdr)
{
	uint64_t file_size, end;
	Elf_Scn *scn = NULL;
	struct stat st;

	if (fstat(e->fd, &st))
		return kms_error_errno(e->path, "cannot stat");
	file_size = st.st_size;
	end = ehdr->e_shoff + (uint64_t)ehdr->e_shnum * ehdr->e_shentsize;
	if (!ehdr->e_shoff || end > file_size || end < ehdr->e_shoff)
		return kms_error_file(e->path,
				      "truncated or corrupt: section headers end at %llu, the file has %llu bytes",
				      (unsigned long long)end,
				      (unsigned long long)file_size);
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			return kms_error_file(e->path, "bad section header: %s",
					      elf_errmsg(-1));
		if (shdr.sh_type == SHT_NOBITS)
			continue;
		end = shdr.sh_offset + shdr.sh_size;
		if (end > file_size || end < shdr.sh_offset)
			return kms_error_file(e->path,
					      "truncated or corrupt: section %zu ends at %llu, the file has %llu bytes",
					      elf_ndxscn(scn),
					      (unsigned long long)end,
					      (unsigned long long)file_size);
	}
	return NULL;
}

/* e->arch, or an error if @need_arch and the tools do not know it. */
static struct kms_error *find_arch(struct kms_elf *e, const GElf_Ehdr *ehdr,
				   bool need_arch)
{
	size_t i;

	for (i = 0; i < KMS_ARRAY_SIZE(kms_arches); i++)
		if (ehdr->e_machine == kms_arches[i].machine &&
		    ehdr->e_ident[EI_CLASS] == ELFCLASS64 &&
		    ehdr->e_ident[EI_DATA] == ELFDATA2LSB)
			e->arch = &kms_arches[i];
	if (e->arch || !need_arch)
		return NULL;
	return kms_error_file(e->path,
			      "ELF machine %u (class %u, data %u) is not an architecture kallmodsyms knows (x86_64, aarch64)",
			      ehdr->e_machine, ehdr->e_ident[EI_CLASS],
			      ehdr->e_ident[EI_DATA]);
}

/* e->syms64 and e->strtab, where the symbol table can be read in place. */
static void symbols_in_place(struct kms_elf *e)
{
	Elf_Scn *scn = elf_getscn(e->elf, e->strtab_index);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;

	if (gelf_getclass(e->elf) != ELFCLASS64 ||
	    e->symtab_data->d_type != ELF_T_SYM ||
	    e->symtab_data->d_size != e->nr_symbols * sizeof(Elf64_Sym) ||
	    !data || !data->d_size ||
	    ((const char *)data->d_buf)[data->d_size - 1])
		return;
	e->syms64 = e->symtab_data->d_buf;
	e->strtab = data->d_buf;
	e->strtab_size = data->d_size;
}

/* The symbol table, if @e has one: e->symtab and what it holds. */
static struct kms_error *find_symtab(struct kms_elf *e)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr shdr;

		if (!gelf_getshdr(scn, &shdr))
			return kms_error_file(e->path, "bad section header: %s",
					      elf_errmsg(-1));
		if (shdr.sh_type != SHT_SYMTAB)
			continue;
		e->symtab = scn;
		e->symtab_data = elf_getdata(scn, NULL);
		if (!e->symtab_data || !shdr.sh_entsize)
			return kms_error_file(e->path, "unreadable symbol table: %s",
					      elf_errmsg(-1));
		e->nr_symbols = e->symtab_data->d_size / shdr.sh_entsize;
		/* A bad sh_info: every symbol is taken for a local. */
		e->first_global = shdr.sh_info >= 1 &&
				  shdr.sh_info <= e->nr_symbols ?
				  shdr.sh_info : e->nr_symbols;
		e->strtab_index = shdr.sh_link;
		symbols_in_place(e);
		break;
	}
	return NULL;
}

static struct kms_error *open_elf(const char *path, bool need_arch,
				  struct kms_elf **ret)
{
	struct kms_error *err;
	struct kms_elf *e;
	GElf_Ehdr ehdr;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return kms_error_fmt("libelf: %s", elf_errmsg(-1));
	e = calloc(1, sizeof(*e));
	if (!e)
		return &kms_error_nomem;
	e->path = strdup(path);
	if (!e->path) {
		free(e);
		return &kms_error_nomem;
	}
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0) {
		err = kms_error_errno(path, "cannot open");
		goto fail;
	}
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF) {
		err = kms_error_file(path, "not an ELF file");
		goto fail;
	}
	if (!gelf_getehdr(e->elf, &ehdr)) {
		err = kms_error_file(path, "bad ELF header: %s", elf_errmsg(-1));
		goto fail;
	}
	err = find_arch(e, &ehdr, need_arch);
	if (err)
		goto fail;
	err = check_extents(e, &ehdr);
	if (err)
		goto fail;
	if (elf_getshdrstrndx(e->elf, &e->shstrndx)) {
		err = kms_error_file(path, "no section header string table: %s",
				     elf_errmsg(-1));
		goto fail;
	}
	err = find_symtab(e);
	if (err)
		goto fail;
	*ret = e;
	return NULL;

fail:
	kms_elf_close(e);
	return err;
}

struct kms_error *kms_elf_open(const char *path, struct kms_elf **ret)
{
	return open_elf(path, true, ret);
}

struct kms_error *kms_elf_open_any(const char *path, struct kms_elf **ret)
{
	return open_elf(path, false, ret);
}

/*
 * A symbol looked up ahead: its name (a copy), its value as
 * kms_elf_symbol() gives it, and the first 8 bytes of the name with its
 * NUL (fewer if shorter: @mask says which), to compare names as numbers.
 */
struct kms_elf_memo {
	char *name;
	uint64_t value;
	uint64_t prefix, mask;
	bool looked_up, found;
};

void kms_elf_close(struct kms_elf *elf)
{
	if (!elf)
		return;
	for (size_t i = 0; i < elf->nr_memo; i++)
		free(elf->memo[i].name);
	free(elf->memo);
	if (elf->elf)
		elf_end(elf->elf);
	if (elf->fd >= 0)
		close(elf->fd);
	free(elf->path);
	free(elf);
}

bool kms_elf_build_id(struct kms_elf *elf, const unsigned char **ret,
		      size_t *ret_size)
{
	size_t pos, next, name_off, desc_off;
	Elf_Scn *scn = NULL;
	GElf_Nhdr nh;

	while ((scn = elf_nextscn(elf->elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		for (pos = 0; (next = gelf_getnote(data, pos, &nh, &name_off,
						   &desc_off)); pos = next) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)data->d_buf + name_off, "GNU", 4))
				continue;
			*ret = (const unsigned char *)data->d_buf + desc_off;
			*ret_size = nh.n_descsz;
			return true;
		}
	}
	return false;
}

const char *kms_elf_section_name(struct kms_elf *elf, Elf_Scn *scn)
{
	GElf_Shdr shdr;
	const char *name;

	if (!gelf_getshdr(scn, &shdr))
		return "";
	name = elf_strptr(elf->elf, elf->shstrndx, shdr.sh_name);
	return name ? name : "";
}

Elf_Scn *kms_elf_section(struct kms_elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf->elf, scn)))
		if (!strcmp(kms_elf_section_name(elf, scn), name))
			return scn;
	return NULL;
}

/* The memo of @name's look-up ahead, or NULL. */
static const struct kms_elf_memo *memo_of(const struct kms_elf *elf,
					  const char *name)
{
	for (size_t i = 0; i < elf->nr_memo; i++)
		if (!strcmp(elf->memo[i].name, name))
			return &elf->memo[i];
	return NULL;
}

void kms_elf_symbols_ahead(struct kms_elf *elf, const char *const *names,
			   size_t n)
{
	struct kms_elf_memo *memo;
	size_t k;

	if (!elf->syms64)
		return;
	memo = realloc(elf->memo, (elf->nr_memo + n) * sizeof(*memo));
	if (!memo)
		return;
	elf->memo = memo;
	for (k = 0; k < n; k++) {
		struct kms_elf_memo *m = &memo[elf->nr_memo];
		size_t len = strlen(names[k]) + 1;

		if (memo_of(elf, names[k]))
			continue;
		m->name = strdup(names[k]);
		if (!m->name)
			return;
		m->prefix = 0;
		m->mask = 0;
		if (len > sizeof(m->prefix))
			len = sizeof(m->prefix);
		memcpy(&m->prefix, m->name, len);
		memset(&m->mask, 0xff, len);
		m->looked_up = false;
		m->found = false;
		elf->nr_memo++;
	}
}

/*
 * kms_elf_symbol()'s search, in passes: the globals without a type or a
 * size (the linker script's symbols, assembler labels: most names the
 * tools ask for), the other globals, the locals.  A linked image has one
 * global of a name at most: the first found is the global, if any.
 */
enum { PASS_LABELS, PASS_GLOBALS, PASS_LOCALS, NR_PASSES };

/* The symbol table indices of @pass: [*ret_start, *ret_end). */
static void pass_range(const struct kms_elf *elf, int pass, size_t *ret_start,
		       size_t *ret_end)
{
	*ret_start = pass == PASS_LOCALS ? 1 : elf->first_global;
	*ret_end = pass == PASS_LOCALS ? elf->first_global : elf->nr_symbols;
}

/* Is @sym, in @pass's range, a definition @pass searches? */
static bool in_pass(int pass, const Elf64_Sym *sym)
{
	bool label = ELF64_ST_TYPE(sym->st_info) == STT_NOTYPE &&
		     !sym->st_size;

	if (sym->st_shndx == SHN_UNDEF)
		return false;
	return pass == PASS_LOCALS || (pass == PASS_LABELS) == label;
}

/* The first 8 bytes at @sym's name (fewer at the table's end), as a number. */
static uint64_t name_prefix(const struct kms_elf *elf, const Elf64_Sym *sym)
{
	size_t left = elf->strtab_size - sym->st_name;
	uint64_t word = 0;

	memcpy(&word, elf->strtab + sym->st_name,
	       left < sizeof(word) ? left : sizeof(word));
	return word;
}

/*
 * Look every name kms_elf_symbols_ahead() was given up: one search, that
 * stops when all are found.
 */
static void look_up_ahead(struct kms_elf *elf)
{
	struct kms_elf_memo *memo = elf->memo;
	size_t i, k, end, left = 0;
	int pass;

	for (k = 0; k < elf->nr_memo; k++)
		left += !memo[k].looked_up;
	for (pass = 0; left && pass < NR_PASSES; pass++) {
		pass_range(elf, pass, &i, &end);
		for (; left && i < end; i++) {
			const Elf64_Sym *sym = &elf->syms64[i];
			uint64_t word;

			if (!in_pass(pass, sym) ||
			    sym->st_name >= elf->strtab_size)
				continue;
			word = name_prefix(elf, sym);
			for (k = 0; k < elf->nr_memo; k++) {
				if (memo[k].looked_up || memo[k].found ||
				    (word & memo[k].mask) != memo[k].prefix ||
				    strcmp(elf->strtab + sym->st_name,
					   memo[k].name))
					continue;
				memo[k].value = sym->st_value;
				memo[k].found = true;
				left--;
			}
		}
	}
	for (k = 0; k < elf->nr_memo; k++)
		memo[k].looked_up = true;
}

/* The name of @sym, an entry of the symbol table, or NULL. */
static const char *symbol_name(struct kms_elf *elf, const Elf64_Sym *sym)
{
	if (!elf->syms64)
		return elf_strptr(elf->elf, elf->strtab_index, sym->st_name);
	return sym->st_name < elf->strtab_size ? elf->strtab + sym->st_name :
	       NULL;
}

/* The defined symbol called @name, as kms_elf_symbol(): false if none. */
static bool find_symbol(struct kms_elf *elf, const char *name,
			uint64_t *ret_value)
{
	const struct kms_elf_memo *memo = memo_of(elf, name);
	size_t i, end;
	int pass;

	if (memo && !memo->looked_up)
		look_up_ahead(elf);
	if (memo) {
		*ret_value = memo->value;
		return memo->found;
	}
	for (pass = 0; pass < NR_PASSES; pass++) {
		pass_range(elf, pass, &i, &end);
		for (; i < end; i++) {
			GElf_Sym copy;
			const Elf64_Sym *sym = elf->syms64 ? &elf->syms64[i] :
				gelf_getsym(elf->symtab_data, i, &copy);
			const char *s;

			if (!sym || !in_pass(pass, sym))
				continue;
			s = symbol_name(elf, sym);
			/* The first byte first: most names differ there. */
			if (s && s[0] == name[0] && !strcmp(s, name)) {
				*ret_value = sym->st_value;
				return true;
			}
		}
	}
	return false;
}

struct kms_error *kms_elf_symbol(struct kms_elf *elf, const char *name,
				 uint64_t *ret_value)
{
	uint64_t value;

	if (!elf->symtab)
		return kms_error_path(KMS_ERR_ABSENT, elf->path,
				      "no symbol table");
	if (!find_symbol(elf, name, &value))
		return kms_error_path(KMS_ERR_ABSENT, elf->path,
				      "no symbol %s", name);
	*ret_value = value;
	return NULL;
}

struct kms_error *kms_elf_symbols_at(struct kms_elf *elf, uint64_t value,
				     const char ***ret_names, size_t *ret_nr)
{
	const char **names = NULL;
	struct kms_error *err;
	size_t i, nr = 0, cap = 0;

	for (i = 1; elf->symtab && i < elf->nr_symbols; i++) {
		GElf_Sym sym;
		const char *s;

		if (!gelf_getsym(elf->symtab_data, i, &sym) ||
		    sym.st_value != value || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx == SHN_ABS)
			continue;
		s = elf_strptr(elf->elf, elf->strtab_index, sym.st_name);
		if (!s || !*s)
			continue;
		err = KMS_RESERVE(names, cap, nr + 1);
		if (err) {
			free(names);
			return err;
		}
		names[nr++] = s;
	}
	*ret_names = names;
	*ret_nr = nr;
	return NULL;
}

/*
 * The addend of the arch's RELATIVE relocation of the 8 bytes at @addr in
 * the image's .rela.dyn, or false.
 */
static bool relative_reloc(struct kms_elf *elf, uint64_t addr,
			   uint64_t *ret_value)
{
	Elf_Scn *scn = kms_elf_section(elf, ".rela.dyn");
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	GElf_Rela rela;
	int i;

	for (i = 0; data && gelf_getrela(data, i, &rela); i++) {
		if (rela.r_offset == addr &&
		    GELF_R_TYPE(rela.r_info) == elf->arch->relative_reloc) {
			*ret_value = rela.r_addend;
			return true;
		}
	}
	return false;
}

struct kms_error *kms_elf_pointer_at(struct kms_elf *elf, uint64_t addr,
				     uint64_t *ret_value)
{
	const unsigned char *p;
	struct kms_error *err;
	uint64_t value = 0;
	int i;

	err = kms_elf_bytes_at(elf, addr, 8, &p);
	if (err)
		return err;
	for (i = 7; i >= 0; i--)
		value = value << 8 | p[i];
	if (elf->arch && elf->arch->relative_reloc && !value)
		relative_reloc(elf, addr, &value);
	*ret_value = value;
	return NULL;
}

struct kms_error *kms_elf_bytes_at(struct kms_elf *elf, uint64_t addr,
				   uint64_t size, const unsigned char **ret)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf->elf, scn))) {
		GElf_Shdr shdr;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC) ||
		    shdr.sh_type == SHT_NOBITS)
			continue;
		if (addr < shdr.sh_addr || addr - shdr.sh_addr > shdr.sh_size ||
		    size > shdr.sh_size - (addr - shdr.sh_addr))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || data->d_size != shdr.sh_size)
			return kms_error_file(elf->path,
					      "section %s is unreadable: %s",
					      kms_elf_section_name(elf, scn),
					      elf_errmsg(-1));
		*ret = (const unsigned char *)data->d_buf +
		       (addr - shdr.sh_addr);
		return NULL;
	}
	return kms_error_file(elf->path,
			      "%#llx+%llu is not inside a section with contents",
			      (unsigned long long)addr,
			      (unsigned long long)size);
}
