#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 8: `doctor --all` against one run per interface. N veth pairs between two network
# namespaces this script creates (N interfaces up, with traffic, in the first one, where
# netpath looks), for each N of COUNTS: `netpath doctor --netns A --interval 0 --all` against a
# shell loop of N `netpath doctor --netns A --interval 0 vethI`, interleaved; then the fitted
# cost per interface of each. Both namespaces are deleted on every exit path.
# Usage: sudo bench/doctor_all_scale.sh [COUNTS] [RUNS]   (default "1 4 16", 40 runs)
# Writes bench/results/doctor_all_scale.md (and .N.json).
set -eu
. "$(dirname "$0")/lib/common.sh"
counts=${1:-1 4 16}
runs=${2:-40}
bench_need_root
bench_need ip

a="npbench-all-a-$$"
b="npbench-all-b-$$"
tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
cleanup() {
	ip netns del "$a" 2>/dev/null || true
	ip netns del "$b" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

out="$results_dir/doctor_all_scale"
rows="$tmp/rows.tsv"
: > "$rows"
for n in $counts; do
	ip netns add "$a"
	ip netns add "$b"
	loop="$tmp/loop.$n.sh"
	echo "# $n single runs, one per interface" > "$loop"
	for i in $(seq 1 "$n"); do
		ip link add "nb$i" netns "$a" type veth peer name "nbp$i" netns "$b"
		ip -n "$a" addr add "10.77.$i.1/24" dev "nb$i"
		ip -n "$b" addr add "10.77.$i.2/24" dev "nbp$i"
		ip -n "$a" link set "nb$i" up
		ip -n "$b" link set "nbp$i" up
		echo "$NETPATH doctor --netns $a --interval 0 nb$i" >> "$loop"
	done
	# --all judges interfaces that carried packets: one datagram each (ARP and UDP), through
	# bash's /dev/udp, between the two namespaces only.
	for i in $(seq 1 "$n"); do
		ip netns exec "$a" bash -c "echo x > /dev/udp/10.77.$i.2/9" 2>/dev/null || true
	done
	found=$("$NETPATH" doctor --netns "$a" --interval 0 --all --json 2>/dev/null |
		/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(1 for x in d["stack"] if x["parent"] is None))' 2>/dev/null || echo "?")
	$measure --runs "$runs" --warmup 3 --rss-runs 3 --json "$out.$n.json" \
		--markdown "$tmp/table.$n.md" --baseline "$n single runs" \
		"doctor --all=$NETPATH doctor --netns $a --interval 0 --all" \
		"$n single runs=sh $loop"
	/usr/bin/python3 - "$out.$n.json" "$n" "$found" >> "$rows" <<'EOF'
import json, sys
r = {x["name"]: x for x in json.load(open(sys.argv[1]))["results"]}
n = sys.argv[2]
a = r["doctor --all"]["cpu"]["median"] * 1e3
s = r[f"{n} single runs"]["cpu"]["median"] * 1e3
print(f"{n}\t{sys.argv[3]}\t{a:.2f}\t{s:.2f}\t{r['doctor --all']['rss_kib']['median'] / 1024:.1f}")
EOF
	ip netns del "$a"
	ip netns del "$b"
done

{
	echo "# Benchmark 8: doctor --all against one run per interface"
	echo
	echo "Produced by \`sudo bench/doctor_all_scale.sh \"$counts\" $runs\`."
	echo
	bench_machine
	echo "N veth pairs between two namespaces, N interfaces up with traffic where netpath"
	echo "looks. CPU = user + system, medians of $runs interleaved runs; the single runs are one"
	echo "shell loop (the shell's own cost, about one empty process, is included)."
	echo
	echo "| interfaces | judged by --all | --all CPU ms | N single runs CPU ms | single ÷ --all | --all peak RSS MiB |"
	echo "|---|---|---|---|---|---|"
	awk -F'\t' '{ printf "| %s | %s | %s | %s | %.2f× | %s |\n", $1, $2, $3, $4, $4 / $3, $5 }' "$rows"
	echo
	/usr/bin/python3 - "$rows" <<'EOF'
import sys
rows = [l.split("\t") for l in open(sys.argv[1]) if l.strip()]
x = [float(r[0]) for r in rows]
for col, name in ((2, "--all"), (3, "single runs")):
    y = [float(r[col]) for r in rows]
    if len(x) < 2:
        break
    mx, my = sum(x) / len(x), sum(y) / len(y)
    slope = sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)
    print(f"- {name}: CPU ≈ {my - slope * mx:.2f} ms + {slope:.2f} ms × interfaces "
          "(least squares)")
EOF
	echo
	for n in $counts; do
		echo "### $n interfaces"
		echo
		cat "$tmp/table.$n.md"
		echo
	done
} > "$out.md"
cat "$out.md"
