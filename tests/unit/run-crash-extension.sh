#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain
#
# The crash extension loaded the way crash loads it (crash-load.c: dlopen
# RTLD_GLOBAL, then its constructor runs): it registers the kms command
# and puts none of its names in crash's namespace, where they could clash
# with crash's own or another extension's.  tests/kernel/run-vmcore.sh
# runs it in crash on a real dump.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"

ext=$KMS_BUILD/crash/kallmodsyms.so
[ -f "$ext" ] || { echo "no $ext (crash's defs.h is not installed)"; exit 77; }
cd "$tmp" || exit 1
cc -std=gnu11 -rdynamic -o crash-load "$tests_dir/unit/crash-load.c" -ldl ||
	fail "compile crash-load.c"

# The library's entry points, looked for after the load: none is there.
testrun_compare ./crash-load "$ext" kms_blob_decode kms_symbol_object \
	kms_tables_destroy kms_run kms_error_nomem <<'EOF'
registered kms
EOF
testrun_empty nm -D --defined-only "$ext"

finish
