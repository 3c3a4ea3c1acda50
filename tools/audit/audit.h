/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kallmodsyms-audit's shared parts (private to tools/audit), defined in
 * common.c, which calls no other file of tools/audit: reading sources and
 * Makefiles to say why an object is never a module, for one configured
 * tree (audit.c) and for every architecture (treewide.c).
 */
#ifndef KMS_AUDIT_H
#define KMS_AUDIT_H

#include <stdbool.h>
#include <stdio.h>

#include <kms/json.h>
#include <kms/modularity.h>

#define PROG "kallmodsyms-audit"

/* Why an object can never be a module, most specific first. */
enum audit_class {
	AUDIT_BOOL,		/* obj-$(CONFIG_FOO), FOO bool */
	AUDIT_BOOL_NEEDS_Y,	/* ...and FOO needs a tristate at y */
	AUDIT_ALWAYS,		/* obj-y, no symbol */
	AUDIT_LIB,		/* lib-y: in a lib.a */
	AUDIT_WHILE_Y,		/* linked only while a tristate is y */
	AUDIT_OTHER,		/* obj-y with every tristate at m, unexplained */
	AUDIT_NR_CLASSES
};

const char *audit_class_name(enum audit_class class);

/* The whole of @path, or NULL. */
char *read_text(const char *path);

/* The SPDX identifier in @text's first lines, or NULL. */
char *spdx_of(const char *text);

/* "agree", "differ" or "no SPDX". */
const char *agreement(const char *license, const char *spdx);

/* The MODULE_LICENSE() string and the other MODULE_* tags of @text. */
bool scan_tags(const char *text, char **ret_license, char **ret_tags);

/*
 * The logical lines of directory @dir's Kbuild (else Makefile) in
 * @srctree, continuations joined and make's comments cut, pointing into
 * *@ret_text (both freed by the caller); NULL when it has none.
 */
char **audit_makefile_lines(const char *srctree, const char *dir,
			    char **ret_text, size_t *ret_nr);

/*
 * The variable Makefile @line assigns to, into @name, if its right-hand
 * side names @rel ("obj-$(CONFIG_FOO) += foo.o" for "foo.o").
 */
bool audit_assigns(const char *line, const char *rel, char *name, size_t size);

/*
 * Why @obj, linked @linkage (not a module) by @m's analysis of @srctree,
 * is never a module: a sentence, and its class in *@ret_class.
 */
char *audit_reason(const char *srctree, const struct kms_modularity *m,
		   const char *obj, enum kms_linkage linkage,
		   enum audit_class *ret_class);

/*
 * -j's listing on stdout, through @j: an array, opened here with the
 * audit's layout (kms/json.h: spaced, one member a line, UTF-8 as it is),
 * and closed with its newline.
 */
void audit_json_open(struct json *j);
void audit_json_close(struct json *j);

/* @given (copied), or a new temporary directory, in *@ret. */
struct kms_error *audit_scratch_dir(const char *given, char **ret);

/* rm -rf @dir, whatever happens (a scratch directory of our own). */
void audit_remove_scratch(const char *dir);

/*
 * make -C @srctree O=@objdir ARCH=@arch @target (allyesconfig, ...), with
 * KCONFIG_ALLCONFIG=@allconfig unless NULL.
 */
struct kms_error *audit_configure(const char *srctree, const char *objdir,
				  const char *arch, const char *target,
				  const char *allconfig);

#endif /* KMS_AUDIT_H */
