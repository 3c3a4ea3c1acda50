// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit --tree-wide: the children (treewide_state.h).  Each
 * configures its variant allyesconfig in SCRATCH/name, analyses it as a
 * configured tree is, and writes one line per object: "M obj" for a
 * module's, "N obj class why" for the others that say MODULE_LICENSE().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kms/error.h>
#include <kms/modularity.h>

#include "audit.h"
#include "treewide_state.h"

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
	path = treewide_variant_file(v, "kms-allconfig");
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
	char *allconfig = NULL, *config = treewide_variant_file(v, ".config");
	char *out = treewide_variant_file(v, "kms-audit"), *err_path;
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
	if ((err_path = treewide_variant_file(v, "kms-audit.err")))
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
	path = treewide_variant_file(v, "kms-audit.err");
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

/* Every variant, --jobs children at a time (treewide_state.h). */
struct kms_error *treewide_run_variants(struct treewide *t)
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
