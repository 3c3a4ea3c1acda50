// SPDX-License-Identifier: GPL-2.0
/*
 * perf: read `perf script` output and write it back with [module] {object}
 * in each core-kernel frame ("[kernel.kallsyms]"), between the symbol and
 * its offset:
 *
 *	ffffffff81234567 brelse+0x12 ([kernel.kallsyms])
 *	ffffffff81234567 brelse [ext4] {fs/buffer.o}+0x12 ([kernel.kallsyms])
 *
 * so that the flame-graph collapsers, which drop a trailing "+0x..." and
 * keep the rest of the symbol (stackcollapse-perf.pl, inferno), make one
 * frame per instance, named as a SPEC names it (kallmodsyms(1)).  Frames
 * are named by their address, less the KASLR offset, after checking that
 * VMLINUX has the symbol perf printed there: the offset comes from -k, -K,
 * --vmcore, perf's [kernel.kallsyms]_text mmap line, or else from the
 * first frames perf named.  Every other line passes through unchanged.
 *
 * --by-module counts the samples by their first frame's built-in module
 * (perf report --sort dso, with [kernel.kallsyms] split: perf_by_module.c);
 * --collapse writes what stackcollapse-perf.pl writes of the annotated
 * text (perf_collapse.c).  The frames are lexed by perf_frame.c; here are
 * the checks against VMLINUX, the annotation and the driver.
 *
 * Lines are held, up to HOLD_MAX bytes, until a frame shows that the
 * profile is of VMLINUX: a profile that is not, or has no kernel frame, or
 * is not `perf script` output, is refused before anything is written.
 * Memory does not grow with the input (but for --collapse's stacks).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/util.h>

#include "command.h"
#include "perf.h"

#define HOLD_MAX (1u << 20)
#define CACHE_SIZE 4096		/* frames' addresses remembered */

struct perf_settings {
	bool by_module;			/* --by-module */
	bool collapse;			/* --collapse */
};

/* What the frames say of the KASLR offset so far. */
enum kaslr_state {
	KASLR_UNKNOWN,			/* nothing yet */
	KASLR_TENTATIVE,		/* one symbol's frames say it */
	KASLR_KNOWN,			/* given, or two symbols agree */
};

/*
 * A kernel frame is VMLINUX's symbol (FRAME_MATCH), has no name
 * (FRAME_UNNAMED), lies outside the image (FRAME_RUNTIME: code the
 * kernel made at run time, which perf also calls [kernel.kallsyms]:
 * ftrace and kprobe trampolines, BPF), or is none of these (FRAME_OTHER:
 * a mismatch).  Only FRAME_MATCH is annotated; only FRAME_OTHER counts
 * against the profile.
 */
enum verdict { FRAME_MATCH, FRAME_UNNAMED, FRAME_RUNTIME, FRAME_OTHER };

struct cache_entry {
	uint64_t ip;
	uint32_t obj;
	uint8_t verdict;		/* enum verdict + 1; 0: empty */
};

struct perf_run {
	struct inspector *in;
	const struct perf_settings *s;
	const char *input;		/* for messages */
	unsigned long lineno;
	uint64_t kaslr;
	enum kaslr_state kaslr_state;
	uint64_t tentative_symbol;	/* the address that made it tentative */
	/* Lines held until the profile is known to be VMLINUX's. */
	bool holding, seen_frame, seen_kernel;
	char *held;
	size_t held_len, held_cap;
	unsigned long held_first;	/* the first one's number */
	unsigned long kernel_frames, mismatches, first_mismatch;
	struct cache_entry cache[CACHE_SIZE];
	char *out;			/* an annotated line */
	size_t out_cap;
	struct by_module bm;		/* --by-module */
	struct collapse c;		/* --collapse */
};

/* Checking frames against VMLINUX */

/* The symbol called @name at @addr (an alias of @sym), or NULL. */
static const struct kms_symbol *alias_named(struct inspector *in,
					    const struct kms_symbol *sym,
					    const char *name)
{
	const struct kms_symbol *const *named;
	size_t i, n;

	if (!strcmp(sym->name, name))
		return sym;
	n = inspector_symbols_named(in, name, &named);
	for (i = 0; i < n; i++)
		if (named[i]->address == sym->address)
			return named[i];
	return NULL;
}

