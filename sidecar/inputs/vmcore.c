// SPDX-License-Identifier: GPL-2.0
/*
 * Crash dumps (kms/vmcore.h): an ELF core through libelf's map of the
 * file, or a kdump-compressed dump's headers; VMCOREINFO, NT_PRSTATUS,
 * the build id, and the physical memory the dump holds (vmcore_dump.h),
 * which vmcore_memory.c reads kernel memory from.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kms/util.h>
#include <kms/vmcore.h>

#include "vmcore_dump.h"

/* struct elf_prstatus's pr_reg, on both 64-bit architectures. */
#define PRSTATUS_REGS 112

/* makedumpfile's disk_dump_header and kdump_sub_header (64-bit). */
#define KDUMP_SIGNATURE "KDUMP   "
#define KDUMP_VERSION 8			/* header_version */
#define KDUMP_BLOCK_SIZE 428		/* block_size: where the sub-header is */
#define KDUMP_HEADER_END 432
#define KDUMP_SUB_VMCOREINFO 32		/* offset_vmcoreinfo, size_vmcoreinfo */
/* ...written to a pipe (makedumpfile -F, QEMU's -z to a socket) */
#define FLAT_SIGNATURE "makedumpfile\0\0\0"

/* The kernel's build ids are SHA-1s: VMCOREINFO's BUILD-ID has 20 bytes. */
#define BUILD_ID_SIZE 20

static const struct vmcore_arch vmcore_arches[] = {
	/* user_regs_struct: r15 r14 ... rdi orig_rax rip cs eflags rsp ... */
	{ EM_X86_64, "x86_64", 27, 16, 19 },
	/* user_pt_regs: x0..x30, sp, pc, pstate */
	{ EM_AARCH64, "aarch64", 34, 32, 31 },
};

/* A PT_LOAD segment: physical memory the file holds. */
struct vmcore_load {
	uint64_t paddr;
	uint64_t size;		/* p_filesz */
	const unsigned char *data;
};

struct vmcore_info {
	const char *key;
	const char *value;
};

struct kms_vmcore {
	char *path;
	int fd;
	Elf *elf;
	const unsigned char *file;	/* all of it, mapped by libelf */
	size_t file_size;
	const struct vmcore_arch *arch;	/* NULL for a compressed dump */
	const unsigned char *info_desc;	/* the VMCOREINFO note's text */
	size_t info_size;
	char *info_text;		/* its copy, cut into keys and values */
	struct vmcore_info *info;
	size_t nr_info, info_cap;
	struct vmcore_load *loads;	/* by physical address */
	size_t nr_loads, loads_cap;
	struct kms_vmcore_cpu *cpus;
	size_t nr_cpus, cpus_cap;
};

static struct kms_error *truncated(const struct kms_vmcore *vc,
				   const char *what, uint64_t end)
{
	return kms_error_file(vc->path,
			      "truncated: %s ends at byte %llu, the file has %zu bytes",
			      what, (unsigned long long)end, vc->file_size);
}

/* Is [@offset, +@size) inside the file? */
static bool in_file(const struct kms_vmcore *vc, uint64_t offset,
		    uint64_t size)
{
	return offset <= vc->file_size && size <= vc->file_size - offset;
}

/* Notes */

static bool is_note(const GElf_Nhdr *nh, const char *name, const char *want,
		    uint32_t type)
{
	size_t len = strlen(want);

	return nh->n_type == type &&
	       (nh->n_namesz == len || nh->n_namesz == len + 1) &&
	       !memcmp(name, want, len);
}

static struct kms_error *add_cpu(struct kms_vmcore *vc,
				 const unsigned char *desc, size_t size)
{
	const struct vmcore_arch *a = vc->arch;
	struct kms_vmcore_cpu *cpu;
	struct kms_error *err;

	if (size < PRSTATUS_REGS + 8 * a->nr_regs)
		return kms_error_file(vc->path,
				      "NT_PRSTATUS note %zu has %zu bytes, too few for %s's registers",
				      vc->nr_cpus, size, a->name);
	err = KMS_RESERVE(vc->cpus, vc->cpus_cap, vc->nr_cpus + 1);
	if (err)
		return err;
	cpu = &vc->cpus[vc->nr_cpus++];
	cpu->pc = kms_get_le64(desc + PRSTATUS_REGS + 8 * a->pc);
	cpu->sp = kms_get_le64(desc + PRSTATUS_REGS + 8 * a->sp);
	return NULL;
}

static struct kms_error *take_note(struct kms_vmcore *vc, const GElf_Nhdr *nh,
				   const char *name,
				   const unsigned char *desc)
{
	if (is_note(nh, name, "VMCOREINFO", 0)) {
		if (!vc->info_desc) {
			vc->info_desc = desc;
			vc->info_size = nh->n_descsz;
		}
		return NULL;
	}
	if (is_note(nh, name, "CORE", NT_PRSTATUS))
		return add_cpu(vc, desc, nh->n_descsz);
	return NULL;
}

