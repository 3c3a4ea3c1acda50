// SPDX-License-Identifier: GPL-2.0
/*
 * Runs in the benchmark guest: read each FILE to its end ROUNDS times,
 * the files taking turns so that both see the same machine, and print
 * per file the median, minimum and maximum nanoseconds of one full read
 * and the bytes read.  With -o OPENS, a round is OPENS opens and closes
 * of the file, nothing read (bytes: 0).  Built static, since the guest has
 * only busybox.
 *
 * usage: guest-read [-o OPENS] ROUNDS FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#define MAX_FILES 8

static char buf[1 << 17];

/* Bytes read, or -1 with a message. */
static long long read_all(const char *path)
{
	long long total = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "guest-read: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0) {
		fprintf(stderr, "guest-read: %s: %s\n", path, strerror(errno));
		total = -1;
	}
	close(fd);
	return total;
}

/* Open and close @path @opens times: 0, or -1 with a message. */
static long long open_close(const char *path, long opens)
{
	long i;
	int fd;

	for (i = 0; i < opens; i++) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "guest-read: %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		close(fd);
	}
	return 0;
}

/* One round of @path: a full read, or @opens opens and closes. */
static long long one_round(const char *path, long opens)
{
	return opens ? open_close(path, opens) : read_all(path);
}

int main(int argc, char **argv)
{
	static long long ns[MAX_FILES][MAX_ROUNDS];
	long long bytes[MAX_FILES];
	int rounds, nfiles, r, f;
	long opens = 0;

	if (argc > 2 && !strcmp(argv[1], "-o")) {
		opens = atol(argv[2]);
		if (opens < 1) {
			fprintf(stderr, "guest-read: OPENS must be positive\n");
			return 2;
		}
		argc -= 2;
		argv += 2;
	}
	if (argc < 3 || argc - 2 > MAX_FILES)
		return usage("guest-read [-o OPENS] ROUNDS FILE...");
	rounds = parse_rounds("guest-read", argv[1]);
	if (rounds < 0)
		return 2;
	nfiles = argc - 2;

	for (f = 0; f < nfiles; f++)	/* warm the caches once */
		if (one_round(argv[f + 2], opens) < 0)
			return 1;
	for (r = 0; r < rounds; r++) {
		for (f = 0; f < nfiles; f++) {
			long long start = now_ns();

			bytes[f] = one_round(argv[f + 2], opens);
			if (bytes[f] < 0)
				return 1;
			ns[f][r] = now_ns() - start;
		}
	}
	for (f = 0; f < nfiles; f++) {
		qsort(ns[f], rounds, sizeof(ns[f][0]), cmp_ll);
		printf("%s median_ns %lld min_ns %lld max_ns %lld bytes %lld\n",
		       argv[f + 2], ns[f][rounds / 2], ns[f][0],
		       ns[f][rounds - 1], bytes[f]);
	}
	return 0;
}
