// SPDX-License-Identifier: GPL-2.0
/*
 * verify: do the tables agree with the vmlinux?  Always: every attributed
 * range lies inside one of the image's executable sections (code such as
 * .altinstr_replacement holds no symbols, so that is not asked).  With the
 * build's maps (--build-dir or --map): the tables are regenerated from them
 * and every symbol's annotation compared; then, in a configured
 * tree, regenerated once more with the modularity analysis, to name the
 * built-in "modules" that can never be modules (modules.builtin lists them
 * because their code says MODULE_LICENSE()).  Exit 0 when all agree; the
 * first disagreements are printed.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/blob.h>
#include <kms/format.h>
#include <kms/gen.h>
#include <kms/tables.h>
#include <kms/util.h>

#include "command.h"

#define MAX_REPORTED 10

static bool in_text(struct inspector *in, uint64_t start, uint64_t end)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(in->elf->elf, scn))) {
		GElf_Shdr shdr;

		if (gelf_getshdr(scn, &shdr) && (shdr.sh_flags & SHF_EXECINSTR) &&
		    start >= shdr.sh_addr && end <= shdr.sh_addr + shdr.sh_size)
			return true;
	}
	return false;
}

static size_t check_structure(struct inspector *in)
{
	const struct kms_tables *t = in->tables;
	uint64_t base = in->syms->text_address;
	size_t bad = 0;
	uint32_t r;

	for (r = 0; r < t->nr_ranges; r++) {
		uint64_t start = base + kms_range_start(t, r);
		uint64_t end = base + kms_range_end(t, r);

		uint32_t cls = kms_range_class(t, r);

		/* Only the executable classes must lie in executable sections. */
		if (kms_range_object(t, r) == KMS_NONE ||
		    (cls != KMS_CLASS_TEXT && cls != KMS_CLASS_INIT_TEXT))
			continue;
		if (!in_text(in, start, end) && bad++ < MAX_REPORTED)
			printf("range %016llx-%016llx is not inside one executable section\n",
			       (unsigned long long)start, (unsigned long long)end);
	}
	return bad;
}

static void print_attr(const struct kms_tables *t, uint32_t obj)
{
	if (obj == KMS_NONE)
		fputs("(core)", stdout);
	else
		kms_print_object(stdout, t, obj, "");
}

struct verify_settings {
	const char *build_dir;
	const char *map;
	const char *o_map;
	const char *builtin;
	bool no_modularity;
};

/* The tables kallmodsyms-gen makes of the build, into *@ret. */
static struct kms_error *regenerate(struct inspector *in,
				    const struct verify_settings *o,
				    bool modularity, struct kms_tables **ret)
{
	struct kms_gen_options gen = { .vmlinux = in->vmlinux,
				       .elf = in->elf };
	const char *slash = strrchr(in->vmlinux, '/');
	_cleanup_free_ char *map = NULL, *dir = NULL;
	struct kms_error *err;
	void *blob;
	size_t size;

	/* By default the build tree is where the vmlinux is. */
	if (o->build_dir)
		dir = strdup(o->build_dir);
	else
		dir = slash ? strndup(in->vmlinux, slash - in->vmlinux) :
		      strdup(".");
	if (!o->map && asprintf(&map, "%s.map", in->vmlinux) < 0)
		map = NULL;
	gen.build_dir = dir;
	gen.map = o->map ? o->map : map;
	gen.o_map = o->o_map;
	gen.builtin = o->builtin;
	gen.modularity = modularity;
	gen.all_classes = kms_tables_all_classes(in->tables);
	if (!dir || !gen.map)
		return &kms_error_nomem;
	err = kms_generate(&gen, &blob, &size, NULL);
	if (err)
		return err;
	err = kms_blob_decode(blob, size, "regenerated", ret);
	free(blob);
	return err;
}

/*
 * Compare every symbol's annotation in the tables and in @fresh (those of
 * the classes the tables describe); the first disagreements are printed
 * (after @bad earlier ones).  Returns the disagreements, @bad included.
 */
static size_t compare(struct inspector *in, const struct kms_tables *fresh,
		      size_t bad, size_t *compared)
{
	const struct kms_symbols *syms = inspector_symbols(in);
	uint32_t c1 = KMS_NONE, c2 = KMS_NONE;
	char pa[4096], pb[4096];
	size_t i;

	for (i = 0; i < syms->nr; i++) {
		const struct kms_symbol *sym = &syms->syms[i];
		uint32_t a, b;

		++*compared;
		a = inspector_object(in, sym, &c1);
		b = inspector_object_in(in, fresh, sym, &c2);
		/* Compare what they print, not table indices. */
		kms_format_object(pa, sizeof(pa), in->tables, a, false);
		kms_format_object(pb, sizeof(pb), fresh, b, false);
		if (!strcmp(pa, pb) || bad++ >= MAX_REPORTED)
			continue;
		printf("%016llx %s: the tables say ",
		       (unsigned long long)sym->address, sym->name);
		print_attr(in->tables, a);
		fputs(", the build says ", stdout);
		print_attr(fresh, b);
		putchar('\n');
	}
	return bad;
}

