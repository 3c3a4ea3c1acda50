// SPDX-License-Identifier: GPL-2.0
/* A streaming JSON writer (kms/json.h). */
#include <kms/json.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void put_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void key(struct json *j, const char *k)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (k) {
		put_escaped(j->f, k);
		fputc(':', j->f);
	}
}

static void begin(struct json *j, const char *k, char open)
{
	key(j, k);
	fputc(open, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

void json_begin_object(struct json *j, const char *k)
{
	begin(j, k, '{');
}

void json_end_object(struct json *j)
{
	fputc('}', j->f);
	j->depth--;
}

void json_begin_array(struct json *j, const char *k)
{
	begin(j, k, '[');
}

void json_end_array(struct json *j)
{
	fputc(']', j->f);
	j->depth--;
}

void json_string(struct json *j, const char *k, const char *value)
{
	key(j, k);
	put_escaped(j->f, value);
}

void json_null(struct json *j, const char *k)
{
	key(j, k);
	fputs("null", j->f);
}

void json_uint(struct json *j, const char *k, uint64_t value)
{
	key(j, k);
	fprintf(j->f, "%llu", (unsigned long long)value);
}

void json_hex(struct json *j, const char *k, uint64_t value)
{
	key(j, k);
	fprintf(j->f, "\"0x%llx\"", (unsigned long long)value);
}

void json_bool(struct json *j, const char *k, bool value)
{
	key(j, k);
	fputs(value ? "true" : "false", j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}
