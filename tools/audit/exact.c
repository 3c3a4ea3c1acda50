// SPDX-License-Identifier: GPL-2.0
/*
 * Whether any Makefile line can make an object a module (exact.h): the
 * tristate symbols of every Kconfig file of the tree, then the lines that
 * name the object, read through common.c's Makefile reader.
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kms/error.h>
#include <kms/strmap.h>
#include <kms/util.h>

#include "audit.h"
#include "exact.h"

struct exact {
	const char *srctree;
	struct kms_strmap tristates;
};

/* The word at @s into @word (empty if none); past it. */
static const char *word_at(const char *s, char *word, size_t size)
{
	size_t len;

	s += strspn(s, " \t");
	len = strspn(s, "abcdefghijklmnopqrstuvwxyz"
		     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
	snprintf(word, size, "%.*s", (int)(len < size ? len : size - 1), s);
	return s + len;
}

/* A Kconfig keyword that ends an entry (and any help text before it). */
static bool ends_entry(const char *word)
{
	static const char *const words[] = {
		"config", "menuconfig", "choice", "endchoice", "comment",
		"menu", "endmenu", "if", "endif", "source", "rsource",
		"osource", "orsource", "mainmenu",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(word, words[i]))
			return true;
	return false;
}

/* The tristate entries of one Kconfig file (config FOO ... tristate). */
static struct kms_error *read_kconfig(struct exact *e, const char *path)
{
	char *text = read_text(path), *line, *save = NULL;
	char word[64], symbol[128] = "";
	struct kms_error *err = NULL;
	bool help = false;
	uint32_t index;

	if (!text)
		return NULL;	/* gone since it was listed: nothing to say */
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *rest = word_at(line, word, sizeof(word));

		if (help && !ends_entry(word))
			continue;
		help = false;
		if (!strcmp(word, "config") || !strcmp(word, "menuconfig"))
			word_at(rest, symbol, sizeof(symbol));
		else if (ends_entry(word))
			symbol[0] = '\0';
		else if (!strcmp(word, "help") || !strcmp(word, "---help---"))
			help = true;
		else if (*symbol && (!strcmp(word, "tristate") ||
				     !strcmp(word, "def_tristate")))
			err = kms_strmap_intern(&e->tristates, symbol, &index,
						NULL);
	}
	free(text);
	return err;
}

/* Every Kconfig* file under @path (of length @len in a PATH_MAX buffer). */
static struct kms_error *walk(struct exact *e, char *path, size_t len)
{
	struct kms_error *err = NULL;
	struct dirent *d;
	DIR *dir = opendir(path);

	if (!dir)
		return kms_error_errno(path, "cannot open");
	while (!err && (d = readdir(dir))) {
		size_t n = strlen(d->d_name);
		struct stat st;

		if (d->d_name[0] == '.' || len + 1 + n >= PATH_MAX)
			continue;
		snprintf(path + len, PATH_MAX - len, "/%s", d->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			err = walk(e, path, len + 1 + n);
		else if (S_ISREG(st.st_mode) &&
			 !strncmp(d->d_name, "Kconfig", 7))
			err = read_kconfig(e, path);
	}
	path[len] = '\0';
	closedir(dir);
	return err;
}

struct kms_error *exact_open(const char *srctree, struct exact **ret)
{
	struct exact *e = calloc(1, sizeof(*e));
	struct kms_error *err;
	char path[PATH_MAX];

