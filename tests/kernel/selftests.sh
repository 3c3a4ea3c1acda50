# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced (after kernels.sh and qemu.sh, once need_kernel has set $kbuild)
# by the tests that run the series' own tests in a guest,
# run-selftests.sh and run-sanitizers.sh: the part of the guest script
# that runs them, what the initramfs needs for it, and the checks of what
# the boot wrote.  The series' tests are the KUnit suites of patch 0008
# (6.1: 0006; built into the small kernel, run at boot, read with the
# tree's tools/testing/kunit/kunit.py parse), the kselftest of patch 0009
# (6.1: 0007; the tree's tools/testing/selftests/kallmodsyms/kallmodsyms.sh,
# run in the guest) and, where the series has the tracing patches (6.12),
# the tree's ftracetest on its probe event cases: 0014's
# kprobe_builtin_module.tc and fprobe_builtin_module.tc, which must pass,
# and the cases whose parse 0012 (kprobes) and 0013 (fprobes) touch, which
# must not fail.
#
# selftests_guest: that part of a guest script, on stdout; its sections
# are "kselftest", "ftracetest" and "ftracetest-others" (qemu.sh's "@@@").
# ${selftests_files[@]}: make_initramfs's arguments for it.
# check_kunit, check_parser_lines, check_kselftest, check_ftracetest OUT:
# the checks, on the sections of the boot's OUTDIR (the first two on its
# "dmesg" and "dmesg-raw"), in the working directory.

# $kbuild: need_kernel's; fail, testrun_compare: tests/lib.sh's.
# shellcheck disable=SC2154

selftests_src=$kbuild/source
ftrace_cases=(kprobe/kprobe_eventname kprobe/kprobe_syntax_errors
	kprobe/kprobe_non_uniq_symbol kprobe/uprobe_syntax_errors
	dynevent/add_remove_fprobe dynevent/fprobe_syntax_errors)
ftrace_others=$(printf 'test.d/%s.tc ' "${ftrace_cases[@]}")
ftrace_ours="test.d/kprobe/kprobe_builtin_module.tc test.d/dynevent/fprobe_builtin_module.tc"
selftests_files=("$selftests_src/tools/testing/selftests/kallmodsyms/kallmodsyms.sh")
ftrace=
if [ -f "$selftests_src/tools/testing/selftests/ftrace/test.d/kprobe/kprobe_builtin_module.tc" ]; then
	ftrace=1
	selftests_files+=("$selftests_src/tools/testing/selftests/ftrace=/ftrace")
fi

selftests_guest() {
	cat <<EOF
echo "@@@ kselftest"
sh /bin/kallmodsyms.sh
echo "exit \$?"
if [ -d /ftrace ]; then
	cd /ftrace
	echo "@@@ ftracetest"
	./ftracetest -K --fail-unsupported --fail-unresolved $ftrace_ours
	st=\$?
	echo "exit \$st"
	[ \$st -eq 0 ] || ./ftracetest -vvv $ftrace_ours 2>&1 | tail -n 80
	echo "@@@ ftracetest-others"
	./ftracetest -K $ftrace_others
	echo "exit \$?"
	cd /
fi
EOF
}

# KUnit: every case passed, by name.  (kunit.py changes to the tree's
# directory: the log's path must be absolute.)  The cases, one a line,
# in kunit.cases.
check_kunit() {
	python3 "$selftests_src/tools/testing/kunit/kunit.py" parse \
		"$(cd "$1" && pwd)/dmesg" > kunit ||
		fail "kunit.py parse: not every test passed"
	# (Suites run in another order on 6.1: compare the cases sorted.)
	sed -nE 's/^\[[0-9:]+\] (\[[A-Z]+\] .*)/\1/p' kunit | LC_ALL=C sort > kunit.cases
	# The name lookups (patch 0010, and the fixture's case) are 6.12's.
	{
		cat
		[ "${KMS_KERNEL:-6.12}" = 6.1 ] ||
			printf '[PASSED] %s\n' kallmod_name_test kallmod_path_test \
				kallmod_fixture_name_test
	} <<'EOF' | LC_ALL=C sort > kunit.expected
[PASSED] another version
[PASSED] array outside the image
[PASSED] arrays overlap
[PASSED] bad header size
[PASSED] bad magic
[PASSED] empty module list
[PASSED] frame byte changed
[PASSED] image size not the frame's
[PASSED] init paths before the paths' end
[PASSED] init paths image too short
[PASSED] init paths not a frame
[PASSED] init paths past the descriptor
[PASSED] kallmod_lookup_test
[PASSED] kallmod_kept_test
[PASSED] kallmod_type_test
[PASSED] no damage
[PASSED] not zstd
[PASSED] object name past the strings
[PASSED] padding not zero
[PASSED] path with a space
[PASSED] paths image size not the frame's
[PASSED] payload one byte short
[PASSED] payload past the descriptor
[PASSED] piece start repeated
[PASSED] range start repeated
[PASSED] string not printable
[PASSED] strings not NUL-terminated
[PASSED] unknown section class
EOF
	testrun_compare cat kunit.cases < kunit.expected
}

