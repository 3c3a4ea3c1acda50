/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plumbing every layer shares, written once: growing an array, reading a
 * whole file, binary searches over sorted arrays, little-endian words,
 * cleanup on scope exit.
 *
 * Contract: the fallible helpers follow kms/error.h (NULL on success,
 * out-parameters written only on success); none of them prints.
 */
#ifndef KMS_UTIL_H
#define KMS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <kms/error.h>

/*
 * Make room for @need elements of @size bytes in *@arrp, whose capacity
 * *@cap counts elements: doubles (at least 16), checks for overflow,
 * leaves the array untouched when allocation fails.
 */
struct kms_error *kms_reserve(void *arrp, size_t *cap, size_t need,
			      size_t size);

/* The number of elements of array @arr. */
#define KMS_ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))

/* kms_reserve() for an array variable: KMS_RESERVE(arr, cap, nr + 1). */
#define KMS_RESERVE(arr, cap, need) \
	kms_reserve(&(arr), &(cap), (need), sizeof(*(arr)))

/*
 * The whole of @path, NUL-terminated (the NUL not counted in *@ret_size),
 * refused when larger than @max bytes (0: no limit).  Errors name @path.
 */
struct kms_error *kms_read_file(const char *path, size_t max, char **ret_data,
				size_t *ret_size);

/*
 * In @base, @n elements of @size bytes sorted by @cmp(key, element): the
 * index of the first element @key is less than (@n if none).  The last
 * element not greater than @key, the range holding an address, is the
 * one before it.
 */
size_t kms_upper_bound(const void *key, const void *base, size_t n,
		       size_t size,
		       int (*cmp)(const void *key, const void *element));

/* ...the index of the first element not less than @key (@n if none). */
size_t kms_lower_bound(const void *key, const void *base, size_t n,
		       size_t size,
		       int (*cmp)(const void *key, const void *element));

/*
 * kbuild's module names use '_' where file names may say '-'
 * (scripts/Makefile.lib's modname): rewrite @s in place; returns @s.
 */
char *kms_underscores(char *s);

/*
 * Collapse "./" and "DIR/../" in the relative path @s, in place, as make
 * names one file that kbuild reaches through another directory
 * ("arch/arm64/kvm/../../../virt/kvm/kvm_main.o" is
 * "virt/kvm/kvm_main.o"); a ".." with nothing left to undo stays.
 * Returns @s.
 */
char *kms_path_normalize(char *s);

/* The little-endian 32-bit word at @p (the format's byte order). */
static inline uint32_t kms_get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* ...and the 64-bit one. */
static inline uint64_t kms_get_le64(const unsigned char *p)
{
	return (uint64_t)kms_get_le32(p + 4) << 32 | kms_get_le32(p);
}

static inline void kms_put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* free() on scope exit, as drgn's _cleanup_free_. */
static inline void kms_freep(void *p)
{
	free(*(void **)p);
}

#define _cleanup_free_ __attribute__((__cleanup__(kms_freep)))

#endif /* KMS_UTIL_H */
