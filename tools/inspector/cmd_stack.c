// SPDX-License-Identifier: GPL-2.0
/*
 * stack: what a crash dump says of each CPU without DWARF or an unwinder.
 * Its pc, named as lookup names addresses; then each word of its kernel
 * stack, from sp to the end of its THREAD_SIZE-aligned block, that points
 * into the kernel's text or init text (as __kernel_text_address() counts
 * text: a dump of a kernel that died while booting has its initcalls on
 * the stack), as the kernel's stack dumps print the entries
 * they cannot vouch for: " ? " and the name %pB gives a return address
 * (the symbol of the address minus one, the offset of the address).
 */
#include <stdlib.h>

#include "command.h"

/* x86_64's THREAD_SIZE, doubled under KASAN. */
#define THREAD_SIZE 16384u

struct stack_scan {
	struct inspector *in;
	struct kms_vmcore *vc;
	uint64_t kaslr;
	uint64_t text_start, text_end;	/* _stext, _etext at run time */
	uint64_t init_start, init_end;	/* _sinittext, _einittext, or 0 */
	uint64_t thread_size;
};

static bool has_symbol(struct inspector *in, const char *name)
{
	const struct kms_symbol *const *named;

	return inspector_symbols_named(in, name, &named) > 0;
}

static struct kms_error *symbol_address(struct inspector *in,
					const char *name, uint64_t *ret)
{
	const struct kms_symbol *const *named;

	if (!inspector_symbols_named(in, name, &named))
		return kms_error_file(in->vmlinux, "no %s symbol", name);
	*ret = named[0]->address;
	return NULL;
}

/*
 * [@start, @end) at run time from the symbols that bound it; an error if
 * either is missing, unless @optional (then both 0).
 */
static struct kms_error *runtime_range(struct stack_scan *s,
				       const char *start, const char *end,
				       bool optional, uint64_t *ret_start,
				       uint64_t *ret_end)
{
	struct kms_error *err;

	*ret_start = *ret_end = 0;
	if (optional && (!has_symbol(s->in, start) || !has_symbol(s->in, end)))
		return NULL;
	err = symbol_address(s->in, start, ret_start);
	if (!err)
		err = symbol_address(s->in, end, ret_end);
	if (err)
		return err;
	*ret_start += s->kaslr;
	*ret_end += s->kaslr;
	return NULL;
}

/* The kernel's text at run time, and its stacks' size. */
static struct kms_error *stack_setup(struct stack_scan *s)
{
	struct kms_error *err;

	err = inspector_vmcore(s->in, &s->vc);
	if (!err)
		err = inspector_kaslr(s->in, &s->kaslr);
	if (!err)
		err = runtime_range(s, "_stext", "_etext", false,
				    &s->text_start, &s->text_end);
	if (!err)
		err = runtime_range(s, "_sinittext", "_einittext", true,
				    &s->init_start, &s->init_end);
	if (err)
		return err;
	s->thread_size = THREAD_SIZE << has_symbol(s->in, "kasan_report");
	return NULL;
}

static bool in_text(const struct stack_scan *s, uint64_t addr)
{
	return (s->text_start <= addr && addr < s->text_end) ||
	       (s->init_start <= addr && addr < s->init_end);
}

/* "CPU N pc ADDR NAME", or its JSON members. */
static void show_pc(struct stack_scan *s, size_t cpu,
		    const struct kms_vmcore_cpu *regs)
{
	bool text = in_text(s, regs->pc);
	struct inspector_name name;
	bool named = text && inspector_name_address(s->in, regs->pc - s->kaslr,
						    &name);

	if (s->in->opts->json) {
		json_uint(&s->in->json, "cpu", cpu);
		json_hex(&s->in->json, "pc", regs->pc);
		json_hex(&s->in->json, "sp", regs->sp);
		json_bool(&s->in->json, "in_text", text);
		if (named)
			inspector_json_name(s->in, &name);
		return;
	}
	printf("CPU %zu pc %016llx ", cpu, (unsigned long long)regs->pc);
	if (named)
		inspector_print_name(s->in, stdout, &name);
	else
		fputs(text ? "not in any symbol" : "not in the kernel's text",
		      stdout);
	putchar('\n');
}

