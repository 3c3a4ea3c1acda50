# SPDX-License-Identifier: GPL-2.0
#
# make            build the tools (warnings are errors in CI: WERROR=1)
# make check      run the test suite (tests/run-tests.sh)
# make bench      the benchmarks against peers (bench/run.sh)
# make fuzz       build the libFuzzer targets into build-fuzz/ and run each
#                 for FUZZ_SECONDS (default 60); tests/fuzz/README.md
# make fuzz-campaign  each for FUZZ_SECONDS (default 3600), then merge what
#                 it found into tests/fuzz/corpus/ and print a table
# make install    install into $(DESTDIR)$(PREFIX)
#
# SANITIZE=1 builds with AddressSanitizer and UBSan into build-asan/.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
VERSION := 0.1

CC ?= cc
ifeq ($(SANITIZE),1)
O ?= build-asan
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=all
else
O ?= build
SAN_FLAGS :=
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wformat=2 -Wno-format-nonliteral
ifeq ($(WERROR),1)
WARN += -Werror
endif
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=gnu11 $(WARN) $(CPPFLAGS) $(CFLAGS) $(SAN_FLAGS) \
	      -Isidecar/include -D_GNU_SOURCE \
	      -DKMS_VERSION_STRING='"$(VERSION)"' -MMD -MP
LDLIBS := -ldw -lelf -lzstd
ALL_LDFLAGS := $(LDFLAGS) $(SAN_FLAGS)

