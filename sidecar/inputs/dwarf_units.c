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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kms/dwarf_units.h>
#include <kms/kbuild.h>

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

static struct kms_error *push_range(struct kms_dwarf_units *u, size_t *cap,
				    uint64_t start, uint64_t end,
				    uint32_t unit)
{
	if (u->nr_ranges == *cap) {
		size_t ncap = *cap ? 2 * *cap : 4096;
		struct kms_dwarf_range *n = realloc(u->ranges,
						    ncap * sizeof(*n));

		if (!n)
			return &kms_error_nomem;
		u->ranges = n;
		*cap = ncap;
	}
	u->ranges[u->nr_ranges].start = start;
	u->ranges[u->nr_ranges].end = end;
	u->ranges[u->nr_ranges].unit = unit;
	u->nr_ranges++;
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
		if (u->nr_static_calls == *cap) {
			size_t ncap = *cap ? 2 * *cap : 256;
			struct kms_dwarf_static_call *n;

			n = realloc(u->static_calls, ncap * sizeof(*n));
			if (!n)
				return &kms_error_nomem;
			u->static_calls = n;
			*cap = ncap;
		}
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

struct kms_error *kms_dwarf_units_read(const char *path,
				       struct kms_dwarf_units **ret)
{
	struct kms_dwarf_units *u;
	struct kms_error *err = NULL;
	struct unit_name *names = NULL;
	size_t nr_names = 0, names_cap = 0, ranges_cap = 0, keys_cap = 0, i;
	char *srcprefix = NULL;
	Dwarf_CU *cu = NULL;
	Dwarf *dw;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kms_error_errno(path, "cannot open");
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		err = kms_error_file(path, "cannot read DWARF: %s (objects come from debug info here: build with CONFIG_DEBUG_INFO, or take the distribution's debug vmlinux: Debian's linux-image-*-dbg, Fedora's kernel-debuginfo)",
				     dwarf_errmsg(-1));
		close(fd);
		return err;
	}
	u = calloc(1, sizeof(*u));
	if (!u) {
		err = &kms_error_nomem;
		goto out;
	}

	for (;;) {
		Dwarf_Die cudie, subdie;
		Dwarf_Addr base, start, end;
		Dwarf_Half version;
		uint8_t unit_type;
		ptrdiff_t off = 0;
		int r;

		r = dwarf_get_units(dw, cu, &cu, &version, &unit_type, &cudie,
				    &subdie);
		if (r > 0)
			break;
		if (r < 0) {
			err = kms_error_file(path, "bad DWARF unit: %s",
					     dwarf_errmsg(-1));
			goto out;
		}
		if (unit_type != DW_UT_compile && unit_type != DW_UT_skeleton)
			continue;	/* type and partial units have no code */
		if (nr_names == names_cap) {
			size_t ncap = names_cap ? 2 * names_cap : 1024;
			struct unit_name *n = realloc(names, ncap * sizeof(*n));

			if (!n) {
				err = &kms_error_nomem;
				goto out;
			}
			names = n;
			names_cap = ncap;
		}
		names[nr_names].name = die_string(&cudie, DW_AT_name);
		names[nr_names].comp_dir = die_string(&cudie, DW_AT_comp_dir);
		nr_names++;
		while ((off = dwarf_ranges(&cudie, off, &base, &start,
					   &end)) > 0) {
			if (end <= start || !start) {
				u->empty_ranges++;
				continue;
			}
			err = push_range(u, &ranges_cap, start, end,
					 nr_names - 1);
			if (err)
				goto out;
		}
		if (off < 0) {
			err = kms_error_file(path, "bad address ranges in compile unit %s: %s",
					     names[nr_names - 1].name ?
					     names[nr_names - 1].name : "(unnamed)",
					     dwarf_errmsg(-1));
			goto out;
		}
		err = scan_static_call_keys(u, &keys_cap, &cudie,
					    nr_names - 1, path);
		if (err)
			goto out;
	}
	if (u->nr_static_calls > 1)
		qsort(u->static_calls, u->nr_static_calls,
		      sizeof(*u->static_calls), compare_static_calls);
	if (!nr_names) {
		err = kms_error_file(path, "no DWARF compile units");
		goto out;
	}

	/* Every kernel compiles init/main.c: what precedes it is srctree. */
	for (i = 0; i < nr_names && !srcprefix; i++) {
		const char *n = names[i].name;
		size_t len = n ? strlen(n) : 0;

		if (len > 11 && !strcmp(n + len - 11, "init/main.c") &&
		    n[len - 12] == '/') {
			srcprefix = strndup(n, len - 11);
			if (!srcprefix) {
				err = &kms_error_nomem;
				goto out;
			}
		}
	}
	u->objects = calloc(nr_names, sizeof(*u->objects));
	if (!u->objects) {
		err = &kms_error_nomem;
		goto out;
	}
	u->nr_units = nr_names;
	for (i = 0; i < nr_names; i++) {
		if (names[i].name)
			u->objects[i] = object_of(names[i].name,
						  names[i].comp_dir, srcprefix);
		if (!u->objects[i])
			u->skipped_units++;
	}
out:
	for (i = 0; i < nr_names; i++) {
		free(names[i].name);
		free(names[i].comp_dir);
	}
	free(names);
	free(srcprefix);
	dwarf_end(dw);
	close(fd);
	if (err) {
		kms_dwarf_units_destroy(u);
		return err;
	}
	*ret = u;
	return NULL;
}

