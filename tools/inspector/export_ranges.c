// SPDX-License-Identifier: GPL-2.0
/*
 * export --format=ranges (export_ranges.h): modules.builtin.ranges, as
 * Linux 6.12's scripts/generate_builtin_ranges.awk writes it: per output
 * section with lines an anchor record, ".text 00000000-00000000 = _text",
 * then ".rodata SSSSSSSS-EEEEEEEE mod [mod2...]" per run of one module
 * list, offsets relative to the section's start, all in address order.
 * Every section the tables cover has lines (code, data, init, bss;
 * per-CPU data not: the awk script skips it); tables of the text class
 * alone give the code sections' lines.
 *
 * The lines are made as the awk script makes them, from records: it reads
 * the link map's input sections (each object's .text, .data, ... in each
 * output section), a run of one module's records becomes a line, and
 * another record ends it.  Ours are the tables' ranges, and the gaps
 * between them that hold core objects (record_gap()), within the ELF
 * section headers' output sections.  Its quirks are reproduced, and each
 * is marked "Quirk" below with the awk line it comes from:
 *  - a record of the same modules continues a run across padding, across
 *    records the script skips (merged constants, .rodata.str* and
 *    .rodata.cst*, awk line 287; zero-sized input sections, line 432;
 *    the output sections .orc_*, *_sites, *.percpu* and those not named
 *    ".something", lines 214-217), and across output sections (record());
 *  - a run is cut at the next record's start when that is below its end,
 *    even before the run's start (record(); needs --map, map_records());
 *  - lines of one start address: the last written wins (export_ranges());
 *  - a section's anchor is its first linker-script "SYM = ." at its
 *    start, else its first global symbol, at whatever offset (.init.data
 *    000008e0-000008e0 = late_time_init); a section with lines and no
 *    such symbol gets no anchor (.altinstr_replacement; anchor_of()).
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

#include "export_ranges.h"
#include "map_order.h"

/* "a b" of object entry @obj's modules into @buf; false for none. */
static bool module_names(const struct kms_tables *t, uint32_t obj,
			 char *buf, size_t size)
{
	uint32_t list = obj == KMS_NONE ? KMS_NONE : kms_object_modlist(t, obj);
	uint32_t k, n = list == KMS_NONE ? 0 : kms_modlist_count(t, list);
	size_t len = 0;

	buf[0] = '\0';
	for (k = 0; k < n && len < size; k++)
		len += snprintf(buf + len, size - len, "%s%s", k ? " " : "",
				kms_modlist_name(t, list, k));
	return n > 0;
}

/* One line of the output, as the awk script keys it (awk line 64). */
struct line {
	uint64_t key;			/* sort key: 2 * address (+ 1) */
	size_t seq;			/* later writes of a key win */
	const struct osect *sect;
	uint64_t soff, eoff;
	char *text;			/* the modules, or "= anchor" */
};

/* A table range with an object, in a _text-based class (not per-CPU). */
struct piece {
	uint64_t start, end;
	uint32_t obj;
};

struct ranges {
	struct inspector *in;
	struct osect *sects;		/* by address */
	size_t nr_sects;
	struct piece *pieces;		/* by address */
	size_t nr_pieces;
	uint64_t *objsyms;		/* addresses of objects' symbols, sorted */
	size_t nr_objsyms;
	struct line *lines;
	size_t nr_lines, lines_cap;
	/* The awk script's state: mod_name, mod_sect, mod_soff, mod_eoff. */
	char mod_name[4096];		/* "": none */
	const struct osect *mod_sect;
	uint64_t mod_soff, mod_eoff;
	size_t run;			/* the run's line */
};

static bool skipped_name(const char *name)
{
	size_t len = strlen(name);

	/* awk line 216: /^\.orc_/, /_sites$/, /\.percpu/ */
	return !strncmp(name, ".orc_", 5) ||
	       (len >= 6 && !strcmp(name + len - 6, "_sites")) ||
	       strstr(name, ".percpu");
}

