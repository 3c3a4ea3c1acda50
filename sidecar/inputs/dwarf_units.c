// SPDX-License-Identifier: GPL-2.0
/*
 * Compile units of a vmlinux with DWARF, and the two modules.builtin.*
 * files that say which built-in module code belongs to
 * (kms/dwarf_units.h).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kms/dwarf_units.h>
#include <kms/kbuild.h>
#include <kms/util.h>

struct unit_name {
	char *name, *comp_dir;
};

static const char *const top_dirs[] = {
	"arch", "block", "certs", "crypto", "drivers", "fs", "init",
	"io_uring", "ipc", "kernel", "lib", "mm", "net", "rust", "samples",
	"security", "sound", "usr", "virt", NULL,
};

/* What precedes the top of the kernel tree in an absolute @name, or NULL. */
static const char *after_top_dir(const char *name)
{
	const char *p;
	size_t i;

	for (p = name; (p = strchr(p, '/')); p++)
		for (i = 0; top_dirs[i]; i++) {
			size_t n = strlen(top_dirs[i]);

			if (!strncmp(p + 1, top_dirs[i], n) && p[1 + n] == '/')
				return p + 1;
		}
	return NULL;
}

/*
 * The object kbuild makes of @name, relative to the top of the tree;
 * NULL (not an error) when the name gives none.
 */
static char *object_of(const char *name, const char *comp_dir,
		       const char *srcprefix)
{
	size_t plen = srcprefix ? strlen(srcprefix) : 0;
	size_t clen = comp_dir ? strlen(comp_dir) : 0;
	const char *rel = name, *dot, *slash;
	char *ret;

	if (plen && !strncmp(name, srcprefix, plen))
		rel = name + plen;
	else if (clen && name[0] == '/' && !strncmp(name, comp_dir, clen) &&
		 name[clen] == '/')
		rel = name + clen + 1;
	else if (name[0] == '/' && !(rel = after_top_dir(name)))
		return NULL;
	while (!strncmp(rel, "./", 2))
		rel += 2;
	dot = strrchr(rel, '.');
	slash = strrchr(rel, '/');
	if (!dot || dot == rel || (slash && dot < slash) ||
	    (strcmp(dot, ".c") && strcmp(dot, ".S") && strcmp(dot, ".s") &&
	     strcmp(dot, ".rs")))
		return NULL;
	if (asprintf(&ret, "%.*s.o", (int)(dot - rel), rel) < 0)
		return NULL;
	return ret;
}

static struct kms_error *push_range(struct kms_dwarf_range **ranges,
				    size_t *nr, size_t *cap, uint64_t start,
				    uint64_t end, uint32_t unit)
{
	struct kms_error *err = KMS_RESERVE(*ranges, *cap, *nr + 1);

	if (err)
		return err;
	(*ranges)[*nr].start = start;
	(*ranges)[*nr].end = end;
	(*ranges)[*nr].unit = unit;
	(*nr)++;
	return NULL;
}

static char *die_string(Dwarf_Die *die, int name)
{
	Dwarf_Attribute attr;
	const char *s = dwarf_formstring(dwarf_attr(die, name, &attr));

	return s ? strdup(s) : NULL;
}

/* The static-call keys a unit defines: its top-level __SCK__ variables. */
static struct kms_error *scan_static_call_keys(struct kms_dwarf_units *u,
					       size_t *cap, Dwarf_Die *cudie,
					       uint32_t unit, const char *path)
{
	struct kms_error *err;
	Dwarf_Attribute attr;
	Dwarf_Die die;
	int r;

	for (r = dwarf_child(cudie, &die); r == 0;
	     r = dwarf_siblingof(&die, &die)) {
		const char *name;
		char *copy;

		if (dwarf_tag(&die) != DW_TAG_variable ||
		    !dwarf_hasattr(&die, DW_AT_location))
			continue;
		/* A definition may take its name from a declaration. */
		name = dwarf_formstring(dwarf_attr_integrate(&die, DW_AT_name,
							     &attr));
		if (!name || strncmp(name, "__SCK__", 7) || !name[7])
			continue;
		err = KMS_RESERVE(u->static_calls, *cap,
				  u->nr_static_calls + 1);
		if (err)
			return err;
		copy = strdup(name + 7);
		if (!copy)
			return &kms_error_nomem;
		u->static_calls[u->nr_static_calls].name = copy;
		u->static_calls[u->nr_static_calls].unit = unit;
		u->nr_static_calls++;
	}
	if (r < 0)
		return kms_error_file(path, "bad DWARF entries in a compile unit: %s",
				      dwarf_errmsg(-1));
	return NULL;
}

