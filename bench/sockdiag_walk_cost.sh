#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 10: what the kernel's TCP walk costs by what a dump asks for (the choice behind
# watch's socket walk cadence, #22). N loopback connections in a namespace this script creates
# (2N sockets, as sockets_scale.sh makes them); bench/sockdiag_walk_cost.c, built here, dumps
# TCP/IPv4 in five ways, interleaved, inside that namespace and inside a second, empty one:
# every state with watch's extensions (tcp_info, congestion, socket memory), every state
# without extensions, LISTEN only, and every state with an inet_diag bytecode filter that
# rejects every socket or keeps one source port (1/12 of the sockets). CPU per dump
# (getrusage: user + system), medians. Helpers killed and namespaces deleted on every exit.
# Usage: sudo bench/sockdiag_walk_cost.sh [N] [RUNS]   (default 100000 7)
# Writes bench/results/sockdiag_walk_cost.md.
set -eu
. "$(dirname "$0")/lib/common.sh"
n=${1:-100000}
runs=${2:-7}
bench_need_root
bench_need ip ss cc
bench_need_nptraffic

ns="npbench-walk-$$"
other="npbench-walk-other-$$"
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

cc -O2 -Wall -Wextra -o "$tmp/swc" "$bench_dir/sockdiag_walk_cost.c" -lmnl
ip netns add "$ns"
ip netns add "$other"
ip -n "$ns" link set lo up
ip -n "$other" link set lo up
bench_connections "$ns" "$n" "$tmp/ready"
est=$(ip netns exec "$ns" ss -Htn state established | wc -l)
modes="full noext listen reject port"
for r in $(seq "$runs"); do
	for where in "$ns" "$other"; do
		for m in $modes; do
			ip netns exec "$where" "$tmp/swc" "$m" 1 2000 | sed "s/^/$([ "$where" = "$ns" ] && echo own || echo other) /"
		done
	done
done > "$tmp/raw"
{
	echo "# Benchmark 10: the kernel's TCP walk by what a dump asks for"
	echo
	echo "Produced by \`sudo bench/sockdiag_walk_cost.sh $n $runs\`."
	echo
	bench_machine
	echo "## Setup"
	echo
	echo "$n loopback connections ($est established sockets) in one namespace; one more"
	echo "namespace with no socket. One SOCK_DIAG_BY_FAMILY dump of TCP/IPv4 per run, the five"
	echo "kinds interleaved, $runs runs, in each namespace (\`bench/sockdiag_walk_cost.c\`)."
	echo
	echo "## Results: CPU per dump (median of $runs; user + system), replies"
	echo
	echo "| request | in the sockets' namespace | replies | in an empty namespace | replies |"
	echo "|---|---|---|---|---|"
	/usr/bin/python3 - "$tmp/raw" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    where, mode, ms, msgs = line.split()
    rows.setdefault(mode, {}).setdefault(where, []).append((float(ms), int(msgs)))
names = {"full": "every state, tcp_info + congestion + memory (watch's full walk)",
         "noext": "every state, no extension", "listen": "LISTEN only, memory (watch between walks)",
         "reject": "every state, bytecode rejecting every socket",
         "port": "every state, bytecode sport == 2000"}
for mode in ("full", "noext", "listen", "reject", "port"):
    r = rows[mode]
    cell = lambda w: (f"{statistics.median(x[0] for x in r[w]):.2f} ms | {r[w][0][1]}")
    print(f"| {names[mode]} | {cell('own')} | {cell('other')} |")
PY
} > "$results_dir/sockdiag_walk_cost.md"
cat "$results_dir/sockdiag_walk_cost.md"
