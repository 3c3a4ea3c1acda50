// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit --tree-wide (treewide.h): one child process per
 * architecture, --jobs at a time, each configuring allyesconfig and
 * writing what the modularity analysis says of every object into its
 * scratch directory; then the answers are merged, per source file, in a
 * fixed order whatever order the children ended in.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kms/error.h>
#include <kms/json.h>
#include <kms/modularity.h>
#include <kms/run.h>
#include <kms/strmap.h>
#include <kms/util.h>

#include "audit.h"
#include "exact.h"
#include "treewide.h"

/*
 * The architectures that configure two ways: ARCH (as the top-level
 * Makefile takes it) and a KCONFIG_ALLCONFIG fragment, for 32-bit and
 * 64-bit kernels.  Every other directory of arch/ is one variant, its own
 * ARCH; um is the host's (SUBARCH) UML.
 */
static const struct {
	const char *srcarch, *name, *arch, *allconfig;
} variant_table[] = {
	{ "mips", "mips", "mips", "# CONFIG_64BIT is not set\n" },
	/* The generic kernel allyesconfig picks is 32-bit (Ingenic). */
	{ "mips", "mips64", "mips", "CONFIG_MACH_LOONGSON64=y\nCONFIG_64BIT=y\n" },
	{ "parisc", "parisc", "parisc", "# CONFIG_64BIT is not set\n" },
	{ "parisc", "parisc64", "parisc64", NULL },
	{ "powerpc", "powerpc", "powerpc", "# CONFIG_PPC64 is not set\n" },
	{ "powerpc", "powerpc64", "powerpc", "CONFIG_PPC64=y\n" },
	{ "riscv", "riscv32", "riscv", "CONFIG_ARCH_RV32I=y\n" },
	{ "riscv", "riscv64", "riscv", "CONFIG_ARCH_RV64I=y\n" },
	{ "sparc", "sparc32", "sparc", "# CONFIG_64BIT is not set\n" },
	{ "sparc", "sparc64", "sparc64", NULL },
	{ "x86", "i386", "i386", NULL },
	{ "x86", "x86_64", "x86_64", NULL },
};

struct variant {
	char *name;		/* what --arch and the listing say */
	char *srcarch;		/* its directory in arch/ */
	const char *arch;	/* ARCH for make and kconfig */
	const char *allconfig;	/* fragment, or NULL */
	char *dir;		/* SCRATCH/name */
	bool answered;
};

/* One object on one architecture. */
struct record {
	uint32_t object;	/* in the objects map */
	uint32_t variant;
	int class;		/* enum audit_class; -1: a module */
	char *why;
};

struct treewide {
	const struct treewide_options *o;
	char *scratch;
	struct variant *variants;
	size_t nr_variants, variants_cap;
	struct kms_strmap objects;
	struct record *records;
	size_t nr_records, records_cap;
};

static struct kms_error *add_variant(struct treewide *t, const char *name,
				     const char *srcarch, const char *arch,
				     const char *allconfig)
{
	struct variant *v;
	struct kms_error *err;

	err = KMS_RESERVE(t->variants, t->variants_cap, t->nr_variants + 1);
	if (err)
		return err;
	v = &t->variants[t->nr_variants];
	memset(v, 0, sizeof(*v));
	v->name = strdup(name);
	v->srcarch = strdup(srcarch);
	v->arch = arch ? arch : v->srcarch;
	v->allconfig = allconfig;
	if (!v->name || !v->srcarch ||
	    asprintf(&v->dir, "%s/%s", t->scratch, name) < 0) {
		free(v->name);
		free(v->srcarch);
		return &kms_error_nomem;
	}
	t->nr_variants++;
	return NULL;
}

/* Is @name (a variant or its arch/ directory) in the comma list @list? */
static bool selected(const char *list, const char *name, const char *srcarch)
{
	size_t len;

	if (!list)
		return true;
	for (; *list; list += len + (list[len] == ',')) {
		len = strcspn(list, ",");
		if ((strlen(name) == len && !strncmp(list, name, len)) ||
		    (strlen(srcarch) == len && !strncmp(list, srcarch, len)))
			return true;
	}
	return false;
}

