// SPDX-License-Identifier: GPL-2.0
/*
 * The blob codec.  The decoder is written for hostile input: every size is
 * checked against what is left before it is used, in 64-bit arithmetic so
 * that no sum can wrap.
 */
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_c_useBlockSplitter */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <kms/blob.h>
#include <kms/format.h>
#include <kms/util.h>

static uint16_t get_le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static struct kms_error *check_array(const char *origin, const char *what,
				     const unsigned char *img, size_t img_size,
				     uint64_t count, uint64_t elem_size,
				     uint32_t offset, const unsigned char **ret)
{
	uint64_t end = (uint64_t)offset + count * elem_size;

	if (offset % 4)
		return kms_error_path(KMS_ERR_BAD_OFFSET, origin,
				      "note: %s offset %u is not aligned",
				      what, offset);
	if (offset < KMS_IMAGE_HEADER_SIZE || end > img_size)
		return kms_error_path(KMS_ERR_BAD_OFFSET, origin,
				      "note: %s (offset %u, %llu bytes) lie outside the %zu-byte image",
				      what, offset,
				      (unsigned long long)(count * elem_size),
				      img_size);
	*ret = img + offset;
	return NULL;
}

struct array_extent {
	uint64_t start, end;
	const char *what;
};

/*
 * By start, then by end: an empty array at the start of another sorts
 * first, whatever order qsort() leaves equal keys in (the kernel's
 * cmp_extent() breaks ties the same way).
 */
