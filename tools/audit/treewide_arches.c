// SPDX-License-Identifier: GPL-2.0
/*
 * kallmodsyms-audit --tree-wide: the variants to audit
 * (treewide_state.h), one per directory of arch/, or two for the
 * architectures that configure 32-bit and 64-bit kernels apart.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kms/error.h>
#include <kms/util.h>

#include "treewide_state.h"

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

/* Every variant asked for (treewide_state.h). */
struct kms_error *treewide_list_variants(struct treewide *t)
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
char *treewide_variant_file(const struct variant *v, const char *file)
{
	char *path;

	return asprintf(&path, "%s/%s", v->dir, file) < 0 ? NULL : path;
}
