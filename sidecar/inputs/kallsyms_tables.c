// SPDX-License-Identifier: GPL-2.0
/*
 * A vmlinux's kallsyms tables, found by their symbols and read in place
 * (kallsyms_tables.h): their bounds, and one symbol's name expanded from
 * its tokens.
 */
#include <stdint.h>

#include <kms/util.h>

#include "kallsyms_tables.h"

/* The @size bytes at symbol @sym in @elf, and (if @ret_addr) its address. */
static struct kms_error *table_at(struct kms_elf *elf, const char *sym,
				  uint64_t size, uint64_t *ret_addr,
				  const unsigned char **ret)
{
	struct kms_error *err;
	uint64_t addr;

	err = kms_elf_symbol(elf, sym, &addr);
	if (err)
		return err;
	err = kms_elf_bytes_at(elf, addr, size, ret);
	if (err)
		return kms_error_prefix(err, "%s", sym);
	if (ret_addr)
		*ret_addr = addr;
	return NULL;
}

/* Bytes available from @addr to the end of its section. */
static uint64_t bytes_left(struct kms_elf *elf, uint64_t addr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf->elf, scn))) {
		GElf_Shdr shdr;

		if (gelf_getshdr(scn, &shdr) && (shdr.sh_flags & SHF_ALLOC) &&
		    shdr.sh_type != SHT_NOBITS && addr >= shdr.sh_addr &&
		    addr - shdr.sh_addr < shdr.sh_size)
			return shdr.sh_size - (addr - shdr.sh_addr);
	}
	return 0;
}

struct kms_error *kallsyms_num_syms(struct kms_elf *elf, uint32_t *ret)
{
	const unsigned char *p;
	struct kms_error *err;

	err = table_at(elf, "kallsyms_num_syms", 4, NULL, &p);
	if (err)
		return err;
	*ret = kms_get_le32(p);
	return NULL;
}

struct kms_error *find_kallsyms_tables(struct kms_elf *elf,
				       struct kallsyms_tables *k)
{
	const unsigned char *p;
	struct kms_error *err;
	uint64_t addr;

	err = kallsyms_num_syms(elf, &k->nr_syms);
	if (err)
		return err;
	if (k->nr_syms == 0 || k->nr_syms > (1u << 24))
		return kms_error_file(elf->path, "implausible kallsyms_num_syms %u",
				      k->nr_syms);
	err = table_at(elf, "kallsyms_relative_base", 8, &addr, &p);
	if (!err)
		err = kms_elf_pointer_at(elf, addr, &k->relative_base);
	if (err)
		return err;
	err = table_at(elf, "kallsyms_offsets", 4ull * k->nr_syms, NULL,
		       &k->offsets);
	if (err)
		return err;
	err = table_at(elf, "kallsyms_token_index", 2 * 256, NULL,
		       &k->token_index);
	if (err)
		return err;
	err = table_at(elf, "kallsyms_token_table", 1, &addr, &k->token_table);
	if (err)
		return err;
	k->token_table_size = bytes_left(elf, addr);
	err = table_at(elf, "kallsyms_names", 1, &addr, &k->names);
	if (err)
		return err;
	k->names_size = bytes_left(elf, addr);
	return NULL;
}

int32_t kallsyms_offset(const struct kallsyms_tables *k, uint32_t i)
{
	return (int32_t)(k->offsets[4 * i] | k->offsets[4 * i + 1] << 8 |
			 k->offsets[4 * i + 2] << 16 |
			 (uint32_t)k->offsets[4 * i + 3] << 24);
}

struct kms_error *expand_name(struct kms_elf *elf,
			      const struct kallsyms_tables *k, uint32_t i,
			      uint64_t *pos, char *buf, size_t *ret_len)
{
	size_t blen = 0, len;

	if (*pos >= k->names_size)
		goto truncated;
	len = k->names[(*pos)++];
	if (len & 0x80) {
		if (*pos >= k->names_size)
			goto truncated;
		len = (len & 0x7f) | (size_t)k->names[(*pos)++] << 7;
	}
	if (len > k->names_size - *pos)
		goto truncated;
	for (; len; len--) {
		unsigned int idx = k->names[(*pos)++];
		uint64_t t = k->token_index[2 * idx] |
			     k->token_index[2 * idx + 1] << 8;

		for (; t < k->token_table_size && k->token_table[t]; t++) {
			if (blen >= KSYM_NAME_LEN)
				return kms_error_file(elf->path,
						      "kallsyms symbol %u is longer than %d bytes",
						      i, KSYM_NAME_LEN);
			buf[blen++] = k->token_table[t];
		}
		if (t >= k->token_table_size)
			goto truncated;
	}
	if (blen < 1)
		return kms_error_file(elf->path,
				      "kallsyms symbol %u has no type", i);
	buf[blen] = '\0';
	*ret_len = blen;
	return NULL;

truncated:
	return kms_error_file(elf->path, "kallsyms tables are truncated at symbol %u",
			      i);
}
