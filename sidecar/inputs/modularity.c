// SPDX-License-Identifier: GPL-2.0
/*
 * Which objects could have been modules, asked of the tree's own kconfig
 * and make (kms/modularity.h).
 */
#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <kms/modularity.h>
#include <kms/run.h>
#include <kms/strmap.h>
#include <kms/util.h>

/* sidecar/inputs/modularity.mk, made a C string by the Makefile. */
#include "modularity_mk.h"

struct kms_modularity {
	struct kms_strmap objects;
	unsigned char *linkage;		/* enum kms_linkage, per object */
	uint32_t *module;		/* index in modules, per object */
	size_t linkage_cap, module_cap;
	struct kms_strmap modules;
	struct kms_strmap bools;
	struct kms_strmap needs_y;	/* bools kconfig turns off at m */
	bool bools_cached;
	size_t nr_dirs;
};

/* The scratch directory and what is in it. */
struct scratch {
	char dir[64];
	char *config_m, *config_eval, *config_resolved, *arch_mk, *makefile;
};

static struct kms_error *scratch_file(struct scratch *s, const char *name,
				      char **ret)
{
	if (asprintf(ret, "%s/%s", s->dir, name) < 0) {
		*ret = NULL;
		return &kms_error_nomem;
	}
	return NULL;
}

static struct kms_error *scratch_create(struct scratch *s)
{
	const char *tmp = getenv("TMPDIR");
	struct kms_error *err;

