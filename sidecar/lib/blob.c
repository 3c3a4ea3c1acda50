// SPDX-License-Identifier: GPL-2.0
/*
 * The blob codec.  The decoder is written for hostile input: every size is
 * checked against what is left before it is used, in 64-bit arithmetic so
 * that no sum can wrap.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <kms/blob.h>
#include <kms/crc32.h>
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
		return kms_error_file(origin, "note: %s offset %u is not aligned",
				      what, offset);
	if (offset < KMS_IMAGE_HEADER_SIZE || end > img_size)
		return kms_error_file(origin,
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

static struct kms_error *check_strtab_offset(const struct kms_tables *t,
					     const char *origin,
					     const char *what, uint32_t i,
					     uint32_t off)
{
	if (off >= t->strtab_size)
		return kms_error_file(origin,
				      "note: %s %u names string offset %u past the %u-byte string table",
				      what, i, off, t->strtab_size);
	if (t->strtab[off] == '\0' || (off > 0 && t->strtab[off - 1] != '\0'))
		return kms_error_file(origin,
				      "note: %s %u names offset %u, which is not the start of a string",
				      what, i, off);
	return NULL;
}

/* The header's counts, and where each array lies: inside, apart. */
static struct kms_error *check_arrays(struct kms_tables *t,
				      const char *origin)
{
	const unsigned char *img = t->image;
	uint64_t strtab_off;
	struct array_extent ext[3];
	struct kms_error *err;
	uint32_t i;

	t->text_size = kms_get_le32(img + KMS_IMG_TEXT_SIZE);
	t->nr_ranges = kms_get_le32(img + KMS_IMG_NR_RANGES);
	t->nr_objects = kms_get_le32(img + KMS_IMG_NR_OBJECTS);
	t->nr_modlist_words = kms_get_le32(img + KMS_IMG_NR_MODLIST);
	t->strtab_size = kms_get_le32(img + KMS_IMG_STRTAB_SIZE);
	t->nr_modules = kms_get_le32(img + KMS_IMG_NR_MODULES);

	err = check_array(origin, "ranges", img, t->image_size, t->nr_ranges,
			  KMS_RANGE_SIZE, kms_get_le32(img + KMS_IMG_RANGES_OFF),
			  &t->ranges);
	if (err)
		return err;
	err = check_array(origin, "objects", img, t->image_size, t->nr_objects,
			  KMS_OBJECT_SIZE,
			  kms_get_le32(img + KMS_IMG_OBJECTS_OFF), &t->objects);
	if (err)
		return err;
	err = check_array(origin, "module lists", img, t->image_size,
			  t->nr_modlist_words, 4,
			  kms_get_le32(img + KMS_IMG_MODLISTS_OFF),
			  &t->modlists);
	if (err)
		return err;
	err = check_array(origin, "string table", img, t->image_size,
			  t->strtab_size, 1,
			  kms_get_le32(img + KMS_IMG_STRTAB_OFF),
			  (const unsigned char **)&t->strtab);
	if (err)
		return err;

	ext[0] = (struct array_extent){ t->ranges - img,
		t->ranges - img + (uint64_t)t->nr_ranges * KMS_RANGE_SIZE,
		"ranges" };
	ext[1] = (struct array_extent){ t->objects - img,
		t->objects - img + (uint64_t)t->nr_objects * KMS_OBJECT_SIZE,
		"objects" };
	ext[2] = (struct array_extent){ t->modlists - img,
		t->modlists - img + (uint64_t)t->nr_modlist_words * 4,
		"module lists" };
	qsort(ext, 3, sizeof(ext[0]), compare_extent);
	for (i = 1; i < 3; i++)
		if (ext[i].start < ext[i - 1].end)
			return kms_error_file(origin, "note: %s overlap %s",
					      ext[i].what, ext[i - 1].what);
	strtab_off = (const unsigned char *)t->strtab - img;
	for (i = 0; i < 3; i++)
		if (ext[i].end > strtab_off &&
		    ext[i].start < strtab_off + t->strtab_size)
			return kms_error_file(origin, "note: %s overlap the string table",
					      ext[i].what);
	return NULL;
}

