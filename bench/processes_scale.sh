#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 12: doctor's cost against the number of processes on the host. For each N of
# COUNTS, N idle processes (`sleep`, started by this script, killed on every exit path) are
# added; doctor on IFACE runs interleaved with an empty C program; its system calls are counted
# with strace (they must not grow with N) and its CPU fitted against N by least squares.
# Usage: sudo bench/processes_scale.sh [IFACE] [COUNTS] [RUNS]
#        (default eth0, "0 1000 3000", 60 runs). Writes bench/results/processes_scale.md.
set -eu
. "$(dirname "$0")/lib/common.sh"
ifc=${1:-eth0}
counts=${2:-0 1000 3000}
runs=${3:-60}
bench_need_root
bench_need cc strace

tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
pids=""
cleanup() {
	# shellcheck disable=SC2086
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
cc -O2 -o "$tmp/empty" "$tmp/empty.c"

rows="$tmp/rows.tsv"
: > "$rows"
have=0
for n in $counts; do
	while [ "$have" -lt "$n" ]; do
		sleep 3600 &
		pids="$pids $!"
		have=$((have + 1))
	done
	procs=$(ls -d /proc/[0-9]* | wc -l)
	calls=$(strace -f -c -o "$tmp/strace.$n" "$NETPATH" doctor --interval 0 "$ifc" \
		>/dev/null 2>&1; awk '/^-+ -+/ { s++ } s == 2 && $NF == "total" { print $4 }' \
		"$tmp/strace.$n")
	$measure --runs "$runs" --warmup 5 --rss-runs 0 --json "$tmp/m.$n.json" \
		"empty=$tmp/empty" "doctor=$NETPATH doctor --interval 0 $ifc" 2>/dev/null
	/usr/bin/python3 - "$tmp/m.$n.json" "$n" "$procs" "$calls" >> "$rows" <<'EOF'
import json, sys
r = {x["name"]: x for x in json.load(open(sys.argv[1]))["results"]}
d, e = r["doctor"]["cpu"]["median"] * 1e3, r["empty"]["cpu"]["median"] * 1e3
print(f"{sys.argv[2]}\t{sys.argv[3]}\t{sys.argv[4]}\t{d:.2f}\t{e:.2f}")
EOF
done

{
	echo "# Benchmark 12: doctor against the number of processes"
	echo
	echo "Produced by \`sudo bench/processes_scale.sh $ifc \"$counts\" $runs\`."
	echo
	bench_machine
	echo "| idle processes added | processes on the host | doctor's system calls (strace -c) | doctor CPU ms | empty program CPU ms |"
	echo "|---|---|---|---|---|"
	awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$rows"
	echo
	/usr/bin/python3 - "$rows" <<'EOF'
import sys
rows = [l.split("\t") for l in open(sys.argv[1]) if l.strip()]
x = [float(r[1]) for r in rows]
for col, name, unit in ((2, "system calls", ""), (3, "doctor CPU", " ms"),
                        (4, "empty program CPU", " ms")):
    y = [float(r[col]) for r in rows]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sxx = sum((a - mx) ** 2 for a in x)
    b = sum((a - mx) * (c - my) for a, c in zip(x, y)) / sxx if sxx else 0.0
    print(f"- {name}: {my - b * mx:.2f}{unit} + {b * 1000:.4f}{unit} per 1,000 processes "
          "(least squares)")
EOF
	echo
	echo "netpath reads no per-process file: irqbalance is found through its systemd unit, its"
	echo "socket or its pid file (src/collect/collect_proc.c), so the system calls do not change"
	echo "with the process count; what CPU time still moves is the machine (compare the empty"
	echo "program's column)."
} > "$results_dir/processes_scale.md"
cat "$results_dir/processes_scale.md"
