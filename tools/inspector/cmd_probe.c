// SPDX-License-Identifier: GPL-2.0
/*
 * probe: a kprobe_events line for one instance of a symbol in the running
 * kernel.
 *
 * Since Linux 6.8 (and stable kernels since) a kprobe on a name that
 * several symbols share fails with EADDRNOTAVAIL.  SPEC (symspec.h) picks
 * the instance in VMLINUX; the running kernel's /proc/kallmodsyms (or a
 * copy of it or of /proc/kallsyms) gives the KASLR offset, confirms that
 * VMLINUX is the running kernel, and says whether the name is unique among
 * all of the kernel's symbols, loadable modules' included.  Then the line is
 * "p:NAME SYM+off" for a unique name, else "p:NAME 0xADDR" at the relocated
 * address.  --tracefs DIR appends it to DIR/kprobe_events.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "kallsyms_copy.h"
#include "symspec.h"

#define DEFAULT_KALLMODSYMS "/proc/kallmodsyms"

struct live_scan {
	const char *name;
	uint64_t address;
	size_t count;		/* symbols called @name */
	bool found;		/* one of them at @address */
};

static bool scan_line(const struct kallsyms_line *l, void *arg)
{
	struct live_scan *s = arg;

	if (!strcmp(l->name, s->name)) {
		s->count++;
		s->found |= l->address == s->address;
	}
	return false;
}

/* NAME, or a default from the symbol: [A-Za-z0-9_] only. */
static void event_name(char *buf, size_t size, const char *given,
		       const struct symspec_instance *inst, bool unique,
		       uint64_t offset)
{
	size_t len, i;

	if (given) {
		snprintf(buf, size, "%s", given);
		return;
	}
	len = snprintf(buf, size, "%s", inst->sym->name);
	if (!unique && len < size)
		len += snprintf(buf + len, size - len, "_%zu", inst->sympos);
	if (offset && len < size)
		snprintf(buf + len, size - len, "_%llx", (unsigned long long)offset);
	for (i = 0; buf[i]; i++)
		if (!isalnum((unsigned char)buf[i]) && buf[i] != '_')
			buf[i] = '_';
}

static bool valid_event_name(const char *name)
{
	const char *slash = strchr(name, '/');
	const char *p;

	if (slash && strchr(slash + 1, '/'))
		return false;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '/')
			return false;
	return *name && *name != '/' && (!slash || slash[1]);
}

static struct kms_error *append(const char *dir, const char *text)
{
	char path[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return kms_error_errno(path, "cannot open");
	n = write(fd, text, strlen(text));
	if (n != (ssize_t)strlen(text)) {
		struct kms_error *err = kms_error_errno(path, "cannot write \"%.*s\"",
							(int)strlen(text) - 1, text);

		close(fd);
		return err;
	}
	if (close(fd))
		return kms_error_errno(path, "cannot write");
	return NULL;
}

struct probe_settings {
	const char *name;		/* --name */
	const char *tracefs;		/* --tracefs */
};

/*
 * In the running kernel's symbols at @live: its KASLR offset, and how many
 * symbols share @inst's name; an error unless one is where @inst is.
 */
static struct kms_error *scan_running(struct inspector *in, const char *live,
				      const struct symspec_instance *inst,
				      uint64_t *ret_kaslr,
				      struct live_scan *ret)
{
	struct kms_error *err;

