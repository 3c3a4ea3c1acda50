// SPDX-License-Identifier: GPL-2.0
/*
 * The modularity analysis's questions to kconfig (modularity_steps.h): the
 * tree's own conf --olddefconfig, run in the scratch directory, says which
 * symbols set to y are bool (it refuses m for them) and which bools it
 * turns off once the tristates are m; the config the Makefiles are
 * evaluated with follows from the first.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <kms/run.h>
#include <kms/strmap.h>
#include <kms/util.h>

#include "modularity_steps.h"

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
struct kms_error *modularity_find_bools(struct kms_modularity *m,
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
	err = modularity_write_file(s->config_m, copy, n);
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
struct kms_error *
modularity_find_needs_y(struct kms_modularity *m,
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
	err = modularity_write_file(s->config_resolved, text, len);
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
struct kms_error *modularity_write_eval_config(struct kms_modularity *m,
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
