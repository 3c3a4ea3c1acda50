// SPDX-License-Identifier: GPL-2.0
/*
 * Runs in the benchmark guest: writes each COMMAND to FILE in turn, ROUNDS
 * times, and prints per command the median, minimum and maximum
 * nanoseconds of its write (open, write, close).  A COMMAND "+X" is
 * written untimed (to undo the one before it: "-:kms/x" after a probe).
 * MODE "trunc" opens FILE truncated ("echo >", set_ftrace_filter), "append"
 * appended ("echo >>", kprobe_events).  Built static, as guest-read.
 *
 * usage: guest-write ROUNDS FILE trunc|append COMMAND...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#define MAX_COMMANDS 10

/* 0, or -1 with a message naming FILE and COMMAND. */
static int write_command(const char *path, int flags, const char *command)
{
	size_t len = strlen(command);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | flags);
	if (fd < 0 || write(fd, command, len) != (ssize_t)len)
		ret = -1;
	if (ret)
		fprintf(stderr, "guest-write: %s: \"%s\": %s\n", path, command,
			strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	static long long ns[MAX_COMMANDS][MAX_ROUNDS];
	int rounds, ncommands, flags, r, c;

	if (argc < 5 || argc - 4 > MAX_COMMANDS)
		return usage("guest-write ROUNDS FILE trunc|append COMMAND...");
	rounds = parse_rounds("guest-write", argv[1]);
	if (rounds < 0)
		return 2;
	if (!strcmp(argv[3], "trunc")) {
		flags = O_TRUNC;
	} else if (!strcmp(argv[3], "append")) {
		flags = O_APPEND;
	} else {
		fprintf(stderr, "guest-write: MODE must be trunc or append\n");
		return 2;
	}
	ncommands = argc - 4;

	for (r = 0; r < rounds; r++) {
		for (c = 0; c < ncommands; c++) {
			const char *command = argv[c + 4];
			int timed = command[0] != '+';
			long long start = now_ns();

			if (write_command(argv[2], flags, timed ? command :
					  command + 1))
				return 1;
			ns[c][r] = now_ns() - start;
		}
	}
	for (c = 0; c < ncommands; c++) {
		if (argv[c + 4][0] == '+')
			continue;
		qsort(ns[c], rounds, sizeof(ns[c][0]), cmp_ll);
		printf("%s\tmedian_ns %lld min_ns %lld max_ns %lld\n",
		       argv[c + 4], ns[c][rounds / 2], ns[c][0],
		       ns[c][rounds - 1]);
	}
	return 0;
}
