# SPDX-License-Identifier: GPL-2.0
#
# make            build the tools (warnings are errors in CI: WERROR=1)
# make check      run the test suite (tests/run-tests.sh)
# make bench      the benchmarks against peers (bench/run.sh)
# make fuzz       build the libFuzzer targets into build-fuzz/ and run each
#                 for FUZZ_SECONDS (default 60); tests/fuzz/README.md
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
ALL_CFLAGS := -std=gnu11 $(WARN) $(CFLAGS) $(SAN_FLAGS) \
	      -Isidecar/include -Isidecar/gen -I$(O)/gen -D_GNU_SOURCE \
	      -DKMS_VERSION_STRING='"$(VERSION)"' -MMD -MP
LDLIBS := -ldw -lelf -lzstd
ALL_LDFLAGS := $(LDFLAGS) $(SAN_FLAGS)

# The generator's core serves the generator and the inspector's verify.
GEN_MAIN_SRCS := sidecar/gen/main.c sidecar/gen/emit.c
LIB_SRCS := $(wildcard sidecar/lib/*.c sidecar/inputs/*.c) \
	    $(filter-out $(GEN_MAIN_SRCS),$(wildcard sidecar/gen/*.c))
GEN_SRCS := $(GEN_MAIN_SRCS)
TOOL_SRCS := $(wildcard tools/*.c)
AUDIT_SRCS := $(wildcard tools/audit/*.c)

LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
GEN_OBJS := $(GEN_SRCS:%.c=$(O)/%.o)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(O)/%.o)
AUDIT_OBJS := $(AUDIT_SRCS:%.c=$(O)/%.o)

PROGS := $(O)/kallmodsyms-gen $(O)/kallmodsyms $(O)/kallmodsyms-audit

all: $(PROGS)

$(O)/libkms.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

$(O)/kallmodsyms-gen: $(GEN_OBJS) $(O)/libkms.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/kallmodsyms: $(TOOL_OBJS) $(O)/libkms.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

$(O)/kallmodsyms-audit: $(AUDIT_OBJS) $(O)/libkms.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

# The modularity analysis carries its Makefile evaluator as a C string.
$(O)/gen/modularity_mk.h: sidecar/inputs/modularity.mk
	@mkdir -p $(dir $@)
	{ echo 'static const char kms_modularity_mk[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@.tmp && mv $@.tmp $@
$(O)/sidecar/inputs/modularity.o: $(O)/gen/modularity_mk.h

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

TEST_PROGS := $(O)/kms-mutate

$(O)/kms-mutate: $(O)/tests/unit/kms-mutate.o $(O)/libkms.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

tests: $(PROGS) $(TEST_PROGS)

# The suite runs the plain build, the sanitizer build and valgrind.
check: tests
	$(MAKE) SANITIZE=1 tests
	tests/run-tests.sh

# ...and the kernel tests on the ThinLTO kernel too (another build of
# about five minutes, not in CI's budget).
check-full: tests
	$(MAKE) SANITIZE=1 tests
	KMS_TOOLCHAINS="llvm thinlto" tests/run-tests.sh

# Every benchmark, one table of ratios against peers (bench/README.md).
bench: all
	bench/run.sh

## Fuzzing (clang-14 + libFuzzer): the library built with the fuzzer's
## instrumentation into build-fuzz/, one binary per tests/fuzz/fuzz_*.c.
FUZZ_O := build-fuzz
FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_PROGS := $(FUZZ_TARGETS:%=$(FUZZ_O)/fuzz-%)
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Isidecar/include -D_GNU_SOURCE
# The kernel's note parser, extracted from the patch series.
FUZZ_KERNEL := $(FUZZ_O)/kernel
FUZZ_PATCHES := $(wildcard kernel-patches/6.12/0002-*.patch \
			   kernel-patches/6.12/0005-*.patch)

fuzz-lib:
	$(MAKE) O=$(FUZZ_O) CC=$(FUZZ_CC) CFLAGS='-O1 -g' \
		SAN_FLAGS='-fsanitize=fuzzer-no-link $(FUZZ_SAN)' \
		$(FUZZ_O)/libkms.a

$(FUZZ_KERNEL)/kernel/kallmodsyms.c: $(FUZZ_PATCHES) tests/fuzz/extract-kernel.sh
	tests/fuzz/extract-kernel.sh kernel-patches/6.12 $(FUZZ_KERNEL)

FUZZ_KERNEL_PROGS := $(FUZZ_O)/fuzz-kernel_note $(FUZZ_O)/fuzz-kernel_image
$(FUZZ_KERNEL_PROGS): $(FUZZ_KERNEL)/kernel/kallmodsyms.c \
	tests/fuzz/fuzz_kernel_note.c \
	$(wildcard tests/fuzz/kshim/*.h tests/fuzz/kshim/*/*.h)
$(FUZZ_KERNEL_PROGS): FUZZ_CFLAGS += -Itests/fuzz/kshim \
	-I$(FUZZ_KERNEL)/include -I$(FUZZ_KERNEL)/kernel -Wno-unused-function

$(FUZZ_O)/fuzz-%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_file.h $(FUZZ_O)/libkms.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $< \
		$(FUZZ_O)/libkms.a $(LDLIBS)

fuzz-build:
	$(MAKE) fuzz-lib
	$(MAKE) $(FUZZ_PROGS)

fuzz: fuzz-build
	tests/fuzz/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

MANDIR ?= $(PREFIX)/share/man

GDBDIR ?= $(PREFIX)/share/kallmodsyms/gdb

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(GDBDIR)/kallmodsyms_gdb
	install -m 755 $(PROGS) $(DESTDIR)$(BINDIR)
	install -m 644 tools/kallmodsyms.1 $(DESTDIR)$(MANDIR)/man1
	install -m 644 gdb-scripts/kallmodsyms.py gdb-scripts/README.md \
		$(DESTDIR)$(GDBDIR)
	install -m 755 gdb-scripts/autoload.sh $(DESTDIR)$(GDBDIR)
	install -m 644 gdb-scripts/kallmodsyms_gdb/*.py \
		$(DESTDIR)$(GDBDIR)/kallmodsyms_gdb

clean:
	rm -rf build build-asan build-fuzz

.PHONY: all tests check check-full bench install clean fuzz fuzz-build fuzz-lib

-include $(LIB_OBJS:.o=.d) $(GEN_OBJS:.o=.d) $(TOOL_OBJS:.o=.d) \
	 $(AUDIT_OBJS:.o=.d) \
	 $(O)/tests/unit/kms-mutate.d
