/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Constants and layout of the kallmodsyms note, version 1.  FORMAT.md is the
 * specification; this header only names what it defines.  Every multi-byte
 * field is little-endian on disk.
 */
#ifndef KMS_FORMAT_H
#define KMS_FORMAT_H

#define KMS_NOTE_NAME		"kallmodsyms"
#define KMS_NOTE_NAMESZ		12		/* with the NUL */
#define KMS_NOTE_TYPE		0x4b4d5301u
#define KMS_NOTE_SECTION	".note.kallmodsyms"

#define KMS_MAGIC		"KMS1"
#define KMS_VERSION		1
#define KMS_HEADER_SIZE		32
#define KMS_FLAG_ZSTD		0x1u
#define KMS_FLAGS_KNOWN		KMS_FLAG_ZSTD

/* Header field offsets. */
#define KMS_HDR_MAGIC		0
#define KMS_HDR_VERSION		4
#define KMS_HDR_HEADER_SIZE	6
#define KMS_HDR_FLAGS		8
#define KMS_HDR_PAYLOAD_SIZE	12
#define KMS_HDR_IMAGE_SIZE	16
#define KMS_HDR_IMAGE_CRC32	20
#define KMS_HDR_RESERVED	24

#define KMS_IMAGE_HEADER_SIZE	48
#define KMS_IMAGE_MAX_SIZE	(64u << 20)

/* Image header field offsets. */
#define KMS_IMG_TEXT_SIZE	0
#define KMS_IMG_NR_RANGES	4
#define KMS_IMG_RANGES_OFF	8
#define KMS_IMG_NR_OBJECTS	12
#define KMS_IMG_OBJECTS_OFF	16
#define KMS_IMG_NR_MODLIST	20
#define KMS_IMG_MODLISTS_OFF	24
#define KMS_IMG_STRTAB_SIZE	28
#define KMS_IMG_STRTAB_OFF	32
#define KMS_IMG_NR_MODULES	36
#define KMS_IMG_RESERVED	40

#define KMS_RANGE_SIZE		8	/* start, object */
#define KMS_OBJECT_SIZE		8	/* modlist, name */

/* "No object", "no module list", "no name". */
#define KMS_NONE		0xffffffffu

/*
 * struct kallmodsyms_debug in a running kernel (FORMAT.md 5): field
 * offsets; image_size follows the pointer, at 8 + pointer size.
 */
#define KMS_DEBUG_SYMBOL	"kallmodsyms_debug"
#define KMS_DEBUG_VERSION	0
#define KMS_DEBUG_STATE		4
#define KMS_DEBUG_IMAGE		8

#endif /* KMS_FORMAT_H */