void kms_dwarf_units_destroy(struct kms_dwarf_units *u)
{
	size_t i;

	if (!u)
		return;
	kms_free_strings(u->objects, u->nr_units);
	free(u->ranges);
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

struct kms_error *kms_module_ranges_read(const char *path,
					 struct kms_elf *elf,
					 struct kms_module_ranges **ret)
{
	struct kms_module_ranges *r;
	struct anchor *anchors = NULL;
	size_t nr_anchors = 0, cap = 0, i;
	struct kms_error *err = NULL;
	unsigned long lineno = 0;
	char *line = NULL;
	size_t line_cap = 0;
	FILE *f;
	int pass;

	f = fopen(path, "r");
	if (!f)
		return kms_error_errno(path, "cannot open");
	r = calloc(1, sizeof(*r));
	if (!r) {
		fclose(f);
		return &kms_error_nomem;
	}
	/* Pass 0 resolves the anchors, pass 1 the modules' ranges. */
	for (pass = 0; pass < 2 && !err; pass++) {
		rewind(f);
		lineno = 0;
		while (!err && getline(&line, &line_cap, f) >= 0) {
			char *save = NULL, *sect, *span, *word;
			struct kms_module_range *m;
			uint64_t start = 0, end = 0;

			lineno++;
			sect = strtok_r(line, " \t\n", &save);
			if (!sect)
				continue;
			span = strtok_r(NULL, " \t\n", &save);
			word = span ? strtok_r(NULL, " \t\n", &save) : NULL;
			if (!word) {
				err = kms_error_file(path, "line %lu: not \"SECTION START-END MODULE...\"",
						     lineno);
				break;
			}
			err = parse_span(path, lineno, span, &start, &end);
			if (err)
				break;
			if (!strcmp(word, "=")) {
				char *sym = strtok_r(NULL, " \t\n", &save);
				uint64_t value;
				struct kms_error *e2;

				if (pass)
					continue;
				if (!sym) {
					err = kms_error_file(path, "line %lu: no anchor symbol",
							     lineno);
					break;
				}
				if (nr_anchors == cap) {
					size_t ncap = cap ? 2 * cap : 16;
					struct anchor *n = realloc(anchors,
						ncap * sizeof(*n));

					if (!n) {
						err = &kms_error_nomem;
						break;
					}
					anchors = n;
					cap = ncap;
				}
				e2 = kms_elf_symbol(elf, sym, &value);
				anchors[nr_anchors].base = 0;
				if (!e2)
					anchors[nr_anchors].base = value - start;
				kms_error_destroy(e2);
				anchors[nr_anchors].section = strdup(sect);
				if (!anchors[nr_anchors].section) {
					err = &kms_error_nomem;
					break;
				}
				nr_anchors++;
				continue;
			}
			if (!pass)
				continue;
			for (i = 0; i < nr_anchors; i++)
				if (!strcmp(anchors[i].section, sect))
					break;
			/*
			 * 6.12's generate_builtin_ranges.awk can write an
			 * end below the start (".init.data 0006163c-0005fd20
			 * 8250"): nothing is known there.
			 */
			if (i == nr_anchors || !anchors[i].base || end <= start)
				continue;
			m = realloc(r->ranges, (r->nr + 1) * sizeof(*m));
			if (!m) {
				err = &kms_error_nomem;
				break;
			}
			r->ranges = m;
			m = &r->ranges[r->nr++];
			m->start = anchors[i].base + start;
			m->end = anchors[i].base + end;
			m->modules = NULL;
			m->nr_modules = 0;
			for (; word; word = strtok_r(NULL, " \t\n", &save)) {
				char **n = realloc(m->modules,
						   (m->nr_modules + 1) * sizeof(*n));
				char *c;

				if (!n) {
					err = &kms_error_nomem;
					break;
				}
				m->modules = n;
				m->modules[m->nr_modules] = strdup(word);
				if (!m->modules[m->nr_modules]) {
					err = &kms_error_nomem;
					break;
				}
				for (c = m->modules[m->nr_modules]; *c; c++)
					if (*c == '-')
						*c = '_';
				m->nr_modules++;
			}
			if (!err)
				qsort(m->modules, m->nr_modules,
				      sizeof(*m->modules), compare_strings);
		}
	}
	if (!err && ferror(f))
		err = kms_error_errno(path, "cannot read");
	if (!err) {
		qsort(r->ranges, r->nr, sizeof(*r->ranges), compare_ranges);
		for (i = 1; i < r->nr; i++)
			if (r->ranges[i].start < r->ranges[i - 1].end) {
				err = kms_error_file(path, "ranges of %s and %s overlap at %#llx",
						     r->ranges[i - 1].modules[0],
						     r->ranges[i].modules[0],
						     (unsigned long long)r->ranges[i].start);
				break;
			}
	}
	for (i = 0; i < nr_anchors; i++)
		free(anchors[i].section);
	free(anchors);
	free(line);
	fclose(f);
	if (err) {
		kms_module_ranges_destroy(r);
		return err;
	}
	*ret = r;
	return NULL;
}

const struct kms_module_range *
kms_module_ranges_find(const struct kms_module_ranges *r, uint64_t addr)
{
	size_t lo = 0, hi = r->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ranges[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nr && r->ranges[lo].start <= addr)
		return &r->ranges[lo];
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
	struct kms_error *err = NULL;
	char **paths = NULL, *buf = NULL;
	size_t nr = 0, size = 0, cap = 0;
	const char *p, *end;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return kms_error_errno(path, "cannot open");
	for (;;) {
		size_t n;
		char *nb;

		if (size == cap) {
			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				err = &kms_error_nomem;
				goto out;
			}
			buf = nb;
		}
		n = fread(buf + size, 1, cap - size, f);
		size += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		err = kms_error_errno(path, "cannot read");
		goto out;
	}
	for (p = buf, end = buf + size; p < end; p += strnlen(p, end - p) + 1) {
		size_t len = strnlen(p, end - p);
		const char *dot = memchr(p, '.', len), *file;
		char **np;

		if (!dot || len - (dot - p) < 7 || strncmp(dot, ".file=", 6))
			continue;
		file = dot + 6;
		np = realloc(paths, (nr + 1) * sizeof(*np));
		if (!np) {
			err = &kms_error_nomem;
			goto out;
		}
		paths = np;
		paths[nr] = strndup(file, len - (file - p));
		if (!paths[nr]) {
			err = &kms_error_nomem;
			goto out;
		}
		nr++;
	}
out:
	free(buf);
	fclose(f);
	if (err) {
		kms_free_strings(paths, nr);
		return err;
	}
	*ret_paths = paths;
	*ret_nr = nr;
	return NULL;
}
