/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf command's parts, private to tools/inspector (cmd_perf.c is the
 * driver):
 *
 * - perf_frame.c lexes the text of `perf script`: a frame line's
 *   "ADDRESS SYMBOL[+0xOFF] (DSO)" into a struct frame that points into the
 *   line (valid as long as the line is), what its DSO names (the core
 *   kernel, a loadable module), and a growing string (perf_append).  It
 *   knows no vmlinux and keeps no state.
 * - perf_by_module.c counts samples by their first frame (--by-module):
 *   fed every line, with the frame parsed from it (or NULL) and that
 *   frame's object entry in the tables; prints the rows at the end.
 * - perf_collapse.c folds the annotated lines into stacks as
 *   stackcollapse-perf.pl does (--collapse): fed every line as it is
 *   written, ends the last sample and prints the stacks at the end.
 *
 * Both counters own their memory: each is zeroed before its first line and
 * released with its *_release(), whatever happened.  Errors are the
 * library's (struct kms_error *, NULL on success); the counters fail only
 * when memory does.
 */
#ifndef KMS_PERF_H
#define KMS_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kms/error.h>
#include <kms/strmap.h>
#include <kms/tables.h>

/* One "ADDRESS SYMBOL[+0xOFF] (DSO)" of a line. */
struct frame {
	uint64_t ip;
	const char *sym;		/* the symbol, */
	size_t sym_len;			/* without its offset */
	const char *rest;		/* "+0xOFF (DSO)", or " (DSO)" */
	bool has_offset;
	uint64_t offset;
	const char *dso;
	size_t dso_len;
	bool after_header;		/* on the sample's header line */
};

/* perf_frame.c */
bool perf_is_blank(char c);
/* The last " (" of [@line, @end), or NULL. */
const char *perf_last_paren(const char *line, const char *end);
/* Parse @line (@len bytes, no newline) as a frame; false if it is none. */
bool perf_parse_frame(const char *line, size_t len, struct frame *f);
bool perf_dso_is(const struct frame *f, const char *name);
/* A frame of the core kernel, whose symbols VMLINUX has. */
bool perf_is_kernel(const struct frame *f);
/* perf's "[unknown]", or "[0x...]" with --show-unknown-as-addr... */
bool perf_is_unnamed(const struct frame *f);
/* A loadable module's DSO, as perf names it: "[name]". */
bool perf_is_module_dso(const struct frame *f);
/* The frame's symbol as a string, in @buf; false if too long. */
bool perf_frame_name(const struct frame *f, char *buf, size_t size);
/* The hex digits of a build id into @buf; false if it is none. */
bool perf_hex_build_id(const unsigned char *id, size_t size, char *buf,
		       size_t cap);
/* Append @s (@n bytes) to the string *@buf, of capacity *@cap. */
struct kms_error *perf_append(char **buf, size_t *cap, size_t *len,
			      const char *s, size_t n);

/* perf_by_module.c: --by-module's counts. */
struct by_module {
	bool in_sample, leaf_seen;
	struct kms_strmap rows;		/* kind letter, then the name */
	uint64_t *row_samples;
	size_t cap_rows;
	uint64_t samples;
};

/* One line; @f its frame or NULL, @obj that frame's object (KMS_NONE). */
struct kms_error *perf_by_module_line(struct by_module *b,
				      const struct kms_tables *t,
				      const char *line, const struct frame *f,
				      uint32_t obj);
struct kms_error *perf_by_module_print(struct by_module *b);
void perf_by_module_release(struct by_module *b);

/* perf_collapse.c: --collapse, stackcollapse-perf.pl's state. */
struct collapse {
	char *pname;			/* the sample's process, or NULL */
	uint64_t period;
	char *event;			/* the only event counted */
	char **frames;			/* leaf first, one per frame line */
	size_t nr_frames, cap_frames;
	struct kms_strmap stacks;
	uint64_t *counts;
	size_t cap_counts;
};

/* One line of the annotated text, without its newline. */
struct kms_error *perf_collapse_line(struct collapse *c, const char *line);
/* The end of the input: the last sample ends. */
struct kms_error *perf_collapse_end(struct collapse *c);
/* The stacks, sorted, each with its count. */
struct kms_error *perf_collapse_print(struct collapse *c);
void perf_collapse_release(struct collapse *c);

#endif /* KMS_PERF_H */
