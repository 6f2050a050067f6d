#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark (not a test): what watching costs. Delivered UDP datagrams per second on a veth
# flood between two namespaces, with nothing attached, with `netpath trace`, with
# `netpath trace --xdp`, and with `tcpdump -w /dev/null`; the median of RUNS interleaved runs
# each, and the run time of trace's BPF programs by the kernel's own accounting.
# Writes bench/results/trace_cost.md. Needs root.
#   NETPATH=build-bench/src/netpath bench/trace_cost.sh [RUNS] [SECONDS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
export NP_SRCDIR=${NP_SRCDIR:-$(dirname "$here")}
export NETPATH=${NETPATH:-$NP_SRCDIR/build-bench/src/netpath}
RUNS=${1:-5}
SECS=${2:-4}
. "$NP_SRCDIR/tests/integration/lib.sh"
np_require_root
[ "$(nproc)" -ge 2 ] || np_skip "needs two CPUs (sender and receiver pinned apart)"
np_pair snd rcv
out="$here/results/trace_cost.md"
# The flood and the sink are C (sendmmsg/recvmmsg): a Python reader capped the rate at ~140k/s,
# below what the receive path can do, and hid any per-packet cost.
blast=$NP_TMP/udp_blast
${CC:-cc} -O2 -Wall -Wextra -o "$blast" "$here/udp_blast.c" || np_fail "cannot build udp_blast"

# Rate of one run: the receiver drains for SECS+2 s, the sender floods for SECS s; the
# datagrams that reached the application, per second of flood.
one_run() {
	ip netns exec "$NS_B" taskset -c 1 "$blast" recv 198.18.0.2 9000 $((SECS + 2)) \
		> "$NP_TMP/drain" &
	local drain=$!
	sleep 0.5
	ip netns exec "$NS_A" taskset -c 0 "$blast" send 198.18.0.2 9000 "$SECS" 200 \
		> "$NP_TMP/sent"
	wait "$drain"
	python3 -c "import sys; print(int(sys.argv[1]) / float(sys.argv[3]), int(sys.argv[2]) / float(sys.argv[3]))" \
		"$(cat "$NP_TMP/drain")" "$(cat "$NP_TMP/sent")" "$SECS"
}

