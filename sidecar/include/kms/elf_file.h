/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A vmlinux (or any x86-64 ELF64 file) opened read-only through libelf, with
 * the few look-ups the tools need: sections by name, symbols by name, and
 * bytes at a link-time address.
 */
#ifndef KMS_ELF_FILE_H
#define KMS_ELF_FILE_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>

/* An architecture the tools know (see kms_elf_open()). */
struct kms_arch {
	uint16_t machine;	/* e_machine */
	const char *name;	/* as uname -m says it */
	const char *bfd;	/* as GNU ld's map says it: "OUTPUT(vmlinux BFD)" */
	/*
	 * R_*_RELATIVE, where a RELOCATABLE image leaves its pointers zero
	 * and relocates itself at boot (arm64); 0 where the image holds
	 * the link-time values (x86-64).
	 */
	uint32_t relative_reloc;
};

/* The known architecture whose GNU ld BFD name is @bfd, or NULL. */
const struct kms_arch *kms_arch_by_bfd(const char *bfd);

struct kms_elf {
	char *path;
	const struct kms_arch *arch;	/* NULL: not one the tools know */
	int fd;
	Elf *elf;
	size_t shstrndx;
	Elf_Scn *symtab;	/* NULL when stripped */
	size_t nr_symbols;
	size_t first_global;	/* sh_info: the locals are 1 .. first_global - 1 */
	Elf_Data *symtab_data;
	size_t strtab_index;
	/*
	 * The same, read in place when the file is ELF64 and its string
	 * table ends in a NUL (else NULL: through gelf_getsym(), elf_strptr()).
	 */
	const Elf64_Sym *syms64;
	const char *strtab;
	size_t strtab_size;
	struct kms_elf_memo *memo;	/* kms_elf_symbols_ahead()'s answers */
	size_t nr_memo;
};

/*
 * Open @path, a vmlinux or other image whose symbols the tools read: fails
 * unless it is an ELF file with sections of an architecture they know.
 */
struct kms_error *kms_elf_open(const char *path, struct kms_elf **ret);
/*
 * Open @path for its notes alone: any ELF class, byte order and machine.
 * libelf gives note headers in the host's byte order, whatever the file's.
 */
struct kms_error *kms_elf_open_any(const char *path, struct kms_elf **ret);
void kms_elf_close(struct kms_elf *elf);

/* True if @buf (at least 4 bytes) starts with the ELF magic. */
bool kms_is_elf(const void *buf, size_t size);

/* The section called @name, or NULL. */
Elf_Scn *kms_elf_section(struct kms_elf *elf, const char *name);

const char *kms_elf_section_name(struct kms_elf *elf, Elf_Scn *scn);

/*
 * The descriptor of @elf's GNU build-id note (NT_GNU_BUILD_ID), in any
 * note section: *@ret_size bytes that @elf owns.  False if it has none.
 */
bool kms_elf_build_id(struct kms_elf *elf, const unsigned char **ret,
		      size_t *ret_size);

/*
 * The value of the defined symbol called @name: the global (or weak) one,
 * which references from other files resolve to, else the first local one.
 * The globals are searched first, those without a type or size first of
 * all: the names the tools ask for (the linker script's, the kallsyms
 * tables') are such, and few others are.  It reads the symbol table in
 * place and allocates nothing: its only errors are of class
 * KMS_ERR_ABSENT (no symbol table, no such symbol), which callers may
 * take for "not there".
 */
struct kms_error *kms_elf_symbol(struct kms_elf *elf, const char *name,
				 uint64_t *ret_value);

/*
 * The @n symbols @names will be asked for: the first kms_elf_symbol() call
 * for one of them looks up every name given so far (and not yet looked
 * up) in one pass over the symbol table (the globals, then the locals if
 * some name is not global), and the later calls for them are answered
 * (found or not) from memory.  So that callers that each need a few
 * names share one pass.  Does nothing if memory is short.
 */
void kms_elf_symbols_ahead(struct kms_elf *elf, const char *const *names,
			   size_t n);

/*
 * The names of the symbols defined at @value in a section (not undefined,
 * not absolute), in symbol table order, *@ret_nr of them: an array to
 * free(), of strings that @elf owns.  None when @elf has no symbol table.
 */
struct kms_error *kms_elf_symbols_at(struct kms_elf *elf, uint64_t value,
				     const char ***ret_names, size_t *ret_nr);

/*
 * Point at @size bytes of section contents at link-time address @addr.
 * Fails if they are not all inside one allocated section with contents.
 */
struct kms_error *kms_elf_bytes_at(struct kms_elf *elf, uint64_t addr,
				   uint64_t size, const unsigned char **ret);

/*
 * The 64-bit pointer at @addr as the kernel has it once running: where
 * the arch has a relative_reloc, an image built RELOCATABLE holds zero
 * there and the value in such a relocation of .rela.dyn, which the kernel
 * applies to itself at boot.
 */
struct kms_error *kms_elf_pointer_at(struct kms_elf *elf, uint64_t addr,
				     uint64_t *ret_value);

#endif /* KMS_ELF_FILE_H */
