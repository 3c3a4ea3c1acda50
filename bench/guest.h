/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark guests' static helpers (guest-read.c, guest-write.c)
 * share: their ROUNDS argument, a monotonic clock in nanoseconds and a
 * comparison for qsort().
 */
#ifndef KMS_BENCH_GUEST_H
#define KMS_BENCH_GUEST_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The most rounds a helper measures: the size of its arrays. */
#define MAX_ROUNDS 1000

/* Exit status 2, after "usage: @text" on stderr. */
static inline int usage(const char *text)
{
	fprintf(stderr, "usage: %s\n", text);
	return 2;
}

/* ROUNDS read from @arg, or -1 after saying, as @prog, that it is not. */
static inline int parse_rounds(const char *prog, const char *arg)
{
	int rounds = atoi(arg);

	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "%s: ROUNDS must be 1..%d\n", prog, MAX_ROUNDS);
		return -1;
	}
	return rounds;
}

static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

#endif