static int compare_extent(const void *a, const void *b)
{
	const struct array_extent *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* A refusal of @class (a module list's, an object's) unless @off starts a
 * string. */
static struct kms_error *check_strtab_offset(const struct kms_tables *t,
					     const char *origin,
					     enum kms_error_class class,
					     const char *what, uint32_t i,
					     uint32_t off)
{
	if (off >= t->strtab_size)
		return kms_error_path(class, origin,
				      "note: %s %u names string offset %u past the %u-byte string table",
				      what, i, off, t->strtab_size);
	if (t->strtab[off] == '\0' || (off > 0 && t->strtab[off - 1] != '\0'))
		return kms_error_path(class, origin,
				      "note: %s %u names offset %u, which is not the start of a string",
				      what, i, off);
	return NULL;
}

/* The arrays of the image: where each one lies (FORMAT.md 3). */
enum { A_SECTIONS, A_STARTS, A_RANGE_OBJECTS, A_OBJECTS, A_MODLISTS,
       A_STRTAB, NR_ARRAYS };

static const struct {
	const char *what;
	unsigned int offset_field;
} array_desc[NR_ARRAYS] = {
	{ "sections", KMS_IMG_SECTIONS_OFF },
	{ "range starts", KMS_IMG_STARTS_OFF },
	{ "range objects", KMS_IMG_RANGE_OBJECTS_OFF },
	{ "objects", KMS_IMG_OBJECTS_OFF },
	{ "module lists", KMS_IMG_MODLISTS_OFF },
	{ "string table", KMS_IMG_STRTAB_OFF },
};

/* The header's counts, and where each array lies: inside, apart. */
static struct kms_error *check_arrays(struct kms_tables *t,
				      const char *origin)
{
	const unsigned char *img = t->image, *at[NR_ARRAYS];
	struct array_extent ext[NR_ARRAYS];
	uint64_t bytes[NR_ARRAYS];
	struct kms_error *err;
	uint32_t i;

	t->nr_sections = kms_get_le32(img + KMS_IMG_NR_SECTIONS);
	t->nr_ranges = kms_get_le32(img + KMS_IMG_NR_RANGES);
	t->nr_objects = kms_get_le32(img + KMS_IMG_NR_OBJECTS);
	t->nr_modlist_words = kms_get_le32(img + KMS_IMG_NR_MODLIST);
	t->strtab_size = kms_get_le32(img + KMS_IMG_STRTAB_SIZE);
	t->nr_modules = kms_get_le32(img + KMS_IMG_NR_MODULES);
	t->object_width = KMS_OBJECT_WIDTH(t->nr_objects);

	bytes[A_SECTIONS] = (uint64_t)t->nr_sections * KMS_SECTION_SIZE;
	bytes[A_STARTS] = (uint64_t)t->nr_ranges * KMS_START_SIZE;
	bytes[A_RANGE_OBJECTS] = (uint64_t)t->nr_ranges * t->object_width;
	bytes[A_OBJECTS] = (uint64_t)t->nr_objects * KMS_OBJECT_SIZE;
	bytes[A_MODLISTS] = (uint64_t)t->nr_modlist_words * 4;
	bytes[A_STRTAB] = t->strtab_size;
	for (i = 0; i < NR_ARRAYS; i++) {
		uint32_t off = kms_get_le32(img + array_desc[i].offset_field);

		err = check_array(origin, array_desc[i].what, img,
				  t->image_size, bytes[i], 1, off, &at[i]);
		if (err)
			return err;
		ext[i] = (struct array_extent){ off, off + bytes[i],
						array_desc[i].what };
	}
	t->starts = at[A_STARTS];
	t->range_objects = at[A_RANGE_OBJECTS];
	t->objects = at[A_OBJECTS];
	t->modlists = at[A_MODLISTS];
	t->strtab = (const char *)at[A_STRTAB];

	qsort(ext, NR_ARRAYS, sizeof(ext[0]), compare_extent);
	for (i = 1; i < NR_ARRAYS; i++)
		if (ext[i].start < ext[i - 1].end)
			return kms_error_path(KMS_ERR_OVERLAP, origin,
					      "note: %s overlap %s",
					      ext[i].what, ext[i - 1].what);
	return NULL;
}

/* Strings: NUL-terminated, printable, no white space. */
static struct kms_error *check_strings(const struct kms_tables *t,
				       const char *origin)
{
	uint32_t i;

	if (t->strtab_size == 0 || t->strtab[t->strtab_size - 1] != '\0')
		return kms_error_path(KMS_ERR_BAD_STRTAB, origin,
				      "note: string table is empty or not NUL-terminated");
	for (i = 0; i < t->strtab_size; i++) {
		unsigned char c = t->strtab[i];

		if (c && (c <= ' ' || c >= 0x7f))
			return kms_error_path(KMS_ERR_BAD_STRTAB, origin,
					      "note: string table byte %u is not a printable character",
					      i);
	}
	return NULL;
}

/*
 * Module lists, walked from the start: each one a count and names, sorted.
 * Where each starts is marked in the bitmap @list_starts, so that objects
 * can be checked in one pass.
 */
static struct kms_error *check_modlists(const struct kms_tables *t,
					const char *origin,
					unsigned char *list_starts)
{
	struct kms_error *err;
	uint32_t i, k;

	for (i = 0; i < t->nr_modlist_words;) {
		uint32_t n = kms_modlist_count(t, i);

		if (n == 0)
			return kms_error_path(KMS_ERR_BAD_MODLIST, origin,
					      "note: module list at word %u is empty",
					      i);
		if (n > t->nr_modlist_words - i - 1)
			return kms_error_path(KMS_ERR_BAD_MODLIST, origin,
					      "note: module list at word %u claims %u modules, more than the array holds",
					      i, n);
		list_starts[i / 8] |= 1 << (i % 8);
		for (k = 0; k < n; k++) {
			uint32_t off = kms_get_le32(t->modlists + 4 * (i + 1 + k));

			err = check_strtab_offset(t, origin, KMS_ERR_BAD_MODLIST,
						  "module list", i, off);
			if (err)
				return err;
			if (k > 0 && strcmp(kms_modlist_name(t, i, k - 1),
					    t->strtab + off) >= 0)
				return kms_error_path(KMS_ERR_BAD_MODLIST, origin,
						      "note: module list at word %u is not sorted",
						      i);
		}
		i += n + 1;
	}
	return NULL;
}

/* Objects: a module list's start (in @list_starts) and a string each. */
static struct kms_error *check_objects(const struct kms_tables *t,
				       const char *origin,
				       const unsigned char *list_starts)
{
	uint32_t i;

	for (i = 0; i < t->nr_objects; i++) {
		uint32_t list = kms_object_modlist(t, i);
		uint32_t name = kms_get_le32(t->objects + 8 * i + 4);

		if (list != KMS_NONE && (list >= t->nr_modlist_words ||
					 !(list_starts[list / 8] & 1 << (list % 8))))
			return kms_error_path(KMS_ERR_BAD_OBJECT, origin,
					      "note: object %u points at word %u, not at a module list",
					      i, list);
		if (name != KMS_NONE) {
			struct kms_error *err;

			err = check_strtab_offset(t, origin, KMS_ERR_BAD_OBJECT,
						  "object", i, name);
			if (err)
				return err;
		}
	}
	return NULL;
}

static const char *const class_names[KMS_NR_CLASSES] = {
	[KMS_CLASS_TEXT] = "text",
	[KMS_CLASS_INIT_TEXT] = "init-text",
	[KMS_CLASS_RODATA] = "rodata",
	[KMS_CLASS_RO_AFTER_INIT] = "ro-after-init",
	[KMS_CLASS_DATA] = "data",
	[KMS_CLASS_INIT_DATA] = "init-data",
	[KMS_CLASS_BSS] = "bss",
	[KMS_CLASS_PERCPU] = "percpu",
};

const char *kms_class_name(uint32_t cls)
{
	return cls < KMS_NR_CLASSES ? class_names[cls] : "unknown";
}

unsigned int kms_class_base(uint32_t cls)
{
	return cls == KMS_CLASS_PERCPU ? KMS_BASE_PERCPU : KMS_BASE_TEXT;
}

/*
 * Sections (FORMAT.md 3.2): known classes, each with ranges, the counts
 * adding up.  Decoded into t->sections; their starts are read once the
 * ranges are known to be in the image.
 */
static struct kms_error *check_sections(struct kms_tables *t,
					const char *origin)
{
	uint64_t first = 0;
	uint32_t k;

	t->sections = calloc(t->nr_sections ? t->nr_sections : 1,
			     sizeof(*t->sections));
	if (!t->sections)
		return &kms_error_nomem;
	for (k = 0; k < t->nr_sections; k++) {
		const unsigned char *e = t->image + kms_get_le32(t->image +
			KMS_IMG_SECTIONS_OFF) + (size_t)KMS_SECTION_SIZE * k;
		struct kms_section *sec = &t->sections[k];

		sec->cls = kms_get_le32(e);
		sec->nr_ranges = kms_get_le32(e + 4);
		sec->end = kms_get_le32(e + 8);
		if (sec->cls >= KMS_NR_CLASSES)
			return kms_error_path(KMS_ERR_UNKNOWN_CLASS, origin,
					      "note: section %u has unknown class %u (this reader knows 0-%u)",
					      k, sec->cls, KMS_NR_CLASSES - 1);
		if (sec->nr_ranges == 0)
			return kms_error_path(KMS_ERR_BAD_SECTION, origin,
					      "note: section %u has no ranges", k);
		sec->first = first;
		first += sec->nr_ranges;
	}
	if (first != t->nr_ranges)
		return kms_error_path(KMS_ERR_BAD_SECTION, origin,
				      "note: sections hold %llu ranges, the header says %u",
				      (unsigned long long)first, t->nr_ranges);
	return NULL;
}

/* The ranges of section @k: ascending below its end, known objects, merged. */
static struct kms_error *check_section_ranges(const struct kms_tables *t,
					      const char *origin, uint32_t k)
{
	const struct kms_section *sec = &t->sections[k];
	uint32_t i, prev = 0;

	for (i = sec->first; i < sec->first + sec->nr_ranges; i++) {
		uint32_t start = kms_range_start(t, i);
		uint32_t obj = kms_range_object(t, i);

		if (i > sec->first && start <= prev)
			return kms_error_path(KMS_ERR_BAD_RANGE, origin,
					      "note: range %u starts at %#x, not after range %u at %#x",
					      i, start, i - 1, prev);
		if (start >= sec->end)
			return kms_error_path(KMS_ERR_BAD_RANGE, origin,
					      "note: range %u starts at %#x, past the end %#x of section %u",
					      i, start, sec->end, k);
		if (obj != KMS_NONE && obj >= t->nr_objects)
			return kms_error_path(KMS_ERR_BAD_RANGE, origin,
					      "note: range %u names object %u of %u",
					      i, obj, t->nr_objects);
		if (i > sec->first && obj == kms_range_object(t, i - 1))
			return kms_error_path(KMS_ERR_BAD_RANGE, origin,
					      "note: ranges %u and %u have the same object and are not merged",
					      i - 1, i);
		prev = start;
	}
	return NULL;
}

/* Every section's ranges, then the sections' order within each base. */
static struct kms_error *check_ranges(struct kms_tables *t,
				      const char *origin)
{
	uint32_t prev[KMS_NR_BASES], k;
	bool seen[KMS_NR_BASES] = { false };
	struct kms_error *err;

	for (k = 0; k < t->nr_sections; k++) {
		struct kms_section *sec = &t->sections[k];
		unsigned int base = kms_class_base(sec->cls);

		err = check_section_ranges(t, origin, k);
		if (err)
			return err;
		sec->start = kms_range_start(t, sec->first);
		if (seen[base] && sec->start < t->sections[prev[base]].end)
			return kms_error_path(KMS_ERR_BAD_SECTION, origin,
					      "note: section %u starts at %#x, before the end %#x of section %u",
					      k, sec->start,
					      t->sections[prev[base]].end,
					      prev[base]);
		seen[base] = true;
		prev[base] = k;
	}
	return NULL;
}

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

/*
 * Transpose @n values of @width bytes at @col into @width planes of @n
 * bytes (@to_planes), or back, through @scratch (@n * @width bytes).
 */
static void transpose(unsigned char *col, unsigned char *scratch, uint32_t n,
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

/*
 * Each section's starts as differences from the one before (@store), or
 * back to starts by summing them, wrapping as 32-bit numbers do.
 */
static void difference(const struct columns *c, bool store)
{
	uint32_t k, i, first = 0;

	for (k = 0; k < c->nr_sections; k++) {
		uint32_t n = kms_get_le32(c->sections + KMS_SECTION_SIZE * k + 4);
		uint32_t prev = 0;

		for (i = first; i < first + n; i++) {
			unsigned char *at = c->starts + 4 * (size_t)i;
			uint32_t v = kms_get_le32(at);

			kms_put_le32(at, store ? v - prev : v + prev);
			prev = store ? v : v + prev;
		}
		first += n;
	}
}

static struct kms_error *convert(unsigned char *img, size_t size, bool store)
{
	unsigned char *scratch;
	struct columns c;

	if (!find_columns(img, size, &c))
		return kms_error_fmt("image header and sections do not describe its range columns");
	scratch = malloc((size_t)c.nr_ranges * KMS_START_SIZE + 1);
	if (!scratch)
		return &kms_error_nomem;
	if (store)
		difference(&c, true);
	transpose(c.starts, scratch, c.nr_ranges, KMS_START_SIZE, store);
	transpose(c.objects, scratch, c.nr_ranges, c.width, store);
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

static struct kms_error *validate_image(struct kms_tables *t,
					const char *origin)
{
	unsigned char *list_starts;
	struct kms_error *err;

	err = check_arrays(t, origin);
	if (!err)
		err = check_strings(t, origin);
	if (err)
		return err;
	list_starts = calloc(t->nr_modlist_words / 8 + 1, 1);
	if (!list_starts)
		return &kms_error_nomem;
	err = check_modlists(t, origin, list_starts);
	if (!err)
		err = check_objects(t, origin, list_starts);
	free(list_starts);
	if (!err)
		err = check_sections(t, origin);
	/* Its arrays are in the image and its sections add up: it converts. */
	if (!err)
		err = kms_image_restore(t->image, t->image_size);
	if (!err)
		err = check_ranges(t, origin);
	return err;
}

/* The padding after the payload (FORMAT.md 2): zero bytes. */
static struct kms_error *check_padding(const unsigned char *desc, size_t size,
				       uint32_t payload_size,
				       const char *origin)
{
	size_t i;

	for (i = KMS_HEADER_SIZE + (size_t)payload_size; i < size; i++)
		if (desc[i])
			return kms_error_path(KMS_ERR_BAD_HEADER, origin,
					      "note: padding byte %zu after the payload is not zero",
					      i - KMS_HEADER_SIZE - payload_size);
	return NULL;
}

/* The fixed header of @size bytes at @hdr, and what it says. */
static struct kms_error *check_header(const unsigned char *hdr, size_t size,
				      const char *origin,
				      uint32_t *ret_payload_size,
				      uint32_t *ret_image_size)
{
	uint32_t flags, payload_size, image_size, i;
	uint16_t version;

	if (size < KMS_HEADER_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: %zu bytes, shorter than the %u-byte header",
				      size, KMS_HEADER_SIZE);
	if (memcmp(hdr + KMS_HDR_MAGIC, KMS_MAGIC, 4))
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: bad magic");
	version = get_le16(hdr + KMS_HDR_VERSION);
	if (version != KMS_VERSION)
		return kms_error_path(KMS_ERR_BAD_VERSION, origin,
				      "note: format version %u, this reader knows version %u",
				      version, KMS_VERSION);
	if (get_le16(hdr + KMS_HDR_HEADER_SIZE) != KMS_HEADER_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: header size %u, expected %u",
				      get_le16(hdr + KMS_HDR_HEADER_SIZE),
				      KMS_HEADER_SIZE);
	flags = kms_get_le32(hdr + KMS_HDR_FLAGS);
	if (flags != KMS_FLAGS_REQUIRED)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: flags %#x, expected %#x",
				      flags, KMS_FLAGS_REQUIRED);
	for (i = 0; i < KMS_HDR_RESERVED_SIZE; i++)
		if (hdr[KMS_HDR_RESERVED + i])
			return kms_error_path(KMS_ERR_BAD_HEADER, origin,
					      "note: reserved header fields are not zero");
	payload_size = kms_get_le32(hdr + KMS_HDR_PAYLOAD_SIZE);
	if (payload_size > size - KMS_HEADER_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: header says %u payload bytes, the note holds %zu",
				      payload_size, size - KMS_HEADER_SIZE);
	image_size = kms_get_le32(hdr + KMS_HDR_IMAGE_SIZE);
	if (image_size < KMS_IMAGE_HEADER_SIZE || image_size > KMS_IMAGE_MAX_SIZE)
		return kms_error_path(KMS_ERR_BAD_HEADER, origin,
				      "note: implausible image size %u",
				      image_size);
	*ret_payload_size = payload_size;
	*ret_image_size = image_size;
	return check_padding(hdr, size, payload_size, origin);
}

/* Decompress the one zstd frame of @payload into t->image. */
static struct kms_error *decompress(struct kms_tables *t, const char *origin,
				    const unsigned char *payload,
				    uint32_t payload_size)
{
	unsigned long long content;
	size_t got;

	content = ZSTD_getFrameContentSize(payload, payload_size);
	if (content == ZSTD_CONTENTSIZE_ERROR)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: payload is not a zstd frame");
	if (content != t->image_size)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: zstd frame does not declare the image size %zu",
				      t->image_size);
	/* The frame header descriptor's Content_Checksum_flag (RFC 8878
	 * 3.1.1.1.1, bit 2): the frame checksum is the blob's checksum. */
	if (!(payload[4] & 0x04))
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: payload is not a zstd frame with a content checksum");
	/* One frame (FORMAT.md 2): nothing after it, not even an
	 * empty or skippable frame, and all of it. */
	got = ZSTD_findFrameCompressedSize(payload, payload_size);
	if (ZSTD_isError(got))
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: payload is not one whole zstd frame: %s",
				      ZSTD_getErrorName(got));
	if (got != payload_size)
		return kms_error_path(KMS_ERR_BAD_FRAME, origin,
				      "note: %zu bytes after the zstd frame",
				      payload_size - got);
	got = ZSTD_decompress(t->image, t->image_size, payload, payload_size);
	if (ZSTD_isError(got))
		return kms_error_path(KMS_ERR_BAD_ZSTD, origin,
				      "note: zstd: %s",
				      ZSTD_getErrorName(got));
	if (got != t->image_size)
		return kms_error_path(KMS_ERR_BAD_ZSTD, origin,
				      "note: decompressed to %zu bytes, expected %zu",
				      got, t->image_size);
	return NULL;
}

