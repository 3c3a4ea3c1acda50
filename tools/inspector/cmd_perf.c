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
 * (perf report --sort dso, with [kernel.kallsyms] split); --collapse
 * writes what stackcollapse-perf.pl writes of the annotated text.
 *
 * Lines are held, up to HOLD_MAX bytes, until a frame shows that the
 * profile is of VMLINUX: a profile that is not, or has no kernel frame, or
 * is not `perf script` output, is refused before anything is written.
 * Memory does not grow with the input (but for --collapse's stacks).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <kms/annotate.h>
#include <kms/format.h>
#include <kms/strmap.h>
#include <kms/util.h>

#include "command.h"

#define HOLD_MAX (1u << 20)
#define CACHE_SIZE 4096		/* frames' addresses remembered */

struct perf_settings {
	bool by_module;			/* --by-module */
	bool collapse;			/* --collapse */
};

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

/* --collapse: stackcollapse-perf.pl's state. */
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
	/* --by-module */
	bool in_sample, leaf_seen;
	struct kms_strmap rows;		/* kind letter, then the name */
	uint64_t *row_samples;
	size_t cap_rows;
	uint64_t samples;
	struct collapse c;
};

/* Frame parsing */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The last " (" of [@line, @end), or NULL. */
static const char *last_paren(const char *line, const char *end)
{
	const char *p;

	for (p = end - 1; p > line; p--)
		if (p[-1] == ' ' && p[0] == '(')
			return p - 1;
	return NULL;
}

/* "+0xHEX" ending the symbol [@sym, @end): its offset. */
static void split_offset(struct frame *f, const char *end)
{
	const char *p;

	f->sym_len = end - f->sym;
	f->rest = end;
	f->has_offset = false;
	for (p = end; p > f->sym && isxdigit((unsigned char)p[-1]); p--)
		;
	if (p == end || p - f->sym < 4 || strncmp(p - 3, "+0x", 3))
		return;
	f->has_offset = true;
	f->offset = strtoull(p, NULL, 16);
	f->sym_len = p - 3 - f->sym;
	f->rest = p - 3;
}

/* Parse @line (@len bytes, no newline) as a frame; false if it is none. */
static bool parse_frame(const char *line, size_t len, struct frame *f)
{
	const char *open, *sym, *ip, *p;

	if (len < 4 || line[len - 1] != ')')
		return false;
	open = last_paren(line, line + len - 1);
	if (!open)
		return false;
	f->dso = open + 2;
	f->dso_len = line + len - 1 - f->dso;
	for (sym = open; sym > line && !is_blank(sym[-1]); sym--)
		;
	if (sym == open || sym - line < 2 || sym[-1] != ' ')
		return false;
	for (ip = sym - 1; ip > line && isxdigit((unsigned char)ip[-1]); ip--)
		;
	if (ip == sym - 1 || sym - 1 - ip > 16 ||
	    (ip > line && !is_blank(ip[-1])))
		return false;
	f->ip = strtoull(ip, NULL, 16);
	for (p = line; p < ip && is_blank(*p); p++)
		;
	f->after_header = p < ip;
	f->sym = sym;
	split_offset(f, open);
	return true;
}

static bool dso_is(const struct frame *f, const char *name)
{
	return f->dso_len == strlen(name) && !memcmp(f->dso, name, f->dso_len);
}

/* A frame of the core kernel, whose symbols VMLINUX has. */
static bool is_kernel(const struct frame *f)
{
	return dso_is(f, "[kernel.kallsyms]") ||
	       dso_is(f, "[guest.kernel.kallsyms]");
}

/* perf's "[unknown]", or "[0x...]" with --show-unknown-as-addr... */
static bool is_unnamed(const struct frame *f)
{
	return !f->sym_len || f->sym[0] == '[';
}

/* Checking frames against VMLINUX */

