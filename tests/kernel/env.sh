# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by what builds or reads the cached test kernels (build.sh,
# kernels.sh, kernel-patches/check-each.sh, the fuzz seeds, the benchmarks,
# run-tests.sh's first line): where the cache is, where ccache keeps its
# objects, and make through ccache as the cached kernels are built.
#
# The kernel cache is one per machine by default, shared by every
# checkout: a checkout that applies another patch series re-patches the
# build directories in place (build.sh says so when the last patches
# came from another checkout).  To give a checkout its own, set
# KALLMODSYMS_CACHE, for instance KALLMODSYMS_CACHE=$PWD/../kms-cache-NAME
# for a git worktree.  ccache stays shared (KALLMODSYMS_CCACHE, default
# the machine's, whatever KALLMODSYMS_CACHE says): it hits where the same
# compile ran at the same path, so an own cache's first build of a kernel
# compiles it whole (its paths are new), and its later rebuilds hit.

# The cache root: KALLMODSYMS_CACHE, else XDG's cache directory.
kms_default_cache=${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/kallmodsyms
# shellcheck disable=SC2034 # for the scripts that source this
kms_cache=${KALLMODSYMS_CACHE:-$kms_default_cache}
# ccache's directory: KALLMODSYMS_CCACHE, else CCACHE_DIR, else the
# default cache root's (not $kms_cache's: one ccache for every checkout).
kms_ccache=${KALLMODSYMS_CCACHE:-${CCACHE_DIR:-$kms_default_cache/ccache}}

# kms_make ARGS...: make, its compilers through ccache ($kms_ccache) where
# ccache is installed and KMS_NO_CCACHE is unset, as kernel CI farms
# build: a change to the series recompiles only what it touches, and a
# tree at the same path hits for every unchanged file.
kms_make() {
	if kms_ccache_used; then
		PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$kms_ccache \
			CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G} make "$@"
	else
		make "$@"
	fi
}

# kms_ccache_used: whether kms_make compiles through ccache.
kms_ccache_used() {
	[ -z "${KMS_NO_CCACHE:-}" ] && [ -d /usr/lib/ccache ] &&
		command -v ccache > /dev/null
}
