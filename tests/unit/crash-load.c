// SPDX-License-Identifier: GPL-2.0
/*
 * Load the crash extension at argv[1] as crash 8 does, dlopen() with
 * RTLD_NOW | RTLD_GLOBAL, standing in for crash: this program defines the
 * variables and functions of crash the extension refers to (the functions
 * are never called here; -rdynamic exports them to it).  It prints each
 * command the extension's constructor registers, then each of the names
 * given after the path that the extension has made visible to crash.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* crash's struct command_table_entry (defs.h): the name comes first. */
struct command_table_entry {
	char *name;
	void (*func)(void);
	char **help_data;
	unsigned long flags;
};

/* crash's variables, as far as the extension is concerned. */
FILE *fp;
char *args[100];
int argcnt;
void *pc;

void register_extension(struct command_table_entry *table);
void register_extension(struct command_table_entry *table)
{
	for (; table->name; table++)
		printf("registered %s\n", table->name);
}

#define STUB(name) void name(void); void name(void) { abort(); }
STUB(__error) STUB(cmd_usage) STUB(hexadecimal) STUB(htol)
STUB(next_symbol) STUB(readmem) STUB(symbol_exists) STUB(symbol_search)
STUB(symbol_search_next) STUB(symbol_value) STUB(value_search)

int main(int argc, char **argv)
{
	void *ext;

	if (argc < 2)
		return 2;
	ext = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
	if (!ext) {
		fprintf(stderr, "crash-load: %s\n", dlerror());
		return 1;
	}
	for (int i = 2; i < argc; i++)
		if (dlsym(RTLD_DEFAULT, argv[i]))
			printf("visible %s\n", argv[i]);
	dlclose(ext);
	return 0;
}