/*
 * Is @f where VMLINUX, relocated by @kaslr, has the symbol perf printed?
 * FRAME_MATCH with its object entry; FRAME_UNNAMED when perf printed no
 * name; FRAME_RUNTIME when the address is in no symbol of the image
 * (before its first, past its _end) and VMLINUX has no symbol of that
 * name (a name it has there means a wrong offset); else FRAME_OTHER.
 */
static enum verdict check_frame(struct perf_run *r, const struct frame *f,
				uint64_t kaslr, uint32_t *ret_obj,
				uint64_t *ret_symbol)
{
	const struct kms_symbol *const *named;
	const struct kms_symbol *sym;
	uint32_t cursor = KMS_NONE;
	uint64_t addr = f->ip - kaslr, size;
	char name[512];

	if (perf_is_unnamed(f))
		return FRAME_UNNAMED;
	if (f->ip < kaslr || !perf_frame_name(f, name, sizeof(name)))
		return FRAME_OTHER;
	sym = inspector_symbol_at(r->in, addr, &size);
	if (!sym && !inspector_symbols_named(r->in, name, &named))
		return FRAME_RUNTIME;
	if (sym)
		sym = alias_named(r->in, sym, name);
	if (!sym || (f->has_offset && addr - sym->address != f->offset))
		return FRAME_OTHER;
	*ret_obj = inspector_object(r->in, sym, &cursor);
	*ret_symbol = sym->address;
	return FRAME_MATCH;
}

/* @f's object entry at the run's offset (KMS_NONE: none), remembered. */
static uint32_t frame_object(struct perf_run *r, const struct frame *f)
{
	struct cache_entry *e = &r->cache[(f->ip ^ f->ip >> 12) % CACHE_SIZE];
	uint64_t symbol;
	uint32_t obj = KMS_NONE;

	if (!e->verdict || e->ip != f->ip) {
		e->ip = f->ip;
		e->verdict = check_frame(r, f, r->kaslr, &obj, &symbol) + 1;
		e->obj = obj;
	}
	if (e->verdict == FRAME_OTHER + 1 && !r->mismatches++)
		r->first_mismatch = r->lineno;
	return e->verdict == FRAME_MATCH + 1 ? e->obj : KMS_NONE;
}

static struct kms_error *other_kernel(struct perf_run *r,
				      const struct frame *f)
{
	return kms_error_fmt("%s:%lu: %llx %.*s is not %s's: a profile of another kernel, or another KASLR offset (-k, -K)",
			     r->input, r->lineno, (unsigned long long)f->ip,
			     (int)(f->dso - 2 - f->sym), f->sym,
			     r->in->vmlinux);
}

/*
 * Names /proc/kallsyms gives code the kernel makes at run time, outside
 * the image (kallsyms' "module" entries: [__builtin__ftrace],
 * [__builtin__kprobes], [bpf]): no vmlinux has them, so before the
 * offset is known such a frame says nothing about whose profile this is.
 */