struct kms_error *kms_blob_decode(const void *blob, size_t size,
				  const char *origin, struct kms_tables **ret)
{
	const unsigned char *hdr = blob;
	struct kms_tables *t;
	/* Set by check_header(), which gcc cannot see through. */
	uint32_t payload_size = 0, image_size = 0;
	struct kms_error *err;

	err = check_header(hdr, size, origin, &payload_size, &image_size);
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return &kms_error_nomem;
	t->blob_size = size;
	t->payload_size = payload_size;
	t->image_size = image_size;
	t->image = malloc(image_size);
	if (!t->image) {
		free(t);
		return &kms_error_nomem;
	}
	err = decompress(t, origin, hdr + KMS_HEADER_SIZE, payload_size);
	if (!err)
		err = validate_image(t, origin);
	if (err) {
		kms_tables_destroy(t);
		return err;
	}
	*ret = t;
	return NULL;
}

void kms_tables_destroy(struct kms_tables *tables)
{
	if (!tables)
		return;
	free(tables->sections);
	free(tables->image);
	free(tables);
}

/* @key, a range index, against a section: before its first range or not. */
static int compare_section_first(const void *key, const void *element)
{
	const struct kms_section *sec = element;

	return *(const uint32_t *)key < sec->first ? -1 : 1;
}

