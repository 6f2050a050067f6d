#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 4: how doctor's cost grows with machine size. Generates `--root` trees
# (bench/lib/gen_scale_tree.py) along two dimensions and measures
# `netpath doctor --root TREE --interval 0 ...` at each point: wall and CPU medians, peak RSS
# (/usr/bin/time %M) and callgrind's instruction count (deterministic).
#   CPUs: 16 ... 4096 CPUs, one interface (/proc/interrupts with up to 289 IRQ rows of one
#         column per CPU, softnet_stat rows, softirqs columns, CPU masks as wide as the machine);
#   interfaces: at IF_CPUS CPUs (default 4096), 1 ... 1000 interfaces (eth0 and veth peers),
#         for `doctor eth0` and for `doctor --all`.
# bench/lib/scale_report.py then fits each cost with least squares (cost = a + b x) per
# dimension and writes the markdown.
# Usage: bench/parsers_scale.sh [CPUS] [RUNS] [IFACES]
#   (default "16 64 256 1024 4096", 20 runs, "1 10 100 1000"; IF_CPUS=N for the interface points)
# Writes bench/results/parsers_scale.md and .json (or $RESULTS_NAME.*); no root needed.
set -eu
. "$(dirname "$0")/lib/common.sh"
cpu_list=${1:-16 64 256 1024 4096}
runs=${2:-20}
if_list=${3:-1 10 100 1000}
if_cpus=${IF_CPUS:-4096}
name=${RESULTS_NAME:-parsers_scale}
bench_need /usr/bin/time valgrind

tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
raw="$tmp/raw.jsonl"
: > "$raw"

# point DIM TREE_INFO LABEL ARGS...: one measured command over the tree in $tree.
point() {
	local dim=$1 info=$2 label=$3 ir ir_parse
	shift 3
	$measure --runs "$runs" --warmup 2 --rss-runs 3 --json "$tmp/m.json" \
		"doctor=$NETPATH doctor --root $tree --interval 0 $*" "empty=/bin/true" 2>/dev/null
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
		"$NETPATH" doctor --root "$tree" --interval 0 "$@" >/dev/null 2>"$tmp/cg.err" ||
		true	# exit 1 or 2: the generated machine has findings
	ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg.err")
	ir_parse=$(callgrind_annotate --inclusive=yes "$tmp/cg.out" 2>/dev/null |
		   awk '/:np_irq_parse_line \[/ { gsub(",", "", $1); print $1; exit }')
	/usr/bin/python3 - "$tmp/m.json" "$dim" "$label" "$info" "$ir" "${ir_parse:-0}" \
		>> "$raw" <<'PY'
import json, sys
m = {r["name"]: r for r in json.load(open(sys.argv[1]))["results"]}
row = dict(kv.split("=") for kv in sys.argv[4].split())
row = {k: int(v) for k, v in row.items()}
row.update(dim=sys.argv[2], cmd=sys.argv[3], ir=int(sys.argv[5]), ir_parse=int(sys.argv[6]),
           wall_ms=m["doctor"]["wall"]["median"] * 1e3, cpu_ms=m["doctor"]["cpu"]["median"] * 1e3,
           cpu_iqr_ms=[m["doctor"]["cpu"]["p25"] * 1e3, m["doctor"]["cpu"]["p75"] * 1e3],
           rss_kib=m["doctor"]["rss_kib"]["median"], empty_cpu_ms=m["empty"]["cpu"]["median"] * 1e3)
print(json.dumps(row))
PY
	rm -f "$tmp/cg.out"
}

for c in $cpu_list; do
	tree="$tmp/t$c"
	info=$(/usr/bin/python3 "$bench_dir/lib/gen_scale_tree.py" "$c" "$tree")
	point cpus "$info" "doctor eth0" eth0
	echo "$c CPUs done" >&2
	rm -rf "$tree"
done
for n in $if_list; do
	tree="$tmp/i$n"
	info=$(/usr/bin/python3 "$bench_dir/lib/gen_scale_tree.py" "$if_cpus" "$tree" "$n")
	point ifaces "$info" "doctor eth0" eth0
	point ifaces "$info" "doctor --all" --all
	echo "$n interfaces done" >&2
	rm -rf "$tree"
done

cp "$raw" "$results_dir/$name.json"
{
	echo "# Benchmark 4: doctor's cost vs machine size (CPUs, IRQ cells, interfaces)"
	echo
	echo "Produced by \`bench/parsers_scale.sh \"$cpu_list\" $runs \"$if_list\"\`" \
	     "(IF_CPUS=$if_cpus); raw numbers in \`$name.json\`."
	echo
	bench_machine
	/usr/bin/python3 "$bench_dir/lib/scale_report.py" "$raw" "$runs" "$results_dir/$name.md"
} > "$tmp/out.md"
mv "$tmp/out.md" "$results_dir/$name.md"
cat "$results_dir/$name.md"
