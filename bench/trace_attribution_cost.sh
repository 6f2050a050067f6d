#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark (not a test): what trace's attribution costs. A C UDP flood over a veth pair between
# two namespaces, one datagram in EVERY sent to a port whose socket never reads (a known share
# dropped by the kernel, SOCKET_RCVBUFF); delivered datagrams per second with nothing attached,
# with `trace --top 0` (reasons only), `trace` (top flows per reason, the default), `trace
# --stack`, `trace --xdp --top 0` (the XDP counter per queue only) and `trace --xdp` (per
# queue and per source). Median of RUNS interleaved runs. Then, per observer, one more flood
# with kernel.bpf_stats_enabled=1 (restored on every exit path): each BPF program's run time
# and run count -> ns per invocation, and ns per dropped packet for the drop program.
# Writes bench/results/trace_attribution_cost.md. Needs root.
#   NETPATH=build/src/netpath bench/trace_attribution_cost.sh [RUNS] [SECONDS] [EVERY]
set -u
here=$(cd "$(dirname "$0")" && pwd)
export NP_SRCDIR=${NP_SRCDIR:-$(dirname "$here")}
export NETPATH=${NETPATH:-$NP_SRCDIR/build-bench/src/netpath}
RUNS=${1:-5}
SECS=${2:-4}
EVERY=${3:-4}
# lib.sh: namespaces (np_pair), $NP_TMP, and the EXIT trap (INT and TERM exit through it) that
# deletes the namespaces and restores every sysctl set with np_sysctl_set.
. "$NP_SRCDIR/tests/integration/lib.sh"
np_require_root
[ "$(nproc)" -ge 2 ] || np_skip "needs two CPUs (sender and receiver pinned apart)"
command -v bpftool > /dev/null || np_skip "needs bpftool (the programs' run time)"
np_pair snd rcv
out="$here/results/trace_attribution_cost.md"
blast=$NP_TMP/udp_blast
${CC:-cc} -O2 -Wall -Wextra -o "$blast" "$here/udp_blast.c" || np_fail "cannot build udp_blast"

# One flood: a holder on 9001 (never reads), the reader on 9000 draining for SECS+2 s, the
# sender for SECS s with every EVERY-th datagram to 9001. Prints "delivered/s sent/s".
one_run() {
	ip netns exec "$NS_B" "$blast" hold 198.18.0.2 9001 $((SECS + 3)) > /dev/null &
	local hold=$!
	ip netns exec "$NS_B" taskset -c 1 "$blast" recv 198.18.0.2 9000 $((SECS + 2)) \
		> "$NP_TMP/drain" &
	local drain=$!
	sleep 0.5
	ip netns exec "$NS_A" taskset -c 0 "$blast" send 198.18.0.2 9000 "$SECS" 200 9001 "$EVERY" \
		> "$NP_TMP/sent"
	wait "$drain"
	kill "$hold" 2> /dev/null
	wait "$hold" 2> /dev/null
	awk -v d="$(cat "$NP_TMP/drain")" -v s="$(cat "$NP_TMP/sent")" -v t="$SECS" \
		'BEGIN {print d / t, s / t}'
}

declare -A OBS
long=$((SECS + 10))
names=("no observer" "trace --top 0" "trace (top 5 flows)" "trace --stack"
       "trace --xdp --top 0" "trace --xdp (top 5 sources)")
OBS["no observer"]=""
OBS["trace --top 0"]="$NETPATH trace vb --top 0 --duration $long"
OBS["trace (top 5 flows)"]="$NETPATH trace vb --duration $long"
OBS["trace --stack"]="$NETPATH trace vb --stack --duration $long"
OBS["trace --xdp --top 0"]="$NETPATH trace vb --xdp --top 0 --duration $long"
OBS["trace --xdp (top 5 sources)"]="$NETPATH trace vb --xdp --duration $long"

