#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kms-test: modes=plain kernels=6.12 configs=small serial
#
# The Debian package (debian/): build it from a copy of the checkout with
# dpkg-buildpackage, hold it to lintian, install it on this machine (dpkg
# -i: packages, never anything into the running kernel), use what it
# installed (the programs, the man pages, the Python decoder, the gdb,
# drgn and crash helpers where their users load them), and check the
# small test kernel's note, which its tree's own scripts/kallmodsyms
# wrote, with the installed kallmodsyms-gen: the two agree.  Then remove
# it (dpkg -r), leaving nothing behind.
# Needs root or password-less sudo; skipped where the package is
# installed already (it would be replaced and removed).  Serial: while
# the packages are installed, every other test's python3 would import
# the installed decoder; run-tests.sh runs it after the others, alone.
# shellcheck source=SCRIPTDIR/../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/kernels.sh
. "$tests_dir/kernel/kernels.sh"

sudo=
if [ "$(id -u)" != 0 ]; then
	if ! sudo -n true 2> /dev/null; then
		echo "needs root or password-less sudo: dpkg -i installs the package"
		exit 77
	fi
	sudo='sudo -n'
fi
for t in dpkg-buildpackage dh lintian dh_python3; do
	command -v "$t" > /dev/null || {
		echo "no $t: scripts/install-deps.sh installs dpkg-dev, debhelper, dh-python, lintian"
		exit 77
	}
done
pkgs=(kallmodsyms python3-kallmodsyms)
for p in "${pkgs[@]}"; do
	if dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2> /dev/null | grep -q '^.i'; then
		echo "$p is installed on this machine: this test would replace and remove it"
		exit 77
	fi
done

need_kernel small

# One such test at a time on the machine, whichever checkout or kernel
# cache it runs from: the installed files are the test's until it ends.
# (Read-only where it exists: another user's run may have made it.)
lock=/tmp/kallmodsyms-package-test.lock
{ exec 7< "$lock"; } 2> /dev/null || exec 7> "$lock"
flock 7

# dpkg_waiting ARGS...: dpkg ARGS (as root), its output on stdout, its
# status returned; while another process holds dpkg's lock (apt,
# unattended-upgrades: on a busy machine for minutes), tried again every
# 5 s for up to 600 s of wall-clock time.  dpkg refuses at once where
# apt-get waits (DPkg::Lock::Timeout); the lock is an fcntl() lock,
# which flock(1) neither takes nor waits for; and a dpkg that found it
# taken has changed nothing, so trying again is safe where checking
# first (fuser) would race.
dpkg_waiting() {
	local deadline=$((SECONDS + 600)) status
	while :; do
		status=0
		$sudo dpkg "$@" > "$tmp/dpkg.out" 2>&1 || status=$?
		[ "$status" != 0 ] && [ "$SECONDS" -lt "$deadline" ] &&
			grep -q ' was locked by another process' "$tmp/dpkg.out" || break
		sleep 5
	done
	cat "$tmp/dpkg.out"
	return "$status"
}

#
# Build, from a copy of the checkout without its builds, as a Debian
# builder would from the source package.
#
mkdir "$tmp/src"
tar -C "$top" --exclude=./build --exclude=./build-asan --exclude=./build-fuzz \
	--exclude=./.git --exclude=./python/kallmodsyms/constants.py -cf - . |
	tar -C "$tmp/src" -xf - || fail "copy the checkout"
phase() { echo "$1: $((SECONDS - start))s"; start=$SECONDS; }
start=$SECONDS
(cd "$tmp/src" && dpkg-buildpackage -us -uc -b) > "$tmp/dpkg-buildpackage.log" 2>&1 || {
	tail -n 30 "$tmp/dpkg-buildpackage.log" >&2
	fail "dpkg-buildpackage -us -uc -b"
	finish
}
phase dpkg-buildpackage
cd "$tmp" || exit 1
version=$(dpkg-parsechangelog -l src/debian/changelog -S Version)
arch=$(dpkg --print-architecture)
debs=("kallmodsyms_${version}_$arch.deb" "python3-kallmodsyms_${version}_all.deb")
changes=kallmodsyms_${version}_$arch.changes

# lintian: no error, no warning (debian/*.lintian-overrides says why each
# override is there).  It says on stderr that it runs as root.
testrun_empty sh -c "lintian --fail-on error,warning '$changes' 2> lintian.err
	s=\$?; grep -vx 'running with root privileges is not recommended!' lintian.err
	exit \$s"

phase lintian

