/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Encode and decode the kallmodsyms blob (FORMAT.md, sections 2 and 3):
 * blob.c decodes (blob_check.c checks the image, blob_paths.c the paths
 * image), blob_encode.c encodes, blob_stored.c converts an image and a
 * paths image to and from their stored forms.  The ELF note record that carries a blob
 * is kms/note.h's.
 *
 * Contract: the decoder validates every field before use and never reads
 * outside the bytes it was given; the tables it hands out (kms/tables.h)
 * can be walked without further bounds checks.  The encoder is
 * deterministic: equal input gives equal bytes.  Errors follow
 * kms/error.h, refusals with their FORMAT.md 7 class; nothing here prints.
 */
#ifndef KMS_BLOB_H
#define KMS_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>
#include <kms/format.h>	/* KMS_NR_PATHS */

struct kms_tables;	/* kms/tables.h */

/*
 * Validate and decompress @blob (@size bytes: the note descriptor).  @origin
 * names where the blob came from, for messages ("vmlinux: note: bad magic").
 */
struct kms_error *kms_blob_decode(const void *blob, size_t size,
				  const char *origin, struct kms_tables **ret);

/*
 * The stored form of an image (FORMAT.md 3.8), in place: kms_image_store()
 * turns the image of @size bytes into the bytes a payload holds (each
 * section's starts as differences, both range columns in byte planes),
 * kms_image_restore() turns them back.  Neither validates more than it
 * needs: they refuse an image whose header or sections do not place its
 * range columns inside it.  The encoder and decoder call them; so may
 * tools that edit images.
 */
struct kms_error *kms_image_store(unsigned char *img, size_t size);
struct kms_error *kms_image_restore(unsigned char *img, size_t size);

/*
 * The same for a paths image (FORMAT.md 3.9), to its stored form if
 * @store (the piece starts as differences, both piece columns in byte
 * planes), else back.  It refuses a paths image whose header does not
 * place its columns inside it.
 */
struct kms_error *kms_paths_convert(unsigned char *paths, size_t size,
				    bool store);

/* Input of the encoder, in host byte order. */
struct kms_encode_section {
	uint32_t cls;
	uint32_t nr_ranges;
	uint32_t end;
};

/*
 * A paths image (FORMAT.md 3.9): @nr_pieces pieces, each starting at
 * @piece_start (offsets from _text, increasing) with path number
 * @piece_path (KMS_NONE: none), the last ending at @pieces_end; the
 * @nr_paths @paths, in the order of their first piece.
 */
struct kms_encode_paths {
	uint32_t nr_pieces;
	const uint32_t *piece_start;
	const uint32_t *piece_path;
	uint32_t pieces_end;
	uint32_t nr_paths;
	const char *const *paths;
};

struct kms_encode_input {
	uint32_t nr_sections;
	const struct kms_encode_section *sections;
	uint32_t nr_ranges;
	const uint32_t *range_start;
	const uint32_t *range_object;	/* KMS_NONE: no object */
	uint32_t nr_objects;
	const uint32_t *object_modlist;
	const uint32_t *object_name;
	uint32_t nr_modlist_words;
	const uint32_t *modlists;
	uint32_t strtab_size;
	const char *strtab;
	uint32_t nr_modules;
	/*
	 * The paths of text (KMS_PATHS_TEXT: at least one piece and one
	 * path) and of init text (KMS_PATHS_INIT: no frame if it has no
	 * path), the first ending at or before the second's first piece.
	 */
	struct kms_encode_paths paths[KMS_NR_PATHS];
};

/*
 * The zstd level of the blob's frames.  Tools that rewrite a blob use it
 * too, so that a rewritten note fits where the original was linked.
 */
#define KMS_ZSTD_LEVEL 19

/*
 * Build the blob (header, the image's zstd frame, the paths image's and
 * the init paths image's, each with content size and checksum);
 * *ret_blob is malloc()ed.
 */
struct kms_error *kms_blob_encode(const struct kms_encode_input *in,
				  void **ret_blob, size_t *ret_size);

#endif /* KMS_BLOB_H */
