// SPDX-License-Identifier: GPL-2.0
/*
 * The modularity analysis's evaluator (modularity_steps.h): modularity.mk,
 * run by the tree's make on its Makefiles as kbuild would, prints every
 * object they link and how ("Y", "L", "M PATH MODULE", "C PATH COMPOSITE",
 * "D" a directory);
 * the lists of directories the top-level and the architecture's Makefile
 * add are copied for it first, without their rules and recipes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kms/run.h>
#include <kms/strmap.h>
#include <kms/util.h>

#include "modularity_steps.h"

/* sidecar/inputs/modularity.mk, made a C string by the Makefile. */
#include "modularity_mk.h"

static bool arch_dir_line(const char *line)
{
	static const char *const lists[] = { "core-", "libs-", "drivers-" };
	size_t i, k;

	while (*line == ' ' || *line == '\t')
		line++;
	for (i = 0; i < 3; i++) {
		k = strlen(lists[i]);
		if (strncmp(line, lists[i], k))
			continue;
		line += k;
		if (*line == 'y' || *line == 'm') {
			line++;
		} else if (!strncmp(line, "$(CONFIG_", 9)) {
			line += 9;
			while (isalnum((unsigned char)*line) || *line == '_')
				line++;
			if (*line++ != ')')
				return false;
		} else {
			return false;
		}
		while (*line == ' ' || *line == '\t')
			line++;
		return !strncmp(line, "+=", 2) || !strncmp(line, ":=", 2) ||
		       *line == '=';
	}
	return false;
}

/* Does @s (no leading blanks) start with the word @word? */
static bool starts_word(const char *s, const char *word)
{
	size_t k = strlen(word);

	return !strncmp(s, word, k) &&
	       (!s[k] || s[k] == ' ' || s[k] == '\t' || s[k] == '(');
}

static bool is_conditional(const char *s)
{
	return starts_word(s, "ifeq") || starts_word(s, "ifneq") ||
	       starts_word(s, "ifdef") || starts_word(s, "ifndef") ||
	       starts_word(s, "else") || starts_word(s, "endif");
}

/* "[export|override] NAME op ..." with a name make could assign. */
static bool is_assignment(const char *s)
{
	if (starts_word(s, "export") || starts_word(s, "override"))
		s += strcspn(s, " \t") + strspn(s + strcspn(s, " \t"), " \t");
	if (!*s)
		return false;
	while (isalnum((unsigned char)*s) || strchr("_-.$(){}", *s))
		s++;
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '=' || !strncmp(s, ":=", 2) || !strncmp(s, "::=", 3) ||
	       !strncmp(s, "+=", 2) || !strncmp(s, "?=", 2);
}

/*
 * Does @s call $(shell) only to ask uname about the host (um's
 * "OS := $(shell uname -s)")?  The Makefiles need that one.
 */
static bool host_probe(const char *s)
{
	const char *p = strstr(s, "$(shell");

	for (; p; p = strstr(p + 1, "$(shell"))
		if (strncmp(p + 7 + strspn(p + 7, " \t"), "uname", 5))
			return false;
	return true;
}

struct arch_filter {
	bool in_rule;		/* after a rule: tab lines are its recipe */
	bool in_define;		/* between define and endef */
};

/*
 * What of one logical line of arch/$(SRCARCH)/Makefile the evaluator
 * keeps (NULL: nothing): the lists of directories, the variables they and
 * the architecture's Kbuild Makefiles use (x86's BITS, arm's machine-y),
 * the conditionals around them and included fragments (mips's platforms,
 * um's host architecture).  Rules, recipes, define blocks, $(shell) and
 * $(error) assignments are the rest of that Makefile: compiler flags and
 * boot images.
 */
static const char *arch_keep(struct arch_filter *f, const char *line)
{
	const char *s = line + strspn(line, " \t");

	if (f->in_define) {
		f->in_define = !starts_word(s, "endef");
		return NULL;
	}
	if ((line[0] == '\t' && f->in_rule) || !*s || *s == '#')
		return NULL;
	if (starts_word(s, "define")) {
		f->in_define = true;
		return NULL;
	}
	if (is_conditional(s))
		return s;
	f->in_rule = false;
	if (is_assignment(s))
		return (strstr(s, "$(shell") && !host_probe(s)) ||
		       strstr(s, "$(error") || strstr(s, "$(warning") ||
		       strstr(s, "$(info") ? NULL : s;
	if ((starts_word(s, "include") || starts_word(s, "-include")) &&
	    !strstr(s, "/scripts/"))
		return s + (*s == '-');
	f->in_rule = strchr(s, ':') != NULL;
	return NULL;
}