# Each damaged copy was refused (KUnit checked the reason the parser
# recorded), with the parser's one line, which says it is a KUnit test's
# (not "disabled:", which would read as if the feature had failed), at
# info level: a log scanned for errors finds none of them.  The kernel's
# own note, once, at boot, was not refused, and its summary is a debug
# line: nothing else of the parser's is in the log.
check_parser_lines() {
	sed -nE 's/^(\[ *[0-9.]+\] )?(kallmodsyms: .*)/\2/p' "$1/dmesg" |
		sed -E 's/offset [0-9]+, [0-9]+ bytes/offset N, M bytes/' > parser.lines
	testrun_compare cat parser.lines <<'EOF'
kallmodsyms: KUnit test refused a damaged copy: bad note header
kallmodsyms: KUnit test refused a damaged copy: format version 6, this kernel reads version 5
kallmodsyms: KUnit test refused a damaged copy: bad note header
kallmodsyms: KUnit test refused a damaged copy: bad note header
kallmodsyms: KUnit test refused a damaged copy: bad note header
kallmodsyms: KUnit test refused a damaged copy: bad note header
kallmodsyms: KUnit test refused a damaged copy: payload is not one zstd frame of the image size with a checksum
kallmodsyms: KUnit test refused a damaged copy: payload is not one zstd frame of the image size with a checksum
kallmodsyms: KUnit test refused a damaged copy: zstd frame does not decompress
kallmodsyms: KUnit test refused a damaged copy: bad note header
kallmodsyms: KUnit test refused a damaged copy: section 0 has unknown class 8
kallmodsyms: KUnit test refused a damaged copy: string table is not NUL-terminated
kallmodsyms: KUnit test refused a damaged copy: string table byte 0 is not printable
kallmodsyms: KUnit test refused a damaged copy: objects (offset N, M bytes) lie outside the image
kallmodsyms: KUnit test refused a damaged copy: tables overlap
kallmodsyms: KUnit test refused a damaged copy: module list at word 0 is malformed
kallmodsyms: KUnit test refused a damaged copy: object 0 is malformed
kallmodsyms: KUnit test refused a damaged copy: range 1 is malformed
kallmodsyms: KUnit test refused a damaged copy: paths are not one zstd frame of their size with a checksum
kallmodsyms: KUnit test refused a damaged copy: piece 1 of the paths image is malformed
kallmodsyms: KUnit test refused a damaged copy: the paths image's arrays or strings are malformed
kallmodsyms: KUnit test refused a damaged copy: init paths are not one zstd frame of 12 bytes to 64 MiB with a checksum
kallmodsyms: KUnit test refused a damaged copy: init paths are not one zstd frame of 12 bytes to 64 MiB with a checksum
kallmodsyms: KUnit test refused a damaged copy: the init paths image starts before the paths image's end
EOF
	# Their level, from the raw log ("<LEVEL>[time] text"): 6, KERN_INFO.
	sed -nE 's/^<([0-9]+)>(\[ *[0-9.]+\] )?kallmodsyms: .*/\1/p' "$1/dmesg-raw" |
		sort | uniq -c | sed 's/^ *//' > parser.levels
	testrun_compare cat parser.levels <<'EOF'
24 6
EOF
}

# kselftest: every test ran and passed (the count of annotated lines is
# the kernel's).
check_kselftest() {
	sed -E 's/\([0-9]+ lines annotated\)/(N lines annotated)/' "$1/kselftest" \
		> kselftest
	testrun_compare cat kselftest <<'EOF'
TAP version 13
1..4
ok 1 as many lines as /proc/kallsyms
ok 2 each line is its /proc/kallsyms line, or that line annotated
ok 3 annotations are well-formed (N lines annotated)
ok 4 unprivileged: addresses as in /proc/kallsyms, the rest as root's
exit 0
EOF
}

# ftracetest: the new cases passed; the others passed or were not
# supported by the small config, none failed.
check_ftracetest() {
	[ -n "$ftrace" ] || return 0
	grep -E '^(not )?ok ' "$1/ftracetest" > ftracetest
	testrun_compare cat ftracetest <<'EOF'
ok 1 Kprobe event on functions of built-in modules, MOD:SYM{OBJ}
ok 2 Fprobe event on functions of built-in modules, MOD:SYM{OBJ}
EOF
	grep -qx 'exit 0' "$1/ftracetest" ||
		{ cat "$1/ftracetest"; fail "ftracetest: exit status"; }
	grep -E '^not ok ' "$1/ftracetest-others" | grep -v '# SKIP' &&
		fail "ftracetest: a probe event case failed"
	[ "$(grep -cE '^(not )?ok ' "$1/ftracetest-others")" -eq \
		${#ftrace_cases[@]} ] ||
		fail "ftracetest: not every probe event case ran"
}
