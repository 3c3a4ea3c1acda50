#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: with-proc.sh DIR CMD [ARG...]
#
# Runs CMD in a new mount namespace whose /proc is the real one except for
# kallsyms and kallmodsyms, which are DIR's files of those names (a name
# DIR lacks is absent), and whose /lib/modules/$(uname -r) has DIR's
# modules.builtin.ranges when DIR has one (over an overlay of /lib: the
# real /lib is not written).  Nothing is mounted, loaded or changed outside
# the namespace: it ends with CMD.  Needs root (or CAP_SYS_ADMIN) and
# unshare(1); exits with CMD's status, or 2 if the namespace cannot be made.
set -eu
dir=$(cd "$1" && pwd)
shift
[ "$(id -u)" = 0 ] || { echo "with-proc.sh: needs root for unshare -m" >&2; exit 2; }

# In the namespace: the real /proc is bound under DIR/.real-proc, a tmpfs
# goes over /proc, and every entry but the two files is a symlink to the
# real one (/proc/self included: it resolves in the real proc, to CMD).
# shellcheck disable=SC2016 # expanded by the inner shell
exec unshare -m --propagation private bash -c '
	set -e
	dir=$1
	shift
	real=$dir/.real-proc
	mkdir -p "$real"
	mount --bind /proc "$real"
	mount -t tmpfs -o mode=0555 kms-proc /proc
	for e in "$real"/*; do
		n=${e##*/}
		case $n in kallsyms|kallmodsyms) continue ;; esac
		ln -s "$e" "/proc/$n"
	done
	for n in kallsyms kallmodsyms; do
		[ ! -e "$dir/$n" ] || ln -s "$dir/$n" "/proc/$n"
	done
	if [ -e "$dir/modules.builtin.ranges" ]; then
		lib=$(readlink -f /lib)
		mkdir -p "$dir/.lib-upper" "$dir/.lib-work"
		mount -t overlay kms-lib -o "lowerdir=$lib,upperdir=$dir/.lib-upper,workdir=$dir/.lib-work" "$lib"
		mkdir -p "$lib/modules/$(uname -r)"
		cp "$dir/modules.builtin.ranges" "$lib/modules/$(uname -r)/"
	fi
	exec "$@"
' with-proc "$dir" "$@"
