/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constants and layout of the kallmodsyms note, version 5.  FORMAT.md is the
 * specification; this header only names what it defines.  Every multi-byte
 * field is little-endian on disk.
 */
#ifndef KMS_FORMAT_H
#define KMS_FORMAT_H

#define KMS_NOTE_NAME		"kallmodsyms"
#define KMS_NOTE_NAMESZ		12		/* with the NUL */
#define KMS_NOTE_TYPE		0x4b4d5301u
#define KMS_NOTE_SECTION	".note.kallmodsyms"

#define KMS_MAGIC		"KMS1"	/* the family: unchanged since version 1 */
#define KMS_VERSION		5
#define KMS_HEADER_SIZE		32
#define KMS_FLAG_ZSTD		0x1u
#define KMS_FLAGS_REQUIRED	KMS_FLAG_ZSTD	/* flags must equal this */

/* Header field offsets. */
#define KMS_HDR_MAGIC		0
#define KMS_HDR_VERSION		4
#define KMS_HDR_HEADER_SIZE	6
#define KMS_HDR_FLAGS		8
#define KMS_HDR_PAYLOAD_SIZE	12
#define KMS_HDR_IMAGE_SIZE	16
#define KMS_HDR_PATHS_SIZE	20	/* the paths frame's bytes */
#define KMS_HDR_PATHS_IMAGE_SIZE 24	/* the paths image's */
#define KMS_HDR_INIT_PATHS_SIZE	28	/* the init paths frame's bytes, or 0 */

#define KMS_IMAGE_HEADER_SIZE	48
#define KMS_IMAGE_MAX_SIZE	(64u << 20)

/* Image header field offsets. */
#define KMS_IMG_NR_SECTIONS	0
#define KMS_IMG_SECTIONS_OFF	4
#define KMS_IMG_NR_RANGES	8
#define KMS_IMG_STARTS_OFF	12
#define KMS_IMG_RANGE_OBJECTS_OFF 16
#define KMS_IMG_NR_OBJECTS	20
#define KMS_IMG_OBJECTS_OFF	24
#define KMS_IMG_NR_MODLIST	28
#define KMS_IMG_MODLISTS_OFF	32
#define KMS_IMG_STRTAB_SIZE	36
#define KMS_IMG_STRTAB_OFF	40
#define KMS_IMG_NR_MODULES	44

#define KMS_SECTION_SIZE	12	/* class, nr_ranges, end */
#define KMS_START_SIZE		4
#define KMS_OBJECT_SIZE		8	/* modlist, name */

/*
 * Range objects are 2 bytes while nr_objects <= KMS_NARROW_OBJECTS_MAX,
 * 4 bytes beyond (FORMAT.md 3); all ones is "no object" in either width.
 */
#define KMS_NARROW_OBJECTS_MAX	65535u
#define KMS_OBJECT_WIDTH(nr_objects) \
	((nr_objects) <= KMS_NARROW_OBJECTS_MAX ? 2u : 4u)
#define KMS_NONE16		0xffffu

/* The paths image (FORMAT.md 3.9): its header's fields, its limits. */
#define KMS_PATHS_NR_PIECES	0
#define KMS_PATHS_NR_PATHS	4
#define KMS_PATHS_END		8
#define KMS_PATHS_HEADER_SIZE	12
#define KMS_PATHS_MAX_SIZE	(64u << 20)
/* The paths images (FORMAT.md 3.9): of text, and of init text. */
#define KMS_PATHS_TEXT		0
#define KMS_PATHS_INIT		1
#define KMS_NR_PATHS		2
/* Piece paths are 2 bytes while nr_paths <= 65535, 4 beyond. */
#define KMS_PATH_WIDTH(nr_paths) \
	((nr_paths) <= KMS_NARROW_OBJECTS_MAX ? 2u : 4u)

/* Section classes (FORMAT.md 3.1). */
#define KMS_CLASS_TEXT		0
#define KMS_CLASS_INIT_TEXT	1
#define KMS_CLASS_RODATA	2
#define KMS_CLASS_RO_AFTER_INIT	3
#define KMS_CLASS_DATA		4
#define KMS_CLASS_INIT_DATA	5
#define KMS_CLASS_BSS		6
#define KMS_CLASS_PERCPU	7
#define KMS_NR_CLASSES		8

/* The base a class's offsets count from. */
#define KMS_BASE_TEXT		0	/* _text */
#define KMS_BASE_PERCPU		1	/* __per_cpu_start */
#define KMS_NR_BASES		2

/* "No object", "no module list", "no name". */
#define KMS_NONE		0xffffffffu

/*
 * Where a debugger finds the note in a running kernel (FORMAT.md 1, 5):
 * the linker's bounds of its own section, symbols of the vmlinux file;
 * those of .notes for a kernel that kept the note there (series v2).
 */
#define KMS_TABLES_START_SYMBOL	"__start_kallmodsyms"
#define KMS_TABLES_STOP_SYMBOL	"__stop_kallmodsyms"
#define KMS_NOTES_START_SYMBOL	"__start_notes"
#define KMS_NOTES_STOP_SYMBOL	"__stop_notes"

#endif /* KMS_FORMAT_H */
