/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer, for the tools' --json output.  Kernel
 * addresses exceed 2^53 and are written as hex strings ("0xffffffff81000000").
 * Commas and nesting are tracked here; callers only say what comes next.
 * Plumbing: it writes to a stdio stream and needs nothing else; a write
 * error is the stream's (ferror()), as with any stdio output.
 *
 * A document is laid out one of two ways, chosen at json_init_style():
 * compact, {"a":1,"b":["x","y"]}, the inspector's; or with JSON_SPACED
 * and JSON_LINES, {"a": 1, "b": ["x", "y"]} with the outermost
 * container's members one a line ("[{...},\n {...}\n]"), the audit's.
 */
#ifndef KMS_JSON_H
#define KMS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

/* json_init_style()'s flags. */
enum {
	/* ", " between members and ": " after keys, not "," and ":". */
	JSON_SPACED = 1 << 0,
	/* The outermost container's members one a line: "[a,\n b\n]". */
	JSON_LINES = 1 << 1,
	/*
	 * Bytes from 0x7f up written as they are (UTF-8 stays UTF-8);
	 * without it, each is escaped as \u00XX.  Bytes below 0x20 are
	 * always escaped.
	 */
	JSON_UTF8 = 1 << 2,
};

struct json {
	FILE *f;
	unsigned int flags;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

/* Compact, non-ASCII bytes escaped: json_init_style(@j, @f, 0). */
void json_init(struct json *j, FILE *f);
void json_init_style(struct json *j, FILE *f, unsigned int flags);
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);
/* @key is NULL inside arrays. */
void json_string(struct json *j, const char *key, const char *value);
/* json_string(), or json_null() when @value is NULL. */
void json_string_or_null(struct json *j, const char *key, const char *value);
void json_null(struct json *j, const char *key);
void json_uint(struct json *j, const char *key, uint64_t value);
void json_hex(struct json *j, const char *key, uint64_t value);
void json_bool(struct json *j, const char *key, bool value);
/* Ends the document with a newline. */
void json_finish(struct json *j);

#endif /* KMS_JSON_H */
