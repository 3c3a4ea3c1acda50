// SPDX-License-Identifier: GPL-2.0
/* A streaming JSON writer (kms/json.h). */
#include <kms/json.h>

void json_init_style(struct json *j, FILE *f, unsigned int flags)
{
	j->f = f;
	j->flags = flags;
	j->depth = 0;
	j->first[0] = true;
}

void json_init(struct json *j, FILE *f)
{
	json_init_style(j, f, 0);
}

static void put_escaped(const struct json *j, const char *s)
{
	fputc('"', j->f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(j->f, "\\%c", c);
		else if (c < 0x20 || (c >= 0x7f && !(j->flags & JSON_UTF8)))
			fprintf(j->f, "\\u%04x", c);
		else
			fputc(c, j->f);
	}
	fputc('"', j->f);
}

/* Before a member: the comma after the one before, then its key. */
static void key(struct json *j, const char *k)
{
	if (!j->first[j->depth]) {
		fputc(',', j->f);
		if (j->flags & JSON_LINES && j->depth == 1)
			fputs("\n ", j->f);
		else if (j->flags & JSON_SPACED)
			fputc(' ', j->f);
	}
	j->first[j->depth] = false;
	if (k) {
		put_escaped(j, k);
		fputs(j->flags & JSON_SPACED ? ": " : ":", j->f);
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

static void end(struct json *j, char close)
{
	if (j->flags & JSON_LINES && j->depth == 1 && !j->first[1])
		fputc('\n', j->f);
	fputc(close, j->f);
	j->depth--;
}

void json_begin_object(struct json *j, const char *k)
{
	begin(j, k, '{');
}

void json_end_object(struct json *j)
{
	end(j, '}');
}

void json_begin_array(struct json *j, const char *k)
{
	begin(j, k, '[');
}

void json_end_array(struct json *j)
{
	end(j, ']');
}

void json_string(struct json *j, const char *k, const char *value)
{
	key(j, k);
	put_escaped(j, value);
}

void json_string_or_null(struct json *j, const char *k, const char *value)
{
	if (value)
		json_string(j, k, value);
	else
		json_null(j, k);
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
