// SPDX-License-Identifier: GPL-2.0
/*
 * The paths image's rules (FORMAT.md 3.9), checked on the decompressed
 * paths image before any reader asks it for a path (kms_paths_validate(),
 * blob_image.h): its columns inside it, exactly nr_paths well-formed
 * strings after them, then the pieces once restored from their stored
 * form.  Every refusal is of class bad-paths.  Written for hostile input:
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
static struct kms_error *check_paths_arrays(struct kms_tables *t,
					    const char *origin,
					    size_t *ret_strings)
{
	const unsigned char *p = t->paths_image;
	uint64_t columns;

	t->nr_pieces = kms_get_le32(p + KMS_PATHS_NR_PIECES);
	t->nr_paths = kms_get_le32(p + KMS_PATHS_NR_PATHS);
	t->pieces_end = kms_get_le32(p + KMS_PATHS_END);
	t->path_width = KMS_PATH_WIDTH(t->nr_paths);
	if (t->nr_pieces == 0)
		return PATHS_ERROR(origin, "paths image has no pieces");
	columns = KMS_PATHS_HEADER_SIZE +
		(uint64_t)t->nr_pieces * (KMS_START_SIZE + t->path_width);
	if (columns > t->paths_image_size)
		return PATHS_ERROR(origin,
				   "paths image: %u pieces (%llu bytes) lie outside its %zu bytes",
				   t->nr_pieces, (unsigned long long)columns,
				   t->paths_image_size);
	t->piece_starts = p + KMS_PATHS_HEADER_SIZE;
	t->piece_paths = t->piece_starts + (size_t)t->nr_pieces * KMS_START_SIZE;
	*ret_strings = columns;
	return NULL;
}

/* Path @k, @len bytes at @s: printable, no space, no stray '/'. */
static struct kms_error *check_path(const char *origin, uint32_t k,
				    const char *s, size_t len)
{
	size_t i;

	if (!len)
		return PATHS_ERROR(origin, "path %u is empty", k);
	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f)
			return PATHS_ERROR(origin,
					   "path %u byte %zu is not a printable character",
					   k, i);
	if (s[0] == '/')
		return PATHS_ERROR(origin, "path %u starts with '/'", k);
	if (s[len - 1] == '/')
		return PATHS_ERROR(origin, "path %u ends with '/'", k);
	if (memmem(s, len, "//", 2))
		return PATHS_ERROR(origin, "path %u holds '//'", k);
	return NULL;
}

/* The strings from @from to the end: exactly nr_paths, each well-formed. */
static struct kms_error *check_paths_strings(struct kms_tables *t,
					     const char *origin, size_t from)
{
	const char *s = (const char *)t->paths_image;
	size_t end = t->paths_image_size, at, nuls = 0;
	struct kms_error *err;
	uint32_t k;

	if (from == end || s[end - 1] != '\0')
		return PATHS_ERROR(origin,
				   "paths image strings do not end with NUL");
	for (at = from; at < end; at++)
		nuls += s[at] == '\0';
	if (nuls != t->nr_paths)
		return PATHS_ERROR(origin,
				   "paths image holds %zu strings, its header says %u",
				   nuls, t->nr_paths);
	t->path_offsets = malloc(((size_t)t->nr_paths ? t->nr_paths : 1) *
				 sizeof(*t->path_offsets));
	if (!t->path_offsets)
		return &kms_error_nomem;
	for (k = 0, at = from; k < t->nr_paths; k++) {
		size_t len = strlen(s + at);

		err = check_path(origin, k, s + at, len);
		if (err)
			return err;
		t->path_offsets[k] = at;
		at += len + 1;
	}
	return NULL;
}

/* The restored pieces: increasing below the end, known paths, merged. */
static struct kms_error *check_pieces(const struct kms_tables *t,
				      const char *origin)
{
	uint32_t i;

	for (i = 0; i < t->nr_pieces; i++) {
		uint32_t start = kms_piece_start(t, i), path = kms_piece_path(t, i);

		if (i > 0 && start <= kms_piece_start(t, i - 1))
			return PATHS_ERROR(origin,
					   "piece %u starts at %#x, not after piece %u at %#x",
					   i, start, i - 1,
					   kms_piece_start(t, i - 1));
		if (path != KMS_NONE && path >= t->nr_paths)
			return PATHS_ERROR(origin,
					   "piece %u names path %u of %u",
					   i, path, t->nr_paths);
		if (i > 0 && path == kms_piece_path(t, i - 1))
			return PATHS_ERROR(origin,
					   "pieces %u and %u have the same path and are not merged",
					   i - 1, i);
	}
	if (kms_piece_start(t, t->nr_pieces - 1) >= t->pieces_end)
		return PATHS_ERROR(origin,
				   "piece %u starts at %#x, not below the end %#x",
				   t->nr_pieces - 1,
				   kms_piece_start(t, t->nr_pieces - 1),
				   t->pieces_end);
	return NULL;
}

struct kms_error *kms_paths_validate(struct kms_tables *t, const char *origin)
{
	struct kms_error *err;
	size_t strings = 0;

	err = check_paths_arrays(t, origin, &strings);
	if (!err)
		err = check_paths_strings(t, origin, strings);
	/* Its columns are inside it: it converts. */
	if (!err)
		err = kms_paths_convert(t->paths_image, t->paths_image_size,
					false);
	if (!err)
		err = check_pieces(t, origin);
	return err;
}
