/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of /proc/kallsyms-format text: /proc/kallsyms,
 * /proc/kallmodsyms ("ADDR t name\t[mod] {obj}") or a copy of either, as
 * the running kernel printed it.
 */
#ifndef KMS_KALLSYMS_COPY_H
#define KMS_KALLSYMS_COPY_H

#include <stdbool.h>
#include <stdint.h>

#include <kms/error.h>

struct kallsyms_line {
	uint64_t address;
	char type;
	const char *name;	/* without the annotations */
};

/*
 * Call @fn on each "ADDR t name" line of @path (others are skipped) until
 * it returns true.  The line lives until @fn returns.
 */
struct kms_error *kallsyms_copy_read(const char *path,
				     bool (*fn)(const struct kallsyms_line *l,
						void *arg),
				     void *arg);

/* The address of _text in the copy at @path. */
struct kms_error *kallsyms_copy_text(const char *path, uint64_t *ret);

#endif /* KMS_KALLSYMS_COPY_H */
