// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit's findings for --patches (findings.h): kept from
 * this run, or parsed from an earlier listing and checked again.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/error.h>
#include <kms/util.h>

#include "audit.h"
#include "exact.h"
#include "findings.h"

/* Keep a finding for --patches (findings.h). */
struct kms_error *keep_finding(struct patch_list *list, const char *source,
			       char **reason, char **license, char **tags)
{
	struct patch_finding *f;

	if (KMS_RESERVE(list->f, list->cap, list->nr + 1))
		return &kms_error_nomem;
	f = &list->f[list->nr];
	memset(f, 0, sizeof(*f));
	f->source = strdup(source);
	if (!f->source)
		return &kms_error_nomem;
	f->reason = *reason;
	f->license = *license;
	f->tags = *tags;
	*reason = *license = *tags = NULL;
	list->nr++;
	return NULL;
}

static void patch_finding_release(struct patch_finding *f)
{
	free((char *)f->source);
	free((char *)f->reason);
	free((char *)f->license);
	free((char *)f->tags);
	free((char *)f->arches);
}

void patch_list_release(struct patch_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		patch_finding_release(&list->f[i]);
	free(list->f);
}

/*
 * One line of a listing: FILE why MODULE_LICENSE("L") SPDX agreement TAGS
 * (a configured tree, --allmodconfig), or FILE class why ARCHES
 * MODULE_LICENSE("L") SPDX agreement TAGS (--tree-wide), tab-separated.
 */
static struct kms_error *parse_finding(struct patch_list *list, char *line,
				       const char *file, size_t lineno)
{
	char *field[9], *save = NULL, *reason, *license, *tags, *p;
	size_t n = 0, len;
	bool wide;

	for (p = strtok_r(line, "\t", &save); p && n < 9;
	     p = strtok_r(NULL, "\t", &save))
		field[n++] = p;
	wide = n == 8;
	if ((n != 6 && n != 8) || strncmp(field[wide ? 4 : 2], "MODULE_LICENSE(\"", 16))
		return kms_error_file(file, "line %zu: not a line of "
					PROG "'s listing", lineno);
	p = field[wide ? 4 : 2] + 16;
	len = strlen(p);
	if (len < 2 || strcmp(p + len - 2, "\")"))
		return kms_error_file(file, "line %zu: not a line of "
					PROG "'s listing", lineno);
	reason = strdup(field[wide ? 2 : 1]);
	license = strndup(p, len - 2);
	tags = strdup(field[n - 1]);
	if (!reason || !license || !tags) {
		free(reason);
		free(license);
		free(tags);
		return &kms_error_nomem;
	}
	if (keep_finding(list, field[0], &reason, &license, &tags))
		return &kms_error_nomem;
	if (wide) {
		char *arches = strdup(field[3]);

		if (!arches)
			return &kms_error_nomem;
		for (p = arches; *p; p++)
			if (*p == ',')
				*p = ' ';
		list->f[list->nr - 1].arches = arches;
	}
	return NULL;
}

/*
 * Does the finding for @source still hold in @srctree: its MODULE_LICENSE()
 * outside comments, and no Makefile line that can make it a module (@x)?
 * If not, one note on stderr says why.
 */
static bool still_holds(const char *srctree, const struct exact *x,
			const char *source)
{
	char *path, *text, *license = NULL, *tags = NULL, *why = NULL;
	size_t len = strlen(source);
	bool says;

	if (len < 3 || strcmp(source + len - 2, ".c") ||
	    asprintf(&path, "%s/%s", srctree, source) < 0)
		return true;	/* parse_finding's business */
	text = read_text(path);
	free(path);
	says = text && scan_tags(text, &license, &tags);
	free(license);
	free(tags);
	free(text);
	if (!says) {
		fprintf(stderr, PROG ": note: %s left out: no MODULE_LICENSE() outside comments\n",
			source);
		return false;
	}
	if (asprintf(&path, "%.*s.o", (int)(len - 2), source) < 0)
		return true;
	why = exact_module_line(x, path);
	free(path);
	if (why)
		fprintf(stderr, PROG ": note: %s left out: %s\n", source, why);
	free(why);
	return !why;
}

/*
 * --findings FILE: the findings of an earlier run that still hold in
 * @srctree, into @list, or their lines printed (@print).
 */
struct kms_error *read_findings(const char *file, const char *srctree,
				struct patch_list *list, bool print)
{
	_cleanup_free_ char *text = NULL;
	struct kms_error *err = NULL;
	struct exact *x = NULL;
	char *line, *save = NULL;
	size_t size, lineno = 0, nr = 0;

	err = kms_read_file(file, 0, &text, &size);
	if (err)
		return err;
	if (memchr(text, '\0', size))
		return kms_error_file(file, "not a text file");
	err = exact_open(srctree, &x);
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		_cleanup_free_ char *copy = strdup(line);

		if (!copy) {
			err = &kms_error_nomem;
			break;
		}
		lineno++;
		nr++;
		err = parse_finding(list, copy, file, lineno);
		if (err || still_holds(srctree, x, list->f[list->nr - 1].source)) {
			if (!err && print)
				puts(line);
			continue;
		}
		patch_finding_release(&list->f[--list->nr]);
	}
	exact_close(x);
	if (!err && !nr)
		err = kms_error_file(file, "no findings");
	return err;
}
