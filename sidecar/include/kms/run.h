/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run a helper program (make, kconfig's conf) and collect what it prints.
 * The generator uses the kernel's own build tools instead of imitating
 * them; this is the one place that starts a process.
 */
#ifndef KMS_RUN_H
#define KMS_RUN_H

#include <stddef.h>

#include <kms/error.h>

struct kms_run_output {
	char *out;		/* stdout, NUL-terminated */
	size_t out_len;
	char *err;		/* stderr, NUL-terminated */
	size_t err_len;
	int status;		/* exit status; -1 if killed by a signal */
};

/*
 * Run @argv (argv[0] looked up in PATH) in directory @cwd (NULL: ours) with
 * the environment plus @env ("NAME=value" strings, NULL-terminated; "NAME="
 * alone removes NAME), stdin from /dev/null.  Fails only if the program
 * cannot be started or read; its exit status is the caller's to judge.
 */
struct kms_error *kms_run(char *const argv[], const char *cwd,
			  const char *const env[],
			  struct kms_run_output *ret);

void kms_run_output_release(struct kms_run_output *out);

#endif /* KMS_RUN_H */