/* Join @text's continuation lines in place, as make reads them. */
static void join_continuations(char *text)
{
	char *p, *w;

	for (p = w = text; *p; p++) {
		if (*p == '\\' && p[1] == '\n') {
			*w++ = ' ';
			p++;
			continue;
		}
		*w++ = *p;
	}
	*w = '\0';
}

/*
 * Copy into @f the lines of @path (relative to the sources) the evaluator
 * reads: @arch, the architecture's Makefile, or the top-level Makefile's
 * own lists of directories (libs-y := lib/), which come first.
 */
static struct kms_error *copy_dir_lines(const struct kms_modularity_options *o,
					const char *path, bool arch, FILE *f)
{
	struct arch_filter filter = { 0 };
	struct kms_error *err;
	char *full, *text, *line, *save = NULL;
	size_t len;

	if (asprintf(&full, "%s/%s", o->srctree, path) < 0)
		return &kms_error_nomem;
	/* A tree without kbuild's top-level Makefile (a test's) has none. */
	if (!arch && access(full, F_OK) && errno == ENOENT) {
		free(full);
		return NULL;
	}
	err = kms_read_file(full, 0, &text, &len);
	free(full);
	if (err)
		return err;
	join_continuations(text);
	fprintf(f, "# %s\n", path);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *keep = arch ? arch_keep(&filter, line) :
				   arch_dir_line(line) ? line : NULL;

		if (keep)
			fprintf(f, "%s\n", keep);
	}
	free(text);
	return NULL;
}

/*
 * The directories kbuild links into vmlinux besides the top-level Kbuild's:
 * the top-level Makefile's core-y, libs-y and drivers-y, then the
 * architecture's additions, as the top-level Makefile reads them.
 */
struct kms_error *
modularity_write_arch_makefile(const struct kms_modularity_options *o,
			       struct scratch *s)
{
	struct kms_error *err;
	char *path;
	FILE *f;

	if (asprintf(&path, "arch/%s/Makefile",
		     o->srcarch ? o->srcarch : "x86") < 0)
		return &kms_error_nomem;
	f = fopen(s->arch_mk, "w");
	if (!f) {
		free(path);
		return kms_error_errno(s->arch_mk, "cannot create");
	}
	err = copy_dir_lines(o, "Makefile", false, f);
	if (!err)
		err = copy_dir_lines(o, path, true, f);
	free(path);
	if (!err && ferror(f))
		err = kms_error_errno(s->arch_mk, "cannot write");
	if (fclose(f) && !err)
		err = kms_error_errno(s->arch_mk, "cannot write");
	return err;
}

static struct kms_error *add_object(struct kms_modularity *m, const char *path,
				    enum kms_linkage linkage,
				    const char *module)
{
	struct kms_error *err;
	uint32_t i, mod = UINT32_MAX;
	int added;

	err = kms_strmap_intern(&m->objects, path, &i, &added);
	if (err)
		return err;
	err = KMS_RESERVE(m->linkage, m->linkage_cap, i + 1);
	if (!err)
		err = KMS_RESERVE(m->module, m->module_cap, i + 1);
	if (err)
		return err;
	if (module) {
		err = kms_strmap_intern(&m->modules, module, &mod, NULL);
		if (err)
			return err;
	}
	/*
	 * Linked several ways: a module member stays one (it could be a
	 * module), and obj-y beats lib-y.
	 */
	if (added || linkage > m->linkage[i]) {
		m->linkage[i] = linkage;
		m->module[i] = mod;
	}
	return NULL;
}

/* @member of composite @composite in obj-y, once. */
static struct kms_error *add_member(struct kms_modularity *m,
				    const char *member, const char *composite)
{
	struct member_of *l;
	struct kms_error *err;
	uint32_t i, c;
	size_t k;
	int added;

	/* Room first: every member has its list, if only an empty one. */
	err = KMS_RESERVE(m->member_of, m->member_of_cap, m->members.nr + 1);
	if (!err)
		err = kms_strmap_intern(&m->members, member, &i, &added);
	if (err)
		return err;
	l = &m->member_of[i];
	if (added)
		*l = (struct member_of){ 0 };
	err = kms_strmap_intern(&m->composites, composite, &c, NULL);
	if (err)
		return err;
	for (k = 0; k < l->nr; k++)
		if (l->composites[k] == c)
			return NULL;
	err = KMS_RESERVE(l->composites, l->cap, l->nr + 1);
	if (!err)
		l->composites[l->nr++] = c;
	return err;
}

