/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A string -> index map (open addressing, FNV-1a), for interning object
 * paths, module lists and string-table entries.  Keys are owned copies.
 */
#ifndef KMS_STRMAP_H
#define KMS_STRMAP_H

#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>

struct kms_strmap {
	char **keys;		/* insertion order: keys[index] */
	uint32_t *slots;	/* index + 1, 0 = empty */
	size_t nr, nr_slots;
};

/*
 * The index of @key, adding it (as the next index) if new.  *ret_added says
 * which; it may be NULL.
 */
struct kms_error *kms_strmap_intern(struct kms_strmap *map, const char *key,
				    uint32_t *ret_index, int *ret_added);

/* The index of @key, or UINT32_MAX. */
uint32_t kms_strmap_find(const struct kms_strmap *map, const char *key);

void kms_strmap_release(struct kms_strmap *map);

#endif /* KMS_STRMAP_H */