/* The variants of arch directory @dir, if selected. */
static struct kms_error *add_arch(struct treewide *t, const char *dir)
{
	struct kms_error *err = NULL;
	bool in_table = false;
	size_t i;

	for (i = 0; i < sizeof(variant_table) / sizeof(variant_table[0]); i++) {
		if (strcmp(variant_table[i].srcarch, dir))
			continue;
		in_table = true;
		if (!err && selected(t->o->arches, variant_table[i].name, dir))
			err = add_variant(t, variant_table[i].name, dir,
					  variant_table[i].arch,
					  variant_table[i].allconfig);
	}
	if (!in_table && selected(t->o->arches, dir, dir))
		err = add_variant(t, dir, dir, NULL, NULL);
	return err;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Each directory of SRCTREE/arch with a Kconfig, sorted. */
static struct kms_error *list_arch_dirs(const char *srctree, char ***ret,
					size_t *ret_nr)
{
	char path[PATH_MAX], **names = NULL;
	size_t nr = 0, cap = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/arch", srctree);
	d = opendir(path);
	if (!d)
		return kms_error_errno(path, "cannot open");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/arch/%s/Kconfig", srctree,
			 e->d_name);
		if (access(path, R_OK))
			continue;
		if (KMS_RESERVE(names, cap, nr + 1) ||
		    !(names[nr] = strdup(e->d_name))) {
			closedir(d);
			while (nr)
				free(names[--nr]);
			free(names);
			return &kms_error_nomem;
		}
		nr++;
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), compare_strings);
	*ret = names;
	*ret_nr = nr;
	return NULL;
}

/* Every variant asked for; an unknown name in --arch is an error. */
static struct kms_error *list_variants(struct treewide *t)
{
	struct kms_error *err;
	const char *p;
	char **dirs;
	size_t nr, i, len, k;

	err = list_arch_dirs(t->o->srctree, &dirs, &nr);
	for (i = 0; !err && i < nr; i++)
		err = add_arch(t, dirs[i]);
	for (i = 0; i < nr; i++)
		free(dirs[i]);
	free(dirs);
	for (p = t->o->arches; !err && p && *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		for (k = 0; k < t->nr_variants; k++)
			if ((strlen(t->variants[k].name) == len &&
			     !strncmp(t->variants[k].name, p, len)) ||
			    (strlen(t->variants[k].srcarch) == len &&
			     !strncmp(t->variants[k].srcarch, p, len)))
				break;
		if (k == t->nr_variants)
			err = kms_error_fmt("--arch: no architecture %.*s in %s/arch",
					    (int)len, p, t->o->srctree);
	}
	if (!err && !t->nr_variants)
		err = kms_error_file(t->o->srctree, "no architecture to audit");
	return err;
}

/* "SCRATCH/name/FILE" */
static char *variant_file(const struct variant *v, const char *file)
{
	char *path;

	return asprintf(&path, "%s/%s", v->dir, file) < 0 ? NULL : path;
}

/* @text, tabs and newlines made spaces, as one field of a line. */
static void put_field(FILE *f, const char *text)
{
	for (; *text; text++)
		putc(*text == '\t' || *text == '\n' ? ' ' : *text, f);
}

/*
 * One line per object @m links: "M obj" for a module's, "N obj class why"
 * for the others whose source says MODULE_LICENSE().
 */
static void write_answers(const struct treewide *t,
			  const struct kms_modularity *m, FILE *f)
{
	size_t i, n = kms_modularity_nr_objects(m);

	for (i = 0; i < n; i++) {
		enum kms_linkage linkage;
		const char *obj = kms_modularity_object(m, i, &linkage);
		char *text, *license, *tags, *why, *path;
		size_t len = strlen(obj);
		enum audit_class class;

		if (linkage == KMS_LINK_MODULE) {
			fprintf(f, "M\t%s\n", obj);
			continue;
		}
		if (len < 3 || strcmp(obj + len - 2, ".o") ||
		    asprintf(&path, "%s/%.*s.c", t->o->srctree, (int)(len - 2),
			     obj) < 0)
			continue;
		text = read_text(path);
		free(path);
		if (!text)
			continue;
		if (scan_tags(text, &license, &tags)) {
			why = audit_reason(t->o->srctree, m, obj, linkage,
					   &class);
			fprintf(f, "N\t%s\t%d\t", obj, (int)class);
			put_field(f, why ? why : "");
			putc('\n', f);
			free(why);
		}
		free(license);
		free(tags);
		free(text);
	}
}

