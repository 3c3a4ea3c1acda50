/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reasons a reader refuses a kallmodsyms note: the classes of
 * FORMAT.md section 7, in its order, as one list,
 *
 *   X(NAME, WORD, MEANING)
 *
 * NAME the C name's tail, WORD the class as a verdict line names it,
 * MEANING the rule broken in a few words (FORMAT.md 7's table says it in
 * full).  Everything else is made from this list or checked against it:
 * kms/error.h's refusal classes (KMS_ERR_NAME) and kms_error_class_name()'s
 * words, the Python decoder's REASONS (constants.py, made by make); and
 * scripts/check-reasons.sh holds FORMAT.md 7's table, the kernel parser's
 * copy (KALLMODSYMS_REASONS in the series' include/linux/kallmodsyms.h)
 * and perf's decoder (its reason_names[]) to it.  Nothing else is defined
 * here, so that a file that also includes the kernel's parser can include
 * this.
 */
#ifndef KMS_REASONS_H
#define KMS_REASONS_H

#define KMS_REASONS(X)							\
	X(NO_NOTE, "no-note", "no kallmodsyms note")			\
	X(BAD_HEADER, "bad-header", "the note's header breaks a rule")	\
	X(BAD_VERSION, "bad-version", "another format version")		\
	X(BAD_FRAME, "bad-frame", "the payload is not one zstd frame")	\
	X(BAD_ZSTD, "bad-zstd", "the frame does not decompress")	\
	X(BAD_OFFSET, "bad-offset", "an array lies outside the image")	\
	X(OVERLAP, "overlap", "two arrays overlap")			\
	X(BAD_STRTAB, "bad-strtab", "the string table is malformed")	\
	X(BAD_MODLIST, "bad-modlist", "a module list is malformed")	\
	X(BAD_OBJECT, "bad-object", "an object is malformed")		\
	X(UNKNOWN_CLASS, "unknown-class", "a section's class is unknown") \
	X(BAD_SECTION, "bad-section", "the sections are malformed")	\
	X(BAD_RANGE, "bad-range", "a range is malformed")		\
	X(BAD_PATHS, "bad-paths", "the paths image is malformed")

#endif /* KMS_REASONS_H */
