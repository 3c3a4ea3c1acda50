// SPDX-License-Identifier: GPL-2.0
/* A vmlinux's kallsyms tables, one symbol at a time (kms/kallsyms.h). */
#include <stdlib.h>
#include <string.h>

#include <kms/kallsyms.h>
#include <kms/util.h>

#include "kallsyms_tables.h"

/*
 * Where symbol i's entry starts in kallsyms_names, and where its name goes
 * in symbols.names, for every STRIDE-th symbol: the others are found by
 * walking from there, over at most STRIDE - 1 entries.  Arrays of every
 * symbol's would cost more to write than a lookup costs.
 */
#define STRIDE 16
#define SAMPLE 32
#define SEARCHES_BEFORE_SAMPLES 64

struct place {
	uint64_t entry;
	size_t name;
};

struct kms_kallsyms {
	struct kms_elf *elf;
	struct kallsyms_tables k;
	int token_len[256];	/* each token's length, -1: bad */
	bool all_known;		/* no token is bad */
	bool absolute_percpu, sorted;
	struct place *places;	/* symbol i * STRIDE's */
	/*
	 * For many searches by address (sorted tables): the address of every
	 * SAMPLE-th symbol, made by the SEARCHES_BEFORE_SAMPLES-th search, a
	 * small array to search before a few entries of the offsets.
	 */
	uint64_t *samples;
	size_t nr_samples, nr_searches;
	size_t nr_expanded;
	struct kms_symbols symbols;	/* .name NULL: not expanded yet */
};

void kms_kallsyms_close(struct kms_kallsyms *k)
{
	if (!k)
		return;
	free(k->places);
	free(k->samples);
	free(k->symbols.syms);
	free(k->symbols.names);
	free(k);
}

size_t kms_kallsyms_count(const struct kms_kallsyms *k)
{
	return k->k.nr_syms;
}

const struct kms_symbols *kms_kallsyms_table(const struct kms_kallsyms *k)
{
	return &k->symbols;
}

bool kms_kallsyms_sorted(const struct kms_kallsyms *k)
{
	return k->sorted;
}

/*
 * As symbols.c's symbols_from_kallsyms() computes it (kallsyms_offset(),
 * inline: a lookup reads a few dozen of them).
 */
uint64_t kms_kallsyms_address(const struct kms_kallsyms *k, size_t i)
{
	const unsigned char *p = k->k.offsets + 4 * i;
	int32_t off = (int32_t)(p[0] | p[1] << 8 | p[2] << 16 |
				(uint32_t)p[3] << 24);

	if (!k->absolute_percpu)
		return k->k.relative_base + (uint32_t)off;
	if (off >= 0)
		return off;
	return k->k.relative_base - 1 - off;
}