static struct kms_error *write_allconfig(const struct variant *v,
					 char **ret_path)
{
	struct kms_error *err = NULL;
	char *path;
	FILE *f;

	*ret_path = NULL;
	if (!v->allconfig)
		return NULL;
	path = variant_file(v, "kms-allconfig");
	if (!path)
		return &kms_error_nomem;
	f = fopen(path, "w");
	if (!f || fputs(v->allconfig, f) < 0)
		err = kms_error_errno(path, "cannot write");
	if (f && fclose(f) && !err)
		err = kms_error_errno(path, "cannot write");
	if (err)
		free(path);
	else
		*ret_path = path;
	return err;
}

/* In the child: configure, analyse and write SCRATCH/name/kms-audit. */
static struct kms_error *answer_variant(const struct treewide *t,
					const struct variant *v)
{
	struct kms_modularity_options mo = {
		.srctree = t->o->srctree, .objtree = v->dir,
		.srcarch = v->srcarch, .arch = v->arch, .classify_all = true,
	};
	struct kms_modularity *m = NULL;
	struct kms_error *err;
	char *allconfig = NULL, *config = variant_file(v, ".config");
	char *out = variant_file(v, "kms-audit"), *err_path;
	FILE *f = NULL;

	if (!config || !out) {
		err = &kms_error_nomem;
		goto out;
	}
	if (mkdir(v->dir, 0777) && errno != EEXIST) {
		err = kms_error_errno(v->dir, "cannot create");
		goto out;
	}
	/* What an earlier run in the same scratch directory left. */
	unlink(out);
	if ((err_path = variant_file(v, "kms-audit.err")))
		unlink(err_path);
	free(err_path);
	err = write_allconfig(v, &allconfig);
	if (!err)
		err = audit_configure(t->o->srctree, v->dir, v->arch,
				      "allyesconfig", allconfig);
	mo.config = config;
	if (!err)
		err = kms_modularity_analyze(&mo, &m);
	if (!err && !(f = fopen(out, "w")))
		err = kms_error_errno(out, "cannot create");
	if (!err)
		write_answers(t, m, f);
	if (f && (ferror(f) | fclose(f)) && !err)
		err = kms_error_errno(out, "cannot write");
out:
	kms_modularity_destroy(m);
	free(allconfig);
	free(config);
	free(out);
	return err;
}

/* The child's whole life: its error, if any, one line in kms-audit.err. */
static void run_child(const struct treewide *t, const struct variant *v)
{
	struct kms_error *err = answer_variant(t, v);
	char *path;
	FILE *f;

	if (!err)
		_exit(0);
	path = variant_file(v, "kms-audit.err");
	f = path ? fopen(path, "w") : NULL;
	if (f) {
		fprintf(f, "%s\n", err->message);
		fclose(f);
	}
	free(path);
	kms_error_destroy(err);
	_exit(1);
}

/* Wait for one child; mark its variant answered if it succeeded. */
static struct kms_error *reap(struct treewide *t, pid_t *pids)
{
	int status;
	pid_t pid;
	size_t i;

	while ((pid = wait(&status)) < 0 && errno == EINTR)
		;
	if (pid < 0)
		return kms_error_fmt("wait: %s", strerror(errno));
	for (i = 0; i < t->nr_variants; i++) {
		if (pids[i] != pid)
			continue;
		pids[i] = 0;
		t->variants[i].answered = WIFEXITED(status) &&
					  !WEXITSTATUS(status);
	}
	return NULL;
}