uint32_t kms_range_section(const struct kms_tables *t, uint32_t i)
{
	return kms_upper_bound(&i, t->sections, t->nr_sections,
			       sizeof(*t->sections), compare_section_first) - 1;
}

uint32_t kms_range_end(const struct kms_tables *t, uint32_t i)
{
	const struct kms_section *sec = &t->sections[kms_range_section(t, i)];

	return i + 1 < sec->first + sec->nr_ranges ?
		kms_range_start(t, i + 1) : sec->end;
}

uint32_t kms_tables_find_section(const struct kms_tables *t,
				 unsigned int base, uint32_t offset)
{
	uint32_t k;

	/* At most a few sections a class: a linear scan. */
	for (k = 0; k < t->nr_sections; k++) {
		const struct kms_section *sec = &t->sections[k];

		if (kms_class_base(sec->cls) == base && sec->start <= offset &&
		    offset < sec->end)
			return k;
	}
	return KMS_NONE;
}

/* @key, an offset, against a range start: before it or not. */
static int compare_range_start(const void *key, const void *element)
{
	return *(const uint32_t *)key < kms_get_le32(element) ? -1 : 1;
}

uint32_t kms_tables_find(const struct kms_tables *t, unsigned int base,
			 uint32_t offset, uint32_t *ret_section)
{
	uint32_t k = kms_tables_find_section(t, base, offset);
	const struct kms_section *sec;

	if (ret_section)
		*ret_section = k;
	if (k == KMS_NONE)
		return KMS_NONE;
	sec = &t->sections[k];
	/* The last range of the section whose start is <= offset. */
	return sec->first + kms_upper_bound(&offset,
					    t->starts + 4 * (size_t)sec->first,
					    sec->nr_ranges, KMS_START_SIZE,
					    compare_range_start) - 1;
}