static int compare_static_calls(const void *a, const void *b)
{
	const struct kms_dwarf_static_call *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* kms_dwarf_units_read()'s work: the units, and what they are called. */
struct units_reader {
	const char *path;
	struct kms_dwarf_units *u;
	struct unit_name *names;	/* by unit */
	size_t nr_names, names_cap, ranges_cap, keys_cap;
	/* Variables: wanted, and the names the symbol table defines at 0 */
	bool variables;
	const char **at_zero;
	size_t nr_at_zero, variables_cap;
};

/* Scopes nest no deeper than this in any sane DWARF. */
#define MAX_SCOPE_DEPTH 256

/* Arrays of arrays, typedefs of arrays: no deeper than this. */
#define MAX_TYPE_DEPTH 32

/*
 * A bound: signed only in DW_FORM_sdata (libdw's dwarf_formsdata() would
 * read DW_FORM_data1 255 as -1); false unless it is a constant.
 */
static bool bound_value(Dwarf_Attribute *attr, int64_t *ret)
{
	Dwarf_Sword sval;
	Dwarf_Word uval;

	if (attr && (dwarf_whatform(attr) == DW_FORM_sdata ||
		     dwarf_whatform(attr) == DW_FORM_implicit_const)) {
		if (dwarf_formsdata(attr, &sval))
			return false;
		*ret = sval;
		return true;
	}
	if (dwarf_formudata(attr, &uval) || uval > INT64_MAX)
		return false;
	*ret = uval;
	return true;
}

/* One subrange's count: DW_AT_count, or DW_AT_upper_bound + 1 - lower. */
static bool subrange_count(Dwarf_Die *sub, uint64_t *ret)
{
	int64_t lower = 0, upper, count;
	Dwarf_Attribute attr;

	if (dwarf_attr(sub, DW_AT_count, &attr)) {
		if (!bound_value(&attr, &count) || count < 0)
			return false;
		*ret = count;
		return true;
	}
	if (!bound_value(dwarf_attr(sub, DW_AT_upper_bound, &attr), &upper) ||
	    (dwarf_attr(sub, DW_AT_lower_bound, &attr) &&
	     !bound_value(&attr, &lower)))
		return false;
	/* int a[0], or an empty initializer: upper bound -1 */
	*ret = upper < lower ? 0 : (uint64_t)upper - (uint64_t)lower + 1;
	return true;
}

/* An array's elements: the product of its subranges' counts. */
static bool array_count(Dwarf_Die *array, uint64_t *ret)
{
	uint64_t n = 1, count;
	bool any = false;
	Dwarf_Die sub;
	int r;

	for (r = dwarf_child(array, &sub); r == 0;
	     r = dwarf_siblingof(&sub, &sub)) {
		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		if (!subrange_count(&sub, &count) ||
		    (count && n > UINT64_MAX / count))
			return false;
		n *= count;
		any = true;
	}
	*ret = n;
	return r >= 0 && any;
}

/*
 * The bytes of type @die: its DW_AT_byte_size, through typedefs and
 * qualifiers; an array's is its element's times its count.  False where
 * DWARF does not say (incomplete types, flexible arrays).
 */
static bool type_size(Dwarf_Die *die, unsigned int depth, uint64_t *ret)
{
	uint64_t elem_size, count;
	Dwarf_Attribute attr;
	Dwarf_Die type, elem;
	Dwarf_Word size;

	if (depth > MAX_TYPE_DEPTH || dwarf_peel_type(die, &type))
		return false;
	if (dwarf_attr(&type, DW_AT_byte_size, &attr)) {
		if (dwarf_formudata(&attr, &size))
			return false;
		*ret = size;
		return true;
	}
	if (dwarf_tag(&type) != DW_TAG_array_type ||
	    !dwarf_formref_die(dwarf_attr(&type, DW_AT_type, &attr), &elem) ||
	    !type_size(&elem, depth + 1, &elem_size) ||
	    !array_count(&type, &count) ||
	    (count && elem_size > UINT64_MAX / count))
		return false;
	*ret = elem_size * count;
	return true;
}

/* The bytes a variable takes; 1 where DWARF does not say. */
static uint64_t variable_size(struct units_reader *ur, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die type;
	uint64_t size;

	if (dwarf_formref_die(dwarf_attr_integrate(die, DW_AT_type, &attr),
			      &type) && type_size(&type, 0, &size))
		return size;
	ur->u->unsized_variables++;
	return 1;
}

/* Whether the symbol table defines @die's name at address 0. */
static bool defined_at_zero(const struct units_reader *ur, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die,
								 DW_AT_name,
								 &attr));
	size_t i;

	for (i = 0; name && i < ur->nr_at_zero; i++)
		if (!strcmp(name, ur->at_zero[i]))
			return true;
	return false;
}

