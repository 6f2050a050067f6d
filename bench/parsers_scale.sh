#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 3: how the parsers scale with machine size. Generates `--root` trees of machines
# with 16 ... 4096 CPUs (bench/lib/gen_scale_tree.py: /proc/interrupts with up to 289 IRQ rows
# of one column per CPU, softnet_stat rows, softirqs columns, CPU masks as wide as the machine)
# into a temporary directory and times `netpath doctor --root TREE --interval 0 eth0`: wall and
# CPU medians, peak RSS, and callgrind's instruction count (deterministic, for repeatability).
# Usage: bench/parsers_scale.sh [CPUS] [RUNS]   (default "16 64 256 1024 4096", 20 runs)
# Writes bench/results/parsers_scale.md (or $RESULTS_NAME.md); no root needed.
set -eu
. "$(dirname "$0")/lib/common.sh"
cpu_list=${1:-16 64 256 1024 4096}
runs=${2:-20}
name=${RESULTS_NAME:-parsers_scale}
bench_need /usr/bin/time valgrind

tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
rows="$tmp/rows.md"
: > "$rows"
for c in $cpu_list; do
	info=$(/usr/bin/python3 "$bench_dir/lib/gen_scale_tree.py" "$c" "$tmp/t$c")
	eval "$info"	# cpus= irq_rows= cells= interrupts_bytes= softnet_bytes=
	$measure --runs "$runs" --warmup 2 --rss-runs 3 --json "$tmp/m$c.json" \
		"doctor=$NETPATH doctor --root $tmp/t$c --interval 0 eth0" 2>/dev/null
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg$c.out" \
		"$NETPATH" doctor --root "$tmp/t$c" --interval 0 eth0 >/dev/null 2>"$tmp/cg$c.err" ||
		true	# exit 1 or 2: the generated machine has findings
	ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/cg$c.err")
	ir_parse=$(callgrind_annotate --inclusive=yes "$tmp/cg$c.out" 2>/dev/null |
		   awk '/:np_irq_parse_line \[/ { gsub(",", "", $1); print $1; exit }')
	/usr/bin/python3 - "$tmp/m$c.json" "$c" "$irq_rows" "$cells" "$interrupts_bytes" \
		"$softnet_bytes" "$ir" "${ir_parse:-0}" >> "$rows" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["results"][0]
c, rows, cells, ib, sb, ir, irp = (int(x) for x in sys.argv[2:9])
print(f"| {c} | {rows} | {cells:,} | {ib / 1024:,.0f} | {sb / 1024:,.0f} "
      f"| {m['wall']['median'] * 1e3:.2f} | {m['cpu']['median'] * 1e3:.2f} "
      f"| {m['rss_kib']['median'] / 1024:.1f} | {ir / 1e6:.1f} | {irp / 1e6:.1f} "
      f"| {irp / cells:.0f} |")
PY
	echo "$c CPUs done" >&2
	rm -rf "$tmp/t$c" "$tmp/cg$c.out"
done

{
	echo "# Benchmark 3: parser scale with machine size"
	echo
	echo "Produced by \`bench/parsers_scale.sh \"$cpu_list\" $runs\`."
	echo
	bench_machine
	echo "## Results"
	echo
	echo "\`netpath doctor --root TREE --interval 0 eth0\` over generated trees"
	echo "(bench/lib/gen_scale_tree.py); $runs runs each, medians; peak RSS from"
	echo "\`/usr/bin/time -f %M\`; Ir = instructions executed (callgrind, whole run, user space"
	echo "only: deterministic), of which the interrupts parser (np_irq_parse_line, inclusive); cells = per-CPU count cells of"
	echo "/proc/interrupts."
	echo
	echo "| CPUs | IRQ rows | interrupts cells | interrupts KiB | softnet_stat KiB | wall ms | CPU ms | peak RSS MiB | Ir (M) | Ir parse_interrupts (M) | parse Ir per cell |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	cat "$rows"
} > "$results_dir/$name.md"
cat "$results_dir/$name.md"
