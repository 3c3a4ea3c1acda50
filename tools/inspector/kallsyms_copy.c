// SPDX-License-Identifier: GPL-2.0
/* Copies of /proc/kallsyms and /proc/kallmodsyms; see kallsyms_copy.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms_copy.h"

/* Split "ADDR t name[<whitespace>...]" in place; false if it is not one. */
static bool parse_line(char *line, struct kallsyms_line *ret)
{
	char *end, *name;

	errno = 0;
	ret->address = strtoull(line, &end, 16);
	if (errno || end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return false;
	ret->type = end[1];
	name = end + 3;
	for (end = name; *end && !isspace((unsigned char)*end); end++)
		;
	*end = '\0';
	ret->name = name;
	return true;
}

struct kms_error *kallsyms_copy_read(const char *path,
				     bool (*fn)(const struct kallsyms_line *l,
						void *arg),
				     void *arg)
{
	struct kallsyms_line l;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return kms_error_errno(path, "cannot open");
	while (getline(&line, &cap, f) > 0)
		if (parse_line(line, &l) && fn(&l, arg))
			break;
	free(line);
	fclose(f);
	return NULL;
}

struct text_search {
	bool found;
	uint64_t address;
};

static bool is_text(const struct kallsyms_line *l, void *arg)
{
	struct text_search *s = arg;

	if (strcmp(l->name, "_text"))
		return false;
	s->found = true;
	s->address = l->address;
	return true;
}

struct kms_error *kallsyms_copy_text(const char *path, uint64_t *ret)
{
	struct text_search s = { false, 0 };
	struct kms_error *err;

	err = kallsyms_copy_read(path, is_text, &s);
	if (err)
		return err;
	if (!s.found)
		return kms_error_file(path, "no _text line: not a copy of /proc/kallsyms");
	if (!s.address)
		return kms_error_file(path, "_text reads as 0: the copy was made without the right to see addresses");
	*ret = s.address;
	return NULL;
}
