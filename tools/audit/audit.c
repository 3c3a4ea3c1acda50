// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit: the source files that say MODULE_LICENSE() but can
 * never be modules, in a configured kernel tree or tree-wide (allmodconfig).
 *
 * What can be a module is decided by kconfig and kbuild (kms/modularity.h);
 * the audit only reads sources and Makefiles to say why, and whether each
 * file's MODULE_LICENSE() agrees with its SPDX identifier (common.c).
 * This file: the listing of one configured tree, and the findings
 * handed to patches_write() (patches.c); the options are args.c's,
 * --findings FILE findings.c's and --tree-wide treewide.c's.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/error.h>
#include <kms/modularity.h>
#include <kms/util.h>

#include "args.h"
#include "audit.h"
#include "findings.h"
#include "patches.h"
#include "treewide.h"

/* One file of the listing. */
struct finding {
	const char *source;	/* relative to the tree */
	const char *object;	/* relative to the tree */
	char *reason;
	enum audit_class class;
	char *license;		/* MODULE_LICENSE()'s string */
	char *spdx;		/* NULL: none */
	char *tags;		/* the other MODULE_* tags, space-separated */
};

static struct kms_error *configure_allmodconfig(struct options *o,
						char **ret_scratch)
{
	struct kms_error *err;
	char *scratch;

	err = audit_scratch_dir(o->scratch, &scratch);
	if (err)
		return err;
	err = audit_configure(o->srctree, scratch, "x86_64", "allmodconfig",
			      NULL);
	if (err) {
		free(scratch);
		return err;
	}
	*ret_scratch = scratch;
	return NULL;
}

static const char *linkage_name(enum kms_linkage linkage)
{
	switch (linkage) {
	case KMS_LINK_BUILTIN: return "builtin";
	case KMS_LINK_LIB: return "lib";
	case KMS_LINK_MODULE: return "module";
	case KMS_LINK_WHILE_Y: return "while-y";
	default: return "unknown";
	}
}

static void print_objects(const struct options *o,
			  const struct kms_modularity *m)
{
	size_t i, n = kms_modularity_nr_objects(m);
	struct json j;

	if (o->json)
		audit_json_open(&j);
	for (i = 0; i < n; i++) {
		enum kms_linkage linkage;
		const char *obj = kms_modularity_object(m, i, &linkage);
		const char *module = NULL;

		kms_modularity_linkage(m, obj, &module);
		if (o->json) {
			json_begin_object(&j, NULL);
			json_string(&j, "object", obj);
			json_string(&j, "linkage", linkage_name(linkage));
			json_string_or_null(&j, "module", module);
			json_end_object(&j);
			continue;
		}
		printf("%s\t%s%s%s\n", obj, linkage_name(linkage),
		       module ? "\t" : "", module ? module : "");
	}
	if (o->json)
		audit_json_close(&j);
}

/*
 * The C source of object @obj, read into *@ret_text, its path in @path:
 * false when there is none to audit (a module, not a .o, no such file).
 */
static bool read_source(const struct options *o, const char *obj,
			enum kms_linkage linkage, char *path, size_t size,
			char **ret_text)
{
	size_t len = strlen(obj);

	if (linkage == KMS_LINK_MODULE || len < 3 ||
	    strcmp(obj + len - 2, ".o") ||
	    len + strlen(o->srctree) + 8 >= size)
		return false;
	snprintf(path, size, "%s/%.*s.c", o->srctree, (int)(len - 2), obj);
	*ret_text = read_text(path);
	return *ret_text != NULL;
}

/* One finding as a member of the -j array. */
static void print_json_finding(struct json *j, const struct finding *f)
{
	json_begin_object(j, NULL);
	json_string(j, "source", f->source);
	json_string(j, "object", f->object);
	json_string(j, "why", f->reason ? f->reason : "");
	json_string(j, "class", audit_class_name(f->class));
	json_string(j, "license", f->license);
	json_string_or_null(j, "spdx", f->spdx);
	json_string(j, "agreement", agreement(f->license, f->spdx));
	json_string(j, "tags", f->tags ? f->tags : "");
	json_end_object(j);
}

