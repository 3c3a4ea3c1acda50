// SPDX-License-Identifier: GPL-2.0
/*
 * The series' files into patches (series.h): by MAINTAINERS section
 * (maintainers.h), else by directory, and the area each patch's subject
 * names, told apart where two patches would name the same.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/error.h>
#include <kms/util.h>

#include "maintainers.h"
#include "series.h"

/*
 * The directory a file is grouped by without MAINTAINERS, and the area
 * its subject names: two components under drivers/, arch/, fs/, net/
 * and sound/, else one.
 */
static void area_dir(const char *path, char *dir, size_t size)
{
	static const char *const deep[] = { "drivers/", "arch/", "fs/",
					    "net/", "sound/" };
	size_t len = strcspn(path, "/"), i;

	for (i = 0; i < sizeof(deep) / sizeof(deep[0]); i++)
		if (!strncmp(path, deep[i], strlen(deep[i])) &&
		    strchr(path + strlen(deep[i]), '/'))
			len = strlen(deep[i]) +
			      strcspn(path + strlen(deep[i]), "/");
	if (!strchr(path, '/'))
		len = 0;
	snprintf(dir, size, "%.*s", (int)len, path);
}

/* area_dir() of a directory rather than of a file in it. */
static void dir_area(const char *dir, char *out, size_t size)
{
	char file[PATH_MAX + 4];

	snprintf(file, sizeof(file), "%s/x", dir);
	area_dir(file, out, size);
}

/*
 * The subject's area for a directory from area_dir(): its last component,
 * spelt as the subsystem spells its prefix where that differs (PCI, ACPI,
 * drivers/perf, ASoC, ALSA); "treewide" for files of several.
 */
static char *area_name(const char *dir)
{
	static const char *const names[][2] = {
		{ "drivers/pci", "PCI" }, { "drivers/acpi", "ACPI" },
		{ "drivers/perf", "drivers/perf" }, { "sound/soc", "ASoC" },
	};
	const char *slash = strchr(dir, '/');
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(dir, names[i][0]))
			return strdup(names[i][1]);
	if (!strncmp(dir, "sound", 5))
		return strdup("ALSA");
	if (!*dir)
		return strdup("treewide");
	return strdup(slash ? slash + 1 : dir);
}

static struct group *group_of(struct series *s, const char *key)
{
	struct group *g;
	size_t i;

	for (i = 0; i < s->nr_groups; i++)
		if (!strcmp(s->groups[i].key, key))
			return &s->groups[i];
	if (KMS_RESERVE(s->groups, s->cap, s->nr_groups + 1))
		return NULL;
	g = &s->groups[s->nr_groups];
	memset(g, 0, sizeof(*g));
	g->key = strdup(key);
	if (!g->key)
		return NULL;
	s->nr_groups++;
	return g;
}

/* Cut the last component off @dir ("" when it has one). */
static void cut_last(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
}

/* The longest directory all of @g's files are in, into @dir. */
static void common_dir(const struct group *g, char *dir, size_t size)
{
	size_t i, len;

	snprintf(dir, size, "%s", g->items[0]->f->source);
	cut_last(dir);
	for (i = 1; i < g->nr; i++) {
		const char *path = g->items[i]->f->source;

		while ((len = strlen(dir)) &&
		       (strncmp(path, dir, len) || path[len] != '/'))
			cut_last(dir);
	}
}

/*
 * What tells @g apart from another group of its area, as subsystems
 * write a driver's name after their prefix ("PCI: mobiveil"): the last
 * component of its common directory when that is deeper than the area's,
 * else the name of its one file less ".c"; NULL: nothing.
 */
static char *distinguisher(const struct group *g)
{
	char dir[PATH_MAX], cut[PATH_MAX];
	const char *file = g->items[0]->f->source, *base;

	common_dir(g, dir, sizeof(dir));
	dir_area(dir, cut, sizeof(cut));
	if (strlen(dir) > strlen(cut))
		return strdup(strrchr(dir, '/') + 1);
	if (g->nr != 1)
		return NULL;
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	return strndup(base, strcspn(base, "."));
}

/*
 * The subject's area: area_name() of area_dir() of the files' common
 * directory; when another group has that area too, ": " and the group's
 * distinguisher() after it.
 */
static struct kms_error *name_areas(struct series *s)
{
	char dir[PATH_MAX], cut[PATH_MAX];
	size_t i, j;

	for (i = 0; i < s->nr_groups; i++) {
		common_dir(&s->groups[i], dir, sizeof(dir));
		dir_area(dir, cut, sizeof(cut));
		s->groups[i].area = area_name(cut);
		if (!s->groups[i].area)
			return &kms_error_nomem;
	}
	for (i = 0; i < s->nr_groups; i++) {
		struct group *g = &s->groups[i];
		_cleanup_free_ char *tail = NULL;
		bool shared = false;

		for (j = 0; j < s->nr_groups; j++)
			shared |= j != i && !strcmp(g->area, s->groups[j].area);
		if (!shared || !(tail = distinguisher(g)))
			continue;
		if (asprintf(&g->key2, "%s: %s", g->area, tail) < 0) {
			g->key2 = NULL;
			return &kms_error_nomem;
		}
	}
	for (i = 0; i < s->nr_groups; i++) {
		if (!s->groups[i].key2)
			continue;
		free(s->groups[i].area);
		s->groups[i].area = s->groups[i].key2;
		s->groups[i].key2 = NULL;
	}
	return NULL;
}

static int compare_groups(const void *a, const void *b)
{
	const struct group *ga = a, *gb = b;
	int c = strcmp(ga->area, gb->area);

	return c ? c : strcmp(ga->key, gb->key);
}

/* The files into groups by MAINTAINERS section, else by directory. */
struct kms_error *series_group(struct series *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		struct item *it = &s->items[i];
		long section;
		struct group *g;

		if (it->refusal || it->duplicate)
			continue;
		section = maintainers_section(s->m, it->f->source);
		if (section >= 0)
			snprintf(it->key, sizeof(it->key), "%s",
				 maintainers_name(s->m, section));
		else
			area_dir(it->f->source, it->key, sizeof(it->key));
		g = group_of(s, it->key);
		if (!g || KMS_RESERVE(g->items, g->cap, g->nr + 1))
			return &kms_error_nomem;
		g->items[g->nr++] = it;
	}
	if (name_areas(s))
		return &kms_error_nomem;
	qsort(s->groups, s->nr_groups, sizeof(*s->groups), compare_groups);
	return NULL;
}