static uint64_t align4(uint64_t v)
{
	return (v + 3) & ~(uint64_t)3;
}

/* Where the writer puts the arrays: in FORMAT.md 3's order, aligned. */
static uint64_t encode_layout(const struct kms_encode_input *in,
			      unsigned int width, uint64_t off[NR_ARRAYS])
{
	off[A_SECTIONS] = KMS_IMAGE_HEADER_SIZE;
	off[A_STARTS] = off[A_SECTIONS] +
		(uint64_t)in->nr_sections * KMS_SECTION_SIZE;
	off[A_RANGE_OBJECTS] = off[A_STARTS] +
		(uint64_t)in->nr_ranges * KMS_START_SIZE;
	off[A_OBJECTS] = align4(off[A_RANGE_OBJECTS] +
				(uint64_t)in->nr_ranges * width);
	off[A_MODLISTS] = off[A_OBJECTS] +
		(uint64_t)in->nr_objects * KMS_OBJECT_SIZE;
	off[A_STRTAB] = off[A_MODLISTS] + (uint64_t)in->nr_modlist_words * 4;
	return align4(off[A_STRTAB] + in->strtab_size);
}

static void encode_fill(const struct kms_encode_input *in, unsigned int width,
			const uint64_t off[NR_ARRAYS], unsigned char *img)
{
	unsigned int k;
	uint32_t i;

	kms_put_le32(img + KMS_IMG_NR_SECTIONS, in->nr_sections);
	kms_put_le32(img + KMS_IMG_NR_RANGES, in->nr_ranges);
	kms_put_le32(img + KMS_IMG_NR_OBJECTS, in->nr_objects);
	kms_put_le32(img + KMS_IMG_NR_MODLIST, in->nr_modlist_words);
	kms_put_le32(img + KMS_IMG_STRTAB_SIZE, in->strtab_size);
	kms_put_le32(img + KMS_IMG_NR_MODULES, in->nr_modules);
	for (k = 0; k < NR_ARRAYS; k++)
		kms_put_le32(img + array_desc[k].offset_field, off[k]);
	for (i = 0; i < in->nr_sections; i++) {
		unsigned char *e = img + off[A_SECTIONS] + KMS_SECTION_SIZE * i;

		kms_put_le32(e, in->sections[i].cls);
		kms_put_le32(e + 4, in->sections[i].nr_ranges);
		kms_put_le32(e + 8, in->sections[i].end);
	}
	for (i = 0; i < in->nr_ranges; i++) {
		unsigned char *o = img + off[A_RANGE_OBJECTS] + width * i;

		kms_put_le32(img + off[A_STARTS] + 4 * i, in->range_start[i]);
		if (width == 4) {
			kms_put_le32(o, in->range_object[i]);
		} else {
			o[0] = in->range_object[i];
			o[1] = in->range_object[i] >> 8;
		}
	}
	for (i = 0; i < in->nr_objects; i++) {
		kms_put_le32(img + off[A_OBJECTS] + 8 * i, in->object_modlist[i]);
		kms_put_le32(img + off[A_OBJECTS] + 8 * i + 4, in->object_name[i]);
	}
	for (i = 0; i < in->nr_modlist_words; i++)
		kms_put_le32(img + off[A_MODLISTS] + 4 * i, in->modlists[i]);
	if (in->strtab_size)
		memcpy(img + off[A_STRTAB], in->strtab, in->strtab_size);
}