/* Every variant, --jobs children at a time. */
static struct kms_error *run_variants(struct treewide *t)
{
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	size_t jobs = t->o->jobs ? t->o->jobs : nproc > 0 ? (size_t)nproc : 1;
	size_t i, running = 0;
	struct kms_error *err = NULL;
	pid_t *pids = calloc(t->nr_variants, sizeof(*pids));

	if (!pids)
		return &kms_error_nomem;
	fflush(NULL);
	for (i = 0; i < t->nr_variants && !err; i++) {
		if (running == jobs) {
			err = reap(t, pids);
			running--;
			if (err)
				break;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			err = kms_error_fmt("fork: %s", strerror(errno));
			pids[i] = 0;
			break;
		}
		if (!pids[i]) {
			free(pids);	/* the parent's */
			run_child(t, &t->variants[i]);
		}
		running++;
	}
	while (running--) {
		struct kms_error *e = reap(t, pids);

		if (!err)
			err = e;
		else
			kms_error_destroy(e);
	}
	free(pids);
	return err;
}

static struct kms_error *add_record(struct treewide *t, const char *obj,
				    size_t variant, int class, const char *why)
{
	struct kms_error *err;
	struct record *r;
	uint32_t index;

	err = kms_strmap_intern(&t->objects, obj, &index, NULL);
	if (!err)
		err = KMS_RESERVE(t->records, t->records_cap,
				  t->nr_records + 1);
	if (err)
		return err;
	r = &t->records[t->nr_records];
	r->object = index;
	r->variant = variant;
	r->class = class;
	r->why = NULL;
	if (why && !(r->why = strdup(why)))
		return &kms_error_nomem;
	t->nr_records++;
	return NULL;
}

/* The lines a child wrote for variant @i. */
static struct kms_error *read_answers(struct treewide *t, size_t i)
{
	struct kms_error *err;
	char *path = variant_file(&t->variants[i], "kms-audit");
	char *text, *line, *save = NULL, *field[4];
	size_t len, k;

	if (!path)
		return &kms_error_nomem;
	err = kms_read_file(path, 0, &text, &len);
	if (err) {
		free(path);
		return err;
	}
	for (line = strtok_r(text, "\n", &save); line && !err;
	     line = strtok_r(NULL, "\n", &save)) {
		for (k = 0; k < 4; k++) {
			field[k] = line;
			line += strcspn(line, "\t");
			if (*line)
				*line++ = '\0';
		}
		if (!strcmp(field[0], "M"))
			err = add_record(t, field[1], i, -1, NULL);
		else if (!strcmp(field[0], "N") && *field[2])
			err = add_record(t, field[1], i, atoi(field[2]),
					 field[3]);
		else
			err = kms_error_file(path, "unexpected line");
	}
	free(text);
	free(path);
	return err;
}

/* The one-line note of a variant that was not answered. */
static void note_variant(const struct variant *v, FILE *notes)
{
	char *path = variant_file(v, "kms-audit.err"), *text = NULL;

	if (path)
		text = read_text(path);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	fprintf(notes, PROG ": note: %s left out: %s\n", v->name,
		text && *text ? text : "its analysis failed");
	free(text);
	free(path);
}

static const struct treewide *sort_tree;

static int compare_records(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	int c = strcmp(sort_tree->objects.keys[x->object],
		       sort_tree->objects.keys[y->object]);

	if (c)
		return c;
	return x->variant < y->variant ? -1 : x->variant > y->variant;
}

/* One source file: records [first, last) of its object, none a module. */
struct file_entry {
	const struct record *first, *last;
	const char *object;
	enum audit_class class;	/* the most frequent */
	bool same_why;
	bool x86;		/* built by an x86 variant */
};

