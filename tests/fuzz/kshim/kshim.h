/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's API to compile kernel/kallmodsyms.c (as the
 * patch series creates it) in userspace for the fuzz target kernel_note.
 * Every linux/ and asm/ header the file includes comes here.
 */
#ifndef KSHIM_H
#define KSHIM_H

#define ZSTD_STATIC_LINKING_ONLY
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef unsigned long long u64;
typedef uint32_t __le32;
typedef unsigned int gfp_t;

#define GFP_KERNEL 0u
#define __init
#define __ro_after_init
#define __initdata
#define __initconst
#define U16_MAX 0xffffu
#define U32_MAX 0xffffffffu
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define core_initcall(fn)
/* Not run: the init paths frame stays where the harness placed the note. */
#define late_initcall_sync(fn) \
	static int (*const kshim_##fn)(void) __attribute__((unused)) = fn
#define EXPORT_SYMBOL_GPL(sym)
/* The harnesses run one thread; the compiler's atomics keep the order. */
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define ALIGN(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))

/* The host's byte order: tests/conformance/run-cross.sh runs big-endian. */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define le32_to_cpu(x) __builtin_bswap32((u32)(x))
#else
#define le32_to_cpu(x) ((u32)(x))
#endif
static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return b[0] | b[1] << 8;
}
static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}
static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v;
	b[1] = v >> 8;
	b[2] = v >> 16;
	b[3] = v >> 24;
}

/*
 * printk: silent unless KSHIM_VERBOSE is set; the last line is kept.
 * pr_debug() prints nothing, as the kernel's without DEBUG.  %pV (a
 * struct va_format: a format and its arguments) is taken only as the
 * kernel file uses it, at the end of a format with no other conversion.
 */
#define __printf(a, b) __attribute__((format(printf, a, b)))
struct va_format {
	const char *fmt;
	va_list *va;
};
extern char kshim_last_log[256];
__printf(1, 2)
static inline void kshim_log(const char *fmt, ...)
{
	const char *pv = strstr(fmt, "%pV");
	size_t n = 0;
	va_list ap;

	va_start(ap, fmt);
	if (pv) {
		const struct va_format *vaf = va_arg(ap, const struct va_format *);
		va_list inner;

		n = (size_t)(pv - fmt) < sizeof(kshim_last_log) - 1 ?
		    (size_t)(pv - fmt) : sizeof(kshim_last_log) - 1;
		memcpy(kshim_last_log, fmt, n);
		va_copy(inner, *vaf->va);
		vsnprintf(kshim_last_log + n, sizeof(kshim_last_log) - n,
			  vaf->fmt, inner);
		va_end(inner);
	} else {
		vsnprintf(kshim_last_log, sizeof(kshim_last_log), fmt, ap);
	}
	va_end(ap);
	if (getenv("KSHIM_VERBOSE"))
		fputs(kshim_last_log, stderr);
}
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...) kshim_log(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) kshim_log(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) \
	do { if (0) kshim_log(pr_fmt(fmt), ##__VA_ARGS__); } while (0)

/* Memory. */
static inline void *kvmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return malloc(size);
}
/* As the kernel's: NULL when @n * @size overflows. */
static inline void *kvmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	if (size && n > SIZE_MAX / size)
		return NULL;
	return malloc(n * size);
}
static inline void kvfree(const void *p)
{
	free((void *)p);
}
#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)
#define PAGE_ALIGN(x) ALIGN((unsigned long)(x), PAGE_SIZE)
static inline void *vmalloc(unsigned long size)
{
	return malloc(size);
}
static inline void vfree(const void *p)
{
	free((void *)p);
}
/* Permissions: nothing to do in userspace. */
static inline void set_vm_flush_reset_perms(void *addr)
{
	(void)addr;
}
static inline int set_memory_ro(unsigned long addr, int numpages)
{
	(void)addr;
	(void)numpages;
	return 0;
}

/* Error pointers. */
#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) ((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error)
{
	return (void *)error;
}
static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}
static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE(ptr);
}
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE(ptr);
}
/* A broken invariant is a bug here as in the kernel: stop the fuzzer. */
#define WARN_ON_ONCE(cond) ((cond) ? (abort(), 1) : 0)

/* One thread: a mutex is a flag that must not be taken twice. */
struct mutex {
	bool locked;
};
#define __MUTEX_INITIALIZER(name) { false }
static inline void mutex_lock(struct mutex *m)
{
	if (m->locked)
		abort();
	m->locked = true;
}
static inline void mutex_unlock(struct mutex *m)
{
	m->locked = false;
}