# What each package holds, as it is installed: the programs and their
# pages (and, where crash is built, the crash extension where crash looks:
# checked below against crash itself), the decoder in dist-packages, the
# helpers in /usr/share/kallmodsyms.
crash_ext=/usr/lib/crash/extensions/kallmodsyms.so
case $arch in amd64|arm64) ;; *) crash_ext= ;; esac
testrun_compare sh -c "dpkg-deb -c '${debs[0]}' | awk '{ print \$6 }' | sed 's|^\\./|/|' |
	grep -v -e '/\$' -e '^$crash_ext\$' | LC_ALL=C sort" <<'EOF'
/usr/bin/kallmodsyms
/usr/bin/kallmodsyms-audit
/usr/bin/kallmodsyms-gen
/usr/share/doc/kallmodsyms/FORMAT.md.gz
/usr/share/doc/kallmodsyms/README.md.gz
/usr/share/doc/kallmodsyms/changelog.gz
/usr/share/doc/kallmodsyms/copyright
/usr/share/man/man1/kallmodsyms-audit.1.gz
/usr/share/man/man1/kallmodsyms-gen.1.gz
/usr/share/man/man1/kallmodsyms.1.gz
EOF
testrun_compare sh -c "dpkg-deb -c '${debs[1]}' | awk '{ print \$6 }' | sed 's|^\\./|/|' |
	grep -v '/\$' | LC_ALL=C sort" <<'EOF'
/usr/lib/python3/dist-packages/kallmodsyms/__init__.py
/usr/lib/python3/dist-packages/kallmodsyms/blob.py
/usr/lib/python3/dist-packages/kallmodsyms/constants.py
/usr/lib/python3/dist-packages/kallmodsyms/elf.py
/usr/lib/python3/dist-packages/kallmodsyms/errors.py
/usr/lib/python3/dist-packages/kallmodsyms/image.py
/usr/lib/python3/dist-packages/kallmodsyms/kallsyms.py
/usr/lib/python3/dist-packages/kallmodsyms/paths.py
/usr/lib/python3/dist-packages/kallmodsyms/symspec.py
/usr/lib/python3/dist-packages/kallmodsyms/vmcore.py
/usr/share/doc/python3-kallmodsyms/changelog.gz
/usr/share/doc/python3-kallmodsyms/copyright
/usr/share/kallmodsyms/drgn/README.md
/usr/share/kallmodsyms/drgn/kallmodsyms_drgn.py
/usr/share/kallmodsyms/gdb/README.md
/usr/share/kallmodsyms/gdb/autoload.sh
/usr/share/kallmodsyms/gdb/kallmodsyms-gdb.py
/usr/share/kallmodsyms/gdb/kallmodsyms_gdb/__init__.py
/usr/share/kallmodsyms/gdb/kallmodsyms_gdb/commands.py
/usr/share/kallmodsyms/gdb/kallmodsyms_gdb/target.py
/usr/share/lintian/overrides/python3-kallmodsyms
/usr/share/python3/runtime.d/python3-kallmodsyms.rtupdate
EOF

#
# Install; from here on, remove whatever happens.
#
at_exit "dpkg_waiting --purge ${pkgs[*]} > /dev/null"
dpkg_waiting -i "${debs[@]}" > dpkg-i.log || {
	cat dpkg-i.log >&2
	fail "dpkg -i"
	finish
}
phase "dpkg -i"
# The checkout's builds are on no PATH of this test: what the
# commands below find is the package's.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset KALLMODSYMS_GEN PYTHONPATH
testrun_compare sh -c 'for p in kallmodsyms-gen kallmodsyms kallmodsyms-audit; do
	command -v "$p"; done' <<'EOF'
/usr/bin/kallmodsyms-gen
/usr/bin/kallmodsyms
/usr/bin/kallmodsyms-audit
EOF
testrun_compare sh -c 'for p in kallmodsyms-gen kallmodsyms kallmodsyms-audit; do
	lexgrog "$(man -w "$p")" | sed "s|^[^:]*: ||"; done' <<'EOF'
"kallmodsyms-gen - write the kallmodsyms tables of a linked Linux kernel"
"kallmodsyms - tell kernel symbols apart by built-in module and object file"
"kallmodsyms-audit - list kernel source files that say MODULE_LICENSE() but are never modules"
EOF
# python3 finds the decoder; drgn's helper finds it there too.
testrun_compare python3 -c 'import kallmodsyms.blob; print(kallmodsyms.blob.__file__)' <<'EOF'
/usr/lib/python3/dist-packages/kallmodsyms/blob.py
EOF
if python3 -c 'import drgn' 2> /dev/null; then
	testrun_compare python3 -c 'import sys
sys.path.insert(0, "/usr/share/kallmodsyms/drgn")
import kallmodsyms_drgn
print(kallmodsyms_drgn.image.__file__)' <<'EOF'
/usr/lib/python3/dist-packages/kallmodsyms/image.py
EOF
fi
# crash's own search path for "extend kallmodsyms.so" has the directory.
if [ -n "$crash_ext" ] && command -v crash > /dev/null; then
	testrun_compare sh -c "strings -a \"\$(command -v crash)\" |
		grep -x '${crash_ext%/*}/'" <<EOF