# start_obs NAME JSONFILE: the observer in the receiving namespace, attached (1.5 s) before
# the flood; its pid in OBS_PID ("" for none).
start_obs() {
	OBS_PID=""
	[ -n "${OBS[$1]}" ] || return 0
	# shellcheck disable=SC2086 # the observer's command line is words
	ip netns exec "$NS_B" ${OBS[$1]} --json > "$2" 2> "$NP_TMP/obs.err" &
	OBS_PID=$!
	sleep 1.5
	kill -0 "$OBS_PID" 2> /dev/null || np_fail "$1: $(cat "$NP_TMP/obs.err")"
}
stop_obs() {
	[ -n "$OBS_PID" ] || return 0
	kill -INT "$OBS_PID" 2> /dev/null
	wait "$OBS_PID" 2> /dev/null
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# Interleaved, A B C ... A B C: a change of load on the machine touches all alike.
for i in $(seq "$RUNS"); do
	for j in "${!names[@]}"; do
		start_obs "${names[$j]}" /dev/null
		one_run >> "$NP_TMP/run.$j"
		stop_obs
	done
	echo "round $i of $RUNS done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# The programs' own cost: bpf_stats on (restored right after, and by the EXIT trap on any
# other way out), one flood per observer, its programs found by the observer's pid (other
# engineers' netpath runs may hold programs of the same names; this bpftool has no pids).
stats_old=$(sysctl -n kernel.bpf_stats_enabled)
np_sysctl_set kernel.bpf_stats_enabled 1
for j in "${!names[@]}"; do
	[ -n "${OBS[${names[$j]}]}" ] || continue
	start_obs "${names[$j]}" "$NP_TMP/stats.$j.json"
	one_run > "$NP_TMP/stats.$j.rate"
	bpftool --json prog show > "$NP_TMP/stats.$j.progs" 2> /dev/null
	# The observer's own programs: the prog_id of each BPF fd it holds (links and programs).
	grep -hs '^prog_id:' /proc/"$OBS_PID"/fdinfo/* | awk '{print $2}' | sort -u \
		> "$NP_TMP/stats.$j.ids"
	stop_obs
done
sysctl -q -w kernel.bpf_stats_enabled="$stats_old"

printf '%s\n' "${names[@]}" > "$NP_TMP/names"
"$NP_PY" - "$NP_TMP" "$RUNS" "$SECS" "$EVERY" > "$NP_TMP/tables" <<'PY'
import json, os, statistics, sys
tmp, runs, secs, every = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
names = open(f"{tmp}/names").read().splitlines()
rows = {}
for j, n in enumerate(names):
    vals = [tuple(map(float, l.split())) for l in open(f"{tmp}/run.{j}")]
    rows[n] = vals
base = statistics.median(d for d, _ in rows[names[0]])
print("| observer | delivered/s (median) | vs no observer | sent/s (median) | delivered/s, every run |")
print("|---|---|---|---|---|")
for n in names:
    d = statistics.median(v[0] for v in rows[n])
    s = statistics.median(v[1] for v in rows[n])
    every_run = " ".join(f"{v[0]:.0f}" for v in rows[n])
    print(f"| {n} | {d:,.0f} | {(d / base - 1) * 100:+.1f}% | {s:,.0f} | {every_run} |")
print()
print("| observer | program | runs | ns per run | run time / flood | drops counted | ns per counted drop |")
print("|---|---|---|---|---|---|---|")
for j, n in enumerate(names):
    if not os.path.exists(f"{tmp}/stats.{j}.progs"):
        continue
    ids = {int(x) for x in open(f"{tmp}/stats.{j}.ids").read().split()}
    progs = [p for p in json.load(open(f"{tmp}/stats.{j}.progs")) if p.get("id") in ids]
    try:
        doc = json.load(open(f"{tmp}/stats.{j}.json"))
        drops = sum(x["count"] for x in doc["drops"]) + doc.get("hidden_benign", 0)
    except (OSError, ValueError, KeyError):
        drops = 0
    if not progs:
        print(f"| {n} | (none of its programs found in /proc/PID/fdinfo) | | | | | |")
    for p in sorted(progs, key=lambda p: p["name"]):
        c, t = p.get("run_cnt", 0), p.get("run_time_ns", 0)
        per = f"{t / c:.0f}" if c else "-"
        is_drop = p["name"].startswith("np_drop")
        pd = f"{t / drops:.0f}" if is_drop and drops else ""
        print(f"| {n} | {p['name']} | {c:,} | {per} | {t / (secs * 1e9) * 100:.2f}% | "
              f"{drops if is_drop else ''} | {pd} |")
PY
tables=$(cat "$NP_TMP/tables")

{
	echo "# What trace's attribution costs: a veth UDP flood with a dropped share"
	echo
	echo "Generated by \`NETPATH=$NETPATH bench/trace_attribution_cost.sh $RUNS $SECS $EVERY\` on $(date -u +%Y-%m-%d)."
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); kernel $(uname -r)"
	echo "- $("$NETPATH" --version 2>/dev/null || echo "netpath (version n/a)")"
	echo "- load average before the runs: $load_before; after: $load_after. The VM is shared with"
	echo "  other engineers' builds and tests: rates move a lot between runs, so the runs are"
	echo "  interleaved and the medians compared; the BPF run times below do not depend on the load."
	echo "- flood: bench/udp_blast.c, 200-byte datagrams, sendmmsg in batches of 64 pinned to CPU 0,"
	echo "  for $SECS s, from one namespace over a veth pair; every $EVERY-th datagram goes to port"
	echo "  9001, whose socket (SO_RCVBUF minimum) is never read, so the kernel drops it"
	echo "  (SOCKET_RCVBUFF, in udp_queue_rcv_one_skb); the rest to port 9000, read by a recvmmsg"
	echo "  loop pinned to CPU 1. delivered/s = datagrams that reader got / $SECS s."
	echo "- observers run in the receiving namespace and attach 1.5 s before the flood."
	echo
	echo "## Delivered datagrams per second (median of $RUNS interleaved runs)"
	echo
	echo "$tables" | sed -n '1,/^$/p'
	echo "## The BPF programs' own run time (kernel.bpf_stats_enabled=1 during one more flood each)"
	echo
	echo "run_time_ns / run_cnt as the kernel accounts it (the accounting itself adds two clock"
	echo "reads per run). np_drop_* runs on every skb freed through kfree_skb anywhere on the"
	echo "machine and returns at once for other devices; \"ns per counted drop\" charges its whole"
	echo "run time to the drops it counted (an upper bound). np_xdp_count runs once per frame at"
	echo "the driver; np_rx_*/np_gro_* once per arriving packet."
	echo
	echo "$tables" | sed -n '/^$/,$p' | sed '1d'
} > "$out"
cat "$out"