/* The frame's symbol as a string, in @buf; false if too long. */
static bool frame_name(const struct frame *f, char *buf, size_t size)
{
	if (f->sym_len >= size)
		return false;
	memcpy(buf, f->sym, f->sym_len);
	buf[f->sym_len] = '\0';
	return true;
}

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

	if (is_unnamed(f))
		return FRAME_UNNAMED;
	if (f->ip < kaslr || !frame_name(f, name, sizeof(name)))
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
	if (!frame_name(f, name, sizeof(name)))
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
	if (is_unnamed(f))
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

/* The hex digits of a build id into @buf; false if it is none. */
static bool hex_build_id(const unsigned char *id, size_t size, char *buf,
			 size_t cap)
{
	size_t i;

	if (2 * size >= cap)
		return false;
	for (i = 0; i < size; i++)
		sprintf(buf + 2 * i, "%02x", id[i]);
	return true;
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
	    hex_build_id(id, size, ours, sizeof(ours)) &&
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

/* --by-module */

static const char *const not_modules[] = {
	"[unknown]", "[vdso]", "[vdso32]", "[vdsox32]", "[vsyscall]",
	"[heap]", "[stack]", "[uprobes]", "[vectors]", "[sigpage]", "[vvar]",
};

/* A loadable module's DSO, as perf names it: "[name]". */
static bool is_module_dso(const struct frame *f)
{
	size_t i;

	if (f->dso_len < 3 || f->dso[0] != '[' || f->dso[f->dso_len - 1] != ']')
		return false;
	for (i = 1; i < f->dso_len - 1; i++)
		if (!isalnum((unsigned char)f->dso[i]) && f->dso[i] != '_' &&
		    f->dso[i] != '-')
			return false;
	for (i = 0; i < KMS_ARRAY_SIZE(not_modules); i++)
		if (dso_is(f, not_modules[i]))
			return false;
	return true;
}

/* Count a sample whose first frame is @f, of object @obj. */
static struct kms_error *count_sample(struct perf_run *r,
				      const struct frame *f, uint32_t obj)
{
	char key[1024];
	struct kms_error *err;
	uint32_t row;
	int added;

	if (is_kernel(f)) {
		kms_format_object(key + 1, sizeof(key) - 1, r->in->tables, obj,
				  true);
		key[0] = key[1] ? 'b' : 'c';
		if (!key[1])
			snprintf(key + 1, sizeof(key) - 1, "%.*s",
				 (int)f->dso_len, f->dso);
	} else {
		key[0] = is_module_dso(f) ? 'm' : 'd';
		snprintf(key + 1, sizeof(key) - 1, "%.*s", (int)f->dso_len,
			 f->dso);
	}
	err = kms_strmap_intern(&r->rows, key, &row, &added);
	if (!err && added) {
		err = KMS_RESERVE(r->row_samples, r->cap_rows, row + 1);
		if (!err)
			r->row_samples[row] = 0;
	}
	if (err)
		return err;
	r->row_samples[row]++;
	r->samples++;
	return NULL;
}

/* The samples' boundaries: a header line starts one, a blank line ends it. */
static struct kms_error *by_module_line(struct perf_run *r, const char *line,
					const struct frame *f, uint32_t obj)
{
	if (!*line) {
		r->in_sample = false;
		return NULL;
	}
	if (!f) {
		if (!is_blank(line[0]) && line[0] != '#') {
			r->in_sample = true;
			r->leaf_seen = false;
		}
		return NULL;
	}
	if (f->after_header) {
		r->in_sample = true;
		r->leaf_seen = false;
	}
	if (!r->in_sample || r->leaf_seen)
		return NULL;
	r->leaf_seen = true;
	return count_sample(r, f, obj);
}

static const char *const kinds[] = {
	['b'] = "built-in", ['c'] = "core", ['m'] = "loadable", ['d'] = "dso",
};

/* Rows by samples, most first, then by kind and name (qsort_r()'s). */
static int by_samples(const void *a, const void *b, void *arg)
{
	const struct perf_run *r = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t nx = r->row_samples[x], ny = r->row_samples[y];

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(r->rows.keys[x], r->rows.keys[y]);
}

static struct kms_error *print_modules(struct perf_run *r)
{
	uint32_t *order = malloc((r->rows.nr + 1) * sizeof(*order));
	size_t i;

	if (!order)
		return &kms_error_nomem;
	for (i = 0; i < r->rows.nr; i++)
		order[i] = i;
	qsort_r(order, r->rows.nr, sizeof(*order), by_samples, r);
	printf("# samples  percent  kind      module or DSO\n");
	for (i = 0; i < r->rows.nr; i++) {
		const char *key = r->rows.keys[order[i]];
		uint64_t n = r->row_samples[order[i]];

		printf("%9llu  %6.2f%%  %-8s  %s\n", (unsigned long long)n,
		       100.0 * n / r->samples, kinds[(unsigned char)key[0]],
		       key + 1);
	}
	printf("# %llu samples\n", (unsigned long long)r->samples);
	free(order);
	return NULL;
}

/* --collapse: stackcollapse-perf.pl's rules, on the annotated text */

/*
 * Its sample header, /^(\S.+?)\s+(\d+)/ and "/TID" (slashes and digits),
 * then white space: the length of the
 * command name, 0 if @line is none.
 */
static size_t header_comm(const char *line)
{
	size_t i;

	if (!line[0] || isspace((unsigned char)line[0]))
		return 0;
	for (i = 2; line[i - 1]; i++) {
		const char *p = line + i;

		if (!isspace((unsigned char)*p))
			continue;
		while (isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			continue;
		while (isdigit((unsigned char)*p) || *p == '/')
			p++;
		if (isspace((unsigned char)*p))
			return i;
	}
	return 0;
}

/*
 * Its event, /:\s*(\d+)*\s+(\S+):\s*$/: false if the header has none; the
 * period, 1 when there is none.
 */
static bool header_event(const char *line, const char **ret_event,
			 size_t *ret_len, uint64_t *ret_period)
{
	const char *end = line + strlen(line), *ev, *p;

	while (end > line && isspace((unsigned char)end[-1]))
		end--;
	if (end == line || end[-1] != ':')
		return false;
	for (ev = end - 1; ev > line && !isspace((unsigned char)ev[-1]); ev--)
		;
	if (ev == end - 1 || ev == line)
		return false;
	for (p = ev; p > line && isspace((unsigned char)p[-1]); p--)
		;
	*ret_period = 0;
	if (p > line && isdigit((unsigned char)p[-1])) {
		while (p > line && isdigit((unsigned char)p[-1]))
			p--;
		*ret_period = strtoull(p, NULL, 10);
	}
	while (p > line && isspace((unsigned char)p[-1]))
		p--;
	if (p == line || p[-1] != ':')
		return false;
	*ret_event = ev;
	*ret_len = end - 1 - ev;
	if (!*ret_period)
		*ret_period = 1;
	return true;
}

/* A sample's header: its process, unless another event's. */
static struct kms_error *collapse_header(struct collapse *c, const char *line,
					 size_t comm_len)
{
	const char *event;
	uint64_t period = 1;
	size_t len, i;

	if (header_event(line, &event, &len, &period)) {
		if (!c->event) {
			c->event = strndup(event, len);
			if (!c->event)
				return &kms_error_nomem;
		} else if (strlen(c->event) != len ||
			   strncmp(c->event, event, len)) {
			return NULL;
		}
	}
	free(c->pname);
	c->pname = strndup(line, comm_len);
	if (!c->pname)
		return &kms_error_nomem;
	for (i = 0; i < comm_len; i++)
		if (c->pname[i] == ' ')
			c->pname[i] = '_';
	c->period = period;
	return NULL;
}

/* Append @s (@n bytes) to the string *@buf, of capacity *@cap. */
static struct kms_error *append(char **buf, size_t *cap, size_t *len,
				const char *s, size_t n)
{
	struct kms_error *err = KMS_RESERVE(*buf, *cap, *len + n + 1);

	if (err)
		return err;
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
	return NULL;
}

/* One function of a frame, tidied as $tidy_generic and $tidy_java do. */
static void tidy(char *func, const char *pname)
{
	char *p, *q;

	for (p = func; *p; p++)
		if (*p == ';')
			*p = ':';
	p = strstr(func, ".(");
	if (!p || !strstr(p + 2, ").")) {
		for (p = func; (p = strchr(p, '(')); p++)
			if (strncmp(p, "(anonymous namespace)", 21)) {
				*p = '\0';
				break;
			}
	}
	for (p = q = func; *p; p++)
		if (*p != '"' && *p != '\'')
			*q++ = *p;
	*q = '\0';
	if (!strncmp(pname, "java", 4) && strchr(func, '/') && func[0] == 'L')
		memmove(func, func + 1, strlen(func));
}

/* A stack line, /^\s*(\w+)\s*(.+) \((.*)\)/: its function(s) and DSO. */
static bool stack_line(const char *line, const char **ret_func,
		       size_t *ret_func_len, const char **ret_dso,
		       size_t *ret_dso_len)
{
	const char *p = line, *close, *open;

	while (isspace((unsigned char)*p))
		p++;
	if (!isalnum((unsigned char)*p) && *p != '_')
		return false;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	while (isspace((unsigned char)*p))
		p++;
	close = strrchr(p, ')');
	if (!close || !*p)
		return false;
	open = last_paren(p + 1, close);
	if (!open)
		return false;
	*ret_func = p;
	*ret_func_len = open - p;
	*ret_dso = open + 2;
	*ret_dso_len = close - open - 2;
	return true;
}

/*
 * One function of a frame, @n bytes at @p, as the script names it: perf's
 * "[unknown]" becomes the DSO's base name in brackets; then tidied.
 */
static char *frame_piece(const struct collapse *c, const char *p, size_t n,
			 const char *dso, size_t dso_len)
{
	const char *base;
	char *piece;

	if (n != 9 || strncmp(p, "[unknown]", 9))
		piece = strndup(p, n);
	else if (dso_len == 9 && !strncmp(dso, "[unknown]", 9))
		piece = strdup("[unknown]");
	else {
		base = memrchr(dso, '/', dso_len);
		base = base ? base + 1 : dso;
		if (asprintf(&piece, "[%.*s]", (int)(dso + dso_len - base),
			     base) < 0)
			piece = NULL;
	}
	if (piece)
		tidy(piece, c->pname);
	return piece;
}

/* The functions of @func, joined by ";", as the script pushes them. */
static struct kms_error *collapse_frame(struct collapse *c, const char *func,
					size_t len, const char *dso,
					size_t dso_len)
{
	struct kms_error *err = NULL;
	size_t flen = 0, cap = 0;
	char *joined = NULL, *piece;
	const char *p, *end;

	/* s/\+0x[\da-f]+$// */
	for (p = func + len; p > func && (isdigit((unsigned char)p[-1]) ||
					  (p[-1] >= 'a' && p[-1] <= 'f')); p--)
		;
	if (p < func + len && p - func >= 3 && !strncmp(p - 3, "+0x", 3))
		len = p - 3 - func;
	if (len && func[0] == '(')
		return NULL;
	/* Inlined functions, "a->b", are one frame each. */
	for (p = func; !err && p <= func + len; p = end + 2) {
		for (end = p; end < func + len && strncmp(end, "->", 2); end++)
			;
		piece = frame_piece(c, p, end - p, dso, dso_len);
		if (!piece)
			return &kms_error_nomem;
		if (flen)
			err = append(&joined, &cap, &flen, ";", 1);
		if (!err)
			err = append(&joined, &cap, &flen, piece,
				     strlen(piece));
		free(piece);
	}
	if (!err && !joined)
		err = append(&joined, &cap, &flen, "", 0);
	if (!err)
		err = KMS_RESERVE(c->frames, c->cap_frames, c->nr_frames + 1);
	if (err) {
		free(joined);
		return err;
	}
	c->frames[c->nr_frames++] = joined;
	return NULL;
}

/* The end of a sample: "pname;root;...;leaf" += its period. */
static struct kms_error *collapse_end(struct collapse *c)
{
	struct kms_error *err = NULL;
	size_t i, len = 0, cap = 0;
	char *stack = NULL;
	uint32_t index;
	int added;

	if (c->pname && c->nr_frames) {
		err = append(&stack, &cap, &len, c->pname, strlen(c->pname));
		for (i = c->nr_frames; !err && i-- > 0;) {
			err = append(&stack, &cap, &len, ";", 1);
			if (!err)
				err = append(&stack, &cap, &len, c->frames[i],
					     strlen(c->frames[i]));
		}
		if (!err)
			err = kms_strmap_intern(&c->stacks, stack, &index,
						&added);
		if (!err && added) {
			err = KMS_RESERVE(c->counts, c->cap_counts, index + 1);
			if (!err)
				c->counts[index] = 0;
		}
		if (!err)
			c->counts[index] += c->period;
		free(stack);
	}
	for (i = 0; i < c->nr_frames; i++)
		free(c->frames[i]);
	c->nr_frames = 0;
	free(c->pname);
	c->pname = NULL;
	return err;
}

static struct kms_error *collapse_line(struct collapse *c, const char *line)
{
	const char *func, *dso;
	size_t comm_len, func_len, dso_len;

	if (line[0] == '#')
		return NULL;
	if (!line[0])
		return collapse_end(c);
	comm_len = header_comm(line);
	if (comm_len)
		return collapse_header(c, line, comm_len);
	if (!stack_line(line, &func, &func_len, &dso, &dso_len) || !c->pname)
		return NULL;
	return collapse_frame(c, func, func_len, dso, dso_len);
}

static int compare_keys(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct kms_error *print_collapsed(struct collapse *c)
{
	char **keys = malloc((c->stacks.nr + 1) * sizeof(*keys));
	size_t i;

	if (!keys)
		return &kms_error_nomem;
	memcpy(keys, c->stacks.keys, c->stacks.nr * sizeof(*keys));
	qsort(keys, c->stacks.nr, sizeof(*keys), compare_keys);
	for (i = 0; i < c->stacks.nr; i++)
		printf("%s %llu\n", keys[i], (unsigned long long)
		       c->counts[kms_strmap_find(&c->stacks, keys[i])]);
	free(keys);
	return NULL;
}

static void collapse_release(struct collapse *c)
{
	size_t i;

	for (i = 0; i < c->nr_frames; i++)
		free(c->frames[i]);
	free(c->frames);
	free(c->pname);
	free(c->event);
	free(c->counts);
	kms_strmap_release(&c->stacks);
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
	bool is_frame = parse_frame(line, len, &f);

	if (is_frame && is_kernel(&f)) {
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
		return by_module_line(r, line, is_frame ? &f : NULL, obj);
	if (r->s->collapse)
		return collapse_line(&r->c, out);
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
	if (!parse_frame(line, len, &f))
		return kernel_mmap(r, line);
	r->seen_frame = true;
	if (!is_kernel(&f))
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
		err = append(&r->held, &r->held_cap, &r->held_len, line, len);
	if (!err && newline)
		err = append(&r->held, &r->held_cap, &r->held_len, "\n", 1);
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
		err = collapse_end(&r->c);
		if (!err)
			err = print_collapsed(&r->c);
	} else if (r->s->by_module) {
		err = print_modules(r);
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
	free(r->row_samples);
	kms_strmap_release(&r->rows);
	collapse_release(&r->c);
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