/*
 * The address of a location that is one operation naming an address:
 * DW_OP_addr, or DWARF 5's DW_OP_addrx (and its GNU extension
 * DW_OP_GNU_addr_index) indexing .debug_addr, as clang writes it.
 */
static bool location_address(Dwarf_Attribute *attr, uint64_t *ret)
{
	Dwarf_Attribute addr;
	Dwarf_Addr value;
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_getlocation(attr, &ops, &nops) || nops != 1)
		return false;
	switch (ops[0].atom) {
	case DW_OP_addr:
		*ret = ops[0].number;
		return true;
	case DW_OP_addrx:
	case DW_OP_GNU_addr_index:
		if (dwarf_getlocation_attr(attr, &ops[0], &addr) ||
		    dwarf_formaddr(&addr, &value))
			return false;
		*ret = value;
		return true;
	default:
		return false;
	}
}

/* A variable's storage, when its location is one address. */
static struct kms_error *read_variable(struct units_reader *ur,
				       Dwarf_Die *die, uint32_t unit)
{
	struct kms_dwarf_units *u = ur->u;
	Dwarf_Attribute attr;
	uint64_t addr, size;

	if (!dwarf_attr(die, DW_AT_location, &attr) ||
	    !location_address(&attr, &addr))
		return NULL;
	if (!addr && !defined_at_zero(ur, die)) {
		u->discarded_variables++;
		return NULL;
	}
	size = variable_size(ur, die);
	if (!size || size > UINT64_MAX - addr)
		return NULL;
	return push_range(&u->variables, &u->nr_variables, &ur->variables_cap,
			  addr, addr + size, unit);
}

/* DIEs whose children may be variables: functions' statics, namespaces. */
static bool is_scope(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
	       tag == DW_TAG_inlined_subroutine || tag == DW_TAG_namespace;
}

/* The variables among @parent's children, and in their scopes. */
static struct kms_error *scan_variables(struct units_reader *ur,
					Dwarf_Die *parent, uint32_t unit,
					unsigned int depth)
{
	struct kms_error *err = NULL;
	Dwarf_Die die;
	int r;

	if (depth > MAX_SCOPE_DEPTH)
		return kms_error_file(ur->path, "DWARF scopes nest deeper than %d",
				      MAX_SCOPE_DEPTH);
	for (r = dwarf_child(parent, &die); r == 0 && !err;
	     r = dwarf_siblingof(&die, &die)) {
		int tag = dwarf_tag(&die);

		if (tag == DW_TAG_variable)
			err = read_variable(ur, &die, unit);
		else if (is_scope(tag) && dwarf_haschildren(&die) > 0)
			err = scan_variables(ur, &die, unit, depth + 1);
	}
	if (!err && r < 0)
		err = kms_error_file(ur->path, "bad DWARF entries in a compile unit: %s",
				     dwarf_errmsg(-1));
	return err;
}

/* A compile unit's name, address ranges and static-call keys. */
static struct kms_error *read_unit(struct units_reader *ur, Dwarf_Die *cudie)
{
	struct kms_dwarf_units *u = ur->u;
	Dwarf_Addr base, start, end;
	struct unit_name *name;
	struct kms_error *err;
	ptrdiff_t off = 0;

	err = KMS_RESERVE(ur->names, ur->names_cap, ur->nr_names + 1);
	if (err)
		return err;
	name = &ur->names[ur->nr_names++];
	name->name = die_string(cudie, DW_AT_name);
	name->comp_dir = die_string(cudie, DW_AT_comp_dir);
	while ((off = dwarf_ranges(cudie, off, &base, &start, &end)) > 0) {
		if (end <= start || !start) {
			u->empty_ranges++;
			continue;
		}
		err = push_range(&u->ranges, &u->nr_ranges, &ur->ranges_cap,
				 start, end, ur->nr_names - 1);
		if (err)
			return err;
	}
	if (off < 0)
		return kms_error_file(ur->path, "bad address ranges in compile unit %s: %s",
				      name->name ? name->name : "(unnamed)",
				      dwarf_errmsg(-1));
	err = scan_static_call_keys(u, &ur->keys_cap, cudie, ur->nr_names - 1,
				    ur->path);
	if (!err && ur->variables)
		err = scan_variables(ur, cudie, ur->nr_names - 1, 0);
	return err;
}

