# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced (after tests/lib.sh) by the tests of test kernels: which kernel
# this run gives the test (tests/run-tests.sh sets KMS_KERNEL,
# KMS_TOOLCHAIN and KMS_KERNEL_CONFIGS from the test's kms-test line),
# building or reusing it, and the toolchain's effect on listings.

# $tests_dir: tests/lib.sh's.
# shellcheck disable=SC2154

# need_kernel CONFIG: build (or reuse) the test kernel of that config into
# $kbuild, for Linux $KMS_KERNEL (6.12 by default); the test is skipped
# where that linux-source is not installed.  KMS_TOOLCHAIN=llvm (or
# thinlto) builds CONFIG-llvm.config instead, skipping where there is none;
# ${kmake_vars[@]} the make variables it was built with.  kernel_in_run CONFIG: whether this run
# builds that config (if not, why, on stdout), building nothing.
kernel_in_run() {
	local config=$1${KMS_TOOLCHAIN:+-$KMS_TOOLCHAIN}

	[ -f "${KERNEL_TARBALL:-/usr/src/linux-source-${KMS_KERNEL:-6.12}.tar.xz}" ] || {
		echo "linux-source-${KMS_KERNEL:-6.12} is not installed"
		return 1
	}
	# tests/run-tests.sh builds only some configs of the other versions
	# and toolchains.
	case " ${KMS_KERNEL_CONFIGS:-$1} " in
	*" $1 "*) ;;
	*)
		echo "Linux ${KMS_KERNEL:-6.12} $config: not built in this run (KMS_KERNEL_CONFIGS=$KMS_KERNEL_CONFIGS)"
		return 1
		;;
	esac
	[ -f "$tests_dir/kernel/configs/$config.config" ] || {
		echo "no $config config (KMS_TOOLCHAIN=$KMS_TOOLCHAIN)"
		return 1
	}
}

need_kernel() {
	local config=$1${KMS_TOOLCHAIN:+-$KMS_TOOLCHAIN}

	kernel_in_run "$1" || exit 77
	kbuild=$("$tests_dir/kernel/build.sh" "$config") || {
		fail "kernel build ($config)"
		exit 1
	}
	# The config's "#make VAR=VALUE" lines (LLVM=-16), for tests that
	# run make in the tree themselves.
	# shellcheck disable=SC2034 # for the tests that run make
	mapfile -t kmake_vars < <(sed -n 's/^#make[[:space:]]\+//p' \
		"$kbuild/../fragment.config")
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
