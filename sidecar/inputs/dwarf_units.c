// SPDX-License-Identifier: GPL-2.0
/*
 * Compile units of a vmlinux with DWARF (kms/dwarf_units.h): each one's
 * object, its code's address ranges, the static-call keys it defines and,
 * when asked, its variables' storage.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
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
	else if (name[0] == '/')
		rel = after_top_dir(name);
	if (!rel)
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
		err = kms_error_file(path,
				     "cannot read DWARF: %s (objects come from debug info here: build with CONFIG_DEBUG_INFO, or take the distribution's debug vmlinux: Debian's linux-image-*-dbg, Fedora's kernel-debuginfo)",
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