static struct kms_error *read_units(struct units_reader *ur, Dwarf *dw)
{
	Dwarf_CU *cu = NULL;
	struct kms_error *err;

	for (;;) {
		Dwarf_Die cudie, subdie;
		Dwarf_Half version;
		uint8_t unit_type;
		int r;

		r = dwarf_get_units(dw, cu, &cu, &version, &unit_type, &cudie,
				    &subdie);
		if (r > 0)
			return NULL;
		if (r < 0)
			return kms_error_file(ur->path, "bad DWARF unit: %s",
					      dwarf_errmsg(-1));
		if (unit_type != DW_UT_compile && unit_type != DW_UT_skeleton)
			continue;	/* type and partial units have no code */
		err = read_unit(ur, &cudie);
		if (err)
			return err;
	}
}

/* u->objects: each unit's object file, from its name. */
static struct kms_error *name_units(struct units_reader *ur)
{
	struct kms_dwarf_units *u = ur->u;
	char *srcprefix = NULL;
	size_t i;

	/* Every kernel compiles init/main.c: what precedes it is srctree. */
	for (i = 0; i < ur->nr_names && !srcprefix; i++) {
		const char *n = ur->names[i].name;
		size_t len = n ? strlen(n) : 0;

		if (len > 11 && !strcmp(n + len - 11, "init/main.c") &&
		    n[len - 12] == '/') {
			srcprefix = strndup(n, len - 11);
			if (!srcprefix)
				return &kms_error_nomem;
		}
	}
	u->objects = calloc(ur->nr_names, sizeof(*u->objects));
	if (!u->objects) {
		free(srcprefix);
		return &kms_error_nomem;
	}
	u->nr_units = ur->nr_names;
	for (i = 0; i < ur->nr_names; i++) {
		if (ur->names[i].name)
			u->objects[i] = object_of(ur->names[i].name,
						  ur->names[i].comp_dir,
						  srcprefix);
		if (!u->objects[i])
			u->skipped_units++;
	}
	free(srcprefix);
	return NULL;
}

/* @path's DWARF, read through *@ret_fd. */
static struct kms_error *open_dwarf(const char *path, int *ret_fd,
				    Dwarf **ret_dw)
{
	struct kms_error *err;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kms_error_errno(path, "cannot open");
	*ret_dw = dwarf_begin(fd, DWARF_C_READ);
	if (!*ret_dw) {
		err = kms_error_file(path, "cannot read DWARF: %s (objects come from debug info here: build with CONFIG_DEBUG_INFO, or take the distribution's debug vmlinux: Debian's linux-image-*-dbg, Fedora's kernel-debuginfo)",
				     dwarf_errmsg(-1));
		close(fd);
		return err;
	}
	*ret_fd = fd;
	return NULL;
}

/* What @ur asks of @dw's units, into ur->u. */
static struct kms_error *read_dwarf(struct units_reader *ur, Dwarf *dw)
{
	struct kms_error *err;

	ur->u = calloc(1, sizeof(*ur->u));
	if (!ur->u)
		return &kms_error_nomem;
	err = read_units(ur, dw);
	if (err)
		return err;
	if (ur->u->nr_static_calls > 1)
		qsort(ur->u->static_calls, ur->u->nr_static_calls,
		      sizeof(*ur->u->static_calls), compare_static_calls);
	if (!ur->nr_names)
		return kms_error_file(ur->path, "no DWARF compile units");
	return name_units(ur);
}

struct kms_error *kms_dwarf_units_read(const char *path, struct kms_elf *elf,
				       struct kms_dwarf_units **ret)
{
	struct units_reader ur = { .path = path, .variables = elf != NULL };
	struct kms_error *err;
	Dwarf *dw = NULL;
	size_t i;
	int fd = -1;

	err = open_dwarf(path, &fd, &dw);
	if (err)
		return err;
	if (elf)
		err = kms_elf_symbols_at(elf, 0, &ur.at_zero, &ur.nr_at_zero);
	if (!err)
		err = read_dwarf(&ur, dw);
	for (i = 0; i < ur.nr_names; i++) {
		free(ur.names[i].name);
		free(ur.names[i].comp_dir);
	}
	free(ur.names);
	free(ur.at_zero);
	dwarf_end(dw);
	close(fd);
	if (err) {
		kms_dwarf_units_destroy(ur.u);
		return err;
	}
	*ret = ur.u;
	return NULL;
}