/* The notes of PT_NOTE segment @i, at @offset (in the file) for @size. */
static struct kms_error *read_notes(struct kms_vmcore *vc, size_t i,
				    uint64_t offset, uint64_t size)
{
	size_t pos = 0, next, name_off, desc_off;
	struct kms_error *err;
	Elf_Data *data;
	GElf_Nhdr nh;

	if (!size)
		return NULL;
	data = elf_getdata_rawchunk(vc->elf, offset, size, ELF_T_NHDR);
	if (!data)
		return kms_error_file(vc->path, "segment %zu (PT_NOTE): %s", i,
				      elf_errmsg(-1));
	while (data->d_size - pos >= sizeof(nh)) {
		next = gelf_getnote(data, pos, &nh, &name_off, &desc_off);
		if (!next)
			return kms_error_file(vc->path,
					      "segment %zu (PT_NOTE): the note at byte %zu of %zu runs past its end",
					      i, pos, data->d_size);
		err = take_note(vc, &nh, (const char *)data->d_buf + name_off,
				(const unsigned char *)data->d_buf + desc_off);
		if (err)
			return err;
		pos = next;
	}
	return NULL;
}

/* ELF cores */

static struct kms_error *add_load(struct kms_vmcore *vc, const GElf_Phdr *ph)
{
	struct kms_error *err;

	if (!ph->p_filesz)
		return NULL;
	err = KMS_RESERVE(vc->loads, vc->loads_cap, vc->nr_loads + 1);
	if (err)
		return err;
	vc->loads[vc->nr_loads++] = (struct vmcore_load){
		.paddr = ph->p_paddr,
		.size = ph->p_filesz,
		.data = vc->file + ph->p_offset,
	};
	return NULL;
}

static struct kms_error *read_segment(struct kms_vmcore *vc, size_t i)
{
	const char *type;
	char what[128];
	GElf_Phdr ph;

	if (!gelf_getphdr(vc->elf, i, &ph))
		return kms_error_file(vc->path, "program header %zu: %s", i,
				      elf_errmsg(-1));
	if (ph.p_type != PT_LOAD && ph.p_type != PT_NOTE)
		return NULL;
	type = ph.p_type == PT_LOAD ? "PT_LOAD" : "PT_NOTE";
	if (!in_file(vc, ph.p_offset, ph.p_filesz)) {
		snprintf(what, sizeof(what), "segment %zu (%s, %llu bytes from offset %llu)",
			 i, type, (unsigned long long)ph.p_filesz,
			 (unsigned long long)ph.p_offset);
		return truncated(vc, what, ph.p_offset + ph.p_filesz);
	}
	if (ph.p_type == PT_NOTE)
		return read_notes(vc, i, ph.p_offset, ph.p_filesz);
	return add_load(vc, &ph);
}

static struct kms_error *find_arch(struct kms_vmcore *vc,
				   const GElf_Ehdr *ehdr)
{
	size_t i;

	if (ehdr->e_ident[EI_CLASS] != ELFCLASS64 ||
	    ehdr->e_ident[EI_DATA] != ELFDATA2LSB)
		return kms_error_file(vc->path,
				      "a core dump of ELF class %u, data %u: only ELF64 little-endian dumps are read",
				      ehdr->e_ident[EI_CLASS],
				      ehdr->e_ident[EI_DATA]);
	for (i = 0; i < KMS_ARRAY_SIZE(vmcore_arches); i++)
		if (vmcore_arches[i].machine == ehdr->e_machine)
			vc->arch = &vmcore_arches[i];
	if (vc->arch)
		return NULL;
	return kms_error_file(vc->path,
			      "a core dump of ELF machine %u: only x86_64 and aarch64 dumps are read",
			      ehdr->e_machine);
}

