#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 2: sockets at scale. N established TCP connections over loopback inside a network
# namespace this script creates (both ends in the namespace: 2N established sockets), spread
# over processes of at most 9,000 connections each (the per-process open-file hard limit here
# is 20,000; tests/helpers/nptraffic pairs raises its soft limit within it). Then, inside the
# namespace: `netpath doctor --interval 0 lo` against `ss -tin` over the same sockets, wall and
# CPU medians, and netpath's peak RSS. Every helper is killed and the namespace deleted on exit.
# Beside them, in another namespace with no TCP socket of its own: doctor again (the kernel's
# established hash is shared by all namespaces). NETPATH_BEFORE=BINARY adds its row there.
# Usage: sudo bench/sockets_scale.sh [COUNTS] [RUNS]   (default "0 10000 100000", 10 runs)
# Writes bench/results/sockets_scale.md (and .json per count).
set -eu
. "$(dirname "$0")/lib/common.sh"
counts=${1:-0 10000 100000}
runs=${2:-10}
bench_need_root
bench_need ss ip /usr/bin/time
# The tests' traffic helper, built with NETPATH's build (or set NPTRAFFIC).
bench_need_nptraffic

ns="npbench-sock-$$"
other="npbench-sock-other-$$"
tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	ip netns del "$ns" 2>/dev/null || true
	ip netns del "$other" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# established_count: established TCP sockets in the namespace, from the kernel's own summary.
established_count() {
	ip netns exec "$ns" ss -Htn state established | wc -l
}

out="$results_dir/sockets_scale"
table="$tmp/table.md"
: > "$table"
for n in $counts; do
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	pids=""
	t0=$(date +%s.%N)
	bench_connections "$ns" "$n" "$tmp/ready.$n"
	nproc_helpers=$bench_helpers
	setup_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
	est=$(established_count)
	echo "N=$n: $est established sockets in $nproc_helpers processes (setup ${setup_s} s)" >&2
	ip netns exec "$ns" $measure --runs "$runs" --warmup 2 --rss-runs 3 --baseline ss \
		--json "$out.$n.json" --markdown "$tmp/m.$n.md" \
		"ss=ss -tin" \
		"doctor=$NETPATH doctor --interval 0 lo" \
		"doctor-json=$NETPATH doctor --interval 0 --json lo" \
		"doctor-sockets=$NETPATH doctor --interval 0 --sockets 5 lo"
	# What netpath itself counted, to show it saw them all.
	seen=$(ip netns exec "$ns" "$NETPATH" doctor --interval 0 --json lo |
	       /usr/bin/python3 -c 'import json,sys; s=json.load(sys.stdin)["sockets"]; print(s["tcp"]["states"]["established"])' 2>/dev/null || echo "?")
	if [ "$n" -gt 0 ]; then
		ip netns add "$other"
		ip -n "$other" link set lo up
		ip netns exec "$other" $measure --runs "$runs" --warmup 2 --rss-runs 1 \
			--json "$out.$n.other.json" --markdown "$tmp/o.$n.md" \
			"doctor=$NETPATH doctor --interval 0 lo" \
			${NETPATH_BEFORE:+"before=$NETPATH_BEFORE doctor --interval 0 lo"}
		ip netns del "$other"
	fi
	{
		echo "### $n connections ($est established sockets, $nproc_helpers helper processes)"
		echo
		echo "netpath counted $seen established TCP sockets in the same namespace."
		echo
		cat "$tmp/m.$n.md"
		echo
		if [ -f "$tmp/o.$n.md" ]; then
			echo "Beside them, in another namespace with no TCP socket of its own:"
			echo
			cat "$tmp/o.$n.md"
			echo
		fi
	} >> "$table"
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	pids=""
	ip netns del "$ns"
done

{
	echo "# Benchmark 2: sockets at scale"
	echo
	echo "Produced by \`sudo bench/sockets_scale.sh \"$counts\" $runs\`."
	echo
	bench_machine
	echo "## Setup"
	echo
	echo "N TCP connections over 127.0.0.1 inside a fresh network namespace, both ends there"
	echo "(so 2N established sockets), made by \`tests/helpers/nptraffic pairs\` in"
	echo "processes of at most $bench_per_helper connections each (open-file hard limit 20,000 per"
	echo "process). Each command runs inside the namespace; \`ss -tin\` prints every socket"
	echo "with its tcp_info (output to /dev/null), netpath folds them into its socket summary."
	echo "\`doctor-sockets\` adds \`--sockets 5\`: the top sockets per problem with their owning"
	echo "process, which walks every process's /proc/PID/fd (bounded: 200,000 entries, 1 s)."
	echo "Targets: netpath no slower than \`ss -tin\`; peak RSS ≤ 16 MiB at 100,000."
	echo
	echo "## Results"
	echo
	cat "$table"
} > "$out.md"
cat "$out.md"
