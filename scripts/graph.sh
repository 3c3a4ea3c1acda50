# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# The cycles of a directed graph, for scripts/check-layers.sh (includes)
# and scripts/check-cycles.sh (calls), which source this file.
#
# graph_cycles NODE...: a depth-first walk, from each NODE not reached
# yet, over the associative array `edges` (node -> its successors,
# space-separated), which the caller fills in.  At each edge that closes
# a cycle it calls the caller's `on_cycle N1 N2 ... N1`: the nodes in
# order, the first again at the end.  Every cycle holds such an edge, so
# a graph with a cycle gets at least one call; cycles that share the
# edge are named by one of them.

graph_cycles() {
	local n

	declare -gA graph_state=()
	graph_path=()
	for n in "$@"; do
		[ -n "${graph_state[$n]:-}" ] || graph_walk "$n"
	done
}

# The walk from @1; graph_path holds the nodes open, in order.
graph_walk() {
	local n=$1 t

	graph_state[$n]=open
	graph_path+=("$n")
	# shellcheck disable=SC2154 # edges: the caller's
	for t in ${edges[$n]:-}; do
		case ${graph_state[$t]:-} in
		open) graph_closed_by "$t" ;;
		closed) ;;
		*) graph_walk "$t" ;;
		esac
	done
	unset 'graph_path[-1]'
	graph_state[$n]=closed
}

# An edge to @1, open: the cycle from @1 to the end of graph_path.
graph_closed_by() {
	local i

	for i in "${!graph_path[@]}"; do
		if [ "${graph_path[$i]}" = "$1" ]; then
			on_cycle "${graph_path[@]:$i}" "$1"
			return
		fi
	done
}