/* Strings: NUL-terminated, printable, no white space. */
static struct kms_error *check_strings(const struct kms_tables *t,
				       const char *origin)
{
	uint32_t i;

	if (t->strtab_size == 0 || t->strtab[t->strtab_size - 1] != '\0')
		return kms_error_file(origin, "note: string table is empty or not NUL-terminated");
	for (i = 0; i < t->strtab_size; i++) {
		unsigned char c = t->strtab[i];

		if (c && (c <= ' ' || c >= 0x7f))
			return kms_error_file(origin,
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
			return kms_error_file(origin,
					      "note: module list at word %u is empty",
					      i);
		if (n > t->nr_modlist_words - i - 1)
			return kms_error_file(origin,
					      "note: module list at word %u claims %u modules, more than the array holds",
					      i, n);
		list_starts[i / 8] |= 1 << (i % 8);
		for (k = 0; k < n; k++) {
			uint32_t off = kms_get_le32(t->modlists + 4 * (i + 1 + k));

			err = check_strtab_offset(t, origin, "module list", i, off);
			if (err)
				return err;
			if (k > 0 && strcmp(kms_modlist_name(t, i, k - 1),
					    t->strtab + off) >= 0)
				return kms_error_file(origin,
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
			return kms_error_file(origin,
					      "note: object %u points at word %u, not at a module list",
					      i, list);
		if (name != KMS_NONE) {
			struct kms_error *err;

			err = check_strtab_offset(t, origin, "object", i, name);
			if (err)
				return err;
		}
	}
	return NULL;
}

/* Ranges: ascending inside the text, of known objects, merged. */
static struct kms_error *check_ranges(const struct kms_tables *t,
				      const char *origin)
{
	uint32_t i, prev = 0;

	for (i = 0; i < t->nr_ranges; i++) {
		uint32_t start = kms_range_start(t, i);
		uint32_t obj = kms_range_object(t, i);

		if (i > 0 && start <= prev)
			return kms_error_file(origin,
					      "note: range %u starts at %#x, not after range %u at %#x",
					      i, start, i - 1, prev);
		if (start >= t->text_size)
			return kms_error_file(origin,
					      "note: range %u starts at %#x, past the text size %#x",
					      i, start, t->text_size);
		if (obj != KMS_NONE && obj >= t->nr_objects)
			return kms_error_file(origin,
					      "note: range %u names object %u of %u",
					      i, obj, t->nr_objects);
		if (i > 0 && obj == kms_range_object(t, i - 1))
			return kms_error_file(origin,
					      "note: ranges %u and %u have the same object and are not merged",
					      i - 1, i);
		prev = start;
	}
	return NULL;
}

static struct kms_error *validate_image(struct kms_tables *t,
					const char *origin)
{
	const unsigned char *img = t->image;
	unsigned char *list_starts;
	struct kms_error *err;

	if (kms_get_le32(img + KMS_IMG_RESERVED) ||
	    kms_get_le32(img + KMS_IMG_RESERVED + 4))
		return kms_error_file(origin, "note: reserved image header fields are not zero");
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
		err = check_ranges(t, origin);
	return err;
}

/* The fixed header of @size bytes at @hdr, and what it says. */
static struct kms_error *check_header(const unsigned char *hdr, size_t size,
				      const char *origin, uint32_t *ret_flags,
				      uint32_t *ret_payload_size,
				      uint32_t *ret_image_size)
{
	uint32_t flags, payload_size, image_size;
	uint16_t version;

	if (size < KMS_HEADER_SIZE)
		return kms_error_file(origin,
				      "note: %zu bytes, shorter than the %u-byte header",
				      size, KMS_HEADER_SIZE);
	if (memcmp(hdr + KMS_HDR_MAGIC, KMS_MAGIC, 4))
		return kms_error_file(origin, "note: bad magic");
	version = get_le16(hdr + KMS_HDR_VERSION);
	if (version != KMS_VERSION)
		return kms_error_file(origin,
				      "note: format version %u, this reader knows version %u",
				      version, KMS_VERSION);
	if (get_le16(hdr + KMS_HDR_HEADER_SIZE) != KMS_HEADER_SIZE)
		return kms_error_file(origin, "note: header size %u, expected %u",
				      get_le16(hdr + KMS_HDR_HEADER_SIZE),
				      KMS_HEADER_SIZE);
	flags = kms_get_le32(hdr + KMS_HDR_FLAGS);
	if (flags & ~KMS_FLAGS_KNOWN)
		return kms_error_file(origin, "note: unknown flags %#x", flags);
	if (kms_get_le32(hdr + KMS_HDR_RESERVED) ||
	    kms_get_le32(hdr + KMS_HDR_RESERVED + 4))
		return kms_error_file(origin, "note: reserved header fields are not zero");
	payload_size = kms_get_le32(hdr + KMS_HDR_PAYLOAD_SIZE);
	if ((uint64_t)payload_size + KMS_HEADER_SIZE != size)
		return kms_error_file(origin,
				      "note: header says %u payload bytes, the note holds %zu",
				      payload_size, size - KMS_HEADER_SIZE);
	image_size = kms_get_le32(hdr + KMS_HDR_IMAGE_SIZE);
	if (image_size < KMS_IMAGE_HEADER_SIZE || image_size > KMS_IMAGE_MAX_SIZE)
		return kms_error_file(origin, "note: implausible image size %u",
				      image_size);
	*ret_flags = flags;
	*ret_payload_size = payload_size;
	*ret_image_size = image_size;
	return NULL;
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
		return kms_error_file(origin, "note: payload is not a zstd frame");
	if (content != t->image_size)
		return kms_error_file(origin,
				      "note: zstd frame does not declare the image size %zu",
				      t->image_size);
	/* One frame (FORMAT.md 2): nothing after it, not even an
	 * empty or skippable frame, and all of it. */
	got = ZSTD_findFrameCompressedSize(payload, payload_size);
	if (ZSTD_isError(got))
		return kms_error_file(origin,
				      "note: payload is not one whole zstd frame: %s",
				      ZSTD_getErrorName(got));
	if (got != payload_size)
		return kms_error_file(origin,
				      "note: %zu bytes after the zstd frame",
				      payload_size - got);
	got = ZSTD_decompress(t->image, t->image_size, payload, payload_size);
	if (ZSTD_isError(got))
		return kms_error_file(origin, "note: zstd: %s",
				      ZSTD_getErrorName(got));
	if (got != t->image_size)
		return kms_error_file(origin,
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
	uint32_t flags = 0, payload_size = 0, image_size = 0, crc;
	struct kms_error *err;

	err = check_header(hdr, size, origin, &flags, &payload_size,
			   &image_size);
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return &kms_error_nomem;
	t->blob_size = size;
	t->image_size = image_size;
	t->image = malloc(image_size);
	if (!t->image) {
		free(t);
		return &kms_error_nomem;
	}

	if (flags & KMS_FLAG_ZSTD)
		err = decompress(t, origin, hdr + KMS_HEADER_SIZE,
				 payload_size);
	else if (payload_size != image_size)
		err = kms_error_file(origin,
				     "note: uncompressed payload of %u bytes, image size %u",
				     payload_size, image_size);
	else
		memcpy(t->image, hdr + KMS_HEADER_SIZE, image_size);
	if (err)
		goto fail;

	crc = kms_crc32(t->image, image_size);
	if (crc != kms_get_le32(hdr + KMS_HDR_IMAGE_CRC32)) {
		err = kms_error_file(origin,
				     "note: image checksum %08x, header says %08x",
				     crc, kms_get_le32(hdr + KMS_HDR_IMAGE_CRC32));
		goto fail;
	}

	err = validate_image(t, origin);
	if (err)
		goto fail;
	*ret = t;
	return NULL;

fail:
	kms_tables_destroy(t);
	return err;
}

void kms_tables_destroy(struct kms_tables *tables)
{
	if (!tables)
		return;
	free(tables->image);
	free(tables);
}

/* @key, a text offset, against a range record: before its start or not. */
static int compare_range_start(const void *key, const void *element)
{
	return *(const uint32_t *)key < kms_get_le32(element) ? -1 : 1;
}

uint32_t kms_tables_find_range(const struct kms_tables *t, uint32_t offset)
{
	if (!t->nr_ranges || offset < kms_range_start(t, 0) ||
	    offset >= t->text_size)
		return KMS_NONE;
	/* The last range whose start is <= offset. */
	return kms_upper_bound(&offset, t->ranges, t->nr_ranges,
			       KMS_RANGE_SIZE, compare_range_start) - 1;
}

static uint32_t align4(uint32_t v)
{
	return (v + 3) & ~3u;
}

struct kms_error *kms_blob_encode(const struct kms_encode_input *in,
				  void **ret_blob, size_t *ret_size)
{
	uint64_t ranges_off, objects_off, modlists_off, strtab_off, image_size;
	unsigned char *img, *blob, *hdr;
	size_t bound, csize;
	uint32_t i;

	ranges_off = KMS_IMAGE_HEADER_SIZE;
	objects_off = ranges_off + (uint64_t)in->nr_ranges * KMS_RANGE_SIZE;
	modlists_off = objects_off + (uint64_t)in->nr_objects * KMS_OBJECT_SIZE;
	strtab_off = modlists_off + (uint64_t)in->nr_modlist_words * 4;
	image_size = align4(strtab_off + in->strtab_size);
	if (image_size > KMS_IMAGE_MAX_SIZE)
		return kms_error_fmt("tables of %llu bytes exceed the format's %u-byte limit",
				     (unsigned long long)image_size,
				     KMS_IMAGE_MAX_SIZE);

	img = calloc(1, image_size);
	if (!img)
		return &kms_error_nomem;
	kms_put_le32(img + KMS_IMG_TEXT_SIZE, in->text_size);
	kms_put_le32(img + KMS_IMG_NR_RANGES, in->nr_ranges);
	kms_put_le32(img + KMS_IMG_RANGES_OFF, ranges_off);
	kms_put_le32(img + KMS_IMG_NR_OBJECTS, in->nr_objects);
	kms_put_le32(img + KMS_IMG_OBJECTS_OFF, objects_off);
	kms_put_le32(img + KMS_IMG_NR_MODLIST, in->nr_modlist_words);
	kms_put_le32(img + KMS_IMG_MODLISTS_OFF, modlists_off);
	kms_put_le32(img + KMS_IMG_STRTAB_SIZE, in->strtab_size);
	kms_put_le32(img + KMS_IMG_STRTAB_OFF, strtab_off);
	kms_put_le32(img + KMS_IMG_NR_MODULES, in->nr_modules);
	for (i = 0; i < in->nr_ranges; i++) {
		kms_put_le32(img + ranges_off + 8 * i, in->range_start[i]);
		kms_put_le32(img + ranges_off + 8 * i + 4, in->range_object[i]);
	}
	for (i = 0; i < in->nr_objects; i++) {
		kms_put_le32(img + objects_off + 8 * i, in->object_modlist[i]);
		kms_put_le32(img + objects_off + 8 * i + 4, in->object_name[i]);
	}
	for (i = 0; i < in->nr_modlist_words; i++)
		kms_put_le32(img + modlists_off + 4 * i, in->modlists[i]);
	memcpy(img + strtab_off, in->strtab, in->strtab_size);

	bound = ZSTD_compressBound(image_size);
	blob = malloc(KMS_HEADER_SIZE + bound);
	if (!blob) {
		free(img);
		return &kms_error_nomem;
	}
	csize = ZSTD_compress(blob + KMS_HEADER_SIZE, bound, img, image_size,
			      KMS_ZSTD_LEVEL);
	if (ZSTD_isError(csize)) {
		struct kms_error *err = kms_error_fmt("zstd: %s",
						      ZSTD_getErrorName(csize));

		free(img);
		free(blob);
		return err;
	}

	hdr = blob;
	memset(hdr, 0, KMS_HEADER_SIZE);
	memcpy(hdr + KMS_HDR_MAGIC, KMS_MAGIC, 4);
	hdr[KMS_HDR_VERSION] = KMS_VERSION;
	hdr[KMS_HDR_HEADER_SIZE] = KMS_HEADER_SIZE;
	kms_put_le32(hdr + KMS_HDR_FLAGS, KMS_FLAG_ZSTD);
	kms_put_le32(hdr + KMS_HDR_PAYLOAD_SIZE, csize);
	kms_put_le32(hdr + KMS_HDR_IMAGE_SIZE, image_size);
	kms_put_le32(hdr + KMS_HDR_IMAGE_CRC32, kms_crc32(img, image_size));
	free(img);

	*ret_blob = blob;
	*ret_size = KMS_HEADER_SIZE + csize;
	return NULL;
}

static size_t pad4(size_t v)
{
	return (v + 3) & ~(size_t)3;
}

struct kms_error *kms_note_wrap(const void *blob, size_t size, void **ret,
				size_t *ret_size)
{
	size_t total = 12 + pad4(KMS_NOTE_NAMESZ) + pad4(size);
	unsigned char *note;

	if (size > UINT32_MAX)
		return kms_error_fmt("note descriptor of %zu bytes is too large",
				     size);
	note = calloc(1, total);
	if (!note)
		return &kms_error_nomem;
	kms_put_le32(note, KMS_NOTE_NAMESZ);
	kms_put_le32(note + 4, size);
	kms_put_le32(note + 8, KMS_NOTE_TYPE);
	memcpy(note + 12, KMS_NOTE_NAME, KMS_NOTE_NAMESZ);
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
			return kms_error_file(origin,
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
