// SPDX-License-Identifier: GPL-2.0
/* A string -> index map, open addressing with FNV-1a (kms/strmap.h). */
#include <stdlib.h>
#include <string.h>

#include <kms/strmap.h>

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static size_t slot_of(const struct kms_strmap *map, const char *key)
{
	size_t mask = map->nr_slots - 1, i = hash(key) & mask;

	while (map->slots[i] && strcmp(map->keys[map->slots[i] - 1], key))
		i = (i + 1) & mask;
	return i;
}

static struct kms_error *grow(struct kms_strmap *map)
{
	size_t n = map->nr_slots ? 2 * map->nr_slots : 256, i;
	uint32_t *old = map->slots;
	size_t old_n = map->nr_slots;
	char **keys;

	keys = realloc(map->keys, n / 2 * sizeof(*keys));
	if (!keys)
		return &kms_error_nomem;
	map->keys = keys;
	map->slots = calloc(n, sizeof(*map->slots));
	if (!map->slots) {
		map->slots = old;
		return &kms_error_nomem;
	}
	map->nr_slots = n;
	for (i = 0; i < old_n; i++)
		if (old[i])
			map->slots[slot_of(map, map->keys[old[i] - 1])] = old[i];
	free(old);
	return NULL;
}

struct kms_error *kms_strmap_intern(struct kms_strmap *map, const char *key,
				    uint32_t *ret_index, int *ret_added)
{
	struct kms_error *err;
	size_t i;

	/* Keep the load factor under one half. */
	if (2 * (map->nr + 1) > map->nr_slots) {
		err = grow(map);
		if (err)
			return err;
	}
	i = slot_of(map, key);
	if (map->slots[i]) {
		*ret_index = map->slots[i] - 1;
		if (ret_added)
			*ret_added = 0;
		return NULL;
	}
	map->keys[map->nr] = strdup(key);
	if (!map->keys[map->nr])
		return &kms_error_nomem;
	map->slots[i] = ++map->nr;
	*ret_index = map->nr - 1;
	if (ret_added)
		*ret_added = 1;
	return NULL;
}

uint32_t kms_strmap_find(const struct kms_strmap *map, const char *key)
{
	size_t i;

	if (!map->nr_slots)
		return UINT32_MAX;
	i = slot_of(map, key);
	return map->slots[i] ? map->slots[i] - 1 : UINT32_MAX;
}

void kms_strmap_release(struct kms_strmap *map)
{
	size_t i;

	for (i = 0; i < map->nr; i++)
		free(map->keys[i]);
	free(map->keys);
	free(map->slots);
	memset(map, 0, sizeof(*map));
}