/* The first of symbols [@lo, @hi) above @addr, @hi if none. */
static size_t upper_bound_in(const struct kms_kallsyms *k, uint64_t addr,
			     size_t lo, size_t hi)
{
	size_t mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (kms_kallsyms_address(k, mid) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* k->samples, if memory allows. */
static void make_samples(struct kms_kallsyms *k)
{
	size_t i, n = (k->k.nr_syms + SAMPLE - 1) / SAMPLE;

	k->samples = malloc(n * sizeof(*k->samples));
	if (!k->samples)
		return;
	for (i = 0; i < n; i++)
		k->samples[i] = kms_kallsyms_address(k, i * SAMPLE);
	k->nr_samples = n;
}

size_t kms_kallsyms_upper_bound(struct kms_kallsyms *k, uint64_t addr)
{
	size_t lo = 0, hi, mid;

	if (++k->nr_searches == SEARCHES_BEFORE_SAMPLES)
		make_samples(k);
	if (!k->nr_samples)
		return upper_bound_in(k, addr, 0, k->k.nr_syms);
	hi = k->nr_samples;
	/* The first sample above @addr; the symbol is before it. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (k->samples[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	hi = lo * SAMPLE < k->k.nr_syms ? lo * SAMPLE : k->k.nr_syms;
	return upper_bound_in(k, addr, (lo - 1) * SAMPLE + 1, hi);
}

/*
 * The length of token @idx, or -1 if it runs off the token table, in
 * @len[]; computed once.  Whether none does.
 */
static bool token_lengths(const struct kallsyms_tables *k, int len[256])
{
	bool all_known = true;

	for (unsigned int idx = 0; idx < 256; idx++) {
		uint64_t t = k->token_index[2 * idx] |
			     k->token_index[2 * idx + 1] << 8;
		const unsigned char *nul = t < k->token_table_size ?
			memchr(k->token_table + t, 0,
			       k->token_table_size - t) : NULL;

		len[idx] = nul ? (int)(nul - (k->token_table + t)) : -1;
		all_known = all_known && nul;
	}
	return all_known;
}

/*
 * The length of the name at *@pos (moved past it), its type included,
 * from its tokens' lengths, or 0 exactly when expand_name() would refuse
 * it: too long, without a type, or past the end of a table.  With
 * @all_known (no token runs off the token table), the lengths are summed
 * without a test a token.
 */
static inline size_t measure_name(const struct kallsyms_tables *k,
				  const int token_len[256], bool all_known,
				  uint64_t *pos)
{
	const unsigned char *t;
	size_t len, blen = 0, j;

	if (*pos >= k->names_size)
		return 0;
	len = k->names[(*pos)++];
	if (len & 0x80) {
		if (*pos >= k->names_size)
			return 0;
		len = (len & 0x7f) | (size_t)k->names[(*pos)++] << 7;
	}
	if (len > k->names_size - *pos)
		return 0;
	t = k->names + *pos;
	*pos += len;
	if (all_known) {
		for (j = 0; j < len; j++)
			blen += token_len[t[j]];
	} else {
		for (j = 0; j < len; j++) {
			if (token_len[t[j]] < 0)
				return 0;
			blen += token_len[t[j]];
		}
	}
	return blen <= KSYM_NAME_LEN ? blen : 0;
}

/*
 * Check every name as expand_name() would, and note the places: a name
 * it would refuse is expanded, for its error.  The sum of the names'
 * lengths, each with its NUL, in *@ret_total.
 */
static struct kms_error *measure_names(struct kms_kallsyms *k,
				       size_t *ret_total)
{
	char buf[KSYM_NAME_LEN + 1];
	struct kms_error *err;
	uint64_t pos = 0, at;
	size_t total = 0, blen;
	uint32_t i;

	for (i = 0; i < k->k.nr_syms; i++) {
		if (i % STRIDE == 0)
			k->places[i / STRIDE] = (struct place){ pos, total };
		at = pos;
		blen = measure_name(&k->k, k->token_len, k->all_known, &pos);
		if (!blen) {
			pos = at;
			err = expand_name(k->elf, &k->k, i, &pos, buf, &blen);
			if (err)
				return err;
		}
		total += blen;	/* the name and its NUL, less the type */
	}
	*ret_total = total;
	return NULL;
}

/* The kallsyms tables' symbols, looked up in one pass. */
static const char *const table_symbols[] = {
	"kallsyms_num_syms", "kallsyms_relative_base", "kallsyms_offsets",
	"kallsyms_token_index", "kallsyms_token_table", "kallsyms_names",
	"_text",
};

/* k->absolute_percpu and k->sorted, from the offsets. */
static void read_order(struct kms_kallsyms *k)
{
	uint64_t prev = 0, addr;
	size_t i;

	for (i = 0; i < k->k.nr_syms && !k->absolute_percpu; i++)
		k->absolute_percpu = k->k.offsets[4 * i + 3] & 0x80;
	k->sorted = true;
	for (i = 0; i < k->k.nr_syms && k->sorted; i++) {
		addr = kms_kallsyms_address(k, i);
		k->sorted = !i || prev <= addr;
		prev = addr;
	}
}

void kms_kallsyms_ahead(struct kms_elf *elf)
{
	kms_elf_symbols_ahead(elf, table_symbols,
			      KMS_ARRAY_SIZE(table_symbols));
}

struct kms_error *kms_kallsyms_open(struct kms_elf *elf,
				    struct kms_kallsyms **ret)
{
	struct kms_kallsyms *k;
	struct kms_error *err;
	size_t total;

	k = calloc(1, sizeof(*k));
	if (!k)
		return &kms_error_nomem;
	k->elf = elf;
	kms_kallsyms_ahead(elf);
	err = find_kallsyms_tables(elf, &k->k);
	if (err)
		goto fail;
	read_order(k);
	k->all_known = token_lengths(&k->k, k->token_len);
	k->places = malloc((k->k.nr_syms / STRIDE + 1) * sizeof(*k->places));
	/* Untouched until used: the pages cost nothing before. */
	k->symbols.syms = calloc(k->k.nr_syms, sizeof(*k->symbols.syms));
	err = &kms_error_nomem;
	if (!k->places || !k->symbols.syms)
		goto fail;
	err = measure_names(k, &total);
	if (err)
		goto fail;
	k->symbols.names = malloc(total ? total : 1);
	err = &kms_error_nomem;
	if (!k->symbols.names)
		goto fail;
	k->symbols.nr = k->k.nr_syms;
	err = kms_elf_symbol(elf, "_text", &k->symbols.text_address);
	if (err)
		goto fail;
	*ret = k;
	return NULL;
fail:
	kms_kallsyms_close(k);
	return err;
}

/*
 * Expand symbol @i, whose entry is at *@pos (moved past it) and whose name
 * goes at @name in symbols.names; returns the name's length with its NUL.
 * measure_names() measured every entry: expand_name() refuses none.
 */
static size_t expand_at(struct kms_kallsyms *k, size_t i, uint64_t *pos,
			size_t name)
{
	struct kms_symbol *sym = &k->symbols.syms[i];
	char buf[KSYM_NAME_LEN + 1];
	size_t blen;

	if (expand_name(k->elf, &k->k, i, pos, buf, &blen))
		abort();
	memcpy(k->symbols.names + name, buf + 1, blen);
	sym->name = k->symbols.names + name;
	sym->type = buf[0];
	sym->address = kms_kallsyms_address(k, i);
	k->nr_expanded++;
	return blen;
}

const struct kms_symbol *kms_kallsyms_symbol(struct kms_kallsyms *k,
					     size_t i)
{
	const struct place *p = &k->places[i / STRIDE];
	uint64_t pos = p->entry;
	size_t name = p->name, j;

	if (k->symbols.syms[i].name)
		return &k->symbols.syms[i];
	for (j = i - i % STRIDE; j < i; j++)
		name += measure_name(&k->k, k->token_len, k->all_known, &pos);
	expand_at(k, i, &pos, name);
	return &k->symbols.syms[i];
}

const struct kms_symbols *kms_kallsyms_all(struct kms_kallsyms *k)
{
	uint64_t pos = 0;
	size_t i, name = 0;

	for (i = 0; k->nr_expanded < k->k.nr_syms; i++)
		name += k->symbols.syms[i].name ?
			measure_name(&k->k, k->token_len, k->all_known, &pos) :
			expand_at(k, i, &pos, name);
	return &k->symbols;
}
