# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced (after tests/lib.sh) by the tests of test kernels: which kernel
# this run gives the test (tests/run-tests.sh sets KMS_KERNEL,
# KMS_TOOLCHAIN and KMS_KERNEL_CONFIGS from the test's kms-test line),
# building or reusing it, and the toolchain's effect on listings.

# $tests_dir: tests/lib.sh's.
# shellcheck disable=SC2154

# kms_cache, kms_make.
# shellcheck source=SCRIPTDIR/env.sh
. "$tests_dir/kernel/env.sh"

# fragment_serves BUILT WANTED: whether the kernel of fragment BUILT
# (tests/kernel/configs/BUILT.config) is a WANTED kernel too: it is WANTED,
# or it starts from WANTED's fragment ("#include"), as small-dwarf starts
# from small.  One build then serves the tests of both (CI's time).  A
# kernel without the option (small-nokms) or without the series
# (small-vanilla, "#series none") serves only its own tests: what the
# others test is not in it.
fragment_serves() {
	local inc

	[ "$1" = "$2" ] && return 0
	grep -qxE '#series none|# CONFIG_KALLMODSYMS is not set' \
		"$tests_dir/kernel/configs/$1.config" 2> /dev/null && return 1
	while read -r inc; do
		[ "$inc" != "$1" ] && fragment_serves "$inc" "$2" && return 0
	done < <(sed -n 's/^#include[[:space:]]\+\([^[:space:]]*\)\.config$/\1/p' \
		"$tests_dir/kernel/configs/$1.config" 2> /dev/null)
	return 1
}

# run_configs: the configs this run builds for Linux $KMS_KERNEL and
# $KMS_TOOLCHAIN, from $KMS_RUN_KERNELS (VERSION/TOOLCHAIN/CONFIG words,
# set by tests/run-tests.sh).
run_configs() {
	local k out=

	for k in ${KMS_RUN_KERNELS:-}; do
		case $k in
		"${KMS_KERNEL:-6.12}/${KMS_TOOLCHAIN:-gcc}/"*) out="$out ${k##*/}" ;;
		esac
	done
	echo "${out# }"
}

# serving_config WANTED: the config of this run that serves WANTED,
# WANTED itself first; false if none does.  A test run by hand (no
# $KMS_RUN_KERNELS) is served by WANTED itself.
serving_config() {
	local c suffix=${KMS_TOOLCHAIN:+-$KMS_TOOLCHAIN} configs

	[ -n "${KMS_RUN_KERNELS:-}" ] || { echo "$1"; return 0; }
	configs=$(run_configs)
	for c in $configs; do
		[ "$c" = "$1" ] && { echo "$c"; return 0; }
	done
	for c in $configs; do
		fragment_serves "$c$suffix" "$1$suffix" && { echo "$c"; return 0; }
	done
	return 1
}

# need_kernel CONFIG: build (or reuse) the test kernel of that config, or
# of this run's config that serves it, into $kbuild, for Linux $KMS_KERNEL
# (6.12 by default); the test is skipped where that linux-source is not
# installed.  KMS_TOOLCHAIN=llvm (or thinlto) builds CONFIG-llvm.config
# instead, skipping where there is none; ${kmake_vars[@]} the make
# variables it was built with.  kernel_in_run CONFIG: whether this run
# builds that config (if not, why, on stdout), building nothing.
kernel_in_run() {
	local config=$1${KMS_TOOLCHAIN:+-$KMS_TOOLCHAIN}

	[ -f "${KERNEL_TARBALL:-/usr/src/linux-source-${KMS_KERNEL:-6.12}.tar.xz}" ] || {
		echo "linux-source-${KMS_KERNEL:-6.12} is not installed"
		return 1
	}
	# tests/run-tests.sh builds only some configs of the other versions
	# and toolchains.
	serving_config "$1" > /dev/null || {
		echo "Linux ${KMS_KERNEL:-6.12} $config: not built in this run (KMS_RUN_KERNELS=$KMS_RUN_KERNELS)"
		return 1
	}
	[ -f "$tests_dir/kernel/configs/$config.config" ] || {
		echo "no $config config (KMS_TOOLCHAIN=$KMS_TOOLCHAIN)"
		return 1
	}
}

need_kernel() {
	local config=$1${KMS_TOOLCHAIN:+-$KMS_TOOLCHAIN}

	kernel_in_run "$1" || exit 77
	config=$(serving_config "$1")${KMS_TOOLCHAIN:+-$KMS_TOOLCHAIN}
	kbuild=$("$tests_dir/kernel/build.sh" "$config") || {
		fail "kernel build ($config)"
		exit 1
	}
	# For tests that run make in the tree themselves: the architecture
	# (as build.sh's "#arch") and the config's "#make VAR=VALUE" lines
	# (LLVM=-16).
	# shellcheck disable=SC2034 # for the tests that run make
	mapfile -t kmake_vars < <(
		if grep -qx 'CONFIG_ARM64=y' "$kbuild/.config"; then
			printf '%s\n' ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
		else
			echo ARCH=x86_64
		fi
		sed -n 's/^#make[[:space:]]\+//p' "$kbuild/../fragment.config")
	# The section classes kbuild (6.12's patch 0003) asks the generator for:
	# every class with CONFIG_KALLSYMS_ALL, text alone without.
	# ${kclasses[@]} goes on every generation the linked note is held to.
	# shellcheck disable=SC2034 # for the tests
	kclasses=()
	if grep -q '^CONFIG_KALLSYMS_ALL=y' "$kbuild/.config"; then
		# shellcheck disable=SC2034
		kclasses=(--all-classes)
	fi
}

# need_config OPTION...: skips the test (exit 77, one line) unless
# $kbuild's .config sets each CONFIG_OPTION=y.
need_config() {
	local c
	for c in "$@"; do
		grep -qx "CONFIG_$c=y" "$kbuild/.config" || { echo "$kbuild: no CONFIG_$c"; exit 77; }
	done
}

# as_built: expected lines of a listing (stdin) as this build has them;
# both sides of a check go through it.  Clang lays an object's functions
# out in another order than GCC: sorted.  ThinLTO also gives the functions
# nothing outside vmlinux.o references hidden visibility, which the final
# link makes local: kallsyms says "t" where GCC says "T".
as_built() {
	case ${KMS_TOOLCHAIN:-} in
	'') cat ;;
	thinlto) sed -E 's/^(([0-9a-f]+ )?)T /\1t /' | LC_ALL=C sort ;;
	*) LC_ALL=C sort ;;
	esac
}
