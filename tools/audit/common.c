// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit's shared parts (audit.h), for one configured tree
 * (audit.c) and for every architecture (treewide.c): a source file's
 * MODULE_LICENSE() and SPDX line, the Makefile line that says why an
 * object is built in, a scratch tree configured by make, JSON strings.
 * A leaf: it calls no other file of tools/audit.
 */
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kms/error.h>
#include <kms/json.h>
#include <kms/modularity.h>
#include <kms/run.h>
#include <kms/util.h>

#include "audit.h"

/* The whole of @path, or NULL: why does not matter to the audit. */
char *read_text(const char *path)
{
	struct kms_error *err;
	char *data;
	size_t size;

	err = kms_read_file(path, 0, &data, &size);
	if (err) {
		kms_error_destroy(err);
		return NULL;
	}
	return data;
}

/* "SPDX-License-Identifier: X" in the first lines, without comment ends. */
char *spdx_of(const char *text)
{
	const char *p = strstr(text, "SPDX-License-Identifier:");
	size_t len;
	int line = 1;
	const char *q;

	if (!p)
		return NULL;
	for (q = text; q < p; q++)
		line += *q == '\n';
	if (line > 3)
		return NULL;
	p += strlen("SPDX-License-Identifier:");
	while (*p == ' ' || *p == '\t')
		p++;
	len = strcspn(p, "\n");
	while (len && (isspace((unsigned char)p[len - 1]) ||
		       (len >= 2 && !strncmp(p + len - 2, "*/", 2)))) {
		if (p[len - 1] == '/' && len >= 2 && p[len - 2] == '*')
			len -= 2;
		else
			len--;
	}
	return strndup(p, len);
}

/*
 * Does MODULE_LICENSE(@license) say what @spdx says?  The strings are
 * those include/linux/module.h documents; "GPL" and "GPL v2" both mean
 * GPLv2 (or later).
 */
const char *agreement(const char *license, const char *spdx)
{
	bool gpl, bsd, mit, mpl;

	if (!spdx)
		return "no SPDX";
	gpl = strstr(spdx, "GPL-2.0") && !strstr(spdx, "LGPL");
	bsd = strstr(spdx, "BSD") != NULL;
	mit = strstr(spdx, "MIT") != NULL;
	mpl = strstr(spdx, "MPL") != NULL;
	if (!strcmp(license, "GPL") || !strcmp(license, "GPL v2") ||
	    !strcmp(license, "GPL and additional rights"))
		return gpl || strstr(spdx, "LGPL") ? "agree" : "differ";
	if (!strcmp(license, "Dual BSD/GPL"))
		return gpl && bsd ? "agree" : "differ";
	if (!strcmp(license, "Dual MIT/GPL"))
		return gpl && mit ? "agree" : "differ";
	if (!strcmp(license, "Dual MPL/GPL"))
		return gpl && mpl ? "agree" : "differ";
	return "differ";
}

/*
 * Whether a block comment is still open at the end of the line from @p to
 * @end, given whether one was open at its start.  A // comment ends the
 * line's code; string literals are not told apart (no tag line has one
 * with a comment token before its tag).
 */
static bool comment_open_after(const char *p, const char *end, bool open)
{
	for (; p + 1 < end; p++) {
		if (open && p[0] == '*' && p[1] == '/') {
			open = false;
			p++;
		} else if (!open && p[0] == '/' && p[1] == '*') {
			open = true;
			p++;
		} else if (!open && p[0] == '/' && p[1] == '/') {
			break;
		}
	}
	return open;
}

/*
 * The MODULE_LICENSE() string and the other MODULE_* tags of @text, tags
 * that start a line outside comments (drivers/char/hpet.c keeps its tags
 * in a comment since it stopped being a module).
 */