static bool is_runtime_name(const char *name)
{
	static const char *const prefixes[] = {
		"ftrace_trampoline", "kprobe_insn_page", "kprobe_optinsn_page",
		"bpf_prog_", "bpf_trampoline_", "bpf_dispatcher_",
	};
	size_t i;

	for (i = 0; i < KMS_ARRAY_SIZE(prefixes); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * The KASLR offset perf's name of @f implies, when VMLINUX has one text
 * symbol of that name: true and *@ret_symbol its address.  An error when
 * VMLINUX has none.
 */
static struct kms_error *implied_kaslr(struct perf_run *r,
				       const struct frame *f, bool *ret_found,
				       uint64_t *ret_symbol)
{
	const struct kms_symbol *const *named, *text = NULL;
	size_t i, n, nr_text = 0;
	char name[512];

	*ret_found = false;
	if (!perf_frame_name(f, name, sizeof(name)))
		return other_kernel(r, f);
	n = inspector_symbols_named(r->in, name, &named);
	for (i = 0; i < n; i++)
		if (kms_is_text_type(named[i]->type) && nr_text++ == 0)
			text = named[i];
	if (!nr_text && is_runtime_name(name))
		return NULL;
	if (!nr_text)
		return kms_error_fmt("%s:%lu: %s: no such symbol in %s: a profile of another kernel",
				     r->input, r->lineno, name, r->in->vmlinux);
	if (nr_text > 1 || !f->has_offset)
		return NULL;
	r->kaslr = f->ip - f->offset - text->address;
	/* KASLR moves the kernel by whole pages. */
	if (r->kaslr & 0xfff)
		return other_kernel(r, f);
	*ret_found = true;
	*ret_symbol = text->address;
	return NULL;
}

/*
 * While holding: does kernel frame @f show that the profile is VMLINUX's
 * (*@ret_settled), or that it is not (an error)?  Two frames of different
 * symbols must agree on an offset no option gave.
 */
static struct kms_error *settle(struct perf_run *r, const struct frame *f,
				bool *ret_settled)
{
	struct kms_error *err;
	uint64_t symbol;
	uint32_t obj;
	bool found;

	*ret_settled = false;
	if (perf_is_unnamed(f))
		return NULL;
	if (r->kaslr_state == KASLR_UNKNOWN) {
		err = implied_kaslr(r, f, &found, &symbol);
		if (!err && found) {
			r->kaslr_state = KASLR_TENTATIVE;
			r->tentative_symbol = symbol;
		}
		return err;
	}
	switch (check_frame(r, f, r->kaslr, &obj, &symbol)) {
	case FRAME_MATCH:
		break;
	case FRAME_RUNTIME:
		return NULL;
	default:
		return other_kernel(r, f);
	}
	if (r->kaslr_state == KASLR_TENTATIVE &&
	    symbol == r->tentative_symbol)
		return NULL;
	r->kaslr_state = KASLR_KNOWN;
	*ret_settled = true;
	return NULL;
}

/*
 * perf script --show-mmap-events' line of the kernel's map, with
 * --buildid-mmap its build id:
 *	... PERF_RECORD_MMAP2 -1/0: [0xS(0xL) @ 0xP <BUILDID>]: ---p [kernel.kallsyms]_text
 * P is _text at run time: the KASLR offset, unless an option gave it.
 */
static struct kms_error *kernel_mmap(struct perf_run *r, const char *line)
{
	static const char map[] = " [kernel.kallsyms]_text";
	const char *at = strstr(line, " @ 0x"), *lt, *gt;
	size_t size, len = strlen(line);
	const unsigned char *id;
	char ours[128];

	if (!strstr(line, " PERF_RECORD_MMAP") || !at ||
	    len < sizeof(map) || strcmp(line + len - sizeof(map) + 1, map))
		return NULL;
	lt = strchr(at, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (gt && kms_elf_build_id(r->in->elf, &id, &size) &&
	    perf_hex_build_id(id, size, ours, sizeof(ours)) &&
	    ((size_t)(gt - lt - 1) != strlen(ours) ||
	     strncmp(lt + 1, ours, gt - lt - 1)))
		return kms_error_fmt("%s:%lu: [kernel.kallsyms] has build id %.*s, %s has %s: a profile of another kernel",
				     r->input, r->lineno, (int)(gt - lt - 1),
				     lt + 1, r->in->vmlinux, ours);
	if (r->kaslr_state != KASLR_KNOWN) {
		r->kaslr = strtoull(at + 5, NULL, 16) -
			   r->in->syms->text_address;
		r->kaslr_state = KASLR_KNOWN;
	}
	return NULL;
}

/* Output */

/* @line with @text after the symbol of @f: in r->out, NULL if no room. */
static const char *annotated(struct perf_run *r, const char *line,
			     size_t len, const struct frame *f,
			     const char *text, size_t text_len, size_t *ret_len)
{
	size_t head = f->sym + f->sym_len - line, n = len + 1 + text_len;

	if (n + 1 > r->out_cap) {
		char *p = realloc(r->out, n + 1);

		if (!p)
			return NULL;
		r->out = p;
		r->out_cap = n + 1;
	}
	memcpy(r->out, line, head);
	r->out[head] = ' ';
	memcpy(r->out + head + 1, text, text_len);
	memcpy(r->out + head + 1 + text_len, line + head, len - head);
	r->out[n] = '\0';
	*ret_len = n;
	return r->out;
}

/* The run */

/* Annotate one line (@len bytes and a newline if @newline) and use it. */
static struct kms_error *process_line(struct perf_run *r, char *line,
				      size_t len, bool newline)
{
	const char *out = line, *text = NULL;
	size_t out_len = len, text_len = 0;
	uint32_t obj = KMS_NONE;
	struct frame f;
	bool is_frame = perf_parse_frame(line, len, &f);

	if (is_frame && perf_is_kernel(&f)) {
		r->kernel_frames++;
		obj = frame_object(r, &f);
		text = inspector_object_text(r->in, obj, &text_len);
	}
	if (text && text_len) {
		out = annotated(r, line, len, &f, text, text_len, &out_len);
		if (!out)
			return &kms_error_nomem;
	}
	if (r->s->by_module)
		return perf_by_module_line(&r->bm, r->in->tables, line,
					   is_frame ? &f : NULL, obj);
	if (r->s->collapse)
		return perf_collapse_line(&r->c, out);
	fwrite(out, 1, out_len, stdout);
	if (newline)
		putchar('\n');
	return NULL;
}

/* Stop holding: process the held lines. */
static struct kms_error *flush(struct perf_run *r)
{
	unsigned long lineno = r->lineno;
	struct kms_error *err = NULL;
	char *p, *nl, *end = r->held + r->held_len;

	r->holding = false;
	r->lineno = r->held_first - 1;
	for (p = r->held; !err && p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		*nl = '\0';
		r->lineno++;
		err = process_line(r, p, nl - p, nl < end);
	}
	r->lineno = lineno;
	r->held_len = 0;
	return err;
}

/* What a held line tells: frames seen, the kernel's map, its identity. */
static struct kms_error *probe_line(struct perf_run *r, const char *line,
				    size_t len, bool *ret_settled)
{
	struct frame f;

	*ret_settled = false;
	if (!perf_parse_frame(line, len, &f))
		return kernel_mmap(r, line);
	r->seen_frame = true;
	if (!perf_is_kernel(&f))
		return NULL;
	r->seen_kernel = true;
	return settle(r, &f, ret_settled);
}

static struct kms_error *not_perf_script(struct perf_run *r)
{
	return kms_error_fmt("%s: no \"ADDRESS SYMBOL (DSO)\" frame: not perf script output, or without its ip, sym or dso field",
			     r->input);
}

/* Keep line @lineno while holding; stop when it settles the profile. */
static struct kms_error *hold_line(struct perf_run *r, const char *line,
				   size_t len, bool newline)
{
	struct kms_error *err;
	bool settled;

	/* A line with a NUL ends there for the checks, not in the output. */
	err = probe_line(r, line, strlen(line), &settled);
	if (!err && !r->held_len)
		r->held_first = r->lineno;
	if (!err)
		err = perf_append(&r->held, &r->held_cap, &r->held_len, line,
				  len);
	if (!err && newline)
		err = perf_append(&r->held, &r->held_cap, &r->held_len, "\n",
				  1);
	if (!err && r->held_len > HOLD_MAX && !r->seen_frame)
		err = not_perf_script(r);
	if (!err && (settled || r->held_len > HOLD_MAX))
		err = flush(r);
	return err;
}

static struct kms_error *no_kernel_frame(struct perf_run *r)
{
	return kms_error_fmt("%s: no kernel frame ([kernel.kallsyms]): nothing to annotate",
			     r->input);
}

/* Read @f to its end. */
static struct kms_error *read_input(struct perf_run *r, FILE *f)
{
	_cleanup_free_ char *line = NULL;
	struct kms_error *err = NULL;
	size_t cap = 0, len;
	bool newline;
	ssize_t n;

	while (!err && (n = getline(&line, &cap, f)) >= 0) {
		r->lineno++;
		len = n;
		newline = len && line[len - 1] == '\n';
		if (newline)
			line[--len] = '\0';
		err = r->holding ? hold_line(r, line, len, newline) :
		      process_line(r, line, len, newline);
	}
	if (!err && ferror(f))
		err = kms_error_errno(r->input, "cannot read");
	if (!err && r->holding && !r->seen_frame)
		err = not_perf_script(r);
	if (!err && r->holding && !r->seen_kernel)
		err = no_kernel_frame(r);
	if (!err && r->holding)
		err = flush(r);
	if (!err && !r->kernel_frames)
		err = no_kernel_frame(r);
	return err;
}

static struct kms_error *finish_run(struct perf_run *r)
{
	struct kms_error *err = NULL;

	if (r->s->collapse) {
		err = perf_collapse_end(&r->c);
		if (!err)
			err = perf_collapse_print(&r->c);
	} else if (r->s->by_module) {
		err = perf_by_module_print(&r->bm);
	}
	if (!err && r->mismatches)
		err = kms_error_fmt("%s: %lu of %lu kernel frames are not %s's (the first on line %lu): a profile of another kernel, or another KASLR offset (-k, -K)",
				    r->input, r->mismatches, r->kernel_frames,
				    r->in->vmlinux, r->first_mismatch);
	return err;
}

static void run_release(struct perf_run *r)
{
	free(r->held);
	free(r->out);
	perf_by_module_release(&r->bm);
	perf_collapse_release(&r->c);
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	struct perf_run *r = calloc(1, sizeof(*r));
	const struct inspector_options *o = in->opts;
	struct kms_error *err = NULL;
	FILE *f = stdin;

	if (!r)
		return inspector_fail(&kms_error_nomem);
	r->in = in;
	r->s = settings;
	r->holding = true;
	r->input = argc && strcmp(argv[0], "-") ? argv[0] : "stdin";
	if (o->have_kaslr_offset || o->kallsyms || o->vmcore) {
		err = inspector_kaslr(in, &r->kaslr);
		r->kaslr_state = KASLR_KNOWN;
	}
	if (!err && f == stdin && argc && strcmp(argv[0], "-")) {
		f = fopen(argv[0], "r");
		if (!f)
			err = kms_error_errno(argv[0], "cannot open");
	}
	if (!err)
		err = read_input(r, f);
	if (!err)
		err = finish_run(r);
	if (f && f != stdin)
		fclose(f);
	run_release(r);
	free(r);
	return err ? inspector_fail(err) : 0;
}

static int check(const struct inspector_options *opts, const void *settings)
{
	const struct perf_settings *s = settings;

	if (s->by_module && s->collapse) {
		fprintf(stderr, PROG ": --by-module and --collapse exclude each other\n");
		return 2;
	}
	return command_check_kaslr(opts, settings);
}

static struct perf_settings settings;

static const struct command_option option_by_module = {
	.name = "by-module",
	.help = "      --by-module         samples by built-in module, core kernel,\n"
		"                          loadable module and DSO\n",
	.set = option_set_true,
	.offset = offsetof(struct perf_settings, by_module),
};

static const struct command_option option_collapse = {
	.name = "collapse",
	.help = "      --collapse          folded stacks, as stackcollapse-perf.pl\n"
		"                          writes them, for flamegraph.pl\n",
	.set = option_set_true,
	.offset = offsetof(struct perf_settings, collapse),
};

const struct command command_perf = {
	.name = "perf", .run = run, .args = "[SCRIPT]",
	.min_args = 0, .max_args = 1,
	.help = "perf script output, with [module] {objfile} in kernel frames",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_kaslr_offset,
		&option_kallsyms, &option_vmcore, &option_by_module,
		&option_collapse, NULL },
	.settings = &settings,
	.check = check,
};