void kms_dwarf_units_destroy(struct kms_dwarf_units *u)
{
	size_t i;

	if (!u)
		return;
	kms_free_strings(u->objects, u->nr_units);
	free(u->ranges);
	free(u->variables);
	for (i = 0; i < u->nr_static_calls; i++)
		free(u->static_calls[i].name);
	free(u->static_calls);
	free(u);
}

/* modules.builtin.ranges */

struct anchor {
	char *section;
	uint64_t base;		/* address of offset 0, or 0: unresolved */
};

static int compare_ranges(const void *a, const void *b)
{
	const struct kms_module_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct kms_error *parse_span(const char *path, unsigned long lineno,
				    const char *s, uint64_t *start,
				    uint64_t *end)
{
	char *e;

	errno = 0;
	*start = strtoull(s, &e, 16);
	if (e != s && *e == '-') {
		const char *t = e + 1;

		*end = strtoull(t, &e, 16);
		if (e != t && !*e && !errno)
			return NULL;
	}
	return kms_error_file(path, "line %lu: \"%s\" is not START-END in hex",
			      lineno, s);
}

/* kms_module_ranges_read()'s work. */
struct ranges_reader {
	const char *path;
	struct kms_elf *elf;
	struct kms_module_ranges *r;
	size_t ranges_cap;
	struct anchor *anchors;
	size_t nr_anchors, anchors_cap;
	unsigned long lineno;
};

/* "SECTION START-END = SYMBOL": where SECTION's offsets start. */
static struct kms_error *add_anchor(struct ranges_reader *rr,
				    const char *sect, uint64_t start,
				    const char *sym)
{
	struct anchor *a;
	struct kms_error *err;
	uint64_t value;

	if (!sym)
		return kms_error_file(rr->path, "line %lu: no anchor symbol",
				      rr->lineno);
	err = KMS_RESERVE(rr->anchors, rr->anchors_cap, rr->nr_anchors + 1);
	if (err)
		return err;
	a = &rr->anchors[rr->nr_anchors];
	/* An anchor the vmlinux lacks: base 0; any other error goes up. */
	err = kms_elf_symbol(rr->elf, sym, &value);
	if (err && !kms_error_is_absent(err))
		return err;
	a->base = err ? 0 : value - start;
	kms_error_destroy(err);
	a->section = strdup(sect);
	if (!a->section)
		return &kms_error_nomem;
	rr->nr_anchors++;
	return NULL;
}

/* "SECTION START-END MODULE...", @word the first module, @save the rest. */
static struct kms_error *add_range(struct ranges_reader *rr,
				   const char *sect, uint64_t start,
				   uint64_t end, char *word, char **save)
{
	struct kms_module_ranges *r = rr->r;
	struct kms_module_range *m;
	struct kms_error *err;
	size_t i, cap = 0;

	for (i = 0; i < rr->nr_anchors; i++)
		if (!strcmp(rr->anchors[i].section, sect))
			break;
	/*
	 * 6.12's generate_builtin_ranges.awk can write an end below the start
	 * (".init.data 0006163c-0005fd20 8250"): nothing is known there.
	 */
	if (i == rr->nr_anchors || !rr->anchors[i].base || end <= start)
		return NULL;
	err = KMS_RESERVE(r->ranges, rr->ranges_cap, r->nr + 1);
	if (err)
		return err;
	m = &r->ranges[r->nr++];
	m->start = rr->anchors[i].base + start;
	m->end = rr->anchors[i].base + end;
	m->modules = NULL;
	m->nr_modules = 0;
	for (; word; word = strtok_r(NULL, " \t\n", save)) {
		err = KMS_RESERVE(m->modules, cap, m->nr_modules + 1);
		if (err)
			return err;
		m->modules[m->nr_modules] = strdup(word);
		if (!m->modules[m->nr_modules])
			return &kms_error_nomem;
		kms_underscores(m->modules[m->nr_modules]);
		m->nr_modules++;
	}
	qsort(m->modules, m->nr_modules, sizeof(*m->modules), compare_strings);
	return NULL;
}

/* One line: pass 0 takes the anchors, pass 1 the modules' ranges. */
static struct kms_error *read_ranges_line(struct ranges_reader *rr,
					  char *line, int pass)
{
	char *save = NULL, *sect, *span, *word;
	uint64_t start = 0, end = 0;
	struct kms_error *err;

	sect = strtok_r(line, " \t\n", &save);
	if (!sect)
		return NULL;
	span = strtok_r(NULL, " \t\n", &save);
	word = span ? strtok_r(NULL, " \t\n", &save) : NULL;
	if (!word)
		return kms_error_file(rr->path, "line %lu: not \"SECTION START-END MODULE...\"",
				      rr->lineno);
	err = parse_span(rr->path, rr->lineno, span, &start, &end);
	if (err)
		return err;
	if (!strcmp(word, "="))
		return pass ? NULL :
		       add_anchor(rr, sect, start,
				  strtok_r(NULL, " \t\n", &save));
	return pass ? add_range(rr, sect, start, end, word, &save) : NULL;
}

static struct kms_error *sort_ranges(struct ranges_reader *rr)
{
	struct kms_module_ranges *r = rr->r;
	size_t i;

	qsort(r->ranges, r->nr, sizeof(*r->ranges), compare_ranges);
	for (i = 1; i < r->nr; i++)
		if (r->ranges[i].start < r->ranges[i - 1].end)
			return kms_error_file(rr->path, "ranges of %s and %s overlap at %#llx",
					      r->ranges[i - 1].modules[0],
					      r->ranges[i].modules[0],
					      (unsigned long long)r->ranges[i].start);
	return NULL;
}

struct kms_error *kms_module_ranges_read(const char *path,
					 struct kms_elf *elf,
					 struct kms_module_ranges **ret)
{
	struct ranges_reader rr = { .path = path, .elf = elf };
	struct kms_error *err = NULL;
	size_t line_cap = 0, i;
	char *line = NULL;
	FILE *f;
	int pass;

	f = fopen(path, "r");
	if (!f)
		return kms_error_errno(path, "cannot open");
	rr.r = calloc(1, sizeof(*rr.r));
	if (!rr.r) {
		fclose(f);
		return &kms_error_nomem;
	}
	for (pass = 0; pass < 2 && !err; pass++) {
		rewind(f);
		rr.lineno = 0;
		while (!err && getline(&line, &line_cap, f) >= 0) {
			rr.lineno++;
			err = read_ranges_line(&rr, line, pass);
		}
	}
	if (!err && ferror(f))
		err = kms_error_errno(path, "cannot read");
	if (!err)
		err = sort_ranges(&rr);
	for (i = 0; i < rr.nr_anchors; i++)
		free(rr.anchors[i].section);
	free(rr.anchors);
	free(line);
	fclose(f);
	if (err) {
		kms_module_ranges_destroy(rr.r);
		return err;
	}
	*ret = rr.r;
	return NULL;
}

/* @key, an address, against a range: below its end or not. */
static int compare_range_end(const void *key, const void *element)
{
	const struct kms_module_range *m = element;

	return *(const uint64_t *)key < m->end ? -1 : 1;
}

const struct kms_module_range *
kms_module_ranges_find(const struct kms_module_ranges *r, uint64_t addr)
{
	size_t i = kms_upper_bound(&addr, r->ranges, r->nr,
				   sizeof(*r->ranges), compare_range_end);

	if (i < r->nr && r->ranges[i].start <= addr)
		return &r->ranges[i];
	return NULL;
}

void kms_module_ranges_destroy(struct kms_module_ranges *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr; i++)
		kms_free_strings(r->ranges[i].modules, r->ranges[i].nr_modules);
	free(r->ranges);
	free(r);
}

struct kms_error *kms_modinfo_files(const char *path, char ***ret_paths,
				    size_t *ret_nr)
{
	struct kms_error *err;
	char **paths = NULL, *buf;
	size_t nr = 0, cap = 0, size;
	const char *p, *end;

	err = kms_read_file(path, 0, &buf, &size);
	if (err)
		return err;
	for (p = buf, end = buf + size; p < end; p += strnlen(p, end - p) + 1) {
		size_t len = strnlen(p, end - p);
		const char *dot = memchr(p, '.', len), *file;

		if (!dot || len - (dot - p) < 7 || strncmp(dot, ".file=", 6))
			continue;
		file = dot + 6;
		err = KMS_RESERVE(paths, cap, nr + 1);
		if (err)
			break;
		paths[nr] = strndup(file, len - (file - p));
		if (!paths[nr]) {
			err = &kms_error_nomem;
			break;
		}
		nr++;
	}
	free(buf);
	if (err) {
		kms_free_strings(paths, nr);
		return err;
	}
	*ret_paths = paths;
	*ret_nr = nr;
	return NULL;
}