bool scan_tags(const char *text, char **ret_license, char **ret_tags)
{
	const char *p = text;
	char *tags = NULL, *license = NULL;
	size_t tags_len = 0, tags_cap = 0;
	bool in_comment = false;

	while (p && *p) {
		const char *line = p, *name;
		bool commented = in_comment;
		size_t len;

		p = strchr(p, '\n');
		in_comment = comment_open_after(line, p ? p : line + strlen(line),
						in_comment);
		if (p)
			p++;
		if (commented)
			continue;
		while (*line == ' ' || *line == '\t')
			line++;
		if (strncmp(line, "MODULE_", 7))
			continue;
		name = line;
		len = 7;
		while (isupper((unsigned char)name[len]) ||
		       isdigit((unsigned char)name[len]) || name[len] == '_')
			len++;
		if (name[len] != '(')
			continue;
		if (len == 14 && !strncmp(name, "MODULE_LICENSE", 14)) {
			const char *q = strchr(name + len, '"'), *end;

			if (q && (end = strchr(q + 1, '"')) && !license)
				license = strndup(q + 1, end - q - 1);
			continue;
		}
		if (tags && strstr(tags, name) &&
		    ((strstr(tags, name) == tags ||
		      strstr(tags, name)[-1] == ' ') &&
		     (strstr(tags, name)[len] == ' ' || !strstr(tags, name)[len])))
			continue;
		{
			if (KMS_RESERVE(tags, tags_cap, tags_len + len + 2))
				break;
			if (tags_len)
				tags[tags_len++] = ' ';
			memcpy(tags + tags_len, name, len);
			tags_len += len;
			tags[tags_len] = '\0';
		}
	}
	*ret_license = license;
	*ret_tags = tags;
	return license != NULL;
}

/*
 * A Makefile's logical lines (continuations joined, comments cut), one per
 * entry.
 */
static char **logical_lines(char *text, size_t *ret_nr)
{
	char **lines = NULL, *p = text, *w;
	size_t nr = 0, cap = 0;

	/* Join continuations in place. */
	for (w = text; *p; p++) {
		if (*p == '\\' && p[1] == '\n') {
			*w++ = ' ';
			p++;
			continue;
		}
		*w++ = *p;
	}
	*w = '\0';
	for (p = strtok(text, "\n"); p; p = strtok(NULL, "\n")) {
		char *hash = p;

		/* make's comment: from a '#' not escaped to the line's end. */
		while ((hash = strchr(hash, '#')) && hash > p && hash[-1] == '\\')
			hash++;
		if (hash)
			*hash = '\0';
		if (KMS_RESERVE(lines, cap, nr + 1))
			break;
		lines[nr++] = p;
	}
	*ret_nr = nr;
	return lines;
}

char **audit_makefile_lines(const char *srctree, const char *dir,
			    char **ret_text, size_t *ret_nr)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/%s/Kbuild", srctree, dir);
	if (access(path, R_OK))
		snprintf(path, sizeof(path), "%s/%s/Makefile", srctree, dir);
	*ret_nr = 0;
	*ret_text = read_text(path);
	return *ret_text ? logical_lines(*ret_text, ret_nr) : NULL;
}

static bool has_word(const char *rhs, const char *word)
{
	size_t len = strlen(word);
	const char *p;

	for (p = strstr(rhs, word); p; p = strstr(p + 1, word))
		if ((p == rhs || isspace((unsigned char)p[-1])) &&
		    (!p[len] || isspace((unsigned char)p[len])))
			return true;
	return false;
}

bool audit_assigns(const char *line, const char *rel, char *name, size_t size)
{
	const char *lhs = line, *op, *rhs, *end;
	int depth = 0;

	while (*lhs == ' ' || *lhs == '\t')
		lhs++;
	/* The operator: outside $(...) (obj-$(CONFIG_FOO:m=y) += foo.o). */
	for (op = lhs; *op && (depth || !strchr(":+=", *op)); op++)
		depth += (*op == '(') - (*op == ')');
	if (!*op || op == lhs)
		return false;
	rhs = strchr(op, '=');
	if (!rhs || !has_word(rhs + 1, rel))
		return false;
	end = op;
	while (end > lhs && isspace((unsigned char)end[-1]))
		end--;
	snprintf(name, size, "%.*s", (int)(end - lhs), lhs);
	return true;
}

/* obj-$(CONFIG_FOO): what FOO is, bool (needing a tristate at y) or y. */
static char *config_reason(const struct kms_modularity *m, const char *name,
			   enum audit_class *ret_class)
{
	const char *sym = strstr(name, "$(CONFIG_");
	char symbol[200], *reason;
	size_t len = strcspn(sym + 9, ":)");

