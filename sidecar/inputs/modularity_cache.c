// SPDX-License-Identifier: GPL-2.0
/*
 * The modularity analysis's cache (modularity_steps.h): kconfig's answer,
 * the bool symbols a config sets to y, kept in one file under a key of
 * what it depends on (kms_modularity_options.cache), because conf
 * evaluates the toolchain probes and takes seconds each run.  Best effort
 * both ways.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kms/strmap.h>
#include <kms/util.h>

#include "modularity_steps.h"

/* FNV-1a, 64 bits: a key for the cache, not a defence against anyone. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static uint64_t fnv1a_str(uint64_t h, const char *s)
{
	return fnv1a(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/* What kconfig's answer depends on, as one number. */
uint64_t modularity_bools_key(const struct kms_modularity_options *o,
			      const char *config, size_t config_len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char *autoconf;
	struct stat st;

	h = fnv1a(h, config, config_len);
	h = fnv1a_str(h, o->srctree);
	h = fnv1a_str(h, o->objtree);
	h = fnv1a_str(h, o->srcarch);
	h = fnv1a_str(h, getenv("CC"));
	h = fnv1a_str(h, getenv("LD"));
	if (asprintf(&autoconf, "%s/include/config/auto.conf", o->objtree) < 0)
		return 0;		/* 0: no key, no cache */
	/* Without it nothing tells that a Kconfig file changed. */
	if (stat(autoconf, &st)) {
		free(autoconf);
		return 0;
	}
	free(autoconf);
	h = fnv1a(h, &st.st_mtim, sizeof(st.st_mtim));
	h = fnv1a(h, &st.st_size, sizeof(st.st_size));
	return h ? h : 1;
}

#define BOOLS_CACHE_MAGIC "# kallmodsyms-gen: the bool symbols set to y, key "

/*
 * The cache's answer for @key into m->bools, and m->bools_cached set, if it
 * holds it.  Best effort: a cache absent, unreadable or for another key is
 * computed again; running out of memory is an error.
 */
struct kms_error *modularity_read_bools_cache(struct kms_modularity *m,
					      const char *path, uint64_t key)
{
	char *data, *line, *save = NULL, head[sizeof(BOOLS_CACHE_MAGIC) + 17];
	size_t len;
	struct kms_error *err;
	uint32_t index;

	err = kms_read_file(path, 0, &data, &len);
	if (err && err->class != KMS_ERR_NOMEM) {
		kms_error_destroy(err);
		return NULL;
	}
	if (err)
		return err;
	snprintf(head, sizeof(head), BOOLS_CACHE_MAGIC "%016llx",
		 (unsigned long long)key);
	line = strtok_r(data, "\n", &save);
	if (!line || strcmp(line, head)) {
		free(data);
		return NULL;
	}
	while (!err && (line = strtok_r(NULL, "\n", &save)))
		err = kms_strmap_intern(&m->bools, line, &index, NULL);
	free(data);
	m->bools_cached = !err;
	return err;
}

/* Best effort: a file written whole or not at all. */
void modularity_write_bools_cache(const struct kms_modularity *m,
				  const char *path, uint64_t key)
{
	char *tmp;
	FILE *f;
	size_t i;
	bool ok;

	if (asprintf(&tmp, "%s.%ld.tmp", path, (long)getpid()) < 0)
		return;
	f = fopen(tmp, "w");
	if (!f) {
		free(tmp);
		return;
	}
	ok = fprintf(f, BOOLS_CACHE_MAGIC "%016llx\n",
		     (unsigned long long)key) > 0;
	for (i = 0; ok && i < m->bools.nr; i++)
		ok = fprintf(f, "%s\n", m->bools.keys[i]) > 0;
	if (fclose(f) || !ok || rename(tmp, path))
		unlink(tmp);
	free(tmp);
}
