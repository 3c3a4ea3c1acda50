/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one error convention of the kallmodsyms tools.
 *
 * A fallible function returns a struct kms_error *: NULL on success, or an
 * error that the caller either returns upward or reports and destroys.
 * Out-parameters come last and are only written on success.  An error is a
 * class and a message.  A caller that decides something by an error
 * decides by its class, never by its text: only KMS_ERR_ABSENT may be read
 * as "not there", and every other error goes up (a best-effort cache may
 * compute again what it cannot read; out of memory goes up always).  A
 * message names the file it is about first ("vmlinux: no symbol table"),
 * so that the one line a tool prints tells the user what to look at.
 */
#ifndef KMS_ERROR_H
#define KMS_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

enum kms_error_class {
	/*
	 * Bad input or usage: a file or an argument the tool cannot use
	 * (kms_error_fmt(), kms_error_file()).
	 */
	KMS_ERR_INPUT,
	/* Out of memory (kms_error_nomem). */
	KMS_ERR_NOMEM,
	/*
	 * A file cannot be opened, read or written, a process not started
	 * (kms_error_errno(), unless errno says ENOENT or ENOMEM).
	 */
	KMS_ERR_IO,
	/*
	 * What was asked for is not there: a file (ENOENT), a symbol, a
	 * section.  The one class a caller may take for "missing".
	 */
	KMS_ERR_ABSENT,
	/*
	 * A refused note: the reason classes of FORMAT.md section 7, in its
	 * order, KMS_ERR_NO_NOTE to KMS_ERR_BAD_PATHS, made from the one list
	 * (kms/reasons.h); kms_error_class_name() gives the reason's word.
	 */
#define KMS_REASON(name, ...) KMS_ERR_##name,
#include <kms/reasons.h>
	KMS_NR_ERROR_CLASSES
};

struct kms_error {
	enum kms_error_class class;
	char *message;
};

/* Returned when allocating an error (or anything else) fails. */
extern struct kms_error kms_error_nomem;

/*
 * The compiler checks a printf-like function's arguments against its
 * format: @a is the format's parameter number, @b the first argument's.
 * Spelled through KMS_ATTRIBUTE(): checkpatch.pl asks for the kernel's
 * __printf() wherever __attribute__ holds format(printf), and kbuild's
 * copy of this file is a host program, which has no compiler_attributes.h.
 */
#define KMS_ATTRIBUTE(x) __attribute__((x))
#define KMS_PRINTF(a, b) KMS_ATTRIBUTE(format(printf, a, b))

/* A new error of @class whose message is the printf-formatted text. */
struct kms_error *kms_error_new(enum kms_error_class class,
				const char *fmt, ...) KMS_PRINTF(2, 3);
struct kms_error *kms_error_vnew(enum kms_error_class class,
				 const char *fmt, va_list ap);

/* "path: text", of @class. */
struct kms_error *kms_error_path(enum kms_error_class class, const char *path,
				 const char *fmt, ...) KMS_PRINTF(3, 4);

/* kms_error_new() and kms_error_path() of KMS_ERR_INPUT, the common case. */
#define kms_error_fmt(...) kms_error_new(KMS_ERR_INPUT, __VA_ARGS__)
#define kms_error_file(...) kms_error_path(KMS_ERR_INPUT, __VA_ARGS__)

/*
 * "path: text: strerror(errno)", errno taken at the call: KMS_ERR_ABSENT
 * for ENOENT, KMS_ERR_NOMEM for ENOMEM, else KMS_ERR_IO.
 */
struct kms_error *kms_error_errno(const char *path, const char *fmt, ...)
	KMS_PRINTF(2, 3);

/*
 * Put "prefix: " in front of an existing message; returns @err, its class
 * unchanged.
 */
struct kms_error *kms_error_prefix(struct kms_error *err, const char *fmt, ...)
	KMS_PRINTF(2, 3);

/*
 * The name of @class: for a refused note FORMAT.md 7's word ("bad-header"),
 * else "input", "out-of-memory", "io" or "absent"; "unclassified" for a
 * number that is none of them.
 */
const char *kms_error_class_name(enum kms_error_class class);

/* Whether @err refuses a note (a FORMAT.md 7 class). */
bool kms_error_is_refusal(const struct kms_error *err);

/* Whether @err is KMS_ERR_ABSENT: what was asked for is not there. */
bool kms_error_is_absent(const struct kms_error *err);

void kms_error_destroy(struct kms_error *err);

/* Print "prog: message" on stderr and destroy @err. */
void kms_error_report(const char *prog, struct kms_error *err);

#endif /* KMS_ERROR_H */
