// SPDX-License-Identifier: GPL-2.0
/*
 * The inspector's DWARF (inspector.h): the vmlinux's debugging
 * information, opened through libdwfl on the first question, once, on the
 * inspector's open file, and the source files and lines of addresses.
 * inspector_close() ends it.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <string.h>
#include <unistd.h>

#include "inspector.h"

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* The vmlinux's DWARF module, opened on first use, or NULL. */
static Dwfl_Module *dwarf(struct inspector *in)
{
	int fd;

	if (in->dwarf_tried)
		return in->dwarf;
	in->dwarf_tried = true;
	if (!kms_elf_section(in->elf, ".debug_info") &&
	    !kms_elf_section(in->elf, ".debug_line"))
		return NULL;
	in->dwfl = dwfl_begin(&offline_callbacks);
	if (!in->dwfl)
		return NULL;
	/*
	 * At its link-time addresses: dwfl_report_offline() would move an
	 * ET_DYN image (arm64's relocatable vmlinux) past its last module.
	 */
	fd = dup(in->elf->fd);	/* libdwfl closes it: the same open file */
	in->dwarf = dwfl_report_elf(in->dwfl, "vmlinux", in->vmlinux, fd, 0,
				    true);
	dwfl_report_end(in->dwfl, NULL, NULL);
	return in->dwarf;
}

/* @file relative to @dir when under it. */
static const char *relative(const char *file, const char *dir)
{
	size_t len = dir ? strlen(dir) : 0;

	if (len && !strncmp(file, dir, len) && file[len] == '/')
		return file + len + 1;
	return file;
}

const char *inspector_unit_file(struct inspector *in, uint64_t addr)
{
	Dwfl_Module *mod = dwarf(in);
	Dwarf_Attribute attr;
	const char *name;
	Dwarf_Addr bias;
	Dwarf_Die *cu;

	cu = mod ? dwfl_module_addrdie(mod, addr, &bias) : NULL;
	name = cu ? dwarf_diename(cu) : NULL;
	if (!name)
		return NULL;
	return relative(name, dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir,
							  &attr)));
}

const char *inspector_line(struct inspector *in, uint64_t addr,
			   int *ret_line)
{
	Dwfl_Module *mod = dwarf(in);
	Dwfl_Line *line = mod ? dwfl_module_getsrc(mod, addr) : NULL;
	const char *file;

	file = line ? dwfl_lineinfo(line, NULL, ret_line, NULL, NULL, NULL) :
	       NULL;
	return file ? relative(file, dwfl_line_comp_dir(line)) : NULL;
}