static void entry_init(const struct treewide *t, struct file_entry *e,
		       const struct record *first, const struct record *last)
{
	size_t count[AUDIT_NR_CLASSES] = { 0 }, k;
	const struct record *r;

	e->first = first;
	e->last = last;
	e->object = t->objects.keys[first->object];
	e->same_why = true;
	e->x86 = false;
	for (r = first; r < last; r++) {
		if ((unsigned)r->class < AUDIT_NR_CLASSES)
			count[r->class]++;
		e->same_why &= !strcmp(r->why, first->why);
		e->x86 |= !strcmp(t->variants[r->variant].srcarch, "x86");
	}
	e->class = AUDIT_OTHER;
	for (k = 0; k < AUDIT_NR_CLASSES; k++)
		if (count[k] > count[e->class] ||
		    (count[k] == count[e->class] && k < e->class))
			e->class = k;
}

/* "a,b,c": the variants of @e's records that say @why (NULL: all). */
static void print_arches(const struct treewide *t, const struct file_entry *e,
			 const char *why)
{
	const struct record *r;
	bool first = true;

	for (r = e->first; r < e->last; r++) {
		if (why && strcmp(r->why, why))
			continue;
		printf("%s%s", first ? "" : ",", t->variants[r->variant].name);
		first = false;
	}
}

/* The why column: one reason, or each with its architectures. */
static void print_why(const struct treewide *t, const struct file_entry *e)
{
	const struct record *r, *q;

	if (e->same_why) {
		fputs(e->first->why, stdout);
		return;
	}
	for (r = e->first; r < e->last; r++) {
		for (q = e->first; q < r && strcmp(q->why, r->why); q++)
			;
		if (q < r)
			continue;	/* said already */
		printf("%s%s (", r == e->first ? "" : "; ", r->why);
		print_arches(t, e, r->why);
		putchar(')');
	}
}

/* One file as a member of the -j array: its arches, and each one's why. */
static void print_json_entry(const struct treewide *t, struct json *j,
			     const struct file_entry *e, const char *source,
			     const char *license, const char *spdx,
			     const char *tags)
{
	const struct record *r;

	json_begin_object(j, NULL);
	json_string(j, "source", source);
	json_string(j, "object", e->object);
	json_string(j, "class", audit_class_name(e->class));
	json_begin_array(j, "arches");
	for (r = e->first; r < e->last; r++)
		json_string(j, NULL, t->variants[r->variant].name);
	json_end_array(j);
	json_begin_array(j, "why");
	for (r = e->first; r < e->last; r++) {
		json_begin_object(j, NULL);
		json_string(j, "arch", t->variants[r->variant].name);
		json_string(j, "class", audit_class_name(r->class));
		json_string(j, "why", r->why);
		json_end_object(j);
	}
	json_end_array(j);
	json_string(j, "license", license);
	json_string_or_null(j, "spdx", spdx);
	json_string(j, "agreement", agreement(license, spdx));
	json_string(j, "tags", tags ? tags : "");
	json_end_object(j);
}

/*
 * One file of the listing (to @j with -j), its source read again for the
 * tags.
 */
static void print_entry(const struct treewide *t, struct json *j,
			const struct file_entry *e)
{
	char *path, *text, *license = NULL, *tags = NULL, *spdx;
	size_t len = strlen(e->object), skip = strlen(t->o->srctree) + 1;

	if (asprintf(&path, "%s/%.*s.c", t->o->srctree, (int)(len - 2),
		     e->object) < 0)
		return;
	text = read_text(path);
	if (!text || !scan_tags(text, &license, &tags)) {
		/* The file changed under us: say so rather than guess. */
		license = strdup("?");
	}
	spdx = text ? spdx_of(text) : NULL;
	if (j) {
		print_json_entry(t, j, e, path + skip, license ? license : "",
				 spdx, tags);
	} else {
		printf("%s\t%s\t", path + skip, audit_class_name(e->class));
		print_why(t, e);
		putchar('\t');
		print_arches(t, e, NULL);
		printf("\tMODULE_LICENSE(\"%s\")\t%s\t%s\t%s\n",
		       license ? license : "", spdx ? spdx : "-",
		       agreement(license ? license : "", spdx),
		       tags ? tags : "-");
	}
	free(spdx);
	free(license);
	free(tags);
	free(text);
	free(path);
}

