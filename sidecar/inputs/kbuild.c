// SPDX-License-Identifier: GPL-2.0
/* modules.builtin and the .<obj>.cmd files of a build tree (kms/kbuild.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/kbuild.h>
#include <kms/util.h>

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void kms_free_strings(char **strings, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(strings[i]);
	free(strings);
}

static struct kms_error *push_string(char ***arr, size_t *nr, size_t *cap,
				     const char *s, size_t len)
{
	struct kms_error *err = kms_reserve(arr, cap, *nr + 1, sizeof(**arr));

	if (err)
		return err;
	(*arr)[*nr] = strndup(s, len);
	if (!(*arr)[*nr])
		return &kms_error_nomem;
	(*nr)++;
	return NULL;
}

/* Printable ASCII, no white space: what the note's string table allows. */
static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

/*
 * The module path on modules.builtin's line @lineno, @line (@len bytes, no
 * newline): "kernel/fs/ext4/ext4.ko" gives the *@ret_len bytes
 * "fs/ext4/ext4" at *@ret_path, within @line.
 */
static struct kms_error *builtin_line(const char *path, unsigned long lineno,
				      const char *line, size_t len,
				      const char **ret_path, size_t *ret_len)
{
	const char *p = line, *base;

	if (len < 4 || strcmp(line + len - 3, ".ko") ||
	    strpbrk(line, " \t"))
		return kms_error_file(path,
				      "line %lu: \"%s\" is not a module path ending in .ko",
				      lineno, line);
	if (!printable(line))
		return kms_error_file(path,
				      "line %lu: module path is not printable ASCII",
				      lineno);
	if (!strncmp(p, "kernel/", 7))
		p += 7;
	base = strrchr(p, '/');
	base = base ? base + 1 : p;
	if (line + len - 3 - base > KMS_MODULE_NAME_MAX)
		return kms_error_file(path,
				      "line %lu: module name of %zd bytes, longer than the kernel's %d",
				      lineno, line + len - 3 - base,
				      KMS_MODULE_NAME_MAX);
	*ret_path = p;
	*ret_len = line + len - 3 - p;
	return NULL;
}

struct kms_error *kms_builtin_read(const char *path, struct kms_builtin **ret)
{
	struct kms_builtin *b;
	struct kms_error *err = NULL;
	unsigned long lineno = 0;
	char *line = NULL;
	size_t line_cap = 0, cap = 0;
	ssize_t len;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return kms_error_errno(path, "cannot open");
	b = calloc(1, sizeof(*b));
	if (!b) {
		fclose(f);
		return &kms_error_nomem;
	}
	while ((len = getline(&line, &line_cap, f)) >= 0) {
		/* Set by builtin_line(), which gcc cannot see through. */
		const char *p = NULL;
		size_t n = 0;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len)
			continue;
		err = builtin_line(path, lineno, line, len, &p, &n);
		if (!err)
			err = push_string(&b->paths, &b->nr, &cap, p, n);
		if (err)
			goto out;
	}
	if (ferror(f))
		err = kms_error_errno(path, "read error");
	else if (b->nr)
		qsort(b->paths, b->nr, sizeof(*b->paths), compare_strings);
out:
	free(line);
	fclose(f);
	if (err) {
		kms_builtin_destroy(b);
		return err;
	}
	*ret = b;
	return NULL;
}

bool kms_builtin_has(const struct kms_builtin *builtin, const char *modpath)
{
	return builtin->nr && bsearch(&modpath, builtin->paths, builtin->nr,
				      sizeof(*builtin->paths), compare_strings);
}

void kms_builtin_destroy(struct kms_builtin *builtin)
{
	if (!builtin)
		return;
	kms_free_strings(builtin->paths, builtin->nr);
	free(builtin);
}

char *kms_module_name(const char *modpath)
{
	const char *base = strrchr(modpath, '/');
	char *name = strdup(base ? base + 1 : modpath);

	return name ? kms_underscores(name) : NULL;
}

/*
 * Extract the value of -DKBUILD_MODFILE='"a/b c/d"' (C and assembler) or
 * RUST_MODFILE=a/b (Rust) from a saved command line.
 */
static const char *find_modfile(const char *cmd, size_t *ret_len)
{
	const char *p = strstr(cmd, "-DKBUILD_MODFILE=");
	size_t len;

	if (p) {
		p += strlen("-DKBUILD_MODFILE=");
		p += strspn(p, "'\"\\");
		len = strcspn(p, "'\"\\");
	} else {
		p = strstr(cmd, "RUST_MODFILE=");
		if (!p)
			return NULL;
		p += strlen("RUST_MODFILE=");
		len = strcspn(p, " \t\n");
	}
	*ret_len = len;
	return p;
}

struct kms_error *kms_cmd_modfiles(const char *build_dir, const char *objpath,
				   char ***ret_paths, size_t *ret_nr)
{
	const char *slash = strrchr(objpath, '/');
	struct kms_error *err = NULL;
	char **paths = NULL;
	size_t nr = 0, cap = 0, line_cap = 0, len;
	const char *value, *p;
	char *cmd_path, *line = NULL;
	FILE *f;

	if (asprintf(&cmd_path, "%s/%.*s.%s.cmd", build_dir,
		     slash ? (int)(slash - objpath + 1) : 0, objpath,
		     slash ? slash + 1 : objpath) < 0)
		return &kms_error_nomem;
	f = fopen(cmd_path, "r");
	if (!f) {
		/* ENOENT: KMS_ERR_ABSENT, no .cmd file. */
		err = kms_error_errno(cmd_path, "cannot open");
		free(cmd_path);
		return err;
	}
	/* The command is on the first line: savedcmd_<target> := ... */
	if (getline(&line, &line_cap, f) < 0) {
		err = ferror(f) ? kms_error_errno(cmd_path, "read error") :
				  kms_error_file(cmd_path, "empty .cmd file");
		goto out;
	}
	if (strncmp(line, "savedcmd_", 9) && strncmp(line, "cmd_", 4)) {
		err = kms_error_file(cmd_path,
				     "not a kbuild .cmd file (no savedcmd_ line)");
		goto out;
	}
	value = find_modfile(line, &len);
	for (p = value; p && p < value + len;) {
		size_t word = strcspn(p, " ");

		if (word > (size_t)(value + len - p))
			word = value + len - p;
		if (word) {
			err = push_string(&paths, &nr, &cap, p, word);
			if (err)
				goto out;
		}
		p += word + 1;
	}
out:
	free(line);
	fclose(f);
	free(cmd_path);
	if (err) {
		kms_free_strings(paths, nr);
		return err;
	}
	*ret_paths = paths;
	*ret_nr = nr;
	return NULL;
}
