// SPDX-License-Identifier: GPL-2.0
/*
 * The services every phase of state.h may call: warnings, and the
 * vmlinux's symbols, read once.  A leaf: it calls no other file of
 * sidecar/gen, so that no phase calls back into the driver (gen.c).
 */
#include <stdarg.h>
#include <stdio.h>

#include "state.h"

struct kms_error *gen_symtab(struct gen *g, const struct kms_symbols **ret)
{
	if (!g->symtab) {
		struct kms_error *err = kms_symbols_read(g->elf,
							 KMS_SYMBOLS_SYMTAB,
							 &g->symtab);
		if (err)
			return err;
	}
	*ret = g->symtab;
	return NULL;
}

void gen_warn(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	if (!g->opts->warnings)
		return;
	fprintf(g->opts->warnings, "%s: warning: ",
		g->opts->prog ? g->opts->prog : "kallmodsyms-gen");
	va_start(ap, fmt);
	vfprintf(g->opts->warnings, fmt, ap);
	va_end(ap);
	fputc('\n', g->opts->warnings);
}
