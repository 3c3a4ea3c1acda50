// SPDX-License-Identifier: GPL-2.0
/* The one error convention's errors (kms/error.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kms/error.h>

struct kms_error kms_error_nomem = {
	.class = KMS_ERR_NOMEM,
	.message = "out of memory",
};

static const char *const class_names[KMS_NR_ERROR_CLASSES] = {
	[KMS_ERR_INPUT] = "input",
	[KMS_ERR_NOMEM] = "out-of-memory",
	[KMS_ERR_IO] = "io",
	[KMS_ERR_ABSENT] = "absent",
#define KMS_REASON(name, word, ...) \
	[KMS_ERR_##name] = word,
#include <kms/reasons.h>
};

const char *kms_error_class_name(enum kms_error_class class)
{
	if ((unsigned int)class >= KMS_NR_ERROR_CLASSES)
		return "unclassified";
	return class_names[class];
}

bool kms_error_is_refusal(const struct kms_error *err)
{
	return err && err->class >= KMS_ERR_NO_NOTE &&
	       err->class < KMS_NR_ERROR_CLASSES;
}

bool kms_error_is_absent(const struct kms_error *err)
{
	return err && err->class == KMS_ERR_ABSENT;
}

struct kms_error *kms_error_vnew(enum kms_error_class class,
				 const char *fmt, va_list ap)
{
	struct kms_error *err;

	err = malloc(sizeof(*err));
	if (!err)
		return &kms_error_nomem;
	err->class = class;
	if (vasprintf(&err->message, fmt, ap) < 0) {
		free(err);
		return &kms_error_nomem;
	}
	return err;
}

struct kms_error *kms_error_new(enum kms_error_class class,
				const char *fmt, ...)
{
	struct kms_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = kms_error_vnew(class, fmt, ap);
	va_end(ap);
	return err;
}

static struct kms_error *error_with_path(enum kms_error_class class,
					 const char *path, const char *suffix,
					 const char *fmt, va_list ap)
{
	struct kms_error *err;
	char *text;

	if (vasprintf(&text, fmt, ap) < 0)
		return &kms_error_nomem;
	err = kms_error_new(class, "%s: %s%s%s", path, text,
			    suffix ? ": " : "", suffix ? suffix : "");
	free(text);
	return err;
}

struct kms_error *kms_error_path(enum kms_error_class class, const char *path,
				 const char *fmt, ...)
{
	struct kms_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = error_with_path(class, path, NULL, fmt, ap);
	va_end(ap);
	return err;
}

struct kms_error *kms_error_errno(const char *path, const char *fmt, ...)
{
	int errnum = errno;
	enum kms_error_class class = errnum == ENOENT ? KMS_ERR_ABSENT :
				     errnum == ENOMEM ? KMS_ERR_NOMEM :
				     KMS_ERR_IO;
	struct kms_error *err;
	va_list ap;

	va_start(ap, fmt);
	err = error_with_path(class, path, strerror(errnum), fmt, ap);
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
