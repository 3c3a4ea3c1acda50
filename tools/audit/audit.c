// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit: the source files that say MODULE_LICENSE() but can
 * never be modules, in a configured kernel tree or tree-wide (allmodconfig).
 *
 * What can be a module is decided by kconfig and kbuild (kms/modularity.h);
 * the audit only reads sources and Makefiles to say why, and whether each
 * file's MODULE_LICENSE() agrees with its SPDX identifier (common.c).
 * This file: the options, the listing of one configured tree, and the
 * findings handed to patches_write() (patches.c); --tree-wide is
 * treewide.c's.
 */
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/error.h>
#include <kms/modularity.h>
#include <kms/run.h>
#include <kms/util.h>

#include "audit.h"
#include "exact.h"
#include "patches.h"
#include "treewide.h"

struct options {
	const char *build_dir;
	const char *srctree;
	const char *scratch;
	bool allmodconfig;
	bool tree_wide;
	const char *arches;	/* --arch LIST */
	unsigned int jobs;	/* --jobs N; 0: nproc */
	bool objects;
	bool count;
	bool json;
	const char *patches;	/* --patches DIR */
	const char *findings;	/* --findings FILE */
	const char *author;
	const char *changes;	/* --changes FILE */
};

/* With --patches, the findings, kept for patches_write(). */
struct patch_list {
	struct patch_finding *f;
	size_t nr, cap;
};

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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-b BUILD] [-S SRCTREE] [--objects] [-c] [-j]\n"
		"       " PROG " --allmodconfig -S SRCTREE [-o SCRATCH] [...]\n"
		"       " PROG " --tree-wide -S SRCTREE [-o SCRATCH] [--arch LIST]\n"
		"                         [--jobs N] [-c] [-j]\n"
		"\n"
		"List the source files that say MODULE_LICENSE() but can never be\n"
		"built as modules: their Kconfig symbol is bool, or they are always\n"
		"built in.  Kconfig and the Makefiles decide, through the tree's own\n"
		"conf and make; nothing is compiled.\n"
		"\n"
		"  -b, --build-dir DIR   a configured tree: DIR/.config and\n"
		"                        DIR/scripts/kconfig/conf (default: .)\n"
		"  -S, --srctree DIR     the sources (default: DIR/source, or DIR)\n"
		"      --allmodconfig    the whole tree: configure allmodconfig in\n"
		"                        a scratch build directory first\n"
		"      --tree-wide       every architecture of the tree (and its\n"
		"                        32/64-bit variants): allyesconfig, each in\n"
		"                        SCRATCH/ARCH; a file is listed when no\n"
		"                        architecture builds it as a module\n"
		"      --arch LIST       only these (comma-separated: x86_64,i386,\n"
		"                        arm64, ...)\n"
		"      --jobs N          architectures at once (default: nproc)\n"
		"  -o, --scratch DIR     that directory (default: a temporary one)\n"
		"      --objects         list how every object is linked instead:\n"
		"                        builtin, lib or module (with its module)\n"
		"  -c, --count           print only the number of files\n"
		"  -j, --json            JSON output\n"
		"      --patches DIR     write the series that removes their\n"
		"                        MODULE_LICENSE() into DIR (new), one patch\n"
		"                        per MAINTAINERS section, and a cover letter\n"
		"      --findings FILE   with -S SRCTREE: take the files from FILE, a\n"
		"                        listing this tool wrote (of a configured\n"
		"                        tree, --allmodconfig or --tree-wide),\n"
		"                        instead of analysing again; those that no\n"
		"                        longer hold (a note says why) are left\n"
		"                        out.  Without --patches: print the others\n"
		"      --changes FILE    with --patches: FILE's text, as it is, in\n"
		"                        the cover letter under \"Changes since the\n"
		"                        previous version\"\n"
		"      --author 'NAME <EMAIL>'  its author (default: $GIT_AUTHOR_NAME\n"
		"                        and _EMAIL, else git config user.*)\n"
		"  -h, --help            this text\n"
		"\n"
		"Output: FILE<TAB>why<TAB>MODULE_LICENSE string<TAB>SPDX<TAB>agreement\n"
		"<TAB>other MODULE_* tags.  Exit status: 0, 1 on error, 2 on bad usage.\n");
}

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

