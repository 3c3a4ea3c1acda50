/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kms-mkcorpus's writer (corpus.c) and its cases: the images, blobs and
 * note files of the conformance corpus (FORMAT.md section 7), the verdict
 * lines, and the sample tables most cases break (sample.c).  The cases:
 * sample.c (one rule of the image broken, one header field changed),
 * frames.c (the payload: zstd frames, padding, old versions),
 * containers.c (notes around ours), edges.c (images at the format's
 * edges), paths.c (the paths image and its frame, FORMAT.md 3.9);
 * mkcorpus.c writes them all, in that order of the verdicts.
 */
#ifndef KMS_CONFORMANCE_CORPUS_H
#define KMS_CONFORMANCE_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>
#include <kms/util.h>

/* A growable byte buffer. */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

void die(const char *fmt, ...) KMS_PRINTF(1, 2) __attribute__((noreturn));
/* die() with @err's message, if any. */
void check(struct kms_error *err);

void buf_append(struct buf *b, const void *data, size_t len);
void buf_append_le32(struct buf *b, uint32_t v);
/* Zero bytes up to a multiple of 4. */
void buf_pad4(struct buf *b);
/* Overwrite the 4 bytes at @off, which must be inside. */
void buf_put_le32(struct buf *b, size_t off, uint32_t v);
struct buf buf_copy(const struct buf *b);
void buf_release(struct buf *b);

/*
 * The tables of the images, in host byte order, and where the arrays go.
 * Every array is placed in the writer's order unless an order is given.
 * Range objects are KMS_NONE for "no object" whatever their width; other
 * values are written as they are, truncated to the width.
 */
struct spec {
	uint32_t nr_sections;
	const uint32_t *sections;	/* class, nr_ranges, end triples */
	uint32_t nr_ranges;
	const uint32_t *ranges;		/* start, object pairs */
	uint32_t nr_objects;
	const uint32_t *objects;	/* modlist, name pairs */
	uint32_t nr_words;
	const uint32_t *words;
	uint32_t strtab_size;
	const char *strtab;
	uint32_t nr_modules;
	/*
	 * The annotation lines every reader prints after accepting the image
	 * (FORMAT.md 7), without "NAME at ", NULL-terminated; NULL: none.
	 */
	const char *const *annotations;
};

/*
 * A paths image (FORMAT.md 3.9), in host byte order: @nr_pieces (start,
 * path) pairs, path KMS_NONE for none, the pieces' @end, @nr_paths
 * strings (@strings_size bytes, back to back, each with its NUL, whole:
 * build_paths() front-codes them); or, if @stored, @strings are the
 * image's strings as they are, front coding and all.
 */
struct paths_spec {
	uint32_t nr_pieces;
	const uint32_t *pieces;
	uint32_t end;
	uint32_t nr_paths;
	uint32_t strings_size;
	const char *strings;
	bool stored;
};

/*
 * A blob's paths: its paths image, its init paths image (NULL: none), and
 * the path lines every reader prints after accepting it (FORMAT.md 7.1),
 * without "NAME path ", NULL-terminated.
 */
struct paths_set {
	const struct paths_spec *text, *init;
	const char *const *lines;
};

/* paths.c: the paths every blob carries unless a case says. */
extern const struct paths_set sample_paths;
/* The paths image of @p, as a reader restores it. */
struct buf build_paths(const struct paths_spec *p);
/* The stored form of a paths image (FORMAT.md 3.9). */
struct buf paths_stored_form(const void *data, size_t size);
/*
 * The sample paths images as the encoder's input (kms/blob.h) in @in,
 * through arrays of 32 the caller gives, one set of each per image.
 */
struct kms_encode_input;
void sample_paths_input(struct kms_encode_input *in, uint32_t start[2][32],
			uint32_t path[2][32], const char *paths[2][32]);
/* The writer's frame of the paths image @p, and the image's size. */
struct buf paths_frame(const struct paths_spec *p, size_t *paths_image_size);

/* The image's arrays, and their offset fields in the image header. */
enum { SECTIONS, STARTS, RANGE_OBJECTS, OBJECTS, MODLISTS, STRTAB,
       NR_ARRAYS };

/* Where build_image() put the arrays, and the range objects' width. */
struct layout {
	uint32_t off[NR_ARRAYS];
	unsigned int width;
};

/* sample.c: the sample tables, and where its strings are. */
extern const struct spec sample;
#define S_EXT4 0
#define S_JBD2 5
#define S_CRC 10
#define S_ONE 25
#define S_TWO 36
#define S_INODE 47
/* The per-CPU section, the sample's last. */
#define SEC_PERCPU 5

