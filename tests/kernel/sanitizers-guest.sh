# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The stress part of tests/kernel/run-sanitizers.sh's guest script, run by
# busybox sh in the small-debug guest after the series' own tests, with
# $nprobes and $batch set before it.  Sections (qemu.sh's "@@@"): stress
# (the probes the kernel refused, with its reason; a line for any step
# that failed), counts ("added N" ...), kmemleak, dmesg, dmesg-raw.

# shellcheck disable=SC2154 # nprobes, batch: set by the lines before
t=/sys/kernel/tracing
d=/sys/kernel/debug
mountpoint -q $d || mount -t debugfs nodev $d
mountpoint -q $t || mount -t tracefs nodev $t
echo "@@@ stress"

# What to probe, one spec a line, in the notation of the guest's own
# listing: "MOD:SYM{OBJ}" (or "MOD:SYM" where the line names no object)
# for a function of one built-in module, "SYM{OBJ}" for one of core
# code.  Probe-able: ftrace lists the name among the functions it can
# trace (not notrace, not inlined everywhere, not in the init memory the
# kernel has freed) and the kprobe blacklist does not.  Each spec one
# that no other line of the listing answers to (a line answers to
# MOD:SYM and MOD:SYM{OBJ} for each of its modules, and to SYM{OBJ}).
# The fixture's first, then the others spread over the whole listing, in
# its order, about three modules' functions to one core function, half
# as many again as wanted (room for refusals); the built-in modules to
# /tmp/mods.
cut -f2 $d/kprobes/blacklist > /tmp/blacklist
cut -d' ' -f1 $t/available_filter_functions > /tmp/traceable
awk -F '\t' -v want="$nprobes" '
FILENAME == "/tmp/blacklist" { black[$1] = 1; next }
FILENAME == "/tmp/traceable" { traceable[$1] = 1; next }
{
	split($1, f, " ")
	if (f[2] != "t" && f[2] != "T" || (f[3] in black) ||
	    !(f[3] in traceable))
		next
	mod = ""; obj = ""; nmod = 0
	n = split($2, w, " ")
	for (i = 1; i <= n; i++) {
		if (w[i] ~ /^\[/) {
			nmod++
			mod = substr(w[i], 2, length(w[i]) - 2)
			mods[mod] = 1
			seen[mod ":" f[3]]++
			if (n > 1 && w[n] ~ /^\{/)
				seen[mod ":" f[3] w[n]]++
		} else if (w[i] ~ /^\{/) {
			obj = w[i]
			seen[f[3] obj]++
		}
	}
	if (nmod > 1 || mod == "" && obj == "")
		next
	spec = (mod != "" ? mod ":" : "") f[3] obj
	if (mod ~ /^kms_sample/)
		c = 0
	else if (mod != "")
		c = 1
	else
		c = 2
	kind[spec] = c
	order[++k] = spec
}
END {
	for (i = 1; i <= k; i++)
		if (seen[order[i]] == 1)
			count[kind[order[i]]]++
	step[1] = int(count[1] / (want * 9 / 8))
	step[2] = int(count[2] / (want * 3 / 8))
	for (i = 1; i <= k; i++) {
		s = order[i]
		c = kind[s]
		if (seen[s] != 1)
			continue
		if (c == 0)
			print s > "/tmp/specs.0"
		else if (step[c] < 1 || ++at[c] % step[c] == 0)
			print s > "/tmp/specs.1"
	}
	for (m in mods)
		print m > "/tmp/mods"
}' /tmp/blacklist /tmp/traceable /proc/kallmodsyms
cat /tmp/specs.0 /tmp/specs.1 > /tmp/specs
nmods=$(wc -l < /tmp/mods)

# 8 readers, each cat after cat, until the probes are done; at the
# lowest priority, so that the probes, not the readers, set the pace.
rm -f /tmp/stop
began=$(date +%s)
for i in 1 2 3 4 5 6 7 8; do
	sh -c '
		renice -n 19 -p $$ > /dev/null
		n=0
		while [ ! -e /tmp/stop ]; do
			cat /proc/kallmodsyms > /dev/null || echo "reader $1: cat failed"
			n=$((n + 1))
		done
		echo "$n" > /tmp/loops.$1' sh "$i" &
done

echo > $t/error_log
added=0 removed=0 refused=0 filters=0 inbatch=0 n=0 hits=0
: > /tmp/batch
# cycle: enable the batch's probes, run the fixture's kms_sample_c (its
# probes fire), trace the next built-in module's functions by ":mod:",
# then disable, clear and remove.
cycle() {
	echo 1 > $t/events/kms/enable || echo "enable: failed"
	echo one > /sys/module/kms_sample_c/parameters/run
	# (Before the tracer changes, which empties the ring buffer.)
	hits=$((hits + $(grep -c ' p[0-9]*: (' $t/trace)))
	m=$(sed -n "$((filters % nmods + 1))p" /tmp/mods)
	if echo ":mod:$m" > $t/set_ftrace_filter; then
		filters=$((filters + 1))
		echo function > $t/current_tracer || echo "tracer: function on :mod:$m failed"
		echo nop > $t/current_tracer
	else
		echo "filter: :mod:$m refused"
	fi
	echo > $t/set_ftrace_filter
	echo 0 > $t/events/kms/enable || echo "disable: failed"
	while read -r p; do
		if echo "-:kms/$p" >> $t/kprobe_events; then
			removed=$((removed + 1))
		else
			echo "remove: kms/$p failed"
		fi
	done < /tmp/batch
	: > /tmp/batch
	inbatch=0
}
while [ "$added" -lt "$nprobes" ] && read -r spec; do
	n=$((n + 1))
	if echo "p:kms/p$n $spec" >> $t/kprobe_events 2> /dev/null; then
		added=$((added + 1))
		inbatch=$((inbatch + 1))
		echo "p$n" >> /tmp/batch
	else
		refused=$((refused + 1))
		echo "refused: $spec: $(grep -F 'error:' $t/error_log | tail -n 1 |
			sed 's/^\[ *[0-9.]*\] //')"
		echo > $t/error_log
	fi
	[ "$inbatch" -lt "$batch" ] || cycle
done < /tmp/specs
[ "$inbatch" -eq 0 ] || cycle
touch /tmp/stop
wait
loops=0 readers=0 fewest=''
for i in 1 2 3 4 5 6 7 8; do
	[ -s /tmp/loops.$i ] || continue
	l=$(cat /tmp/loops.$i)
	readers=$((readers + 1))
	loops=$((loops + l))
	[ -n "$fewest" ] && [ "$fewest" -le "$l" ] || fewest=$l
done
echo "@@@ counts"
echo "specs $(wc -l < /tmp/specs)"
echo "modules $nmods"
echo "added $added"
echo "removed $removed"
echo "refused $refused"
echo "filters $filters"
echo "hits $hits"
echo "readers $readers"
echo "loops $loops"
echo "fewest $fewest"
echo "seconds $(($(date +%s) - began))"
echo "left $(wc -l < $t/kprobe_events)"

# Twice, as kmemleak reports an object only once it has been seen
# unreferenced for a while.
echo scan > $d/kmemleak
sleep 5
echo scan > $d/kmemleak
echo "@@@ kmemleak"
cat $d/kmemleak
echo "@@@ dmesg"
dmesg
echo "@@@ dmesg-raw"
dmesg -r