static int load_before(const void *a, const void *b)
{
	const struct vmcore_load *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

static struct kms_error *open_elf(struct kms_vmcore *vc)
{
	struct kms_error *err;
	uint64_t end;
	GElf_Ehdr ehdr;
	size_t i, n;

	if (!gelf_getehdr(vc->elf, &ehdr) || ehdr.e_type != ET_CORE)
		return kms_error_file(vc->path, "not an ELF core dump");
	err = find_arch(vc, &ehdr);
	if (err)
		return err;
	/* libelf counts only the headers the file holds. */
	n = ehdr.e_phnum;
	if (n == PN_XNUM && elf_getphdrnum(vc->elf, &n))
		return kms_error_file(vc->path, "bad program headers: %s",
				      elf_errmsg(-1));
	end = ehdr.e_phoff + (uint64_t)n * ehdr.e_phentsize;
	if (!in_file(vc, ehdr.e_phoff, (uint64_t)n * ehdr.e_phentsize))
		return truncated(vc, "its program header table", end);
	for (i = 0; i < n && !err; i++)
		err = read_segment(vc, i);
	if (err)
		return err;
	qsort(vc->loads, vc->nr_loads, sizeof(*vc->loads), load_before);
	return NULL;
}

/* kdump-compressed dumps: VMCOREINFO alone */

static struct kms_error *open_kdump(struct kms_vmcore *vc)
{
	uint64_t sub, offset, size;
	uint32_t version;
	char what[128];

	if (vc->file_size < KDUMP_HEADER_END)
		return truncated(vc, "its kdump header", KDUMP_HEADER_END);
	version = kms_get_le32(vc->file + KDUMP_VERSION);
	sub = kms_get_le32(vc->file + KDUMP_BLOCK_SIZE);
	/* header_version 3 brought VMCOREINFO. */
	if (version < 3)
		return NULL;
	if (!in_file(vc, sub, KDUMP_SUB_VMCOREINFO + 16))
		return truncated(vc, "its kdump sub-header",
				 sub + KDUMP_SUB_VMCOREINFO + 16);
	offset = kms_get_le64(vc->file + sub + KDUMP_SUB_VMCOREINFO);
	size = kms_get_le64(vc->file + sub + KDUMP_SUB_VMCOREINFO + 8);
	if (!in_file(vc, offset, size)) {
		snprintf(what, sizeof(what), "its VMCOREINFO (%llu bytes from offset %llu)",
			 (unsigned long long)size, (unsigned long long)offset);
		return truncated(vc, what, offset + size);
	}
	if (size) {
		vc->info_desc = vc->file + offset;
		vc->info_size = size;
	}
	return NULL;
}

/* VMCOREINFO */

/* Cut a copy of the note's "KEY=VALUE\n" lines into vc->info. */
static struct kms_error *parse_info(struct kms_vmcore *vc)
{
	struct kms_error *err;
	char *p, *next, *eq;

	vc->info_text = malloc(vc->info_size + 1);
	if (!vc->info_text)
		return &kms_error_nomem;
	memcpy(vc->info_text, vc->info_desc, vc->info_size);
	vc->info_text[vc->info_size] = '\0';
	for (p = vc->info_text; *p; p = next) {
		next = p + strcspn(p, "\n");
		if (*next)
			*next++ = '\0';
		eq = strchr(p, '=');
		if (!eq)
			continue;
		*eq = '\0';
		err = KMS_RESERVE(vc->info, vc->info_cap, vc->nr_info + 1);
		if (err)
			return err;
		vc->info[vc->nr_info++] = (struct vmcore_info){ p, eq + 1 };
	}
	return NULL;
}

const char *kms_vmcore_info(const struct kms_vmcore *vc, const char *key)
{
	size_t i;

	for (i = 0; i < vc->nr_info; i++)
		if (!strcmp(vc->info[i].key, key))
			return vc->info[i].value;
	return NULL;
}

/* @value as the kernel writes it: %lx (@hex), or %ld, %lu, 0x%llx. */
static bool parse_number(const char *value, bool hex, uint64_t *ret)
{
	unsigned char c = *value;
	uint64_t n;
	char *end;

	if (hex ? !isxdigit(c) : !isdigit(c) && c != '-')
		return false;
	errno = 0;
	if (hex)
		n = strtoull(value, &end, 16);
	else if (c == '-')
		n = strtoll(value, &end, 10);
	else
		n = strtoull(value, &end, 0);
	if (errno || end == value || *end)
		return false;
	*ret = n;
	return true;
}

struct kms_error *kms_vmcore_info_number(const struct kms_vmcore *vc,
					 const char *key, uint64_t *ret)
{
	const char *value = kms_vmcore_info(vc, key);
	bool hex = !strncmp(key, "SYMBOL(", 7) || !strcmp(key, "KERNELOFFSET");

	if (!value)
		return kms_error_file(vc->path, "its VMCOREINFO has no %s", key);
	if (!parse_number(value, hex, ret))
		return kms_error_file(vc->path, "VMCOREINFO: %s=%s is not a %snumber",
				      key, value, hex ? "hex " : "");
	return NULL;
}

/* Opening */

static struct kms_error *map_file(const char *path, struct kms_vmcore **ret)
{
	struct kms_vmcore *vc;
	struct stat st;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return kms_error_fmt("libelf: %s", elf_errmsg(-1));
	vc = calloc(1, sizeof(*vc));
	if (!vc)
		return &kms_error_nomem;
	*ret = vc;
	vc->fd = -1;
	vc->path = strdup(path);
	if (!vc->path)
		return &kms_error_nomem;
	vc->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (vc->fd < 0)
		return kms_error_errno(path, "cannot open");
	if (fstat(vc->fd, &st))
		return kms_error_errno(path, "cannot stat");
	if (S_ISDIR(st.st_mode))
		return kms_error_file(path, "a directory, not a crash dump");
	vc->elf = elf_begin(vc->fd, ELF_C_READ_MMAP, NULL);
	if (!vc->elf)
		return kms_error_file(path, "not an ELF core dump (%s)",
				      elf_errmsg(-1));
	vc->file = (const unsigned char *)elf_rawfile(vc->elf, &vc->file_size);
	if (!vc->file)
		vc->file_size = 0;
	return NULL;
}

struct kms_error *kms_vmcore_open(const char *path, struct kms_vmcore **ret)
{
	struct kms_vmcore *vc = NULL;
	struct kms_error *err;

	err = map_file(path, &vc);
	if (err)
		goto fail;
	if (vc->file_size >= 8 && !memcmp(vc->file, KDUMP_SIGNATURE, 8))
		err = open_kdump(vc);
	else if (vc->file_size >= 16 && !memcmp(vc->file, FLAT_SIGNATURE, 16))
		err = kms_error_file(path, "a flattened kdump-compressed dump: rearrange it first (makedumpfile -R NEWFILE < FILE)");
	else if (elf_kind(vc->elf) == ELF_K_ELF)
		err = open_elf(vc);
	else
		err = kms_error_file(path, "not an ELF core dump");
	if (!err && !vc->info_desc)
		err = kms_error_file(path, "no VMCOREINFO note: not a kernel's dump, or QEMU ran without -device vmcoreinfo");
	if (!err)
		err = parse_info(vc);
	if (err)
		goto fail;
	*ret = vc;
	return NULL;
fail:
	kms_vmcore_close(vc);
	return err;
}

void kms_vmcore_close(struct kms_vmcore *vc)
{
	if (!vc)
		return;
	if (vc->elf)
		elf_end(vc->elf);
	if (vc->fd >= 0)
		close(vc->fd);
	free(vc->cpus);
	free(vc->loads);
	free(vc->info);
	free(vc->info_text);
	free(vc->path);
	free(vc);
}

const char *kms_vmcore_path(const struct kms_vmcore *vc)
{
	return vc->path;
}

size_t kms_vmcore_nr_cpus(const struct kms_vmcore *vc)
{
	return vc->nr_cpus;
}

const struct kms_vmcore_cpu *kms_vmcore_cpus(const struct kms_vmcore *vc)
{
	return vc->cpus;
}

/* The build id */

/*
 * @vmlinux's build id as VMCOREINFO prints it: hex, padded with zeros to
 * BUILD_ID_SIZE bytes (the kernel's "BUILD-ID=%20phN").
 */
static bool vmlinux_build_id(struct kms_elf *vmlinux, char *hex,
			     size_t hex_size)
{
	const unsigned char *id;
	size_t size, i;

	if (!kms_elf_build_id(vmlinux, &id, &size) || 2 * size >= hex_size)
		return false;
	for (i = 0; i < size || i < BUILD_ID_SIZE; i++)
		sprintf(hex + 2 * i, "%02x", i < size ? id[i] : 0);
	return true;
}

struct kms_error *kms_vmcore_check_vmlinux(const struct kms_vmcore *vc,
					   struct kms_elf *vmlinux)
{
	const char *theirs = kms_vmcore_info(vc, "BUILD-ID");
	char mine[4 * BUILD_ID_SIZE + 1];

	if (!theirs)
		return kms_error_file(vc->path,
				      "its VMCOREINFO has no BUILD-ID (a kernel before 5.16?): cannot tell whether it is a dump of %s",
				      vmlinux->path);
	if (!vmlinux_build_id(vmlinux, mine, sizeof(mine)))
		return kms_error_file(vmlinux->path,
				      "no GNU build-id note: cannot tell whether %s is a dump of it",
				      vc->path);
	if (strcasecmp(theirs, mine))
		return kms_error_file(vc->path,
				      "a dump of another kernel: its build id is %s, %s's is %s",
				      theirs, vmlinux->path, mine);
	return NULL;
}

/* Physical memory (vmcore_dump.h) */

const struct vmcore_arch *vmcore_arch(const struct kms_vmcore *vc)
{
	return vc->arch;
}

const unsigned char *vmcore_physical(const struct kms_vmcore *vc,
				     uint64_t pa, size_t *ret_avail)
{
	struct vmcore_load key = { .paddr = pa };
	size_t i = kms_upper_bound(&key, vc->loads, vc->nr_loads,
				   sizeof(*vc->loads), load_before);

	while (i--) {
		const struct vmcore_load *l = &vc->loads[i];

		if (pa - l->paddr < l->size) {
			*ret_avail = l->size - (pa - l->paddr);
			return l->data + (pa - l->paddr);
		}
	}
	return NULL;
}