	memset(s, 0, sizeof(*s));
	if (!tmp || !*tmp || strlen(tmp) > sizeof(s->dir) - 24)
		tmp = "/tmp";
	snprintf(s->dir, sizeof(s->dir), "%s/kallmodsyms.XXXXXX", tmp);
	if (!mkdtemp(s->dir)) {
		s->dir[0] = '\0';
		return kms_error_errno(tmp, "cannot create a scratch directory");
	}
	if ((err = scratch_file(s, "config.m", &s->config_m)) ||
	    (err = scratch_file(s, "config.eval", &s->config_eval)) ||
	    (err = scratch_file(s, "config.resolved", &s->config_resolved)) ||
	    (err = scratch_file(s, "arch.mk", &s->arch_mk)) ||
	    (err = scratch_file(s, "modularity.mk", &s->makefile)))
		return err;
	return NULL;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/*
 * kconfig's conf writes include/config/ and include/generated/ into its
 * working directory, which is why it runs in the scratch directory.
 */
static void scratch_remove(struct scratch *s)
{
	if (s->dir[0])
		nftw(s->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(s->config_m);
	free(s->config_eval);
	free(s->config_resolved);
	free(s->arch_mk);
	free(s->makefile);
}

static struct kms_error *write_file(const char *path, const char *text,
				    size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return kms_error_errno(path, "cannot create");
	if (fwrite(text, 1, len, f) != len || fclose(f)) {
		if (f)
			fclose(f);
		return kms_error_errno(path, "cannot write");
	}
	return NULL;
}

/* "CONFIG_FOO=y" -> "FOO" (in place), or NULL. */
static char *y_symbol(char *line)
{
	size_t len = strlen(line);

	if (strncmp(line, "CONFIG_", 7) || len < 10 ||
	    strcmp(line + len - 2, "=y"))
		return NULL;
	line[len - 2] = '\0';
	return line + 7;
}

/* FNV-1a, 64 bits: a key for the cache, not a defence against anyone. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static uint64_t fnv1a_str(uint64_t h, const char *s)
{
	return fnv1a(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/* What kconfig's answer depends on, as one number. */
static uint64_t bools_key(const struct kms_modularity_options *o,
			  const char *config, size_t config_len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char *autoconf;
	struct stat st;

	h = fnv1a(h, config, config_len);
	h = fnv1a_str(h, o->srctree);
	h = fnv1a_str(h, o->objtree);
	h = fnv1a_str(h, o->srcarch);
	h = fnv1a_str(h, getenv("CC"));
	h = fnv1a_str(h, getenv("LD"));
	if (asprintf(&autoconf, "%s/include/config/auto.conf", o->objtree) < 0)
		return 0;		/* 0: no key, no cache */
	/* Without it nothing tells that a Kconfig file changed. */
	if (stat(autoconf, &st)) {
		free(autoconf);
		return 0;
	}
	free(autoconf);
	h = fnv1a(h, &st.st_mtim, sizeof(st.st_mtim));
	h = fnv1a(h, &st.st_size, sizeof(st.st_size));
	return h ? h : 1;
}

#define BOOLS_CACHE_MAGIC "# kallmodsyms-gen: the bool symbols set to y, key "

/*
 * The cache's answer for @key into m->bools, and m->bools_cached set, if it
 * holds it.  Best effort: a cache absent, unreadable or for another key is
 * computed again; running out of memory is an error.
 */
static struct kms_error *read_bools_cache(struct kms_modularity *m,
					  const char *path, uint64_t key)
{
	char *data, *line, *save = NULL, head[sizeof(BOOLS_CACHE_MAGIC) + 17];
	size_t len;
	struct kms_error *err;
	uint32_t index;

	err = kms_read_file(path, 0, &data, &len);
	if (err && err->class != KMS_ERR_NOMEM) {
		kms_error_destroy(err);
		return NULL;
	}
	if (err)
		return err;
	snprintf(head, sizeof(head), BOOLS_CACHE_MAGIC "%016llx",
		 (unsigned long long)key);
	line = strtok_r(data, "\n", &save);
	if (!line || strcmp(line, head)) {
		free(data);
		return NULL;
	}
	while (!err && (line = strtok_r(NULL, "\n", &save)))
		err = kms_strmap_intern(&m->bools, line, &index, NULL);
	free(data);
	m->bools_cached = !err;
	return err;
}

/* Best effort: a file written whole or not at all. */
static void write_bools_cache(const struct kms_modularity *m,
			      const char *path, uint64_t key)
{
	char *tmp;
	FILE *f;
	size_t i;
	bool ok;

	if (asprintf(&tmp, "%s.%ld.tmp", path, (long)getpid()) < 0)
		return;
	f = fopen(tmp, "w");
	if (!f) {
		free(tmp);
		return;
	}
	ok = fprintf(f, BOOLS_CACHE_MAGIC "%016llx\n",
		     (unsigned long long)key) > 0;
	for (i = 0; ok && i < m->bools.nr; i++)
		ok = fprintf(f, "%s\n", m->bools.keys[i]) > 0;
	if (fclose(f) || !ok || rename(tmp, path))
		unlink(tmp);
	free(tmp);
}

/*
 * The host's architecture as um's Kconfig reads it (HEADER_ARCH, which
 * the top-level Makefile sets from scripts/subarch.include's SUBARCH).
 */
static const char *header_arch(void)
{
	static struct utsname u;
	size_t len;

	if (uname(&u))
		return "x86";
	len = strlen(u.machine);
	if (!strcmp(u.machine, "x86_64") ||
	    (len == 4 && u.machine[0] == 'i' && !strcmp(u.machine + 2, "86")))
		return "x86";
	if (!strcmp(u.machine, "aarch64"))
		return "arm64";
	return u.machine;
}

/*
 * The tree's conf --olddefconfig on @config_path (rewritten in place), in
 * the scratch directory; its stderr in *@ret_err on success.
 */
static struct kms_error *run_conf(const struct kms_modularity_options *o,
				  struct scratch *s, const char *config_path,
				  char **ret_err)
{
	const char *cc = getenv("CC"), *ld = getenv("LD");
	const char *srcarch = o->srcarch ? o->srcarch : "x86";
	struct kms_run_output run;
	struct kms_error *err;
	char *conf, *kconfig, *line, *env[8];
	char *argv[] = { NULL, "--olddefconfig", NULL, NULL };
	size_t i;

	if (asprintf(&conf, "%s/scripts/kconfig/conf", o->objtree) < 0)
		return &kms_error_nomem;
	if (asprintf(&kconfig, "%s/Kconfig", o->srctree) < 0) {
		free(conf);
		return &kms_error_nomem;
	}
	argv[0] = conf;
	argv[2] = kconfig;
	memset(env, 0, sizeof(env));
	if (access(conf, X_OK)) {
		err = kms_error_file(conf, "missing: the tree is not configured");
		goto out;
	}
	if (asprintf(&env[0], "srctree=%s", o->srctree) < 0 ||
	    asprintf(&env[1], "KCONFIG_CONFIG=%s", config_path) < 0 ||
	    asprintf(&env[2], "SRCARCH=%s", srcarch) < 0 ||
	    asprintf(&env[3], "ARCH=%s", o->arch ? o->arch : srcarch) < 0 ||
	    asprintf(&env[4], "CC=%s", cc && *cc ? cc : "gcc") < 0 ||
	    asprintf(&env[5], "LD=%s", ld && *ld ? ld : "ld") < 0 ||
	    asprintf(&env[6], "HEADER_ARCH=%s", header_arch()) < 0) {
		err = &kms_error_nomem;
		goto out;
	}
	err = kms_run(argv, s->dir, (const char *const *)env, &run);
	if (err)
		goto out;
	if (run.status) {
		line = strtok(run.err, "\n");
		err = kms_error_file(conf, "failed on %s: %s", o->config,
				     line ? line : "no message");
	} else {
		*ret_err = run.err;
		run.err = NULL;
	}
	kms_run_output_release(&run);
out:
	for (i = 0; i < 7; i++)
		free(env[i]);
	free(conf);
	free(kconfig);
	return err;
}

/*
 * Ask kconfig which symbols set to y are bool: it warns "symbol value 'm'
 * invalid for FOO" for each bool set to m.
 */
static struct kms_error *find_bools(struct kms_modularity *m,
				    const struct kms_modularity_options *o,
				    struct scratch *s, const char *config,
				    size_t config_len)
{
	static const char needle[] = "symbol value 'm' invalid for ";
	struct kms_error *err;
	char *copy, *p, *messages;
	size_t i, n = 0;
	uint32_t index;

	copy = malloc(config_len + 1);
	if (!copy)
		return &kms_error_nomem;
	/* Every "=y" becomes "=m"; the line is otherwise kept. */
	for (i = 0; i < config_len; i++) {
		copy[n++] = config[i];
		if (config[i] == 'y' && i && config[i - 1] == '=' &&
		    (i + 1 == config_len || config[i + 1] == '\n'))
			copy[n - 1] = 'm';
	}
	err = write_file(s->config_m, copy, n);
	free(copy);
	if (!err)
		err = run_conf(o, s, s->config_m, &messages);
	if (err)
		return err;
	for (p = strstr(messages, needle); p && !err; p = strstr(p, needle)) {
		char *name = p + sizeof(needle) - 1;

		p = name + strcspn(name, "\n");
		if (*p)
			*p++ = '\0';
		err = kms_strmap_intern(&m->bools, name, &index, NULL);
	}
	free(messages);
	return err;
}

/*
 * Which bools kconfig turns off once the tristates are m: those that
 * depend on a tristate at y (FB_VESA on FB).  conf resolves a copy of the
 * Makefiles' config; a bool it does not keep at y is one.
 */
static struct kms_error *find_needs_y(struct kms_modularity *m,
				      const struct kms_modularity_options *o,
				      struct scratch *s)
{
	struct kms_error *err;
	char *text, *messages, *line, *save = NULL;
	size_t len, i;
	uint32_t index;
	struct kms_strmap kept = { 0 };

	err = kms_read_file(s->config_eval, 0, &text, &len);
	if (err)
		return err;
	err = write_file(s->config_resolved, text, len);
	free(text);
	if (!err)
		err = run_conf(o, s, s->config_resolved, &messages);
	if (err)
		return err;
	free(messages);
	err = kms_read_file(s->config_resolved, 0, &text, &len);
	if (err)
		return err;
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *name = y_symbol(line);

		if (name)
			err = kms_strmap_intern(&kept, name, &index, NULL);
	}
	for (i = 0; i < m->bools.nr && !err; i++)
		if (kms_strmap_find(&kept, m->bools.keys[i]) == UINT32_MAX)
			err = kms_strmap_intern(&m->needs_y, m->bools.keys[i],
						&index, NULL);
	kms_strmap_release(&kept);
	free(text);
	return err;
}

/* The config to evaluate the Makefiles with: tristate y made m. */
static struct kms_error *write_eval_config(struct kms_modularity *m,
					   struct scratch *s,
					   const char *config)
{
	struct kms_error *err = NULL;
	char *copy = strdup(config), *line, *save = NULL;
	FILE *f;

	if (!copy)
		return &kms_error_nomem;
	f = fopen(s->config_eval, "w");
	if (!f) {
		free(copy);
		return kms_error_errno(s->config_eval, "cannot create");
	}
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name = y_symbol(line);

		if (!name)
			fprintf(f, "%s\n", line);
		else
			fprintf(f, "CONFIG_%s=%c\n", name,
				kms_strmap_find(&m->bools, name) == UINT32_MAX ?
				'm' : 'y');
	}
	if (ferror(f))
		err = kms_error_errno(s->config_eval, "cannot write");
	if (fclose(f) && !err)
		err = kms_error_errno(s->config_eval, "cannot write");
	free(copy);
	return err;
}

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
static struct kms_error *write_arch_makefile(const struct kms_modularity_options *o,
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
	char *line, *save = NULL, *module;
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
			   (module = strchr(line + 2, ' '))) {
			*module++ = '\0';
			err = add_object(m, kms_path_normalize(line + 2),
					 KMS_LINK_MODULE,
					 kms_path_normalize(module));
		} else {
			err = kms_error_fmt("make: unexpected output evaluating the Makefiles of %s: %s",
					    o->srctree, line);
		}
	}
	return err;
}

