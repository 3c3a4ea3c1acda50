/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer, for the tools' --json output.  Kernel
 * addresses exceed 2^53 and are written as hex strings ("0xffffffff81000000").
 * Commas and nesting are tracked here; callers only say what comes next.
 * Plumbing: it writes to a stdio stream and needs nothing else; a write
 * error is the stream's (ferror()), as with any stdio output.
 */
#ifndef KMS_JSON_H
#define KMS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);
/* @key is NULL inside arrays. */
void json_string(struct json *j, const char *key, const char *value);
void json_null(struct json *j, const char *key);
void json_uint(struct json *j, const char *key, uint64_t value);
void json_hex(struct json *j, const char *key, uint64_t value);
void json_bool(struct json *j, const char *key, bool value);
/* Ends the document with a newline. */
void json_finish(struct json *j);

#endif /* KMS_JSON_H */
