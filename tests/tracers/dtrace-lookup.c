// SPDX-License-Identifier: GPL-2.0
/*
 * dtrace-lookup: what libdtrace made of the kernel's symbol files.
 *
 * Opens libdtrace as the dtrace command does (dtrace_open() reads
 * /proc/kallmodsyms, or /proc/kallsyms and modules.builtin.ranges), then
 * answers one query per line of stdin:
 *
 *   a ADDR        -> "a ADDR MODULE NAME" (dtrace_lookup_by_addr()), or
 *                    "a ADDR -"
 *   n MODULE NAME -> "n MODULE NAME ADDR" (dtrace_lookup_by_name()), or
 *                    "n MODULE NAME -"
 *
 * usage: dtrace-lookup < QUERIES
 * Exit status: 0, or 1 when libdtrace cannot be opened (the message names
 * the call and libdtrace's error).  A test driver, not an installed tool.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dtrace.h>

static void answer(dtrace_hdl_t *dtp, const char *line)
{
	char mod[4096], name[4096];
	unsigned long long addr;
	dtrace_syminfo_t si;
	GElf_Sym sym;

	if (sscanf(line, "a %llx", &addr) == 1) {
		if (dtrace_lookup_by_addr(dtp, addr, &sym, &si) == 0)
			printf("a %llx %s %s\n", addr, si.object, si.name);
		else
			printf("a %llx -\n", addr);
	} else if (sscanf(line, "n %4095s %4095s", mod, name) == 2) {
		if (dtrace_lookup_by_name(dtp, mod, name, &sym, &si) == 0)
			printf("n %s %s %llx\n", mod, name,
			       (unsigned long long)sym.st_value);
		else
			printf("n %s %s -\n", mod, name);
	} else {
		printf("? %s", line);
	}
}

int main(void)
{
	char *line = NULL;
	size_t len = 0;
	dtrace_hdl_t *dtp;
	int err;

	dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	if (dtp == NULL) {
		fprintf(stderr, "dtrace-lookup: dtrace_open: %s\n",
			dtrace_errmsg(NULL, err));
		return 1;
	}
	while (getline(&line, &len, stdin) > 0)
		answer(dtp, line);
	free(line);
	dtrace_close(dtp);
	return 0;
}