/* One finding as a line of the listing. */
static void print_finding(const struct finding *f)
{
	printf("%s\t%s\tMODULE_LICENSE(\"%s\")\t%s\t%s\t%s\n",
	       f->source, f->reason ? f->reason : "", f->license,
	       f->spdx ? f->spdx : "-", agreement(f->license, f->spdx),
	       f->tags ? f->tags : "-");
}

/*
 * Object @i of @m, if its source says MODULE_LICENSE(): counted in
 * *@count, and kept in @list (--patches), or printed unless -c (to @j
 * with -j).
 */
static struct kms_error *audit_object(const struct options *o,
				      const struct kms_modularity *m, size_t i,
				      struct patch_list *list, struct json *j,
				      size_t *count)
{
	struct finding f = { 0 };
	enum kms_linkage linkage;
	struct kms_error *err = NULL;
	char path[PATH_MAX], *text;

	f.object = kms_modularity_object(m, i, &linkage);
	if (!read_source(o, f.object, linkage, path, sizeof(path), &text))
		return NULL;
	if (!scan_tags(text, &f.license, &f.tags)) {
		free(f.tags);
		free(text);
		return NULL;
	}
	f.source = path + strlen(o->srctree) + 1;
	f.spdx = spdx_of(text);
	f.reason = audit_reason(o->srctree, m, f.object, linkage, &f.class);
	(*count)++;
	if (list && f.reason)
		err = keep_finding(list, f.source, &f.reason, &f.license,
				   &f.tags);
	else if (list)
		err = &kms_error_nomem;
	else if (j)
		print_json_finding(j, &f);
	else if (!o->count)
		print_finding(&f);
	free(f.reason);
	free(f.spdx);
	free(f.license);
	free(f.tags);
	free(text);
	return err;
}

/* The files of @m's objects that say MODULE_LICENSE(), in *@ret_count. */
static struct kms_error *audit(const struct options *o,
			       const struct kms_modularity *m,
			       struct patch_list *list, size_t *ret_count)
{
	size_t i, n = kms_modularity_nr_objects(m), count = 0;
	bool json = o->json && !o->count && !list;
	struct kms_error *err = NULL;
	struct json j;

	if (json)
		audit_json_open(&j);
	for (i = 0; i < n && !err; i++)
		err = audit_object(o, m, i, list, json ? &j : NULL, &count);
	if (json)
		audit_json_close(&j);
	*ret_count = count;
	return err;
}

/* --patches: the series, and one line saying what it holds. */
static struct kms_error *write_patches(const struct options *o,
				       const struct patch_list *list)
{
	struct patches_options po = {
		.srctree = o->srctree, .dir = o->patches, .author = o->author,
		.warnings = stderr, .prog = PROG,
	};
	_cleanup_free_ char *changes = NULL;
	struct patches_stats st;
	struct kms_error *err;
	size_t size;

	if (o->changes) {
		err = kms_read_file(o->changes, 0, &changes, &size);
		if (err)
			return err;
		if (memchr(changes, '\0', size))
			return kms_error_file(o->changes, "not a text file");
		po.changes = changes;
	}
	err = patches_write(&po, list->f, list->nr, &st);

	if (!err)
		printf("%s: %zu patches, %zu files, %zu left alone\n",
		       o->patches, st.patches, st.files, st.refused);
	return err;
}

/*
 * --findings FILE: its findings checked again, the series of those that
 * hold (--patches DIR) or their lines; no configuration is analysed.
 */