	snprintf(symbol, sizeof(symbol), "%.*s", (int)len, sym + 9);
	if (!strncmp(sym + 9 + len, ":m=y)", 5)) {
		/* obj-$(CONFIG_NVRAM:m=y): in obj-y whenever it is built. */
		*ret_class = AUDIT_OTHER;
		return asprintf(&reason, "%s: y when CONFIG_%s is m", name,
				symbol) < 0 ? NULL : reason;
	}
	*ret_class = !kms_modularity_is_bool(m, symbol) ? AUDIT_OTHER :
		     kms_modularity_needs_y(m, symbol) ?
		     AUDIT_BOOL_NEEDS_Y : AUDIT_BOOL;
	if (asprintf(&reason, "CONFIG_%s is %s", symbol,
		     *ret_class == AUDIT_OTHER ? "y" :
		     *ret_class == AUDIT_BOOL ? "bool" :
		     "bool, needs a tristate at y") < 0)
		reason = NULL;
	return reason;
}

static char *explain_builtin(const char *srctree,
			     const struct kms_modularity *m, const char *obj,
			     int depth, enum audit_class *ret_class);

/*
 * foo-y, foo-objs, foo-$(CONFIG_X) (@name) in directory @dir: in foo.o,
 * which is built in for its own reason.
 */
static char *composite_reason(const char *srctree,
			      const struct kms_modularity *m, const char *dir,
			      char *name, int depth,
			      enum audit_class *ret_class)
{
	char *dash = strrchr(name, '-'), composite[PATH_MAX];
	char *inner, *reason = NULL;

	if (!dash)
		return NULL;
	*dash = '\0';
	snprintf(composite, sizeof(composite), "%s%s%s.o",
		 strcmp(dir, ".") ? dir : "", strcmp(dir, ".") ? "/" : "",
		 name);
	inner = explain_builtin(srctree, m, composite, depth + 1, ret_class);
	if (inner && asprintf(&reason, "%s (part of %s)", inner,
			      composite) < 0)
		reason = NULL;
	free(inner);
	return reason;
}

/*
 * Why @rel, an object of directory @dir, is built in according to @line
 * of its Makefile, or NULL: the line does not bring it.
 */
static char *explain_line(const char *srctree, const struct kms_modularity *m,
			  const char *dir, const char *rel, char *line,
			  int depth, enum audit_class *ret_class)
{
	char name[256];

	if (!audit_assigns(line, rel, name, sizeof(name)))
		return NULL;
	if (!strcmp(name, "obj-y")) {
		*ret_class = AUDIT_ALWAYS;
		return strdup("always built (obj-y)");
	}
	if (!strncmp(name, "lib-", 4)) {
		*ret_class = AUDIT_LIB;
		return strdup("lib-y: in lib.a, never a module");
	}
	if (!strncmp(name, "obj-$(CONFIG_", 13))
		return config_reason(m, name, ret_class);
	return composite_reason(srctree, m, dir, name, depth, ret_class);
}

/* explain_line() of each line of @dir's Kbuild (else Makefile) in turn. */
static char *explain_in_dir(const char *srctree,
			    const struct kms_modularity *m, const char *dir,
			    const char *rel, int depth,
			    enum audit_class *ret_class)
{
	char *text, **lines, *reason = NULL;
	size_t nr, i;

	lines = audit_makefile_lines(srctree, dir, &text, &nr);
	for (i = 0; lines && i < nr && !reason; i++)
		reason = explain_line(srctree, m, dir, rel, lines[i], depth,
				      ret_class);
	free(lines);
	free(text);
	return reason;
}

/*
 * Why @obj (relative to the tree) is built in: the Makefile line that
 * brings it, read back to the variable's Kconfig symbol.  Only explains;
 * make decided.
 */
static char *explain_builtin(const char *srctree,
			     const struct kms_modularity *m, const char *obj,
			     int depth, enum audit_class *ret_class)
{
	char dir[PATH_MAX], *slash, *reason = NULL;
	const char *rel;

	if (depth > 4 || strlen(obj) >= sizeof(dir))
		return NULL;
	strcpy(dir, obj);
	/* Try the object's directory, then its parents ("one/util.o"). */
	while ((slash = strrchr(dir, '/')) || dir[0]) {
		if (slash)
			*slash = '\0';
		else
			strcpy(dir, ".");
		rel = obj + (strcmp(dir, ".") ? strlen(dir) + 1 : 0);
		reason = explain_in_dir(srctree, m, dir, rel, depth, ret_class);
		if (reason || !slash)
			break;
	}
	return reason;
}