/* Keep a finding for --patches: @reason, @license, @tags are taken. */
static struct kms_error *keep_finding(struct patch_list *list,
				      const char *source, char **reason,
				      char **license, char **tags)
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

static void patch_list_release(struct patch_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		patch_finding_release(&list->f[i]);
	free(list->f);
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
static struct kms_error *read_findings(const char *file, const char *srctree,
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

static int parse_jobs(const char *arg, unsigned int *ret)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (*arg < '1' || *arg > '9' || *end || n > 1024) {
		fprintf(stderr, PROG ": --jobs %s: not a number from 1 to 1024\n",
			arg);
		return -1;
	}
	*ret = n;
	return 0;
}

/* The options that do not go together: -1, or 2 after saying why. */
static int check_args(const struct options *o)
{
	if (o->changes && !o->patches) {
		fprintf(stderr, PROG ": --changes goes with --patches\n");
		return 2;
	}
	if (o->patches && (o->objects || o->json || o->count)) {
		fprintf(stderr, PROG ": --patches goes with none of --objects, "
			"-j, -c\n");
		return 2;
	}
	if (o->findings && (!o->srctree || o->allmodconfig || o->tree_wide ||
			    o->objects || o->json || o->count)) {
		fprintf(stderr, PROG ": --findings goes with -S SRCTREE and --patches alone\n");
		return 2;
	}
	if (o->allmodconfig && !o->srctree) {
		fprintf(stderr, PROG ": --allmodconfig needs -S SRCTREE\n");
		return 2;
	}
	if (o->tree_wide && (!o->srctree || o->allmodconfig || o->objects)) {
		fprintf(stderr, PROG ": --tree-wide needs -S SRCTREE, and no --allmodconfig or --objects\n");
		return 2;
	}
	if ((o->arches || o->jobs) && !o->tree_wide) {
		fprintf(stderr, PROG ": --arch and --jobs go with --tree-wide\n");
		return 2;
	}
	return -1;
}

/* The options into @o: -1, or the exit status for main() to return. */
static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "build-dir", required_argument, NULL, 'b' },
		{ "srctree", required_argument, NULL, 'S' },
		{ "allmodconfig", no_argument, NULL, 'A' },
		{ "tree-wide", no_argument, NULL, 'T' },
		{ "arch", required_argument, NULL, 'a' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "scratch", required_argument, NULL, 'o' },
		{ "objects", no_argument, NULL, 'O' },
		{ "count", no_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "patches", required_argument, NULL, 'P' },
		{ "author", required_argument, NULL, 'W' },
		{ "findings", required_argument, NULL, 'F' },
		{ "changes", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "b:S:o:cjh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o->build_dir = optarg; break;
		case 'S': o->srctree = optarg; break;
		case 'A': o->allmodconfig = true; break;
		case 'T': o->tree_wide = true; break;
		case 'a': o->arches = optarg; break;
		case 'J':
			if (parse_jobs(optarg, &o->jobs))
				return 2;
			break;
		case 'o': o->scratch = optarg; break;
		case 'O': o->objects = true; break;
		case 'c': o->count = true; break;
		case 'j': o->json = true; break;
		case 'P': o->patches = optarg; break;
		case 'W': o->author = optarg; break;
		case 'F': o->findings = optarg; break;
		case 'C': o->changes = optarg; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "see " PROG " --help\n");
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, PROG ": unexpected argument %s; see " PROG
			" --help\n", argv[optind]);
		return 2;
	}
	return check_args(o);
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

/* rm -rf @dir, whatever happens. */
static void remove_scratch(char *dir)
{
	char *argv[] = { "rm", "-rf", dir, NULL };
	struct kms_run_output run;

	if (!kms_run(argv, NULL, NULL, &run))
		kms_run_output_release(&run);
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
	int status = parse_args(argc, argv, &o);

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
		remove_scratch(scratch);
	free(scratch);
	free(srctree);
	if (err) {
		kms_error_report(PROG, err);
		return 1;
	}
	return 0;
}