static int patches_from(struct options *o, char *srctree)
{
	struct patch_list list = { 0 };
	struct kms_error *err;

	o->srctree = srctree;
	err = read_findings(o->findings, srctree, &list, !o->patches);
	if (!err && o->patches && !list.nr)
		err = kms_error_file(o->findings, "no finding holds");
	if (!err && o->patches)
		err = write_patches(o, &list);
	patch_list_release(&list);
	free(srctree);
	if (err) {
		kms_error_report(PROG, err);
		return 1;
	}
	return 0;
}

static int tree_wide(const struct options *o, char *srctree)
{
	struct treewide_options to = {
		.srctree = srctree, .scratch = o->scratch,
		.arches = o->arches, .jobs = o->jobs,
		.json = o->json, .count = o->count,
	};
	struct kms_error *err = treewide_audit(&to, stderr);

	free(srctree);
	if (err) {
		kms_error_report(PROG, err);
		return 1;
	}
	return 0;
}

/* The source tree: -S, else the build tree's "source" link, else itself. */
static struct kms_error *find_srctree(const struct options *o,
				      char **ret)
{
	char *source, *srctree;

	if (o->srctree) {
		srctree = realpath(o->srctree, NULL);
		if (!srctree)
			return kms_error_errno(o->srctree, "cannot open");
		*ret = srctree;
		return NULL;
	}
	if (asprintf(&source, "%s/source", o->build_dir) < 0)
		return &kms_error_nomem;
	srctree = realpath(source, NULL);
	free(source);
	if (!srctree)
		srctree = realpath(o->build_dir, NULL);
	if (!srctree)
		return kms_error_errno(o->build_dir, "cannot open");
	*ret = srctree;
	return NULL;
}

/*
 * The modularity analysis of the configured tree (-b, or allmodconfig in
 * the scratch directory *@ret_scratch, then o->build_dir).
 */
static struct kms_error *analyze(struct options *o, char **ret_scratch,
				 struct kms_modularity **ret)
{
	struct kms_modularity_options mo = { 0 };
	_cleanup_free_ char *config = NULL, *objtree = NULL;
	struct kms_error *err;

	if (o->allmodconfig) {
		err = configure_allmodconfig(o, ret_scratch);
		o->build_dir = *ret_scratch;
		if (err)
			return err;
	}
	objtree = realpath(o->build_dir, NULL);
	if (!objtree)
		return kms_error_errno(o->build_dir, "cannot open");
	if (asprintf(&config, "%s/.config", objtree) < 0) {
		config = NULL;
		return &kms_error_nomem;
	}
	mo.srctree = o->srctree;
	mo.objtree = objtree;
	mo.config = config;
	mo.classify_all = true;
	return kms_modularity_analyze(&mo, ret);
}

/* One configured tree: the objects, the listing or the series. */
static struct kms_error *one_tree(struct options *o, char **ret_scratch)
{
	struct kms_modularity *m = NULL;
	struct patch_list list = { 0 };
	struct kms_error *err;
	size_t count = 0;

	err = analyze(o, ret_scratch, &m);
	if (!err && o->objects)
		print_objects(o, m);
	else if (!err)
		err = audit(o, m, o->patches ? &list : NULL, &count);
	if (!err && o->patches)
		err = write_patches(o, &list);
	if (!err && o->count)
		printf("%zu\n", count);
	kms_modularity_destroy(m);
	patch_list_release(&list);
	return err;
}

int main(int argc, char **argv)
{
	struct options o = { .build_dir = "." };
	char *scratch = NULL, *srctree = NULL;
	struct kms_error *err;
	int status = audit_parse_args(argc, argv, &o);

	if (status >= 0)
		return status;
	err = find_srctree(&o, &srctree);
	if (!err && o.tree_wide)
		return tree_wide(&o, srctree);
	if (!err && o.findings)
		return patches_from(&o, srctree);
	if (!err) {
		o.srctree = srctree;
		err = one_tree(&o, &scratch);
	}
	if (scratch && !o.scratch)
		audit_remove_scratch(scratch);
	free(scratch);
	free(srctree);
	if (err) {
		kms_error_report(PROG, err);
		return 1;
	}
	return 0;
}