const char *audit_class_name(enum audit_class class)
{
	static const char *const names[AUDIT_NR_CLASSES] = {
		[AUDIT_BOOL] = "bool",
		[AUDIT_BOOL_NEEDS_Y] = "bool-needs-y",
		[AUDIT_ALWAYS] = "always",
		[AUDIT_LIB] = "lib",
		[AUDIT_WHILE_Y] = "while-y",
		[AUDIT_OTHER] = "other",
	};

	return (unsigned)class < AUDIT_NR_CLASSES ? names[class] : "other";
}

char *audit_reason(const char *srctree, const struct kms_modularity *m,
		   const char *obj, enum kms_linkage linkage,
		   enum audit_class *ret_class)
{
	char *reason;

	*ret_class = AUDIT_OTHER;
	if (linkage == KMS_LINK_WHILE_Y) {
		/* The Makefile line does not say which tristate. */
		*ret_class = AUDIT_WHILE_Y;
		return strdup("linked only while a tristate is y");
	}
	reason = explain_builtin(srctree, m, obj, 0, ret_class);
	if (reason)
		return reason;
	*ret_class = linkage == KMS_LINK_LIB ? AUDIT_LIB : AUDIT_OTHER;
	return strdup(linkage == KMS_LINK_LIB ?
		      "lib-y: in lib.a, never a module" :
		      "obj-y with every tristate at m");
}

struct kms_error *audit_scratch_dir(const char *given, char **ret)
{
	const char *tmp = getenv("TMPDIR");
	struct kms_error *err;
	char *scratch;

	if (given) {
		scratch = strdup(given);
		if (!scratch)
			return &kms_error_nomem;
		*ret = scratch;
		return NULL;
	}
	if (asprintf(&scratch, "%s/kallmodsyms-audit.XXXXXX",
		     tmp && *tmp ? tmp : "/tmp") < 0)
		return &kms_error_nomem;
	if (!mkdtemp(scratch)) {
		err = kms_error_errno(scratch, "cannot create");
		free(scratch);
		return err;
	}
	*ret = scratch;
	return NULL;
}

void audit_remove_scratch(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };
	struct kms_run_output run;

	if (!kms_run(argv, NULL, NULL, &run))
		kms_run_output_release(&run);
}

struct kms_error *audit_configure(const char *srctree, const char *objdir,
				  const char *arch, const char *target,
				  const char *allconfig)
{
	char *argv[] = { "make", "-s", "-C", (char *)srctree, NULL, NULL,
			 (char *)target, NULL };
	const char *env[] = { "MAKEFLAGS=", "MAKELEVEL=", "MFLAGS=",
			      "KCONFIG_CONFIG=", "KCONFIG_ALLCONFIG=", NULL };
	struct kms_run_output run;
	struct kms_error *err = NULL;
	char *allconfig_env = NULL;

	if (asprintf(&argv[4], "O=%s", objdir) < 0)
		return &kms_error_nomem;
	if (asprintf(&argv[5], "ARCH=%s", arch) < 0 ||
	    (allconfig && asprintf(&allconfig_env, "KCONFIG_ALLCONFIG=%s",
				   allconfig) < 0))
		err = &kms_error_nomem;
	if (allconfig_env)
		env[4] = allconfig_env;
	if (!err)
		err = kms_run(argv, NULL, env, &run);
	free(argv[4]);
	free(argv[5]);
	free(allconfig_env);
	if (err)
		return err;
	if (run.status) {
		const char *line = strtok(run.err, "\n");

		err = kms_error_fmt("make ARCH=%s %s in %s failed: %s", arch,
				    target, srctree,
				    line ? line : "no message");
	}
	kms_run_output_release(&run);
	return err;
}

void audit_json_open(struct json *j)
{
	json_init_style(j, stdout, JSON_SPACED | JSON_LINES | JSON_UTF8);
	json_begin_array(j, NULL);
}

void audit_json_close(struct json *j)
{
	json_end_array(j);
	json_finish(j);
}