	err = inspector_kaslr_from(in, live, ret_kaslr);
	if (err)
		return err;
	ret->name = inst->sym->name;
	ret->address = inst->sym->address + *ret_kaslr;
	err = kallsyms_copy_read(live, scan_line, ret);
	if (!err && !ret->found)
		err = kms_error_file(live, "no %s at 0x%llx, where %s has it: %s is not the running kernel",
				     ret->name,
				     (unsigned long long)ret->address,
				     in->vmlinux, in->vmlinux);
	return err;
}

/*
 * The kprobe_events line: by name when the running kernel has one symbol
 * of it, else by the address (@kaslr applied).
 */
static void kprobe_line(char *buf, size_t size, const char *given,
			const struct symspec_instance *inst,
			const struct symspec *spec, size_t count,
			uint64_t kaslr)
{
	char name[256];

	event_name(name, sizeof(name), given, inst, count == 1, spec->offset);
	if (count == 1 && spec->offset)
		snprintf(buf, size, "p:%s %s+0x%llx\n", name, inst->sym->name,
			 (unsigned long long)spec->offset);
	else if (count == 1)
		snprintf(buf, size, "p:%s %s\n", name, inst->sym->name);
	else
		snprintf(buf, size, "p:%s 0x%llx\n", name,
			 (unsigned long long)(inst->sym->address + kaslr +
					      spec->offset));
}

static int run(struct inspector *in, const void *settings, int argc,
	       char **argv)
{
	const struct probe_settings *s = settings;
	const char *live = in->opts->kallsyms ? in->opts->kallsyms :
			   DEFAULT_KALLMODSYMS;
	struct live_scan scan = { NULL, 0, 0, false };
	struct symspec_instance inst;
	struct kms_error *err;
	struct symspec spec;
	uint64_t kaslr, size;
	char line[1024];
	int status = 1;

	(void)argc;
	if (s->name && !valid_event_name(s->name)) {
		fprintf(stderr, PROG ": --name \"%s\": an event name is [GROUP/]NAME of letters, digits and _\n",
			s->name);
		return 2;
	}
	err = symspec_parse(argv[0], false, &spec);
	if (!err)
		err = symspec_resolve(in, &spec, 0, &inst);
	if (!err && !kms_is_text_type(inst.sym->type))
		err = kms_error_fmt("%s is data (type %c), not code: kprobes probe code only",
				    inst.sym->name, inst.sym->type);
	if (!err)
		err = symspec_check_size(in, &spec, &inst, &size);
	if (err) {
		fprintf(stderr, PROG ": \"%s\": %s\n", argv[0], err->message);
		kms_error_destroy(err);
		goto out;
	}
	err = scan_running(in, live, &inst, &kaslr, &scan);
	if (!err) {
		kprobe_line(line, sizeof(line), s->name, &inst, &spec,
			    scan.count, kaslr);
		if (s->tracefs)
			err = append(s->tracefs, line);
	}
	if (err) {
		inspector_fail(err);
		goto out;
	}
	fputs(line, stdout);
	status = 0;
out:
	symspec_release(&spec);
	return status;
}

static struct probe_settings settings;

static const struct command_option option_live = {
	.name = "kallsyms", .alias = "kallmodsyms", .letter = 'K',
	.has_arg = true,
	.help = "  -K, --kallsyms FILE     the offset from a copy of /proc/kallsyms\n"
		"                          (or /proc/kallmodsyms; --kallmodsyms too)\n"
		"                          default: /proc/kallmodsyms\n",
	.set = option_set_string,
	.offset = offsetof(struct inspector_options, kallsyms), .common = true,
};

static const struct command_option option_name = {
	.name = "name", .letter = 'n', .has_arg = true,
	.help = "  -n, --name NAME         the event's name (default: from SPEC)\n"
		"      --tracefs DIR       append the line to DIR/kprobe_events\n",
	.set = option_set_string,
	.offset = offsetof(struct probe_settings, name),
};

static const struct command_option option_tracefs = {
	.name = "tracefs", .has_arg = true, .set = option_set_string,
	.offset = offsetof(struct probe_settings, tracefs),
};

const struct command command_probe = {
	.name = "probe", .run = run, .args = "SPEC",
	.min_args = 1, .max_args = 1,
	.help = "a kprobe_events line for one instance, for the running kernel",
	.options = (const struct command_option *const[]){
		&option_tables, &option_symbols, &option_live, &option_name,
		&option_tracefs, NULL },
	.settings = &settings,
};
