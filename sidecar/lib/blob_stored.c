// SPDX-License-Identifier: GPL-2.0
/*
 * The stored forms (kms/blob.h): of an image (FORMAT.md 3.8), each
 * section's range starts as differences from the one before, both range
 * columns in byte planes; of a paths image (3.9), the piece starts as
 * differences, both piece columns in byte planes.  kms_image_store() and
 * kms_paths_store() make them, kms_image_restore() and
 * kms_paths_restore() undo them, in place; each checks only that the
 * header places the columns inside the bytes.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/util.h>

#include "blob_image.h"

/* Where an image's range columns are, if its header and sections agree. */
struct columns {
	unsigned char *starts, *objects;
	uint32_t nr_ranges, nr_sections;
	unsigned int width;
	const unsigned char *sections;
};

static bool find_columns(unsigned char *img, size_t size, struct columns *c)
{
	uint64_t sec, starts, objs, sum = 0;
	uint32_t k;

	if (size < KMS_IMAGE_HEADER_SIZE)
		return false;
	c->nr_sections = kms_get_le32(img + KMS_IMG_NR_SECTIONS);
	c->nr_ranges = kms_get_le32(img + KMS_IMG_NR_RANGES);
	c->width = KMS_OBJECT_WIDTH(kms_get_le32(img + KMS_IMG_NR_OBJECTS));
	sec = kms_get_le32(img + KMS_IMG_SECTIONS_OFF);
	starts = kms_get_le32(img + KMS_IMG_STARTS_OFF);
	objs = kms_get_le32(img + KMS_IMG_RANGE_OBJECTS_OFF);
	if (sec + (uint64_t)c->nr_sections * KMS_SECTION_SIZE > size ||
	    starts + (uint64_t)c->nr_ranges * KMS_START_SIZE > size ||
	    objs + (uint64_t)c->nr_ranges * c->width > size)
		return false;
	c->sections = img + sec;
	for (k = 0; k < c->nr_sections; k++)
		sum += kms_get_le32(c->sections + KMS_SECTION_SIZE * k + 4);
	c->starts = img + starts;
	c->objects = img + objs;
	return sum == c->nr_ranges;
}

void kms_transpose(unsigned char *col, unsigned char *scratch, uint32_t n,
		   unsigned int width, bool to_planes)
{
	size_t value, plane;
	uint32_t i;
	unsigned int p;

	for (i = 0; i < n; i++)
		for (p = 0; p < width; p++) {
			value = (size_t)i * width + p;
			plane = (size_t)p * n + i;
			scratch[to_planes ? plane : value] =
				col[to_planes ? value : plane];
		}
	memcpy(col, scratch, (size_t)n * width);
}

void kms_difference(unsigned char *starts, uint32_t n, bool store)
{
	uint32_t i, prev = 0;

	for (i = 0; i < n; i++) {
		unsigned char *at = starts + 4 * (size_t)i;
		uint32_t v = kms_get_le32(at);

		kms_put_le32(at, store ? v - prev : v + prev);
		prev = store ? v : v + prev;
	}
}

/* Each section's starts as differences (@store), or back. */
static void difference(const struct columns *c, bool store)
{
	uint32_t k, first = 0;

	for (k = 0; k < c->nr_sections; k++) {
		uint32_t n = kms_get_le32(c->sections + KMS_SECTION_SIZE * k + 4);

		kms_difference(c->starts + 4 * (size_t)first, n, store);
		first += n;
	}
}

static struct kms_error *convert(unsigned char *img, size_t size, bool store)
{
	unsigned char *scratch;
	struct columns c;

	if (!find_columns(img, size, &c))
		return kms_error_new(KMS_ERR_INPUT,
				     "image header and sections do not describe its range columns");
	scratch = malloc((size_t)c.nr_ranges * KMS_START_SIZE + 1);
	if (!scratch)
		return &kms_error_nomem;
	if (store)
		difference(&c, true);
	kms_transpose(c.starts, scratch, c.nr_ranges, KMS_START_SIZE, store);
	kms_transpose(c.objects, scratch, c.nr_ranges, c.width, store);
	if (!store)
		difference(&c, false);
	free(scratch);
	return NULL;
}

struct kms_error *kms_image_store(unsigned char *img, size_t size)
{
	return convert(img, size, true);
}

struct kms_error *kms_image_restore(unsigned char *img, size_t size)
{
	return convert(img, size, false);
}

struct kms_error *kms_paths_convert(unsigned char *p, size_t size, bool store)
{
	uint32_t n, width;
	unsigned char *scratch;

	if (size < KMS_PATHS_HEADER_SIZE)
		return kms_error_fmt("paths image of %zu bytes is shorter than its header",
				     size);
	n = kms_get_le32(p + KMS_PATHS_NR_PIECES);
	width = KMS_PATH_WIDTH(kms_get_le32(p + KMS_PATHS_NR_PATHS));
	if (KMS_PATHS_HEADER_SIZE + (uint64_t)n * (KMS_START_SIZE + width) >
	    size)
		return kms_error_fmt("paths image header places %u pieces past its %zu bytes",
				     n, size);
	scratch = malloc((size_t)n * KMS_START_SIZE + 1);
	if (!scratch)
		return &kms_error_nomem;
	p += KMS_PATHS_HEADER_SIZE;
	if (store)
		kms_difference(p, n, true);
	kms_transpose(p, scratch, n, KMS_START_SIZE, store);
	kms_transpose(p + (size_t)n * KMS_START_SIZE, scratch, n, width, store);
	if (!store)
		kms_difference(p, n, false);
	free(scratch);
	return NULL;
}
