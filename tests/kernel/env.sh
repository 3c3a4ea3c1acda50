# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by what builds or reads the cached test kernels (build.sh,
# kernels.sh, kernel-patches/check-each.sh, the fuzz seeds, the benchmarks):
# where the cache is, and make through ccache as the cached kernels are
# built.

# The cache root: KALLMODSYMS_CACHE, else XDG's cache directory.
kms_cache=${KALLMODSYMS_CACHE:-${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/kallmodsyms}

# kms_make ARGS...: make, its compilers through ccache (CCACHE_DIR under the
# cache root) where ccache is installed and KMS_NO_CCACHE is unset, as
# kernel CI farms build: a change to the series recompiles only what it
# touches, and a tree at the same path hits for every unchanged file.
kms_make() {
	if [ -z "${KMS_NO_CCACHE:-}" ] && [ -d /usr/lib/ccache ] &&
		command -v ccache > /dev/null; then
		PATH=/usr/lib/ccache:$PATH \
			CCACHE_DIR=${CCACHE_DIR:-$kms_cache/ccache} \
			CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G} make "$@"
	else
		make "$@"
	fi
}