/* -c: the number of files, per class, and those no x86 kernel builds. */
static void print_counts(const size_t *per_class, size_t files,
			 size_t non_x86)
{
	size_t k;

	printf("files\t%zu\n", files);
	for (k = 0; k < AUDIT_NR_CLASSES; k++)
		printf("%s\t%zu\n", audit_class_name(k), per_class[k]);
	printf("not-x86\t%zu\n", non_x86);
}

/*
 * Can some Makefile line make @obj a module all the same (exact.h)?  Then
 * one note says which, and it is not listed.
 */
static bool module_elsewhere(const struct exact *x, const char *obj,
			     FILE *notes)
{
	char *why = exact_module_line(x, obj);

	if (!why)
		return false;
	fprintf(notes, PROG ": note: %.*s.c left out: %s\n",
		(int)(strlen(obj) - 2), obj, why);
	free(why);
	return true;
}

/*
 * The records sorted by object: each object none builds as a module and
 * no Makefile line can make one.
 */
static void report(struct treewide *t, const struct exact *x, FILE *notes)
{
	size_t per_class[AUDIT_NR_CLASSES] = { 0 }, files = 0, non_x86 = 0;
	struct record *r = t->records, *end = r + t->nr_records, *q;
	bool json = t->o->json && !t->o->count;
	struct json j;

	if (json)
		audit_json_open(&j);
	sort_tree = t;
	if (t->nr_records)
		qsort(t->records, t->nr_records, sizeof(*r), compare_records);
	for (; r < end; r = q) {
		struct file_entry e;
		bool module = false;

		for (q = r; q < end && q->object == r->object; q++)
			module |= q->class < 0;
		if (module || module_elsewhere(x, t->objects.keys[r->object],
					       notes))
			continue;
		entry_init(t, &e, r, q);
		if (!t->o->count)
			print_entry(t, json ? &j : NULL, &e);
		files++;
		per_class[e.class]++;
		non_x86 += !e.x86;
	}
	if (t->o->count)
		print_counts(per_class, files, non_x86);
	else if (json)
		audit_json_close(&j);
}

static void remove_scratch(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };
	struct kms_run_output run;

	if (!kms_run(argv, NULL, NULL, &run))
		kms_run_output_release(&run);
}

static void treewide_release(struct treewide *t)
{
	size_t i;

	for (i = 0; i < t->nr_records; i++)
		free(t->records[i].why);
	free(t->records);
	kms_strmap_release(&t->objects);
	for (i = 0; i < t->nr_variants; i++) {
		free(t->variants[i].name);
		free(t->variants[i].srcarch);
		free(t->variants[i].dir);
	}
	free(t->variants);
	if (t->scratch && !t->o->scratch)
		remove_scratch(t->scratch);
	free(t->scratch);
}

struct kms_error *treewide_audit(const struct treewide_options *o,
				 FILE *notes)
{
	struct treewide t = { .o = o };
	struct exact *x = NULL;
	struct kms_error *err;
	size_t i, answered = 0;

	if (o->scratch && mkdir(o->scratch, 0777) && errno != EEXIST)
		return kms_error_errno(o->scratch, "cannot create");
	err = audit_scratch_dir(o->scratch, &t.scratch);
	if (!err) {
		/* make -C SRCTREE takes O= from there. */
		char *abs = realpath(t.scratch, NULL);

		if (!abs)
			err = kms_error_errno(t.scratch, "cannot open");
		free(t.scratch);
		t.scratch = abs;
	}
	if (!err)
		err = list_variants(&t);
	if (!err)
		err = run_variants(&t);
	for (i = 0; !err && i < t.nr_variants; i++) {
		if (!t.variants[i].answered) {
			note_variant(&t.variants[i], notes);
			continue;
		}
		err = read_answers(&t, i);
		answered++;
	}
	if (!err && !answered)
		err = kms_error_file(o->srctree, "no architecture could be configured and analysed");
	if (!err)
		err = exact_open(o->srctree, &x);
	if (!err)
		report(&t, x, notes);
	exact_close(x);
	treewide_release(&t);
	return err;
}
