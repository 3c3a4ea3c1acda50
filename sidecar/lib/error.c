// SPDX-License-Identifier: GPL-2.0
/* The one error convention's errors (kms/error.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/error.h>

struct kms_error kms_error_nomem = { .message = "out of memory" };

struct kms_error *kms_error_vfmt(const char *fmt, va_list ap)
{
	struct kms_error *err;

	err = malloc(sizeof(*err));
	if (!err)
		return &kms_error_nomem;
	if (vasprintf(&err->message, fmt, ap) < 0) {
		free(err);
		return &kms_error_nomem;
	}
	return err;
}

struct kms_error *kms_error_fmt(const char *fmt, ...)
{
	struct kms_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = kms_error_vfmt(fmt, ap);
	va_end(ap);
	return err;
}

static struct kms_error *error_with_path(const char *path, const char *suffix,
					 const char *fmt, va_list ap)
{
	struct kms_error *err;
	char *text;

	if (vasprintf(&text, fmt, ap) < 0)
		return &kms_error_nomem;
	err = kms_error_fmt("%s: %s%s%s", path, text, suffix ? ": " : "",
			    suffix ? suffix : "");
	free(text);
	return err;
}

struct kms_error *kms_error_file(const char *path, const char *fmt, ...)
{
	struct kms_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = error_with_path(path, NULL, fmt, ap);
	va_end(ap);
	return err;
}

struct kms_error *kms_error_errno(const char *path, const char *fmt, ...)
{
	const char *reason = strerror(errno);
	struct kms_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = error_with_path(path, reason, fmt, ap);
	va_end(ap);
	return err;
}

struct kms_error *kms_error_prefix(struct kms_error *err, const char *fmt, ...)
{
	char *prefix, *message;
	va_list ap;
	int ret;

	if (err == &kms_error_nomem)
		return err;
	va_start(ap, fmt);
	ret = vasprintf(&prefix, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return err;
	if (asprintf(&message, "%s: %s", prefix, err->message) >= 0) {
		free(err->message);
		err->message = message;
	}
	free(prefix);
	return err;
}

void kms_error_destroy(struct kms_error *err)
{
	if (!err || err == &kms_error_nomem)
		return;
	free(err->message);
	free(err);
}

void kms_error_report(const char *prog, struct kms_error *err)
{
	fprintf(stderr, "%s: %s\n", prog, err->message);
	kms_error_destroy(err);
}