${crash_ext%/*}/
EOF
	[ -f "$crash_ext" ] || fail "$crash_ext: not installed"
fi

#
# The cached small kernel, linked by its tree's own scripts/kallmodsyms:
# the installed generator takes its note as its own and writes the same
# tables.  Read where it is (the cache's lock held shared meanwhile, so
# that no build changes it).
#
exec 8< "$kbuild/../.lock"
flock -s 8
vmlinux=$kbuild/vmlinux
testrun_empty kallmodsyms-gen -q "${kclasses[@]}" --verify -b "$kbuild" "$vmlinux"
# Debian's build flags (hardening, _FORTIFY_SOURCE) change no output: the
# installed generator writes the checkout's tables, byte for byte.
kallmodsyms-gen -q "${kclasses[@]}" -b "$kbuild" -f sidecar -o installed.kms \
	"$vmlinux" || fail "the installed kallmodsyms-gen -f sidecar"
"$KMS_BUILD/kallmodsyms-gen" -q "${kclasses[@]}" -b "$kbuild" -f sidecar \
	-o checkout.kms "$vmlinux" || fail "the checkout's kallmodsyms-gen -f sidecar"
assert_same installed.kms checkout.kms "the installed and the checkout's generator"
testrun_compare sh -c "kallmodsyms find '$vmlinux' kms_sample_show | cut -f2-" <<'EOF'
[kms_sample_a]	sympos=1
[kms_sample_a] [kms_sample_b]	sympos=2
[kms_sample_b]	sympos=3
[kms_sample_c] {c_main.o}	sympos=4
[kms_sample_c] {one/util.o}	sympos=5
[kms_sample_c] {two/util.o}	sympos=6
[bool_notmod]	sympos=7
sympos=8
EOF
# The gdb helpers, sourced from where the package put them, read it
# (and nothing auto-loaded: a build with CONFIG_GDB_SCRIPTS has the
# kernel's vmlinux-gdb.py beside vmlinux, which gdb's safe path refuses
# with a warning).
if command -v gdb > /dev/null; then
	testrun_compare sh -c "gdb -batch -nx -iex 'set pagination off' \
		-iex 'set auto-load off' \
		-iex 'source /usr/share/kallmodsyms/gdb/kallmodsyms-gdb.py' \
		-ex 'lx-kallmodsyms --file -m kms_sample_c kms_sample_*' \
		'$vmlinux' | cut -d' ' -f2-" <<'EOF'
t kms_sample_show	[kms_sample_c] {c_main.o}
t kms_sample_show	[kms_sample_c] {one/util.o}
T kms_sample_util_one	[kms_sample_c] {one/util.o}
t kms_sample_show	[kms_sample_c] {two/util.o}
T kms_sample_util_two	[kms_sample_c] {two/util.o}
t kms_sample_c_init	[kms_sample_c] {c_main.o}
t kms_sample_c_exit	[kms_sample_c] {c_main.o}
EOF
fi

#
# Remove: every file the packages installed is gone, the byte-compiled
# caches with them, and dpkg knows neither package (they have no
# conffiles: nothing is left for --purge).
#
mapfile -t installed < <(dpkg -L "${pkgs[@]}" | sort -u)
remove_packages() (
	set -o pipefail
	dpkg_waiting -r "${pkgs[@]}" |
		sed -E -e 's/^\(Reading database ... [0-9]+ /(Reading database ... N /' \
			-e 's/ \([0-9][^)]*\) \.\.\.$/ (V) .../'
)
testrun_compare remove_packages <<'EOF'
(Reading database ... N files and directories currently installed.)
Removing kallmodsyms (V) ...
Removing python3-kallmodsyms (V) ...
Processing triggers for man-db (V) ...
EOF
testrun_compare sh -c "for p in ${pkgs[*]}; do
	dpkg-query -W -f '\${db:Status-Abbrev}\n' \$p 2> /dev/null || echo absent; done" <<'EOF'
absent
absent
EOF
for f in "${installed[@]}"; do
	case $f in
	# Directories other packages own too.
	/. | /usr | /usr/bin | /usr/lib | /usr/share | /usr/share/doc | \
	/usr/share/man | /usr/share/man/man1 | /usr/lib/python3 | \
	/usr/lib/python3/dist-packages | /usr/share/python3 | \
	/usr/share/python3/runtime.d | /usr/lib/crash | /usr/lib/crash/extensions | \
	/usr/share/lintian | /usr/share/lintian/overrides) ;;
	*) [ ! -e "$f" ] || fail "$f: left behind by dpkg -r" ;;
	esac
done
finish