/*
 * Report @pa (a module list the tables give @sym, which @judged does not)
 * once: returns false if it was reported before.
 */
static bool first_time(char ***seen, size_t *nr, size_t *cap, const char *pa)
{
	for (size_t i = 0; i < *nr; i++)
		if (!strcmp((*seen)[i], pa))
			return false;
	if (KMS_RESERVE(*seen, *cap, *nr + 1))
		return false;
	(*seen)[*nr] = strdup(pa);
	return (*seen)[*nr] && ++*nr;
}

/*
 * The built-in modules of the tables that Kconfig and the Makefiles say
 * can never be modules: one line for each (with its first symbol), their
 * count in *@ret_bad; none where the tree is not configured.
 */
static struct kms_error *check_modularity(struct inspector *in,
					  const struct verify_settings *o,
					  size_t *ret_bad)
{
	const struct kms_symbols *syms = inspector_symbols(in);
	uint32_t c1 = KMS_NONE, c2 = KMS_NONE;
	uint64_t text = syms->text_address;
	struct kms_tables *judged;
	struct kms_error *err;
	char pa[4096], pb[4096], **seen = NULL;
	size_t i, nr = 0, cap = 0;

	err = regenerate(in, o, true, &judged);
	if (err)
		return err;
	for (i = 0; i < syms->nr; i++) {
		const struct kms_symbol *sym = &syms->syms[i];
		uint32_t a, b;

		if (!kms_is_text_type(sym->type))
			continue;
		a = kms_address_object(in->tables, text, sym->address, &c1);
		b = kms_address_object(judged, text, sym->address, &c2);
		/* The modules alone: {objfile} names follow from them. */
		kms_format_object(pa, sizeof(pa), in->tables, a, true);
		kms_format_object(pb, sizeof(pb), judged, b, true);
		if (!strcmp(pa, pb) || !first_time(&seen, &nr, &cap, pa))
			continue;
		printf("%s: can never be a module, Kconfig and the Makefiles "
		       "say: its code from %016llx %s on is %s\n", pa,
		       (unsigned long long)sym->address, sym->name,
		       *pb ? pb : "core kernel");
	}
	kms_tables_destroy(judged);
	if (nr)
		printf("not modules: %zu in modules.builtin (their sources say "
		       "MODULE_LICENSE(); kallmodsyms-audit lists them)\n", nr);
	for (i = 0; i < nr; i++)
		free(seen[i]);
	free(seen);
	*ret_bad = nr;
	return NULL;
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	const struct verify_settings *o = settings;
	bool with_build = o->build_dir || o->map;
	struct kms_tables *fresh;
	struct kms_error *err;
	size_t bad, not_modules = 0, compared = 0;

	(void)argc;
	(void)argv;
	bad = check_structure(in);
	if (with_build) {
		err = regenerate(in, o, false, &fresh);
		if (err)
			return inspector_fail(err);
		bad = compare(in, fresh, bad, &compared);
		kms_tables_destroy(fresh);
	}
	if (bad > MAX_REPORTED)
		printf("... %zu disagreements in all\n", bad);
	if (!bad)
		printf("agree: %u ranges%s%zu symbols compared with the build\n",
		       in->tables->nr_ranges, with_build ? ", " : "; ", compared);
	if (with_build && !bad && !o->no_modularity) {
		err = check_modularity(in, o, &not_modules);
		if (err)
			return inspector_fail(err);
	}
	return bad || not_modules ? 1 : 0;
}

static struct verify_settings settings;

#define VERIFY(member) .has_arg = true, .set = option_set_string, \
		       .offset = offsetof(struct verify_settings, member)

static const struct command_option option_build_dir = {
	.name = "build-dir", .letter = 'b', VERIFY(build_dir),
	.help = "  -b, --build-dir DIR     regenerate from this build tree\n"
		"      --map, --o-map, --builtin FILE   as kallmodsyms-gen -m, -M, -B\n",
};

static const struct command_option option_map = {
	.name = "map", VERIFY(map),
};

static const struct command_option option_o_map = {
	.name = "o-map", VERIFY(o_map),
};

static const struct command_option option_builtin = {
	.name = "builtin", VERIFY(builtin),
};

static const struct command_option option_no_modularity = {
	.name = "no-modularity", .set = option_set_true,
	.offset = offsetof(struct verify_settings, no_modularity),
	.help = "      --no-modularity     do not ask Kconfig and the Makefiles which\n"
		"                          built-in modules can never be modules\n",
};

const struct command command_verify = {
	.name = "verify", .run = run, .args = "",
	.help = "do the tables agree with VMLINUX (and its build)?",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_build_dir,
		&option_map, &option_o_map, &option_builtin,
		&option_no_modularity, NULL },
	.settings = &settings,
};
