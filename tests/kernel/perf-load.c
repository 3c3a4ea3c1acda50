// SPDX-License-Identifier: GPL-2.0
/*
 * The load of tests/kernel/run-perf.sh, in its guest: for SECONDS seconds,
 * write "one", "main" and "two" in turn to FILE (the fixture's
 * /sys/module/kms_sample_c/parameters/run), each write running one of
 * kms_sample_c's three kms_sample_show()s, all through one open file, so
 * that the time goes to the kernel's write path, not to a shell's loop or
 * to opening the file.  Prints the number of rounds of three writes.
 *
 * usage: perf-load FILE SECONDS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const which[] = { "one", "main", "two" };

static int before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

int main(int argc, char **argv)
{
	struct timespec now, end;
	unsigned long rounds = 0;
	unsigned int i;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: perf-load FILE SECONDS\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += atoi(argv[2]);
	do {
		for (i = 0; i < 3; i++)
			if (write(fd, which[i], strlen(which[i])) < 0) {
				perror(argv[1]);
				return 1;
			}
		rounds++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (before(&now, &end));
	printf("%lu\n", rounds);
	return 0;
}
