// SPDX-License-Identifier: GPL-2.0
/*
 * A parser for GNU ld and ld.lld map files.  The formats are meant for
 * people, so the parser is strict about what it takes as a piece (name, two
 * hex numbers, file) and ignores every other line; it fails when the map
 * lists no input sections.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/linker_map.h>
#include <kms/util.h>

#define MAP_START "Linker script and memory map"
/* ld.lld's first line, with the words spaced out into columns. */
#define LLD_COLUMNS "VMA LMA Size Align Out In Symbol"

static const char *intern(struct kms_linker_map *map, const char *s,
			  size_t len)
{
	char *copy;

	/* Consecutive pieces mostly share section and file names. */
	if (map->nr_strings) {
		const char *last = map->strings[map->nr_strings - 1];

		if (strlen(last) == len && !memcmp(last, s, len))
			return last;
	}
	if (KMS_RESERVE(map->strings, map->strings_cap, map->nr_strings + 1))
		return NULL;
	copy = strndup(s, len);
	if (!copy)
		return NULL;
	map->strings[map->nr_strings++] = copy;
	return copy;
}

/* Split @line into at most @max white-space separated fields. */
static int split(char *line, char **field, int max)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n')
			break;
		field[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (!*p)
			break;
		*p++ = '\0';
	}
	return n;
}

