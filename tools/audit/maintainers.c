// SPDX-License-Identifier: GPL-2.0
/*
 * MAINTAINERS: sections and their F:/X:/N: patterns, matched as
 * scripts/get_maintainer.pl matches them (maintainers.h).
 */
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kms/error.h>
#include <kms/util.h>

#include "maintainers.h"

struct pattern {
	char type;		/* 'F', 'X' or 'N' */
	char *text;		/* F, X: "drivers/pci/"; a directory ends in '/' */
	int depth;		/* F: get_maintainer.pl's $value_pd */
	regex_t re;		/* N */
};

struct section {
	char *name;
	struct pattern *patterns;
	size_t nr, cap;
};

struct maintainers {
	struct section *sections;
	size_t nr, cap;
};

/*
 * Does a prefix of @file match @pat, where '*' is any run of characters
 * ('/' included) and '?' one character?  get_maintainer.pl turns them
 * into ".*" and "." and anchors the regex at the start only.
 */
static bool prefix_match(const char *pat, const char *file)
{
	for (; *pat; pat++, file++) {
		if (*pat == '*') {
			do {
				if (prefix_match(pat + 1, file))
					return true;
			} while (*file++);
			return false;
		}
		if (!*file || (*pat != '?' && *pat != *file))
			return false;
	}
	return true;
}

static int slashes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* get_maintainer.pl's file_match_pattern(). */
static bool file_matches(const char *file, const char *pat)
{
	size_t len = strlen(pat);

	if (!prefix_match(pat, file))
		return false;
	return (len && pat[len - 1] == '/') || slashes(file) == slashes(pat);
}

/* An F: or X: value: a directory without its '/' gets one, as there. */
static struct kms_error *add_path(const char *srctree, struct pattern *p,
				  const char *value)
{
	char path[PATH_MAX];
	struct stat st;
	size_t len = strlen(value);

	p->text = malloc(len + 2);
	if (!p->text)
		return &kms_error_nomem;
	memcpy(p->text, value, len + 1);
	if (len && value[len - 1] != '/' && !strpbrk(value, "*?") &&
	    snprintf(path, sizeof(path), "%s/%s", srctree, value) <
	    (int)sizeof(path) && !stat(path, &st) && S_ISDIR(st.st_mode))
		strcpy(p->text + len, "/");
	len = strlen(p->text);
	p->depth = slashes(p->text) + (p->text[len - 1] != '/');
	if (p->text[0] == '*')
		p->depth = -1;
	return NULL;
}

/* N: a Perl regex, /x; one POSIX does not take is left out. */
static bool add_regex(struct pattern *p, const char *value)
{
	char buf[1024];
	size_t j = 0;

	for (; *value && j + 1 < sizeof(buf); value++)
		if (*value != ' ' && *value != '\t')
			buf[j++] = *value;
	buf[j] = '\0';
	return !regcomp(&p->re, buf, REG_EXTENDED | REG_NOSUB);
}

static struct kms_error *add_line(struct maintainers *m, const char *srctree,
				  char *line)
{
	struct section *s;
	struct pattern *p;
	char *value;

	if (!line[0])
		return NULL;
	if (!(line[0] >= 'A' && line[0] <= 'Z' && line[1] == ':')) {
		if (KMS_RESERVE(m->sections, m->cap, m->nr + 1))
			return &kms_error_nomem;
		s = &m->sections[m->nr];
		memset(s, 0, sizeof(*s));
		s->name = strdup(line);
		if (!s->name)
			return &kms_error_nomem;
		m->nr++;
		return NULL;
	}
	if (!m->nr || !strchr("FXN", line[0]))
		return NULL;
	s = &m->sections[m->nr - 1];
	for (value = line + 2; *value == ' ' || *value == '\t'; value++)
		;
	if (line[0] != 'N')
		value[strcspn(value, " \t")] = '\0';
	if (!*value || KMS_RESERVE(s->patterns, s->cap, s->nr + 1))
		return *value ? &kms_error_nomem : NULL;
	p = &s->patterns[s->nr];
	memset(p, 0, sizeof(*p));
	p->type = line[0];
	if (p->type == 'N') {
		if (add_regex(p, value))
			s->nr++;
		return NULL;
	}
	s->nr++;
	return add_path(srctree, p, value);
}

struct kms_error *maintainers_load(const char *srctree,
				   struct maintainers **ret)
{
	_cleanup_free_ char *path = NULL;
	struct maintainers *m;
	struct kms_error *err;
	char *text, *line, *save = NULL;
	size_t size;

	if (asprintf(&path, "%s/MAINTAINERS", srctree) < 0)
		return &kms_error_nomem;
	if (access(path, F_OK)) {
		*ret = NULL;
		return NULL;
	}
	err = kms_read_file(path, 0, &text, &size);
	if (err)
		return err;
	m = calloc(1, sizeof(*m));
	if (!m) {
		free(text);
		return &kms_error_nomem;
	}
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save))
		err = add_line(m, srctree, line);
	free(text);
	if (err) {
		maintainers_destroy(m);
		return err;
	}
	*ret = m;
	return NULL;
}

/* The depth @s matches @path at, or INT_MIN. */
static int section_depth(const struct section *s, const char *path)
{
	int best = INT_MIN;
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct pattern *p = &s->patterns[i];

		if (p->type == 'X' && file_matches(path, p->text))
			return INT_MIN;
		if (p->type == 'F' && file_matches(path, p->text) &&
		    p->depth > best)
			best = p->depth;
		if (p->type == 'N' && best < 0 &&
		    !regexec(&p->re, path, 0, NULL, 0))
			best = 0;
	}
	return best;
}

long maintainers_section(const struct maintainers *m, const char *path)
{
	int best = INT_MIN;
	long found = -1;
	size_t i;

	for (i = 0; m && i < m->nr; i++) {
		int depth = section_depth(&m->sections[i], path);

		if (depth > best) {
			best = depth;
			found = (long)i;
		}
	}
	return found;
}

const char *maintainers_name(const struct maintainers *m, long section)
{
	return m && section >= 0 ? m->sections[section].name : NULL;
}

void maintainers_destroy(struct maintainers *m)
{
	size_t i, j;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++) {
		struct section *s = &m->sections[i];

		for (j = 0; j < s->nr; j++) {
			if (s->patterns[j].type == 'N')
				regfree(&s->patterns[j].re);
			free(s->patterns[j].text);
		}
		free(s->patterns);
		free(s->name);
	}
	free(m->sections);
	free(m);
}