/* One zstd frame of @img: level KMS_ZSTD_LEVEL, content size, checksum. */
static struct kms_error *encode_frame(const unsigned char *img, size_t size,
				      unsigned char *out, size_t cap,
				      size_t *ret_size)
{
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	size_t n;

	if (!cctx)
		return &kms_error_nomem;
	n = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel,
				   KMS_ZSTD_LEVEL);
	if (!ZSTD_isError(n))
		n = ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
#ifdef ZSTD_c_useBlockSplitter
	/*
	 * The block splitter (libzstd 1.5.1 and later; a compressor's choice,
	 * any zstd decodes the frame): 4-6% smaller notes.  Where libzstd
	 * refuses it, the frame is as without.
	 */
	if (!ZSTD_isError(n))
		(void)ZSTD_CCtx_setParameter(cctx, ZSTD_c_useBlockSplitter,
					     ZSTD_ps_enable);
#endif
	if (!ZSTD_isError(n))
		n = ZSTD_compress2(cctx, out, cap, img, size);
	ZSTD_freeCCtx(cctx);
	if (ZSTD_isError(n))
		return kms_error_fmt("zstd: %s", ZSTD_getErrorName(n));
	*ret_size = n;
	return NULL;
}

struct kms_error *kms_blob_encode(const struct kms_encode_input *in,
				  void **ret_blob, size_t *ret_size)
{
	unsigned int width = KMS_OBJECT_WIDTH(in->nr_objects);
	uint64_t off[NR_ARRAYS], image_size;
	unsigned char *img, *blob;
	struct kms_error *err;
	size_t bound, csize = 0;

	image_size = encode_layout(in, width, off);
	if (image_size > KMS_IMAGE_MAX_SIZE)
		return kms_error_fmt("tables of %llu bytes exceed the format's %u-byte limit",
				     (unsigned long long)image_size,
				     KMS_IMAGE_MAX_SIZE);
	img = calloc(1, image_size);
	if (!img)
		return &kms_error_nomem;
	encode_fill(in, width, off, img);
	err = kms_image_store(img, image_size);
	if (err) {
		free(img);
		return err;
	}

	bound = ZSTD_compressBound(image_size);
	blob = calloc(1, KMS_HEADER_SIZE + bound);
	if (!blob) {
		free(img);
		return &kms_error_nomem;
	}
	err = encode_frame(img, image_size, blob + KMS_HEADER_SIZE, bound,
			   &csize);
	free(img);
	if (err) {
		free(blob);
		return err;
	}
	memcpy(blob + KMS_HDR_MAGIC, KMS_MAGIC, 4);
	blob[KMS_HDR_VERSION] = KMS_VERSION;
	blob[KMS_HDR_HEADER_SIZE] = KMS_HEADER_SIZE;
	kms_put_le32(blob + KMS_HDR_FLAGS, KMS_FLAGS_REQUIRED);
	kms_put_le32(blob + KMS_HDR_PAYLOAD_SIZE, csize);
	kms_put_le32(blob + KMS_HDR_IMAGE_SIZE, image_size);
	*ret_blob = blob;
	*ret_size = KMS_HEADER_SIZE + csize;
	return NULL;
}