	if (!e)
		return &kms_error_nomem;
	e->srctree = srctree;
	snprintf(path, sizeof(path), "%s", srctree);
	err = walk(e, path, strlen(path));
	if (err) {
		exact_close(e);
		return err;
	}
	*ret = e;
	return NULL;
}

void exact_close(struct exact *e)
{
	if (!e)
		return;
	kms_strmap_release(&e->tristates);
	free(e);
}

/*
 * Of obj-$(...) (@vars, past "obj-"): the first tristate CONFIG_ symbol
 * it names, into @symbol, unless it forces y ($(CONFIG_FOO:m=y)).
 */
static bool tristate_in(const struct exact *e, const char *vars,
			char *symbol, size_t size)
{
	const char *p;

	if (strstr(vars, "m=y") || strstr(vars, "subst m,y"))
		return false;
	for (p = strstr(vars, "CONFIG_"); p; p = strstr(p + 1, "CONFIG_")) {
		size_t len = 0;

		while (isalnum((unsigned char)p[7 + len]) || p[7 + len] == '_')
			len++;
		snprintf(symbol, size, "%.*s", (int)len, p + 7);
		if (kms_strmap_find(&e->tristates, symbol) != UINT32_MAX)
			return true;
	}
	return false;
}

/* Variables with a dash that link nothing into a module or vmlinux. */
static bool links_nothing(const char *name)
{
	static const char *const prefixes[] = {
		"extra-", "always-", "hostprogs-", "userprogs-", "subdir-",
		"head-", "clean-", "targets-", "ccflags-", "asflags-",
		"ldflags-", "subdir-ccflags-", "hostccflags-", "obj-n",
		"lib-",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static char *module_line(const struct exact *e, const char *obj, int depth);

/*
 * Can the line of @dir that assigns @obj's name to variable @name make
 * it a module?  NULL: no; else why.
 */
static char *line_makes_module(const struct exact *e, const char *dir,
			       char *name, int depth)
{
	char symbol[128], composite[PATH_MAX], *inner, *why, *dash;

	if (!strcmp(name, "obj-m"))
		return asprintf(&why, "obj-m in %s", dir) < 0 ? NULL : why;
	if (!strncmp(name, "obj-", 4)) {
		if (!tristate_in(e, name + 4, symbol, sizeof(symbol)))
			return NULL;
		return asprintf(&why, "%s in %s, CONFIG_%s is tristate", name,
				dir, symbol) < 0 ? NULL : why;
	}
	dash = strrchr(name, '-');
	if (!dash || dash == name || links_nothing(name))
		return NULL;
	/* foo-y, foo-objs, foo-$(CONFIG_X): a member of foo.o. */
	*dash = '\0';
	snprintf(composite, sizeof(composite), "%s%s%s.o",
		 strcmp(dir, ".") ? dir : "", strcmp(dir, ".") ? "/" : "", name);
	*dash = '-';
	inner = module_line(e, composite, depth + 1);
	if (!inner)
		return NULL;
	if (asprintf(&why, "part of %s: %s", composite, inner) < 0)
		why = NULL;
	free(inner);
	return why;
}

/* The lines of @dir's Makefile that name @rel, in turn. */
static char *module_line_in(const struct exact *e, const char *dir,
			    const char *rel, int depth)
{
	char *text, **lines, name[256], *why = NULL;
	size_t nr, i;

	lines = audit_makefile_lines(e->srctree, dir, &text, &nr);
	for (i = 0; lines && i < nr && !why; i++)
		if (audit_assigns(lines[i], rel, name, sizeof(name)))
			why = line_makes_module(e, dir, name, depth);
	free(lines);
	free(text);
	return why;
}

/* Every line of the object's directory and of its parents. */
static char *module_line(const struct exact *e, const char *obj, int depth)
{
	char dir[PATH_MAX], *slash, *why = NULL;

	if (depth > 4 || strlen(obj) >= sizeof(dir))
		return NULL;
	strcpy(dir, obj);
	while (!why && (slash = strrchr(dir, '/'))) {
		*slash = '\0';
		why = module_line_in(e, dir, obj + strlen(dir) + 1, depth);
	}
	if (!why)
		why = module_line_in(e, ".", obj, depth);
	return why;
}

char *exact_module_line(const struct exact *e, const char *obj)
{
	return module_line(e, obj, 0);
}