# The layers, each an archive that needs only those after it:
# sidecar/include <- sidecar/lib (the format) <- sidecar/inputs (what is
# read from a build) <- sidecar/gen (the generator) <- tools.
# scripts/check-layers.sh checks that the includes say the same, and
# scripts/check-cycles.sh that no two files call each other.  tools/ holds
# the two programs: the inspector in tools/inspector/, the audit in
# tools/audit/.
LIB_SRCS := $(wildcard sidecar/lib/*.c)
INPUTS_SRCS := $(wildcard sidecar/inputs/*.c)
GENLIB_SRCS := $(filter-out sidecar/gen/main.c sidecar/gen/kbuild_main.c,\
		$(wildcard sidecar/gen/*.c))
GEN_SRCS := sidecar/gen/main.c
TOOL_SRCS := $(wildcard tools/inspector/*.c)
AUDIT_SRCS := $(wildcard tools/audit/*.c)

LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
INPUTS_OBJS := $(INPUTS_SRCS:%.c=$(O)/%.o)
GENLIB_OBJS := $(GENLIB_SRCS:%.c=$(O)/%.o)
GEN_OBJS := $(GEN_SRCS:%.c=$(O)/%.o)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(O)/%.o)
AUDIT_OBJS := $(AUDIT_SRCS:%.c=$(O)/%.o)

LIB := $(O)/libkms.a
INPUTS_LIB := $(O)/libkms-inputs.a
GEN_LIB := $(O)/libkms-gen.a

PROGS := $(O)/kallmodsyms-gen $(O)/kallmodsyms $(O)/kallmodsyms-audit

all: $(PROGS)

$(LIB): $(LIB_OBJS)
$(INPUTS_LIB): $(INPUTS_OBJS)
$(GEN_LIB): $(GENLIB_OBJS)
$(LIB) $(INPUTS_LIB) $(GEN_LIB):
	rm -f $@
	$(AR) rcs $@ $^

$(O)/kallmodsyms-gen: $(GEN_OBJS) $(GEN_LIB) $(INPUTS_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

# kbuild's generator (kms_generate_kbuild()): the program a kernel tree
# builds from scripts/export-kernel-gen.sh's copy, built here to be tested
# against kallmodsyms-gen (tests/unit/run-kbuild-gen.sh); not installed.
$(O)/kallmodsyms-kbuild: $(O)/sidecar/gen/kbuild_main.o $(GEN_LIB) \
		$(INPUTS_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

# The inspector's verify runs the generator.
$(O)/kallmodsyms: $(TOOL_OBJS) $(GEN_LIB) $(INPUTS_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/kallmodsyms-audit: $(AUDIT_OBJS) $(INPUTS_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

# The modularity analysis carries its Makefile evaluator as a C string,
# generated beside its object and found there by that object alone.
MODULARITY_MK_H := $(O)/sidecar/inputs/modularity_mk.h
$(MODULARITY_MK_H): sidecar/inputs/modularity.mk
	@mkdir -p $(dir $@)
	{ echo 'static const char kms_modularity_mk[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@
$(O)/sidecar/inputs/modularity_make.o: $(MODULARITY_MK_H)
$(O)/sidecar/inputs/modularity_make.o: ALL_CFLAGS += -I$(dir $(MODULARITY_MK_H))

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

TEST_PROGS := $(O)/kms-mutate $(O)/kallmodsyms-kbuild

$(O)/kms-mutate: $(O)/tests/unit/kms-mutate.o $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

tests: $(PROGS) $(TEST_PROGS)

# The suite: the kernels of this run, then every test under the modes,
# kernels and toolchains it declares (tests/run-tests.sh); scripts/check
# adds the lint and the time of each phase.
check: tests
	$(MAKE) SANITIZE=1 tests
	tests/run-tests.sh --build-kernels
	tests/run-tests.sh

# ...with the defconfig and ThinLTO kernels too (about 25 more minutes of
# builds on two cores, not in CI's budget), the small kernel with BPF and
# BTF for DTrace, bpftrace and bcc in a guest
# (tests/tracers/run-dtrace-guest.sh, run-bpftrace-guest.sh), the small
# kernel without the option and without the series
# (tests/kernel/run-nokms-vanilla.sh: two more builds), the tests
# whose kms-test line says suite=full (tests/run-tests.sh), and Debian's
# own kernels (tests/distro: four debug packages of 0.3-0.9 GB, downloaded
# once).
check-full: export KMS_FULL = 1
check-full: export KMS_EXTRA_KERNELS = 6.1/gcc/small 6.12/arm64/small-dwarf \
	6.12/llvm/small 6.12/thinlto/small 6.12/gcc/defconfig 6.12/arm64-llvm/small \
	6.12/gcc/small-bpf 6.12/gcc/small-nokms 6.12/gcc/small-vanilla \
	6.12/gcc/small-debug
check-full: export KMS_DISTRO = 1
check-full: check

# Every benchmark, one table of ratios against peers (bench/README.md).
bench: all
	bench/run.sh

## Fuzzing (clang-14 + libFuzzer): the library built with the fuzzer's
## instrumentation into build-fuzz/, one binary per tests/fuzz/fuzz_*.c.
FUZZ_O := build-fuzz
FUZZ_CC ?= clang-14
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_PROGS := $(FUZZ_TARGETS:%=$(FUZZ_O)/fuzz-%)
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Isidecar/include -D_GNU_SOURCE
FUZZ_LIBS := $(FUZZ_O)/libkms-inputs.a $(FUZZ_O)/libkms.a
# The kernel's note parser, extracted from the patch series.
FUZZ_KERNEL := $(FUZZ_O)/kernel
FUZZ_PATCHES := $(wildcard kernel-patches/6.12/000[5-6]-*.patch)

fuzz-lib:
	$(MAKE) O=$(FUZZ_O) CC=$(FUZZ_CC) CFLAGS='-O1 -g' \
		SAN_FLAGS='-fsanitize=fuzzer-no-link $(FUZZ_SAN)' \
		$(FUZZ_LIBS)

# The kernel's parser as the 6.12 series creates it, for the fuzz targets
# (build-fuzz/kernel) and the kernel judge (build/kernel): one pattern
# rule, since make fuzz-build's sub-make has O=build-fuzz.
%/kernel/kernel/kallmodsyms.c: $(FUZZ_PATCHES) tests/fuzz/extract-kernel.sh
	tests/fuzz/extract-kernel.sh kernel-patches/6.12 $*/kernel

FUZZ_KERNEL_PROGS := $(FUZZ_O)/fuzz-kernel_note $(FUZZ_O)/fuzz-kernel_image
$(FUZZ_KERNEL_PROGS): $(FUZZ_KERNEL)/kernel/kallmodsyms.c \
	tests/fuzz/fuzz_kernel_note.c \
	$(wildcard tests/fuzz/kshim/*.h tests/fuzz/kshim/*/*.h)
$(FUZZ_KERNEL_PROGS): FUZZ_CFLAGS += -Itests/fuzz/kshim \
	-I$(FUZZ_KERNEL)/include -I$(FUZZ_KERNEL)/kernel -Wno-unused-function

$(FUZZ_O)/fuzz-%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_file.h $(FUZZ_LIBS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< \
		$(FUZZ_LIBS) $(LDLIBS)

fuzz-build:
	$(MAKE) fuzz-lib
	$(MAKE) $(FUZZ_PROGS)

fuzz: fuzz-build
	tests/fuzz/fuzz.sh -t $(or $(FUZZ_SECONDS),60) $(FUZZ_TARGETS)

fuzz-campaign: fuzz-build
	FUZZ_SECONDS=$(or $(FUZZ_SECONDS),3600) tests/fuzz/campaign.sh $(FUZZ_TARGETS)

MANDIR ?= $(PREFIX)/share/man
MAN1 := sidecar/gen/kallmodsyms-gen.1 tools/inspector/kallmodsyms.1 \
	tools/audit/kallmodsyms-audit.1

# The debugger helpers, laid out as in the checkout: gdb/ and drgn/ find
# the decoder they share in ../python, or where python3 finds it when
# PYTHONDIR puts it elsewhere (the Debian package: dist-packages).  The
# crash extension goes to CRASHDIR (the package: /usr/lib/crash/extensions,
# where Debian's crash looks for "extend kallmodsyms.so").
SCRIPTDIR ?= $(PREFIX)/share/kallmodsyms
GDBDIR := $(SCRIPTDIR)/gdb
PYTHONDIR ?= $(SCRIPTDIR)/python
CRASHDIR ?= $(SCRIPTDIR)/crash

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(GDBDIR)/kallmodsyms_gdb \
		$(DESTDIR)$(PYTHONDIR)/kallmodsyms $(DESTDIR)$(SCRIPTDIR)/drgn
	install -m 755 $(PROGS) $(DESTDIR)$(BINDIR)
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 gdb-scripts/kallmodsyms-gdb.py gdb-scripts/README.md \
		$(DESTDIR)$(GDBDIR)
	install -m 755 gdb-scripts/autoload.sh $(DESTDIR)$(GDBDIR)
	install -m 644 gdb-scripts/kallmodsyms_gdb/*.py \
		$(DESTDIR)$(GDBDIR)/kallmodsyms_gdb
	install -m 644 python/kallmodsyms/*.py \
		$(DESTDIR)$(PYTHONDIR)/kallmodsyms
	install -m 644 drgn-scripts/*.py drgn-scripts/README.md \
		$(DESTDIR)$(SCRIPTDIR)/drgn
	if [ -f $(CRASH_EXT) ]; then \
		install -d $(DESTDIR)$(CRASHDIR) && \
		install -m 644 $(CRASH_EXT) $(DESTDIR)$(CRASHDIR); \
	fi

clean:
	rm -rf build build-asan build-fuzz

.PHONY: all tests check check-full bench install clean fuzz fuzz-build fuzz-lib \
	fuzz-campaign

-include $(LIB_OBJS:.o=.d) $(INPUTS_OBJS:.o=.d) $(GENLIB_OBJS:.o=.d) \
	 $(GEN_OBJS:.o=.d) $(TOOL_OBJS:.o=.d) $(AUDIT_OBJS:.o=.d) \
	 $(O)/tests/unit/kms-mutate.d

## The Python decoder's constants.py: the format's constants from kms/format.h,
## its reasons from kms/reasons.h.
PY_CONSTANTS := python/kallmodsyms/constants.py

all: $(PY_CONSTANTS)
tests: $(PY_CONSTANTS)

$(PY_CONSTANTS): $(PY_CONSTANTS).in sidecar/include/kms/format.h \
		 sidecar/include/kms/reasons.h
	{ echo '# Generated by make from $(notdir $<), kms/format.h and kms/reasons.h: do not edit.'; \
	  $(CPP) -P -Isidecar/include -x c $< | \
	  sed -E -e 's/\b(0x[0-9a-fA-F]+|[0-9]+)[uU]\b/\1/g' -e '/^$$/d'; \
	} > $@.tmp && mv $@.tmp $@

clean: clean-py-constants
clean-py-constants:
	rm -f $(PY_CONSTANTS)
.PHONY: clean-py-constants

## The conformance corpus (FORMAT.md 7, tests/conformance/): its
## generator, and the verdict drivers of the C library, of the kernel's
## parser (extracted from the series, over tests/fuzz/kshim, with $(CC)).
CONF_PROGS := $(O)/kms-mkcorpus $(O)/kms-judge $(O)/kms-kernel-judge

tests: $(CONF_PROGS)

# kms-mkcorpus: its writer (corpus.c) and the files of cases.
MKCORPUS_SRCS := $(addprefix tests/conformance/,mkcorpus.c corpus.c \
	sample.c frames.c containers.c edges.c paths.c)
MKCORPUS_OBJS := $(MKCORPUS_SRCS:%.c=$(O)/%.o)

$(O)/kms-mkcorpus: $(MKCORPUS_OBJS) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/kms-judge: $(O)/tests/conformance/judge.o $(INPUTS_LIB) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/kms-kernel-judge: tests/conformance/kernel-judge.c \
		$(O)/kernel/kernel/kallmodsyms.c $(LIB) \
		$(wildcard tests/fuzz/kshim/*.h tests/fuzz/kshim/*/*.h)
	$(CC) -std=gnu11 $(CFLAGS) $(SAN_FLAGS) -D_GNU_SOURCE -MMD -MP \
		-Isidecar/include -Itests/fuzz/kshim -I$(O)/kernel/include \
		-I$(O)/kernel/kernel -o $@ $< $(LIB) $(LDLIBS)

-include $(MKCORPUS_OBJS:.o=.d) $(O)/tests/conformance/judge.d \
	 $(O)/kms-kernel-judge.d

## The crash extension (crash-extension/): a shared object crash loads
## ("extend kallmodsyms.so"), with the format library built
## position-independent.  Built when crash's defs.h is installed (Debian:
## crash), not under SANITIZE (crash is not built with ASan).  crash
## dlopen()s it RTLD_GLOBAL and runs its constructor, which registers the
## command: nothing of it is looked up by name, so every symbol is hidden
## (-fvisibility=hidden) and none lands in crash's namespace
## (tests/unit/run-crash-extension.sh checks that it exports none).
CRASH_DEFS := /usr/include/crash/defs.h
CRASH_EXT := $(O)/crash/kallmodsyms.so
CRASH_ARCH := $(shell uname -m | sed -e 's/x86_64/X86_64/' -e 's/aarch64/ARM64/')
PIC_LIB_OBJS := $(LIB_SRCS:%.c=$(O)/pic/%.o)
# The note is read from the vmlinux file crash was given (libelf).
PIC_INPUTS_OBJS := $(O)/pic/sidecar/inputs/elf_file.o \
		   $(O)/pic/sidecar/inputs/source.o
ifneq ($(wildcard $(CRASH_DEFS)),)
ifneq ($(SANITIZE),1)
all: $(CRASH_EXT)
tests: $(CRASH_EXT)
endif
endif

PIC_CFLAGS := -fPIC -fvisibility=hidden

# Rebuilt when this Makefile changes, as their flags may have.
$(O)/pic/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PIC_CFLAGS) -c -o $@ $<

$(CRASH_EXT): crash-extension/kallmodsyms.c $(PIC_INPUTS_OBJS) $(PIC_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PIC_CFLAGS) -D$(CRASH_ARCH) -shared $(ALL_LDFLAGS) -o $@ \
		$(filter %.c %.o,$^) -lelf -lzstd

-include $(PIC_LIB_OBJS:.o=.d) $(PIC_INPUTS_OBJS:.o=.d) $(CRASH_EXT:.so=.d)