static size_t pad4(size_t v)
{
	return (v + 3) & ~(size_t)3;
}

struct kms_error *kms_note_wrap(const void *blob, size_t size,
				size_t desc_size, void **ret,
				size_t *ret_size)
{
	unsigned char *note;
	size_t total;

	if (desc_size == 0)
		desc_size = size;
	if (desc_size < size)
		return kms_error_fmt("note descriptor of %zu bytes cannot hold the %zu-byte blob",
				     desc_size, size);
	if (desc_size > UINT32_MAX - 3)
		return kms_error_fmt("note descriptor of %zu bytes is too large",
				     desc_size);
	total = 12 + pad4(KMS_NOTE_NAMESZ) + pad4(desc_size);
	note = calloc(1, total);
	if (!note)
		return &kms_error_nomem;
	kms_put_le32(note, KMS_NOTE_NAMESZ);
	kms_put_le32(note + 4, desc_size);
	kms_put_le32(note + 8, KMS_NOTE_TYPE);
	memcpy(note + 12, KMS_NOTE_NAME, KMS_NOTE_NAMESZ);
	if (size)
		memcpy(note + 12 + pad4(KMS_NOTE_NAMESZ), blob, size);
	*ret = note;
	*ret_size = total;
	return NULL;
}

struct kms_error *kms_note_find(const void *buf, size_t size,
				const char *origin, const void **ret_desc,
				size_t *ret_desc_size)
{
	const unsigned char *p = buf;
	size_t pos = 0;

	*ret_desc = NULL;
	*ret_desc_size = 0;
	while (size - pos >= 12) {
		uint64_t namesz = kms_get_le32(p + pos);
		uint64_t descsz = kms_get_le32(p + pos + 4);
		uint32_t type = kms_get_le32(p + pos + 8);
		uint64_t name_off = pos + 12;
		uint64_t desc_off = name_off + ((namesz + 3) & ~3ull);
		uint64_t next = desc_off + ((descsz + 3) & ~3ull);

		if (desc_off > size || desc_off + descsz > size)
			return kms_error_path(KMS_ERR_NO_NOTE, origin,
					      "note record at offset %zu runs past the end of its %zu bytes",
					      pos, size);
		if (type == KMS_NOTE_TYPE && namesz == KMS_NOTE_NAMESZ &&
		    !memcmp(p + name_off, KMS_NOTE_NAME, KMS_NOTE_NAMESZ)) {
			*ret_desc = p + desc_off;
			*ret_desc_size = descsz;
			return NULL;
		}
		if (next > size)
			break;
		pos = next;
	}
	return NULL;
}