/* "PATH OTHER" of an "M" or "C" line: split, PATH in place, or NULL. */
static char *second_path(char *line)
{
	char *other = strchr(line, ' ');

	if (other)
		*other++ = '\0';
	return other;
}

/*
 * make's lines into @m.  @as_is: the Makefiles were evaluated with the
 * config itself, and what they link but did not with every tristate at m
 * is linked only while a tristate is y.
 */
static struct kms_error *read_evaluation(struct kms_modularity *m,
					 const struct kms_modularity_options *o,
					 char *out, bool as_is)
{
	struct kms_error *err = NULL;
	char *line, *save = NULL, *other;
	enum kms_linkage y = as_is ? KMS_LINK_WHILE_Y : KMS_LINK_BUILTIN;
	enum kms_linkage l = as_is ? KMS_LINK_WHILE_Y : KMS_LINK_LIB;

	for (line = strtok_r(out, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == 'D' && line[1] == ' ') {
			m->nr_dirs += !as_is;
		} else if (line[0] == 'Y' && line[1] == ' ') {
			err = add_object(m, kms_path_normalize(line + 2), y,
					 NULL);
		} else if (line[0] == 'L' && line[1] == ' ') {
			err = add_object(m, kms_path_normalize(line + 2), l,
					 NULL);
		} else if (line[0] == 'M' && line[1] == ' ' &&
			   (other = second_path(line + 2))) {
			err = add_object(m, kms_path_normalize(line + 2),
					 KMS_LINK_MODULE,
					 kms_path_normalize(other));
		} else if (line[0] == 'C' && line[1] == ' ' &&
			   (other = second_path(line + 2))) {
			err = add_member(m, kms_path_normalize(line + 2),
					 kms_path_normalize(other));
		} else {
			err = kms_error_fmt("make: unexpected output evaluating the Makefiles of %s: %s",
					    o->srctree, line);
		}
	}
	return err;
}

struct kms_error *
modularity_evaluate_makefiles(struct kms_modularity *m,
			      const struct kms_modularity_options *o,
			      struct scratch *s, const char *config, bool as_is)
{
	const char *srcarch = o->srcarch ? o->srcarch : "x86";
	struct kms_run_output run;
	struct kms_error *err = NULL;
	char *args[5] = { NULL }, *line;
	char *argv[] = { "make", "-r", "-R", "-s", "--no-print-directory",
			 "-f", s->makefile, NULL, NULL, NULL, NULL, NULL,
			 "-I", (char *)o->srctree,
			 /* The composites' members cost a tenth more. */
			 o->as_is ? "kms-composites=y" : NULL, NULL };
	const char *const env[] = { "MAKEFLAGS=", "MAKELEVEL=", "MFLAGS=",
				    "MAKEFILES=", "GNUMAKEFLAGS=", NULL };
	size_t i;

	if (asprintf(&args[0], "srctree=%s", o->srctree) < 0 ||
	    asprintf(&args[1], "config=%s", config) < 0 ||
	    asprintf(&args[2], "arch=%s", s->arch_mk) < 0 ||
	    asprintf(&args[3], "SRCARCH=%s", srcarch) < 0 ||
	    /* kbuild's ARCH for x86_64 is x86 as well, unless said. */
	    asprintf(&args[4], "ARCH=%s", o->arch ? o->arch : srcarch) < 0)
		err = &kms_error_nomem;
	for (i = 0; i < 5; i++)
		argv[7 + i] = args[i];
	if (!err)
		err = modularity_write_file(s->makefile, kms_modularity_mk,
				 sizeof(kms_modularity_mk) - 1);
	if (!err)
		err = kms_run(argv, o->objtree, env, &run);
	for (i = 0; i < 5; i++)
		free(args[i]);
	if (err)
		return err;
	if (run.status) {
		/* make's own "*** ...  Stop." comes last. */
		while (run.err_len && run.err[run.err_len - 1] == '\n')
			run.err[--run.err_len] = '\0';
		line = strrchr(run.err, '\n');
		line = line ? line + 1 : run.err_len ? run.err : NULL;
		err = kms_error_fmt("make: evaluating the Makefiles of %s failed: %s",
				    o->srctree, line ? line : "no message");
	} else {
		err = read_evaluation(m, o, run.out, as_is);
	}
	kms_run_output_release(&run);
	return err;
}