static int compare_osect(const void *a, const void *b)
{
	const struct osect *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct kms_error *read_sections(struct ranges *r)
{
	struct kms_elf *elf = r->in->elf;
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	while ((scn = elf_nextscn(elf->elf, scn))) {
		const char *name = kms_elf_section_name(elf, scn);
		GElf_Shdr shdr;

		if (!name || name[0] != '.' || !gelf_getshdr(scn, &shdr) ||
		    !(shdr.sh_flags & SHF_ALLOC) || !shdr.sh_addr ||
		    skipped_name(name))
			continue;
		if (KMS_RESERVE(r->sects, cap, r->nr_sects + 1))
			return &kms_error_nomem;
		r->sects[r->nr_sects++] = (struct osect){
			.name = name, .addr = shdr.sh_addr,
			.size = shdr.sh_size, .align = shdr.sh_addralign,
			.index = elf_ndxscn(scn),
		};
	}
	qsort(r->sects, r->nr_sects, sizeof(*r->sects), compare_osect);
	return NULL;
}

static int compare_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/*
 * Linker-script symbols (_sdata = .) are global, without type or size;
 * objects' functions and variables have a type or a size, or are local
 * (an initcall's __initcall__kmod_* is a local label).
 */
static bool is_label(const GElf_Sym *sym)
{
	return GELF_ST_BIND(sym->st_info) != STB_LOCAL &&
	       GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && !sym->st_size;
}

/* Where the objects' symbols are (the gaps' contents, record_gap()). */
static struct kms_error *read_objsyms(struct ranges *r)
{
	struct kms_elf *elf = r->in->elf;
	size_t i, cap = 0;

	for (i = 1; elf->symtab && i < elf->nr_symbols; i++) {
		GElf_Sym sym;
		int type;

		if (!gelf_getsym(elf->symtab_data, i, &sym) ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
		    is_label(&sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE)
			continue;
		/*
		 * Empty variables hold no bytes: lockdep's __key.0 without
		 * lockdep, a __compound_literal.0 of no size sit in padding
		 * after their object's piece.  Local labels of asm (the
		 * initcall entries' __initcall__kmod_*) have no size either,
		 * but bytes after them.
		 */
		if (!sym.st_size && type != STT_NOTYPE)
			continue;
		if (KMS_RESERVE(r->objsyms, cap, r->nr_objsyms + 1))
			return &kms_error_nomem;
		r->objsyms[r->nr_objsyms++] = sym.st_value;
	}
	qsort(r->objsyms, r->nr_objsyms, sizeof(*r->objsyms), compare_u64);
	return NULL;
}

static int compare_piece(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The ranges with an object, per-CPU ones left out: not in the awk's output. */
static struct kms_error *read_pieces(struct ranges *r)
{
	const struct kms_tables *t = r->in->tables;
	uint64_t text = r->in->syms->text_address;
	size_t cap = 0;
	uint32_t i;

	for (i = 0; i < t->nr_ranges; i++) {
		uint32_t obj = kms_range_object(t, i);

		if (obj == KMS_NONE ||
		    kms_class_base(kms_range_class(t, i)) != KMS_BASE_TEXT)
			continue;
		if (KMS_RESERVE(r->pieces, cap, r->nr_pieces + 1))
			return &kms_error_nomem;
		r->pieces[r->nr_pieces++] = (struct piece){
			.start = text + kms_range_start(t, i),
			.end = text + kms_range_end(t, i), .obj = obj,
		};
	}
	qsort(r->pieces, r->nr_pieces, sizeof(*r->pieces), compare_piece);
	return NULL;
}

/* The awk script's sort key: the address less its top 16 bits (line 224). */
static uint64_t key_of(uint64_t addr)
{
	return (addr & 0xffffffffffffull) << 1;
}

static struct line *add_line(struct ranges *r, const struct osect *sect,
			     uint64_t key)
{
	struct line *l;

	if (KMS_RESERVE(r->lines, r->lines_cap, r->nr_lines + 1))
		return NULL;
	l = &r->lines[r->nr_lines];
	*l = (struct line){ .key = key, .seq = r->nr_lines, .sect = sect };
	r->nr_lines++;
	return l;
}

/* update_entry() (awk lines 62-67) for the current run, to @eoff. */
static void update_run(struct ranges *r, uint64_t eoff)
{
	r->lines[r->run].eoff = eoff;
}

/*
 * One object record: @soff to @eoff of output section @sect, of modules
 * @mods ("": none).  The awk script's (3a)/(3b) rules, lines 432-490.
 */
static struct kms_error *record(struct ranges *r, const struct osect *sect,
				uint64_t soff, uint64_t eoff, const char *mods)
{
	struct line *l;

	if (r->mod_name[0]) {
		if (!strcmp(mods, r->mod_name)) {
			/*
			 * Quirk (awk lines 460-464): the run takes in this
			 * record whatever lies between, even when the record
			 * is in another output section, whose offsets then
			 * end the line.
			 */
			r->mod_eoff = eoff;
			update_run(r, eoff);
			return NULL;
		} else if (sect == r->mod_sect) {
			/*
			 * Quirk (awk lines 465-467): the run ends where the
			 * next record starts if that is below its end, also
			 * when the next record lies before the run's start
			 * (vmlinux.o's sections in vmlinux.o's order, not
			 * vmlinux's): then the line ends before it starts.
			 */
			if (r->mod_eoff > soff)
				update_run(r, soff);
		} else if (r->mod_eoff > r->mod_sect->size) {
			/* awk lines 468-471 */
			update_run(r, r->mod_sect->size);
		}
	}
	snprintf(r->mod_name, sizeof(r->mod_name), "%s", mods);
	if (!mods[0])
		return NULL;
	l = add_line(r, sect, key_of(sect->addr + soff) | 1);
	if (!l || !(l->text = strdup(mods)))
		return &kms_error_nomem;
	l->soff = soff;
	l->eoff = eoff;
	r->run = l - r->lines;
	r->mod_sect = sect;
	r->mod_soff = soff;
	r->mod_eoff = eoff;
	return NULL;
}

/* kms_upper_bound()'s order of an address among pieces' ends. */
static int addr_before_end(const void *key, const void *element)
{
	uint64_t addr = *(const uint64_t *)key;
	uint64_t end = ((const struct piece *)element)->end;

	return addr < end ? -1 : addr > end;
}

/*
 * The gap [@lo, @hi) of output section @sect as a record of the core
 * kernel, if it holds an object's bytes.  The tables write plain core
 * objects (no module, no name needed) as they write padding: as no
 * object.  For the awk script padding is no record, a core object is one,
 * which ends a run (a module, core code, the module again: two lines) and
 * may cut it short (awk line 466).  It holds an object if an object's
 * symbol (not a label, see is_label(), nor an empty variable, see
 * read_objsyms()) is in it, or if it is too wide for
 * padding, which is narrower than the section's alignment (.smp_locks'
 * entries have no symbols).  Merged strings, bytes of nobody, read as
 * core too when they are that wide.
 */
static struct kms_error *record_gap(struct ranges *r, const struct osect *sect,
				    uint64_t lo, uint64_t hi)
{
	size_t a = 0, b = r->nr_objsyms;

	if (lo >= hi)
		return NULL;
	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (r->objsyms[mid] < lo)
			a = mid + 1;
		else
			b = mid;
	}
	if ((a < r->nr_objsyms && r->objsyms[a] < hi) ||
	    hi - lo >= (sect->align > 1 ? sect->align : 1))
		return record(r, sect, lo - sect->addr, hi - sect->addr, "");
	return NULL;
}

/*
 * The records of [@lo, @hi), inside output section @sect: the parts of
 * the pieces there, in address order, and between them the gaps that
 * hold core objects.
 */
static struct kms_error *records(struct ranges *r, const struct osect *sect,
				 uint64_t lo, uint64_t hi)
{
	const struct kms_tables *t = r->in->tables;
	/* The first piece ending after @lo. */
	size_t a = kms_upper_bound(&lo, r->pieces, r->nr_pieces,
				   sizeof(*r->pieces), addr_before_end);
	char mods[4096];

	for (; a < r->nr_pieces && r->pieces[a].start < hi; a++) {
		const struct piece *p = &r->pieces[a];
		uint64_t start = p->start > lo ? p->start : lo;
		uint64_t end = p->end < hi ? p->end : hi;
		struct kms_error *err;

		err = record_gap(r, sect, lo, start);
		if (err)
			return err;
		module_names(t, p->obj, mods, sizeof(mods));
		err = record(r, sect, start - sect->addr, end - sect->addr,
			     mods);
		if (err)
			return err;
		lo = end;
	}
	return record_gap(r, sect, lo, hi);
}

/* _end, _etext, __end_rodata, __stop_notes, __init_end: where things end. */
static bool end_marker(const char *name)
{
	size_t len = strlen(name);

	if (!strncmp(name, "__end", 5) || !strncmp(name, "__stop", 6) ||
	    (len >= 4 && !strcmp(name + len - 4, "_end")))
		return true;
	/* _etext, _edata, _einittext */
	if (name[0] != '_' || name[1] != 'e')
		return false;
	for (name += 2; *name; name++)
		if (*name < 'a' || *name > 'z')
			return false;
	return true;
}

/*
 * The anchor of output section @s and its offset, or NULL.  The awk
 * script takes the first "SYM = ." the link map lists at the section's
 * start (awk line 250), else the first symbol it lists in it (line 263):
 * the map lists the global symbols of each input section, by address.
 * The ELF symbol table keeps neither the linker script's order nor what
 * was an assignment, so:
 *  - the assignments are the global symbols without type and size; of
 *    those at the start, not ending something (_etext, __init_end: the
 *    end of a section before, or of an empty one ld dropped), the
 *    shortest name, then the first by strcmp(), is taken (_text before
 *    _stext, _sdata before init_stack, __start_pci_fixups_early before
 *    __start_pci_fixups_header: the order of Linux's linker scripts);
 *  - else the global symbol with the lowest address, the first in the
 *    symbol table among equals (ld writes both the map's symbols and the
 *    symbol table's globals in the order of its hash table).
 */
static const char *anchor_of(struct ranges *r, const struct osect *s,
			     uint64_t *ret_offset)
{
	struct kms_elf *elf = r->in->elf;
	const char *start = NULL, *first = NULL;
	uint64_t first_value = 0;
	size_t i;

	if (!elf->symtab)
		return NULL;
	for (i = 1; i < elf->nr_symbols; i++) {
		const char *name;
		GElf_Sym sym;
		int bind;

		if (!gelf_getsym(elf->symtab_data, i, &sym) ||
		    sym.st_shndx != s->index || sym.st_value < s->addr ||
		    sym.st_value - s->addr >= s->size)
			continue;
		bind = GELF_ST_BIND(sym.st_info);
		if (bind != STB_GLOBAL && bind != STB_WEAK)
			continue;
		name = elf_strptr(elf->elf, elf->strtab_index, sym.st_name);
		if (!name || !*name)
			continue;
		if (is_label(&sym)) {
			if (sym.st_value == s->addr && !end_marker(name) &&
			    (!start || strlen(name) < strlen(start) ||
			     (strlen(name) == strlen(start) &&
			      strcmp(name, start) < 0)))
				start = name;
		} else if (!first || sym.st_value < first_value) {
			first = name;
			first_value = sym.st_value;
		}
	}
	*ret_offset = start ? 0 : first_value - s->addr;
	return start ? start : first;
}

/*
 * The records in the order the link maps give (map_order()); *@ret_done
 * says whether they gave one.
 */
static struct kms_error *map_records(struct ranges *r, const char *map_path,
				     const char *o_map_path, bool *ret_done)
{
	_cleanup_free_ struct chunk *chunks = NULL;
	struct kms_error *err;
	size_t i, nr;

	err = map_order(r->sects, r->nr_sects, map_path, o_map_path, &chunks,
			&nr);
	for (i = 0; !err && i < nr; i++)
		err = records(r, chunks[i].sect, chunks[i].addr,
			      chunks[i].addr + chunks[i].size);
	*ret_done = !err && nr;
	return err;
}

static int compare_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static struct kms_error *export_lines(struct ranges *r, const char *map_path,
				      const char *o_map_path)
{
	struct kms_error *err;
	bool done = false;
	size_t i, nr;

	err = read_sections(r);
	if (!err)
		err = read_pieces(r);
	if (!err)
		err = read_objsyms(r);
	if (!err && map_path)
		err = map_records(r, map_path, o_map_path, &done);
	for (i = 0; !err && !done && i < r->nr_sects; i++)
		err = records(r, &r->sects[i], r->sects[i].addr,
			      r->sects[i].addr + r->sects[i].size);
	if (err)
		return err;
	/* awk lines 503-507: an anchor for each section with lines. */
	for (i = 0, nr = r->nr_lines; i < nr; i++)
		((struct osect *)r->lines[i].sect)->used = true;
	for (i = 0; i < r->nr_sects; i++) {
		struct osect *s = &r->sects[i];
		const char *anchor;
		uint64_t off;
		struct line *l;

		if (!s->used || !(anchor = anchor_of(r, s, &off)))
			continue;
		l = add_line(r, s, key_of(s->addr));
		if (!l || asprintf(&l->text, "= %s", anchor) < 0)
			return &kms_error_nomem;
		l->soff = l->eoff = off;
	}
	qsort(r->lines, r->nr_lines, sizeof(*r->lines), compare_line);
	return NULL;
}

int export_ranges(struct inspector *in, const char *map, const char *o_map)
{
	struct ranges r = { .in = in };
	struct kms_error *err;
	size_t i;

	err = export_lines(&r, map, o_map);
	/*
	 * Written in key order; of lines with one key the last written
	 * (awk line 65: an array element, written over).
	 */
	for (i = 0; !err && i < r.nr_lines; i++) {
		const struct line *l = &r.lines[i];

		if (i + 1 < r.nr_lines && r.lines[i + 1].key == l->key)
			continue;
		printf("%s %08llx-%08llx %s\n", l->sect->name,
		       (unsigned long long)l->soff,
		       (unsigned long long)l->eoff, l->text);
	}
	for (i = 0; i < r.nr_lines; i++)
		free(r.lines[i].text);
	free(r.lines);
	free(r.pieces);
	free(r.objsyms);
	free(r.sects);
	return err ? inspector_fail(err) : 0;
}