static struct kms_error *evaluate_makefiles(struct kms_modularity *m,
					    const struct kms_modularity_options *o,
					    struct scratch *s,
					    const char *config, bool as_is)
{
	const char *srcarch = o->srcarch ? o->srcarch : "x86";
	struct kms_run_output run;
	struct kms_error *err = NULL;
	char *args[5] = { NULL }, *line;
	char *argv[] = { "make", "-r", "-R", "-s", "--no-print-directory",
			 "-f", s->makefile, NULL, NULL, NULL, NULL, NULL,
			 "-I", (char *)o->srctree, NULL };
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
		err = write_file(s->makefile, kms_modularity_mk,
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

/*
 * The architecture a .config was made for, from the header conf writes,
 * "# Linux/arm64 6.12.118 Kernel Configuration": ARCH as the build
 * gave it, copied to @arch.  False without such a line, and for x86
 * (x86_64, i386: kbuild's SRCARCH is x86 for both), which is what the
 * options mean when they name no architecture.
 */
static bool config_arch(const char *config, size_t len, char *arch,
			size_t size)
{
	static const char *const x86[] = { "x86", "x86_64", "i386" };
	const char *p = config, *end = config + len;
	size_t i, n;

	/* Among the comment lines that open the file. */
	while (end - p > 8 && p[0] == '#' && strncmp(p, "# Linux/", 8)) {
		p = memchr(p, '\n', end - p);
		if (!p)
			return false;
		p++;
	}
	if (end - p <= 8 || strncmp(p, "# Linux/", 8))
		return false;
	p += 8;
	end = memchr(p, ' ', end - p);
	n = end ? (size_t)(end - p) : 0;
	if (!n || n >= size)
		return false;
	memcpy(arch, p, n);
	arch[n] = '\0';
	for (i = 0; i < KMS_ARRAY_SIZE(x86); i++)
		if (!strcmp(arch, x86[i]))
			return false;
	return true;
}

struct kms_error *kms_modularity_analyze(const struct kms_modularity_options *opts,
					 struct kms_modularity **ret)
{
	struct kms_modularity_options arch_opts = *opts;
	const struct kms_modularity_options *o = opts;
	struct kms_modularity *m;
	struct kms_error *err;
	struct scratch s;
	char *config, arch[32];
	size_t len;

	err = kms_read_file(o->config, 0, &config, &len);
	if (err)
		return err;
	/* A build tree's config says which architecture it is for. */
	if (!o->srcarch && config_arch(config, len, arch, sizeof(arch))) {
		arch_opts.srcarch = arch;
		o = &arch_opts;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		free(config);
		return &kms_error_nomem;
	}
	err = scratch_create(&s);
	if (!err)
		err = write_arch_makefile(o, &s);
	if (!err && !o->already_modular) {
		/* conf evaluates the toolchain probes: seconds, each run. */
		uint64_t key = o->cache ? bools_key(o, config, len) : 0;

		if (key)
			err = read_bools_cache(m, o->cache, key);
		if (!err && !m->bools_cached) {
			err = find_bools(m, o, &s, config, len);
			if (!err && key)
				write_bools_cache(m, o->cache, key);
		}
	}
	if (!err && !o->already_modular)
		err = write_eval_config(m, &s, config);
	if (!err)
		err = evaluate_makefiles(m, o, &s, o->already_modular ?
					 o->config : s.config_eval, false);
	if (!err && o->classify_all && !o->already_modular)
		err = evaluate_makefiles(m, o, &s, o->config, true);
	if (!err && o->classify_all && !o->already_modular)
		err = find_needs_y(m, o, &s);
	scratch_remove(&s);
	free(config);
	if (err) {
		kms_modularity_destroy(m);
		return err;
	}
	*ret = m;
	return NULL;
}

enum kms_linkage kms_modularity_linkage(const struct kms_modularity *m,
					const char *path,
					const char **ret_module)
{
	char normal[PATH_MAX];
	uint32_t i;

	/* Objects are kept by their normalized paths (read_evaluation()). */
	if (snprintf(normal, sizeof(normal), "%s", path) >= (int)sizeof(normal))
		return KMS_LINK_UNKNOWN;
	i = kms_strmap_find(&m->objects, kms_path_normalize(normal));
	if (i == UINT32_MAX)
		return KMS_LINK_UNKNOWN;
	if (ret_module)
		*ret_module = m->module[i] == UINT32_MAX ? NULL :
			      m->modules.keys[m->module[i]];
	return m->linkage[i];
}

size_t kms_modularity_nr_objects(const struct kms_modularity *m)
{
	return m->objects.nr;
}

const char *kms_modularity_object(const struct kms_modularity *m, size_t i,
				  enum kms_linkage *ret_linkage)
{
	*ret_linkage = m->linkage[i];
	return m->objects.keys[i];
}

bool kms_modularity_is_bool(const struct kms_modularity *m, const char *name)
{
	return kms_strmap_find(&m->bools, name) != UINT32_MAX;
}

bool kms_modularity_needs_y(const struct kms_modularity *m, const char *name)
{
	return kms_strmap_find(&m->needs_y, name) != UINT32_MAX;
}

bool kms_modularity_kconfig_cached(const struct kms_modularity *m)
{
	return m->bools_cached;
}

size_t kms_modularity_nr_dirs(const struct kms_modularity *m)
{
	return m->nr_dirs;
}

void kms_modularity_destroy(struct kms_modularity *m)
{
	if (!m)
		return;
	kms_strmap_release(&m->objects);
	kms_strmap_release(&m->modules);
	kms_strmap_release(&m->bools);
	kms_strmap_release(&m->needs_y);
	free(m->linkage);
	free(m->module);
	free(m);
}
