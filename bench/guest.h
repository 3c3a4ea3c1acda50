/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmark guests' static helpers (guest-read.c, guest-write.c)
 * share: a monotonic clock in nanoseconds and a comparison for qsort().
 */
#ifndef KMS_BENCH_GUEST_H
#define KMS_BENCH_GUEST_H

#include <time.h>

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