# One run with observer NAME (command in OBS[NAME], empty for none): start it in the receiving
# namespace, let it attach, flood, stop it. Appends "rate sent" to $NP_TMP/run.INDEX.
run_with() {
	local name=$1 log=$NP_TMP/run.$2 pid="" r
	if [ -n "${OBS[$name]}" ]; then
		# shellcheck disable=SC2086 # the observer's command line is words
		ip netns exec "$NS_B" ${OBS[$name]} > /dev/null 2> "$NP_TMP/obs.err" &
		pid=$!
		sleep 1.5
		if ! kill -0 "$pid" 2> /dev/null; then
			echo "$name: $(cat "$NP_TMP/obs.err")" >&2
			echo "failed" >> "$log"
			return
		fi
	fi
	r=$(one_run)
	echo "$r" >> "$log"
	if [ -n "$pid" ]; then
		kill -INT "$pid" 2> /dev/null
		wait "$pid" 2> /dev/null
	fi
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

load=$(cut -d' ' -f1-3 /proc/loadavg)
long=$((SECS + 10))
declare -A OBS
names=("no observer" "netpath trace")
OBS["no observer"]=""
OBS["netpath trace"]="$NETPATH trace vb --duration $long"
if "$NETPATH" trace --help | grep -q -- --xdp; then
	names+=("netpath trace --xdp (veth, native)")
	OBS["netpath trace --xdp (veth, native)"]="$NETPATH trace vb --xdp --duration $long"
fi
if command -v tcpdump > /dev/null; then
	names+=("tcpdump -w /dev/null")
	OBS["tcpdump -w /dev/null"]="tcpdump -i vb -n -w /dev/null"
fi
# Observers interleaved run by run (A B C D A B C D ...): a change of load on the machine
# touches all of them alike.
for i in $(seq "$RUNS"); do
	for j in "${!names[@]}"; do
		run_with "${names[$j]}" "$j"
	done
	echo "round $i of $RUNS done" >&2
done
base=$(awk '$1 != "failed" {print $1}' "$NP_TMP/run.0" | median)
: > "$NP_TMP/rows"
for j in "${!names[@]}"; do
	n=${names[$j]}
	if grep -q failed "$NP_TMP/run.$j"; then
		echo "| $n | refused or failed: $(cat "$NP_TMP/obs.err") | | | |" >> "$NP_TMP/rows"
		continue
	fi
	m=$(awk '{print $1}' "$NP_TMP/run.$j" | median)
	ms=$(awk '{print $2}' "$NP_TMP/run.$j" | median)
	printf '| %s | %.0f | %.0f | %+.1f%% | %s |\n' "$n" "$m" "$ms" \
		"$(awk -v m="$m" -v b="$base" 'BEGIN {print (b > 0 ? (m / b - 1) * 100 : 0)}')" \
		"$(awk '{printf "%.0f ", $1}' "$NP_TMP/run.$j")" >> "$NP_TMP/rows"
done

# The per-packet cost of trace's programs themselves, free of the run-to-run noise: the
# kernel's own accounting (kernel.bpf_stats_enabled, restored by lib.sh's EXIT trap too).
prog_cost() {
	local pid
	ip netns exec "$NS_B" "$NETPATH" trace vb --duration "$long" > /dev/null 2>&1 &
	pid=$!
	sleep 1.5
	one_run > "$NP_TMP/stats_run"
	bpftool --json prog show > "$NP_TMP/progs.json"
	kill -INT "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	python3 - "$NP_TMP/progs.json" "$(cut -d' ' -f1 "$NP_TMP/stats_run")" "$SECS" <<'PY'
import json, sys
progs = [p for p in json.load(open(sys.argv[1])) if p.get("name", "").startswith("np_")]
rate, secs = float(sys.argv[2]), float(sys.argv[3])
print(f"Flood of {secs:.0f} s at {rate:.0f} delivered/s; the sending CPU is saturated, so a")
print("program's time over the flood's duration is its share of the receive path's CPU.")
print()
print("| program | runs | ns per run | share of the flood's CPU time |")
print("|---|---|---|---|")
total = 0
for p in progs:
    n, t = p.get("run_cnt", 0), p.get("run_time_ns", 0)
    if n:
        total += t
        print(f"| {p['name']} | {n} | {t / n:.0f} | {t / (secs * 1e9) * 100:.2f}% |")
print(f"| all | | | {total / (secs * 1e9) * 100:.2f}% |")
PY
}
if command -v bpftool > /dev/null; then
	stats_old=$(sysctl -n kernel.bpf_stats_enabled)
	np_sysctl_set kernel.bpf_stats_enabled 1
	prog_cost > "$NP_TMP/costs"
	sysctl -qw kernel.bpf_stats_enabled="$stats_old"
else
	echo "(bpftool not installed)" > "$NP_TMP/costs"
fi
costs=$(cat "$NP_TMP/costs")

{
	echo "# Cost of watching: delivered UDP datagrams/s on a veth flood"
	echo
	echo "Generated by \`bench/trace_cost.sh $RUNS $SECS\` on $(date -u +%Y-%m-%d)."
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
	echo "- kernel: $(uname -r); $("$NETPATH" --version 2>/dev/null || echo "netpath (version n/a)")"
	echo "- flood: bench/udp_blast.c (200-byte datagrams, sendmmsg in batches of 64, pinned to"
	echo "  CPU 0) from one namespace over a veth pair to the same program receiving (recvmmsg,"
	echo "  pinned to CPU 1, SO_RCVBUF 4 MiB) for $SECS s; rate = datagrams the reader got / $SECS s."
	echo "  The observer runs in the receiving namespace and attaches 1.5 s before the flood."
	echo "  Median of $RUNS runs; every run listed; cost = 1 - median / median with no observer."
	echo
	echo "- load average before the runs: $load (a shared VM: other jobs ran meanwhile, hence"
	echo "  the spread between runs; compare medians, not single runs)"
	echo
	echo "| observer | delivered/s (median) | sent/s (median) | vs no observer | delivered/s, every run |"
	echo "|---|---|---|---|---|"
	cat "$NP_TMP/rows"
	echo
	echo "Per-packet cost of trace's BPF programs (kernel.bpf_stats_enabled during one more"
	echo "flood with \`netpath trace\`; run_time_ns / run_cnt, which itself adds two clock reads"
	echo "per run, so an upper bound)."
	echo
	echo "$costs"
	echo
	echo "How to read it: veth runs the receive path in the sender's context (netif_rx, then"
	echo "the backlog NAPI on the sending CPU), so the sending CPU is the bottleneck and any"
	echo "per-packet cost an observer adds lowers sent/s and delivered/s alike (the reader on"
	echo "the other CPU keeps up: delivered = sent). trace runs one small BPF program per"
	echo "received packet (net:netif_receive_skb; net:napi_gro_receive_entry too when the"
	echo "device uses NAPI, as veth does with XDP) and one per drop (skb:kfree_skb); --xdp adds"
	echo "the XDP counter and switches veth to NAPI mode, a different receive path; tcpdump"
	echo "copies every packet to an AF_PACKET ring and wakes a process. Run-to-run spread on"
	echo "this VM is about ±10%: the program costs above bound trace's share more tightly."
} > "$out"
cat "$out"