/* Bitmaps. */
#define BITS_PER_LONG (8 * sizeof(long))
static inline unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t gfp)
{
	(void)gfp;
	return calloc((nbits + BITS_PER_LONG - 1) / BITS_PER_LONG, sizeof(long));
}
static inline void bitmap_free(unsigned long *map)
{
	free(map);
}
static inline void __set_bit(unsigned long nr, unsigned long *map)
{
	map[nr / BITS_PER_LONG] |= 1ul << (nr % BITS_PER_LONG);
}
static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	return map[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG) & 1;
}

/*
 * lib/sort.c's heapsort (Linux 6.12), not qsort(): it is not stable, and
 * the order it leaves equal elements in is the kernel's.
 */
static inline void kshim_swap(void *a, void *b, size_t size)
{
	unsigned char *x = a, *y = b, t;

	while (size--) {
		t = *x;
		*x++ = *y;
		*y++ = t;
	}
}
static inline size_t kshim_parent(size_t i, unsigned int lsbit, size_t size)
{
	i -= size;
	i -= size & -(i & lsbit);
	return i / 2;
}
static inline void sort(void *base_, size_t num, size_t size,
			int (*cmp)(const void *, const void *), void *swap)
{
	char *base = base_;
	size_t n = num * size, a = (num / 2) * size;
	const unsigned int lsbit = size & -size;
	size_t shift = 0;

	(void)swap;
	if (!a)
		return;
	for (;;) {
		size_t b, c, d;

		if (a) {
			a -= size << shift;
		} else if (n > 3 * size) {
			n -= size;
			kshim_swap(base, base + n, size);
			shift = cmp(base + size, base + 2 * size) <= 0;
			a = size << shift;
			n -= size;
			kshim_swap(base + a, base + n, size);
		} else {
			break;
		}
		for (b = a; c = 2 * b + size, (d = c + size) < n;)
			b = cmp(base + c, base + d) > 0 ? c : d;
		if (d == n)
			b = c;
		while (b != a && cmp(base + a, base + b) >= 0)
			b = kshim_parent(b, lsbit, size);
		c = b;
		while (b != a) {
			b = kshim_parent(b, lsbit, size);
			kshim_swap(base + b, base + c, size);
		}
	}
	n -= size;
	kshim_swap(base, base + n, size);
	if (n == size * 2 && cmp(base, base + size) > 0)
		kshim_swap(base, base + size, size);
}

/* lib/crc32.c: no pre- or post-inversion. */
static inline u32 crc32_le(u32 crc, const void *p, size_t len)
{
	const u8 *b = p;
	int k;

	while (len--) {
		crc ^= *b++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return crc;
}

/* The kernel's zstd wrappers (include/linux/zstd.h), over libzstd. */
typedef ZSTD_frameHeader zstd_frame_header;
typedef ZSTD_DCtx zstd_dctx;
static inline size_t zstd_get_frame_header(zstd_frame_header *h,
					   const void *src, size_t size)
{
	return ZSTD_getFrameHeader(h, src, size);
}
static inline size_t zstd_find_frame_compressed_size(const void *src,
						     size_t size)
{
	return ZSTD_findFrameCompressedSize(src, size);
}
static inline size_t zstd_dctx_workspace_bound(void)
{
	return ZSTD_estimateDCtxSize();
}
static inline zstd_dctx *zstd_init_dctx(void *workspace, size_t size)
{
	return ZSTD_initStaticDCtx(workspace, size);
}
static inline size_t zstd_decompress_dctx(zstd_dctx *dctx, void *dst,
					  size_t cap, const void *src,
					  size_t size)
{
	return ZSTD_decompressDCtx(dctx, dst, cap, src, size);
}
static inline bool zstd_is_error(size_t code)
{
	return ZSTD_isError(code);
}

/* seq_file: formatted into a scratch buffer (so %s reads the strings). */
struct seq_file {
	char buf[4096];
	size_t len;
};
static inline void seq_putc(struct seq_file *m, char c)
{
	if (m->len + 1 < sizeof(m->buf))
		m->buf[m->len++] = c;
}
static inline void seq_puts(struct seq_file *m, const char *s)
{
	while (*s)
		seq_putc(m, *s++);
}
__attribute__((format(printf, 2, 3)))
static inline void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(m->buf + m->len, sizeof(m->buf) - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len += (size_t)n < sizeof(m->buf) - m->len ?
			(size_t)n : sizeof(m->buf) - m->len - 1;
}

/* lib/string.c */
static inline void *memchr_inv(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p != (unsigned char)c)
			return (void *)p;
	return NULL;
}

/*
 * asm/sections.h: the code only computes with these addresses, so they
 * are where the conformance judges place them (FORMAT.md 7).
 */
#define _text ((char *)0x0ul)
#define __per_cpu_start ((char *)0x40ul)

#define CONFIG_KALLMODSYMS 1

#endif /* KSHIM_H */
