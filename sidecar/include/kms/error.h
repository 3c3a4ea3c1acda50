/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one error convention of the kallmodsyms tools.
 *
 * A fallible function returns a struct kms_error *: NULL on success, or an
 * error that the caller either returns upward or reports and destroys.
 * Out-parameters come last and are only written on success.  A message names
 * the file it is about first ("vmlinux: no symbol table"), so that the one
 * line a tool prints tells the user what to look at.
 */
#ifndef KMS_ERROR_H
#define KMS_ERROR_H

#include <stdarg.h>

struct kms_error {
	char *message;
};

/* Returned when allocating an error (or anything else) fails. */
extern struct kms_error kms_error_nomem;

#define KMS_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* A new error whose message is the printf-formatted text. */
struct kms_error *kms_error_fmt(const char *fmt, ...) KMS_PRINTF(1, 2);
struct kms_error *kms_error_vfmt(const char *fmt, va_list ap);

/* "path: text" */
struct kms_error *kms_error_file(const char *path, const char *fmt, ...)
	KMS_PRINTF(2, 3);

/* "path: text: strerror(errno)", errno taken at the call. */
struct kms_error *kms_error_errno(const char *path, const char *fmt, ...)
	KMS_PRINTF(2, 3);

/* Put "prefix: " in front of an existing message; returns @err. */
struct kms_error *kms_error_prefix(struct kms_error *err, const char *fmt, ...)
	KMS_PRINTF(2, 3);

void kms_error_destroy(struct kms_error *err);

/* Print "prog: message" on stderr and destroy @err. */
void kms_error_report(const char *prog, struct kms_error *err);

#endif /* KMS_ERROR_H */
