/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel's link provides kernel/kallmodsyms.c, for the programs
 * that run it in userspace (fuzz_kernel_note.c, the conformance corpus's
 * kernel-judge.c); include it after kallmodsyms.c.
 *
 * The note's section is a 1 MiB area between __start_kallmodsyms and
 * __stop_kallmodsyms; the input is placed at its end, after a padding
 * note, so that reads past the input hit ASan's redzone.
 */
#ifndef KSHIM_NOTES_H
#define KSHIM_NOTES_H

char kshim_last_log[256];

#define KSHIM_NOTES_AREA (1u << 20)
u8 kshim_notes_area[KSHIM_NOTES_AREA] __attribute__((aligned(4)));
__asm__(".globl __start_kallmodsyms\n"
	".set __start_kallmodsyms, kshim_notes_area\n"
	".globl __stop_kallmodsyms\n"
	".set __stop_kallmodsyms, kshim_notes_area + 1048576\n");

/*
 * Make @data the end of .notes, a padding note (type 0, nobody's) before
 * it; false when it does not fit.
 */
static inline bool kshim_place_notes(const void *data, size_t size)
{
	size_t padded = (size + 3) & ~(size_t)3;
	size_t off = KSHIM_NOTES_AREA - padded;

	if (padded > KSHIM_NOTES_AREA - 12)
		return false;
	memcpy(kshim_notes_area,
	       &(Elf32_Nhdr){ 0, (Elf32_Word)(off - 12), 0 },
	       sizeof(Elf32_Nhdr));
	memset(kshim_notes_area + KSHIM_NOTES_AREA - 4, 0, 4);
	memcpy(kshim_notes_area + off, data, size);
	return true;
}

/* Forget what kallmodsyms_init() did, for the next input. */
static inline void kshim_reset(void)
{
	if (img.image)
		abort();	/* boot's decode leaked */
	vfree(kallmod.area);
	memset(&kallmod, 0, sizeof(kallmod));
	kallmod_ready = false;
	kshim_last_log[0] = '\0';
}

#endif /* KSHIM_NOTES_H */
