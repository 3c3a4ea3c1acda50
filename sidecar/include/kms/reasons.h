/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reasons a reader refuses a kallmodsyms note: the classes of
 * FORMAT.md section 7, in its order, as one list,
 *
 *   KMS_REASON(NAME, WORD, MEANING)
 *
 * NAME the C name's tail, WORD the class as a verdict line names it,
 * MEANING the rule broken in a few words (FORMAT.md 7's table says it in
 * full).  A use defines KMS_REASON() and includes this file where the
 * list goes, as often as it is used: there is no include guard, and the
 * file undefines KMS_REASON() at its end (as the kernel's
 * asm/kvm-x86-ops.h does).  Not an X-macro list: a macro whose value is a
 * bare list is an error to the kernel's checkpatch.pl, which holds
 * kbuild's copy of this file.
 *
 * Everything else is made from this list or checked against it:
 * kms/error.h's refusal classes (KMS_ERR_NAME) and kms_error_class_name()'s
 * words, the Python decoder's REASONS (constants.py, made by make); and
 * scripts/check-reasons.sh holds FORMAT.md 7's table, the kernel parser's
 * copy (the series' include/linux/kallmodsyms_reasons.h, alike but for
 * the macro's name) and perf's decoder (its reason_names[]) to it.  Nothing else is defined
 * here, so that a file that also includes the kernel's parser can include
 * this.
 */

KMS_REASON(NO_NOTE, "no-note", "no kallmodsyms note")
KMS_REASON(BAD_HEADER, "bad-header", "the note's header breaks a rule")
KMS_REASON(BAD_VERSION, "bad-version", "another format version")
KMS_REASON(BAD_FRAME, "bad-frame", "the payload is not one zstd frame")
KMS_REASON(BAD_ZSTD, "bad-zstd", "the frame does not decompress")
KMS_REASON(BAD_OFFSET, "bad-offset", "an array lies outside the image")
KMS_REASON(OVERLAP, "overlap", "two arrays overlap")
KMS_REASON(BAD_STRTAB, "bad-strtab", "the string table is malformed")
KMS_REASON(BAD_MODLIST, "bad-modlist", "a module list is malformed")
KMS_REASON(BAD_OBJECT, "bad-object", "an object is malformed")
KMS_REASON(UNKNOWN_CLASS, "unknown-class", "a section's class is unknown")
KMS_REASON(BAD_SECTION, "bad-section", "the sections are malformed")
KMS_REASON(BAD_RANGE, "bad-range", "a range is malformed")
KMS_REASON(BAD_PATHS, "bad-paths", "the paths image is malformed")

#undef KMS_REASON
