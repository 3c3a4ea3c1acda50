// SPDX-License-Identifier: GPL-2.0
/*
 * verify: do the tables agree with the vmlinux?  Always: every attributed
 * range lies inside one of the image's executable sections (code such as
 * .altinstr_replacement holds no symbols, so that is not asked).  With the
 * build's maps (--build-dir or --map): the tables are regenerated from them
 * and every text symbol's annotation compared.  Exit 0 when they agree;
 * the first disagreements are printed.
 */
#include <stdlib.h>
#include <string.h>

#include <kms/format.h>

#include "annotate.h"
#include <kms/gen.h>
#include "inspector.h"

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

		if (kms_range_object(t, r) == KMS_NONE)
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

int cmd_verify(struct inspector *in, int argc, char **argv)
{
	const struct options *o = in->opts;
	struct kms_gen_options gen = { .vmlinux = in->vmlinux };
	struct kms_tables *fresh = NULL;
	struct kms_error *err;
	uint32_t c1 = KMS_NONE, c2 = KMS_NONE;
	size_t bad, i, compared = 0;
	char *map = NULL, *dir = NULL;
	void *blob;
	size_t size;

	(void)argc;
	(void)argv;
	bad = check_structure(in);

	if (o->build_dir || o->map) {
		const char *slash = strrchr(in->vmlinux, '/');

		dir = o->build_dir ? strdup(o->build_dir) :
		      strndup(in->vmlinux, slash ? slash - in->vmlinux : 1);
		if (!o->build_dir && !slash)
			dir[0] = '.';
		if (!o->map && asprintf(&map, "%s.map", in->vmlinux) < 0)
			map = NULL;
		gen.build_dir = dir;
		gen.map = o->map ? o->map : map;
		gen.o_map = o->o_map;
		gen.builtin = o->builtin;
		if (!dir || !gen.map) {
			err = &kms_error_nomem;
			goto fail;
		}
		err = kms_generate(&gen, &blob, &size, NULL);
		if (!err) {
			err = kms_blob_decode(blob, size, "regenerated", &fresh);
			free(blob);
		}
		if (err)
			goto fail;
		for (i = 0; i < in->syms->nr; i++) {
			const struct kms_symbol *sym = &in->syms->syms[i];
			uint32_t a, b;
			char pa[4096], pb[4096];

			if (!kms_is_text_type(sym->type))
				continue;
			compared++;
			a = kms_address_object(in->tables, in->syms->text_address,
					       sym->address, &c1);
			b = kms_address_object(fresh, in->syms->text_address,
					       sym->address, &c2);
			/* Compare what they print, not table indices. */
			kms_format_object(pa, sizeof(pa), in->tables, a, false);
			kms_format_object(pb, sizeof(pb), fresh, b, false);
			if (!strcmp(pa, pb))
				continue;
			if (bad++ < MAX_REPORTED) {
				printf("%016llx %s: the tables say ",
				       (unsigned long long)sym->address, sym->name);
				print_attr(in->tables, a);
				fputs(", the build says ", stdout);
				print_attr(fresh, b);
				putchar('\n');
			}
		}
	}
	if (bad > MAX_REPORTED)
		printf("... %zu disagreements in all\n", bad);
	if (!bad)
		printf("agree: %u ranges%s%zu text symbols compared with the build\n",
		       in->tables->nr_ranges, fresh ? ", " : "; ", fresh ? compared : 0);
	kms_tables_destroy(fresh);
	free(map);
	free(dir);
	return bad ? 1 : 0;

fail:
	kms_tables_destroy(fresh);
	free(map);
	free(dir);
	return inspector_fail(err);
}
