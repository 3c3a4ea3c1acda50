// SPDX-License-Identifier: GPL-2.0
/*
 * --explain: every object with its modules and {name}, the modules.builtin
 * names dropped as never modules, and with --dwarf the modules whose
 * objects are unknown; -ee adds every text range with its object.
 */
#include <stdio.h>

#include "state.h"

static void explain_unknown(const struct gen *g, const char *modpath)
{
	if (g->composition)
		fprintf(g->opts->explain,
			"module %s: objects unknown (neither %s.o nor a member the Makefiles give it has text)\n",
			modpath, modpath);
	else
		fprintf(g->opts->explain,
			"module %s: objects unknown (no %s.o: a multi-object module, or no text; modules.builtin.ranges or -S would tell)\n",
			modpath, modpath);
}

void gen_explain(struct gen *g)
{
	FILE *f = g->opts->explain;
	size_t i, k;

	if (!f)
		return;
	if (g->opts->dwarf)
		gen_unknown_modules(g, explain_unknown);
	for (i = 0; i < g->object_paths.nr; i++) {
		const struct object *o = &g->objects[i];

		fputs(o->path, f);
		for (k = 0; k < o->nr_modules; k++)
			fprintf(f, "%s[%s]", k ? " " : "\t", o->modules[k]);
		if (o->name_components)
			fprintf(f, "%s{%s}", o->nr_modules ? " " : "\t",
				gen_path_suffix(o->path, o->name_components));
		if (o->nr_not_modules) {
			fputs("\tnot a module:", f);
			for (k = 0; k < o->nr_not_modules; k++)
				fprintf(f, " [%s]", o->not_modules[k]);
			fprintf(f, " (%s)", o->linkage == KMS_LINK_LIB ?
				"lib-y" : "obj-y with every tristate at m");
		}
		fputc('\n', f);
	}
	for (i = 0; g->opts->explain_ranges && i < g->nr_pieces; i++)
		fprintf(f, "range %#llx-%#llx %s\n",
			(unsigned long long)g->pieces[i].start,
			(unsigned long long)g->pieces[i].end,
			g->objects[g->pieces[i].object].path);
}