/*
 * The image of @s, arrays in the order @order (NULL: the writer's:
 * sections, starts, range objects, objects, module lists, strings), @gap
 * zero bytes between them.
 */
struct buf build_image(const struct spec *s, const int order[NR_ARRAYS],
		       unsigned int gap, struct layout *l);
/* build_image() of the sample. */
struct buf sample_image(struct layout *l);

/* Set stored value @i of a column of @n values of @width bytes in planes. */
void plane_put(unsigned char *col, uint32_t n, unsigned int width,
	       uint32_t i, uint32_t v);
/* Transpose @n values of @width bytes at @col into @width planes. */
void to_planes(unsigned char *col, uint32_t n, unsigned int width);
/* The stored form of an image (FORMAT.md 3.8). */
struct buf stored_form(const void *data, size_t size);

/*
 * One zstd frame of the stored form of @data (content size and checksum
 * as the writer), an image's or with PATHS a paths image's, or of @data
 * itself with AS_IS.
 */
enum { NO_CHECKSUM = 1, NO_CONTENT_SIZE = 2, AS_IS = 4, PATHS = 8 };
struct buf zstd_frame(const void *image, size_t size, int level, int opts);
/*
 * A blob (FORMAT.md 2) of @img whose payload is @payload, then the paths
 * frame @paths of a paths image of @paths_image_size bytes, then the init
 * paths frame @init (none if it is empty).
 */
struct buf blob_with_paths(const struct buf *img, const struct buf *payload,
			   const struct buf *paths, size_t paths_image_size,
			   const struct buf *init, uint32_t flags);
/* The same with the sample paths images' frames. */
struct buf blob_of(const struct buf *img, const struct buf *payload,
		   uint32_t flags);
/* The writer's blob of @img: one frame, level 19, checksum, size. */
struct buf zstd_blob(const struct buf *img);
/* The payload (the image's zstd frame) of a blob from zstd_blob(). */
struct buf payload_of(const struct buf *blob);

/* Note records (FORMAT.md 1.1) of other owners, as in a kernel's .notes. */
void append_note(struct buf *b, const char *name, uint32_t namesz,
		 uint32_t type, const void *desc, uint32_t descsz);
/* Our note record of @blob. */
void append_kms_note(struct buf *b, const struct buf *blob);

/*
 * OUTDIR/corpus/ made and OUTDIR/verdicts opened, its comment written;
 * corpus_close() closes it.
 */
void corpus_open(const char *outdir);
void corpus_close(void);
/* OUTDIR/corpus/@name.kms, the bytes of @b. */
void write_case(const char *name, const struct buf *b);
/*
 * The verdict of an accepted case: what its image header and its paths
 * images @p say, then @annotations and @p's path lines.
 */
void verdict_accept_paths(const char *name, const struct buf *img,
			  const char *const *annotations,
			  const struct paths_set *p);
/* The same with the sample paths images. */
void verdict_accept(const char *name, const struct buf *img,
		    const char *const *annotations);
void verdict_refuse(const char *name, const char *reason);

/* The blob as the only note of the file; @blob is released. */
void emit_blob(const char *name, struct buf blob);
/*
 * A blob of @img with @payload (a zstd frame, or not) in place of the
 * frame, refused for @reason; @payload is released.
 */
void emit_payload_case(const char *name, const struct buf *img,
		       struct buf payload, const char *reason);
/* An accepted blob of the image of @s (build_image()'s @order, @gap). */
void emit_valid(const char *name, const struct spec *s,
		const int order[NR_ARRAYS], unsigned int gap, int level);
/* A blob of the image of @s, refused for @reason. */
void emit_invalid(const char *name, const struct spec *s, const char *reason);

/* The families of cases, each in its file, in the verdicts' order. */
void edge_cases(void);		/* edges.c */
void writer_case(void);		/* sample.c, by edge_cases() */
void image_cases(void);		/* sample.c */
void header_cases(void);	/* sample.c */
void padding_cases(void);	/* frames.c */
void v1_cases(void);		/* frames.c */
void v3_cases(void);		/* frames.c */
void zstd_cases(void);		/* frames.c */
void container_cases(void);	/* containers.c */
void paths_cases(void);		/* paths.c */
void paths_frame_cases(void);	/* paths.c */
void init_paths_cases(void);	/* paths.c */

#endif /* KMS_CONFORMANCE_CORPUS_H */