/* Hex digits and nothing else (ld.lld's columns). */
static int parse_hex_digits(const char *s, uint64_t *ret)
{
	char *end;

	if (!isxdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*ret = strtoull(s, &end, 16);
	return errno || *end ? -1 : 0;
}

/* "0x" and hex digits (GNU ld's columns). */
static int parse_hex(const char *s, uint64_t *ret)
{
	if (s[0] != '0' || s[1] != 'x')
		return -1;
	return parse_hex_digits(s + 2, ret);
}

static struct kms_error *add_piece(struct kms_linker_map *map,
				   size_t *cap, const char *osec,
				   uint64_t osec_addr,
				   const char *isec, const char *file,
				   uint64_t addr, uint64_t size)
{
	struct kms_map_piece *p;
	struct kms_error *err;
	size_t i;

	/* File names go into the note's string table. */
	for (i = 0; file[i]; i++) {
		if ((unsigned char)file[i] >= 0x7f ||
		    (unsigned char)file[i] < ' ')
			return kms_error_new(KMS_ERR_INPUT,
					     "input file of %s at 0x%llx is not printable ASCII",
					     isec, (unsigned long long)addr);
	}
	err = KMS_RESERVE(map->pieces, *cap, map->nr_pieces + 1);
	if (err)
		return err;
	p = &map->pieces[map->nr_pieces];
	p->output_section = osec;
	p->output_address = osec_addr;
	p->input_section = intern(map, isec, strlen(isec));
	if (!p->input_section)
		return &kms_error_nomem;
	p->file = intern(map, file, strlen(file));
	if (!p->file)
		return &kms_error_nomem;
	p->address = addr;
	p->size = size;
	map->nr_pieces++;
	return NULL;
}

struct map_parser {
	struct kms_linker_map *map;
	size_t pieces_cap;
	const char *osec;	/* the output section being read, or NULL */
	uint64_t osec_addr;
};

/* "OUTPUT(FILE BFD)", from "FILE BFD)" on: the object format linked. */
static struct kms_error *output_format(struct map_parser *p, const char *rest)
{
	const char *bfd = strrchr(rest, ' '), *end = strrchr(rest, ')');

	if (!bfd || !end || end < bfd)
		return NULL;
	p->map->output_format = intern(p->map, bfd + 1, end - bfd - 1);
	return p->map->output_format ? NULL : &kms_error_nomem;
}

/* One line of the memory map, a wrapped name already joined to its numbers. */
static struct kms_error *parse_line(struct map_parser *p, char *line)
{
	char *field[5];
	uint64_t addr, size;
	int n;

	if (!strncmp(line, "OUTPUT(", 7))
		return output_format(p, line + 7);
	if (line[0] != ' ' && line[0] != '\0') {
		/* Output section header: "NAME 0xADDR 0xSIZE ...". */
		n = split(line, field, 3);
		p->osec = NULL;
		if (n >= 3 && !parse_hex(field[1], &addr) &&
		    !parse_hex(field[2], &size)) {
			p->osec = intern(p->map, field[0], strlen(field[0]));
			if (!p->osec)
				return &kms_error_nomem;
			p->osec_addr = addr;
		}
		return NULL;
	}
	if (!p->osec || line[1] == ' ' || line[1] == '*' || line[1] == '\0')
		return NULL;

	/* Input section: " NAME 0xADDR 0xSIZE FILE". */
	n = split(line, field, 5);
	if (n != 4 || parse_hex(field[1], &addr) ||
	    parse_hex(field[2], &size) || !size)
		return NULL;
	return add_piece(p->map, &p->pieces_cap, p->osec, p->osec_addr,
			 field[0], field[3], addr, size);
}

/* A section name alone on its line: its numbers may follow on the next. */
static bool lone_name(const char *line)
{
	const char *name = line[0] == ' ' ? line + 1 : line;

	return *name && *name != ' ' && *name != '*' && !strpbrk(name, " \t");
}

/* Does @line start with two hex numbers, the rest of a wrapped line? */
static bool continues(const char *line)
{
	int k;

	if (line[0] != ' ')
		return false;
	for (k = 0; k < 2; k++) {
		line += strspn(line, " \t");
		if (line[0] != '0' || line[1] != 'x' ||
		    !isxdigit((unsigned char)line[2]))
			return false;
		line += 2 + strspn(line + 2, "0123456789abcdefABCDEF");
		if (*line && *line != ' ' && *line != '\t')
			return false;
	}
	return true;
}

/*
 * Put @line (@len bytes) at @at in the buffer *@buf, followed by a space
 * and a NUL: a held name, or a wrapped name joined to its numbers.
 */
static struct kms_error *hold(char **buf, size_t *cap, size_t at,
			      const char *line, size_t len)
{
	struct kms_error *err = kms_reserve(buf, cap, at + len + 2, 1);

	if (err)
		return err;
	memcpy(*buf + at, line, len);
	(*buf)[at + len] = ' ';
	(*buf)[at + len + 1] = '\0';
	return NULL;
}

/* Is @line ld.lld's column header? */
static bool lld_header(const char *line)
{
	const char *want = LLD_COLUMNS;

	/* The same words, however they are spaced. */
	for (;;) {
		line += strspn(line, " ");
		if (!*want)
			return !*line || *line == '\n';
		if (strncmp(line, want, strcspn(want, " ")))
			return false;
		line += strcspn(want, " ");
		want += strcspn(want, " ");
		want += strspn(want, " ");
		if (*line != ' ' && *line != '\n' && *line)
			return false;
	}
}

/*
 * ld.lld spells an archive member as the archive stores it: "lib/lib.a(
 * sort.o)" means lib/sort.o, whether the archive is thin (its paths are
 * relative to its directory) or not (kbuild makes archives beside their
 * objects).  GNU ld names a thin archive's members by path: so do we.
 */
static struct kms_error *add_lld_piece(struct map_parser *p,
				       const char *isec, const char *file,
				       uint64_t addr, uint64_t size)
{
	const char *open = strchr(file, '('), *slash;
	size_t len = strlen(file);
	struct kms_error *err;
	char *path;
	int dir_len;

	if (!open || open == file || file[len - 1] != ')' || open[1] == '/')
		return add_piece(p->map, &p->pieces_cap, p->osec, p->osec_addr,
				 isec, file, addr, size);
	slash = memrchr(file, '/', open - file);
	dir_len = slash ? slash - file + 1 : 0;
	if (asprintf(&path, "%.*s%.*s", dir_len, file,
		     (int)(len - 2 - (open - file)), open + 1) < 0)
		return &kms_error_nomem;
	err = add_piece(p->map, &p->pieces_cap, p->osec, p->osec_addr, isec,
			path, addr, size);
	free(path);
	return err;
}

/*
 * One line of an ld.lld map: "VMA LMA SIZE ALIGN" in hex (ALIGN decimal),
 * then one space and 8 more per level: an output section, an input section
 * "FILE:(NAME)", or a symbol.  Assignments ("_text = .") sit at the level of
 * what they are in, and have spaces in them.
 */
static struct kms_error *parse_lld_line(struct map_parser *p, char *line,
					size_t line_len)
{
	char *field[4], *rest, *name, *colon;
	uint64_t addr, size;
	size_t depth, len;
	int n;

	n = split(line, field, 4);
	if (n != 4 || parse_hex_digits(field[0], &addr) ||
	    parse_hex_digits(field[2], &size))
		return NULL;
	/* split() ended the field on its separator, or on the line's end. */
	rest = field[3] + strlen(field[3]);
	if (rest < line + line_len)
		rest++;
	depth = strspn(rest, " ");
	name = rest + depth;
	if (!*name || strchr(name, ' ') || depth % 8)
		return NULL;
	switch (depth / 8) {
	case 0:
		p->osec = intern(p->map, name, strlen(name));
		if (!p->osec)
			return &kms_error_nomem;
		p->osec_addr = addr;
		return NULL;
	case 1:
		break;
	default:
		return NULL;
	}

	/* Input section: "FILE:(NAME)"; "<internal>" is the linker's own. */
	colon = strstr(name, ":(");
	while (colon && strstr(colon + 1, ":("))
		colon = strstr(colon + 1, ":(");
	len = strlen(name);
	if (!p->osec || !size || !colon || colon == name ||
	    name[len - 1] != ')' || !strncmp(name, "<internal>:", 11))
		return NULL;
	name[len - 1] = '\0';
	*colon = '\0';
	return add_lld_piece(p, colon + 2, name, addr, size);
}

/* kms_linker_map_read()'s work: the parser, and where in the map it is. */
struct map_reader {
	struct map_parser p;
	int in_map, lld;
	/* GNU ld: a name waiting for its numbers, "NAME " (held_len bytes) */
	char *held;
	size_t held_cap, held_len;
};

/*
 * One line of GNU ld's memory map, without its newline.  A name too long
 * for its column stands alone, its numbers on the next line: it is held
 * until that line says which.
 */
static struct kms_error *read_ld_line(struct map_reader *r, char *line,
				      size_t len)
{
	struct kms_error *err;

	if (r->held_len) {
		if (continues(line)) {
			err = hold(&r->held, &r->held_cap, r->held_len, line,
				   len);
			if (!err)
				err = parse_line(&r->p, r->held);
			r->held_len = 0;
			return err;
		}
		err = parse_line(&r->p, r->held);
		r->held_len = 0;
		if (err)
			return err;
	}
	if (lone_name(line)) {
		/* Held as "NAME " so that its numbers can follow. */
		err = hold(&r->held, &r->held_cap, 0, line, len);
		r->held_len = len + 1;
		return err;
	}
	return parse_line(&r->p, line);
}

/*
 * One line of the file, @len bytes: ld.lld's map from its column header
 * on, GNU ld's from its "Linker script and memory map" on.
 */
static struct kms_error *read_map_line(struct map_reader *r, char *line,
				       size_t len)
{
	if (!r->in_map && lld_header(line)) {
		r->lld = 1;
		r->in_map = 1;
		return NULL;
	}
	if (!r->in_map) {
		/* The discarded sections before it are half the map. */
		r->in_map = line[0] == MAP_START[0] &&
			    !strncmp(line, MAP_START, strlen(MAP_START));
		return NULL;
	}
	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	return r->lld ? parse_lld_line(&r->p, line, len) :
			read_ld_line(r, line, len);
}

/* After the last line: whether the file was read, and was a map. */
static struct kms_error *check_map_read(const char *path, FILE *f,
					const struct map_reader *r)
{
	if (ferror(f))
		return kms_error_errno(path, "read error");
	if (!r->in_map)
		return kms_error_file(path,
				      "not a linker map: neither GNU ld's \"%s\" nor ld.lld's column header",
				      MAP_START);
	if (!r->p.map->nr_pieces)
		return kms_error_file(path, "linker map lists no input sections");
	return NULL;
}

struct kms_error *kms_linker_map_read(const char *path,
				      struct kms_linker_map **ret)
{
	struct map_reader r = { 0 };
	struct kms_error *err = NULL;
	char *line = NULL;
	size_t line_cap = 0;
	ssize_t len;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return kms_error_errno(path, "cannot open linker map");
	r.p.map = calloc(1, sizeof(*r.p.map));
	if (!r.p.map) {
		fclose(f);
		return &kms_error_nomem;
	}
	while (!err && (len = getline(&line, &line_cap, f)) >= 0)
		err = read_map_line(&r, line, len);
	if (!err && r.held_len)
		err = parse_line(&r.p, r.held);
	if (!err)
		err = check_map_read(path, f, &r);
	free(line);
	free(r.held);
	fclose(f);
	if (err && err != &kms_error_nomem &&
	    strncmp(err->message, path, strlen(path)))
		err = kms_error_prefix(err, "%s", path);
	if (err) {
		kms_linker_map_destroy(r.p.map);
		return err;
	}
	*ret = r.p.map;
	return NULL;
}

void kms_linker_map_destroy(struct kms_linker_map *map)
{
	size_t i;

	if (!map)
		return;
	for (i = 0; i < map->nr_strings; i++)
		free(map->strings[i]);
	free(map->strings);
	free(map->pieces);
	free(map);
}

char *kms_map_object_path(const char *file)
{
	const char *open = strchr(file, '(');
	const char *slash;
	size_t len;
	char *ret;

	if (!open || file[strlen(file) - 1] != ')')
		return strdup(file);
	len = strlen(open + 1) - 1;
	/* Thin archive members carry their own path. */
	if (memchr(open + 1, '/', len))
		return strndup(open + 1, len);
	/* A member of a normal archive lives beside the archive. */
	slash = memrchr(file, '/', open - file);
	if (!slash)
		return strndup(open + 1, len);
	if (asprintf(&ret, "%.*s%.*s", (int)(slash - file + 1), file,
		     (int)len, open + 1) < 0)
		return NULL;
	return ret;
}
