// SPDX-License-Identifier: GPL-2.0
/*
 * The paths images' rules (FORMAT.md 3.9), checked on each decompressed
 * paths image before any reader asks it for a path (kms_paths_validate(),
 * blob_image.h): its columns inside it, exactly nr_paths well-formed
 * strings after them, then the pieces once restored from their stored
 * form; and that the init paths image starts after the paths image ends
 * (kms_paths_check_order()).  Every refusal is of class bad-paths.  Written for hostile input:
 * sizes are compared in 64 bits, so that no sum can wrap.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/tables.h>
#include <kms/util.h>

#include "blob_image.h"

#define PATHS_ERROR(origin, ...) \
	kms_error_path(KMS_ERR_BAD_PATHS, origin, "note: " __VA_ARGS__)

/* The header's counts, and where the columns and the strings lie. */
static struct kms_error *check_paths_arrays(struct kms_paths *p,
					    const char *what,
					    const char *origin,
					    size_t *ret_strings)
{
	uint64_t columns;

	p->nr_pieces = kms_get_le32(p->image + KMS_PATHS_NR_PIECES);
	p->nr_paths = kms_get_le32(p->image + KMS_PATHS_NR_PATHS);
	p->end = kms_get_le32(p->image + KMS_PATHS_END);
	p->width = KMS_PATH_WIDTH(p->nr_paths);
	if (p->nr_pieces == 0)
		return PATHS_ERROR(origin, "%s has no pieces", what);
	columns = KMS_PATHS_HEADER_SIZE +
		(uint64_t)p->nr_pieces * (KMS_START_SIZE + p->width);
	if (columns > p->image_size)
		return PATHS_ERROR(origin,
				   "%s: %u pieces (%llu bytes) lie outside its %zu bytes",
				   what, p->nr_pieces,
				   (unsigned long long)columns, p->image_size);
	p->starts = p->image + KMS_PATHS_HEADER_SIZE;
	p->paths = p->starts + (size_t)p->nr_pieces * KMS_START_SIZE;
	*ret_strings = columns;
	return NULL;
}

/* Path @k of @what, @len bytes at @s: printable, no space, no stray '/'. */
static struct kms_error *check_path(const char *origin, const char *what,
				    uint32_t k, const char *s, size_t len)
{
	size_t i;

	if (!len)
		return PATHS_ERROR(origin, "%s: path %u is empty", what, k);
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f)
			return PATHS_ERROR(origin,
					   "%s: path %u byte %zu is not a printable character",
					   what, k, i);
	if (s[0] == '/')
		return PATHS_ERROR(origin, "%s: path %u starts with '/'",
				   what, k);
	if (s[len - 1] == '/')
		return PATHS_ERROR(origin, "%s: path %u ends with '/'",
				   what, k);
	if (memmem(s, len, "//", 2))
		return PATHS_ERROR(origin, "%s: path %u holds '//'", what, k);
	return NULL;
}

/*
 * Decode stored string @k at @s (FORMAT.md 3.9: a byte k + 1, the rest,
 * NUL) after the path of @prev_len bytes ending at @out, to @out.
 */
static struct kms_error *decode_path(const char *origin, const char *what,
				     uint32_t k, const char *s, char *out,
				     size_t prev_len, size_t *ret_len)
{
	size_t shared = (unsigned char)s[0] - 1, rest;

	if (!s[0])
		return PATHS_ERROR(origin, "%s: path %u has no front-coding byte",
				   what, k);
	if (shared > prev_len)
		return PATHS_ERROR(origin,
				   "%s: path %u shares %zu bytes with a path of %zu",
				   what, k, shared, prev_len);
	rest = strlen(s + 1);
	memmove(out, out - prev_len - 1, shared);
	memcpy(out + shared, s + 1, rest + 1);
	*ret_len = shared + rest;
	return check_path(origin, what, k, out, *ret_len);
}

/* The strings from @from to the end: exactly nr_paths, each well-formed. */
static struct kms_error *check_paths_strings(struct kms_paths *p,
					     const char *what,
					     const char *origin, size_t from)
{
	const char *s = (const char *)p->image;
	size_t end = p->image_size, at, nuls = 0, len = 0, out = 1;
	struct kms_error *err;
	uint32_t k;

	if (from == end || s[end - 1] != '\0')
		return PATHS_ERROR(origin, "%s strings do not end with NUL",
				   what);
	for (at = from; at < end; at++)
		nuls += s[at] == '\0';
	if (nuls != p->nr_paths)
		return PATHS_ERROR(origin,
				   "%s holds %zu strings, its header says %u",
				   what, nuls, p->nr_paths);
	/* A path is at most 255 bytes longer than its stored string. */
	p->offsets = malloc(((size_t)p->nr_paths ? p->nr_paths : 1) *
			    sizeof(*p->offsets));
	p->strings = calloc(1, 1 + (end - from) + 255 * (size_t)p->nr_paths);
	if (!p->offsets || !p->strings)
		return &kms_error_nomem;
	for (k = 0, at = from; k < p->nr_paths; k++) {
		err = decode_path(origin, what, k, s + at, p->strings + out,
				  k ? len : 0, &len);
		if (err)
			return err;
		p->offsets[k] = out;
		out += len + 1;
		at += strlen(s + at) + 1;
	}
	return NULL;
}

/* The restored pieces: increasing below the end, known paths, merged. */
static struct kms_error *check_pieces(const struct kms_paths *p,
				      const char *what, const char *origin)
{
	uint32_t i, last = p->nr_pieces - 1;

	for (i = 0; i < p->nr_pieces; i++) {
		uint32_t start = kms_piece_start(p, i), path = kms_piece_path(p, i);

		if (i > 0 && start <= kms_piece_start(p, i - 1))
			return PATHS_ERROR(origin,
					   "%s: piece %u starts at %#x, not after piece %u at %#x",
					   what, i, start, i - 1,
					   kms_piece_start(p, i - 1));
		if (path != KMS_NONE && path >= p->nr_paths)
			return PATHS_ERROR(origin,
					   "%s: piece %u names path %u of %u",
					   what, i, path, p->nr_paths);
		if (i > 0 && path == kms_piece_path(p, i - 1))
			return PATHS_ERROR(origin,
					   "%s: pieces %u and %u have the same path and are not merged",
					   what, i - 1, i);
	}
	if (kms_piece_start(p, last) >= p->end)
		return PATHS_ERROR(origin,
				   "%s: piece %u starts at %#x, not below the end %#x",
				   what, last, kms_piece_start(p, last), p->end);
	return NULL;
}

struct kms_error *kms_paths_validate(struct kms_paths *p, const char *what,
				     const char *origin)
{
	struct kms_error *err;
	size_t strings = 0;

	err = check_paths_arrays(p, what, origin, &strings);
	if (!err)
		err = check_paths_strings(p, what, origin, strings);
	/* Its columns are inside it: it converts. */
	if (!err)
		err = kms_paths_convert(p->image, p->image_size, false);
	if (!err)
		err = check_pieces(p, what, origin);
	return err;
}

struct kms_error *kms_paths_check_order(const struct kms_tables *t,
					const char *origin)
{
	const struct kms_paths *text = &t->paths[KMS_PATHS_TEXT];
	const struct kms_paths *init = &t->paths[KMS_PATHS_INIT];

	if (init->nr_pieces && kms_piece_start(init, 0) < text->end)
		return PATHS_ERROR(origin,
				   "init paths image starts at %#x, before the paths image ends at %#x",
				   kms_piece_start(init, 0), text->end);
	return NULL;
}