/* " ? NAME" of the text address @addr found at @at. */
static void show_entry(struct stack_scan *s, uint64_t at, uint64_t addr)
{
	struct inspector_name name;
	bool named = inspector_name_address(s->in, addr - s->kaslr - 1, &name);

	if (named)
		name.offset++;
	if (s->in->opts->json) {
		json_begin_object(&s->in->json, NULL);
		json_hex(&s->in->json, "at", at);
		json_hex(&s->in->json, "address", addr);
		if (named)
			inspector_json_name(s->in, &name);
		json_end_object(&s->in->json);
		return;
	}
	if (named) {
		fputs(" ? ", stdout);
		inspector_print_name(s->in, stdout, &name);
	} else {
		printf(" ? %016llx", (unsigned long long)addr);
	}
	putchar('\n');
}

/* Read the stack from @sp to the end of its block, then show it. */
static struct kms_error *scan_stack(struct stack_scan *s, uint64_t sp)
{
	uint64_t start = sp & ~7ull;
	uint64_t end = (sp & ~(s->thread_size - 1)) + s->thread_size;
	size_t i, n = (end - start) / 8;
	struct kms_error *err;
	uint64_t *words;

	words = calloc(n, sizeof(*words));
	if (!words)
		return &kms_error_nomem;
	err = kms_vmcore_read_words(s->vc, start, words, n);
	if (!err) {
		if (s->in->opts->json)
			json_begin_array(&s->in->json, "stack");
		for (i = 0; i < n; i++)
			if (in_text(s, words[i]))
				show_entry(s, start + 8 * i, words[i]);
		if (s->in->opts->json)
			json_end_array(&s->in->json);
	}
	free(words);
	return err;
}

/*
 * One CPU: its pc, then its stack when memory can be read and sp is a
 * kernel address (the upper half).  1 when the stack cannot be read.
 */
static int show_cpu(struct stack_scan *s, size_t cpu,
		    const struct kms_vmcore_cpu *regs, bool memory)
{
	struct kms_error *err = NULL;

	if (s->in->opts->json)
		json_begin_object(&s->in->json, NULL);
	show_pc(s, cpu, regs);
	if (memory && (int64_t)regs->sp < 0)
		err = scan_stack(s, regs->sp);
	if (err && s->in->opts->json)
		json_string(&s->in->json, "error", err->message);
	if (s->in->opts->json)
		json_end_object(&s->in->json);
	return err ? inspector_fail(err) : 0;
}

/* Every CPU; then why memory could not be read, if it could not. */
static int show_cpus(struct stack_scan *s, struct kms_error *memory)
{
	const struct kms_vmcore_cpu *cpus = kms_vmcore_cpus(s->vc);
	size_t i, nr = kms_vmcore_nr_cpus(s->vc);
	struct json *j = &s->in->json;
	int status = 0;

	if (s->in->opts->json) {
		json_begin_object(j, NULL);
		json_hex(j, "kaslr_offset", s->kaslr);
		json_hex(j, "thread_size", s->thread_size);
		json_begin_array(j, "cpus");
	}
	for (i = 0; i < nr; i++)
		status |= show_cpu(s, i, &cpus[i], !memory);
	if (s->in->opts->json) {
		json_end_array(j);
		json_end_object(j);
		json_finish(j);
	}
	return memory ? inspector_fail(memory) : status;
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	struct stack_scan s = { .in = in };
	struct kms_error *err;

	(void)settings;
	(void)argc;
	(void)argv;
	err = stack_setup(&s);
	/* Without registers, say why memory is no use either, first. */
	if (!err && !kms_vmcore_nr_cpus(s.vc))
		err = kms_vmcore_memory(s.vc);
	if (!err && !kms_vmcore_nr_cpus(s.vc))
		err = kms_error_file(kms_vmcore_path(s.vc),
				     "no NT_PRSTATUS notes: no CPU's registers");
	if (err)
		return inspector_fail(err);
	return show_cpus(&s, kms_vmcore_memory(s.vc));
}

static int check(const struct inspector_options *opts, const void *settings)
{
	(void)settings;
	if (!opts->vmcore) {
		fprintf(stderr, PROG ": stack needs --vmcore FILE\n");
		return 2;
	}
	return 0;
}

const struct command command_stack = {
	.name = "stack", .run = run, .args = "",
	.help = "each CPU's pc and the text addresses on its stack, from a --vmcore dump",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_json, &option_vmcore,
		NULL },
	.check = check,
};
