#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 13: `doctor --root SOSREPORT eth0` against the size of the sosreport's
# `ethtool -S eth0` output (issue #29: its parser was quadratic in the number of counters, and
# cubic in the repeats of one name). bench/lib/gen_sos_ethtool.py writes a sosreport-shaped tree
# (the sos 4.0 fixture) whose ethtool_-S_eth0 has LINES counters, every name distinct or one
# name repeated; each point is measured with bench/lib/measure.py (CPU medians), and the CPU
# per line shows whether the cost grows linearly.
#   NETPATH_BEFORE=OTHER/netpath adds the same points for another build, one run each, killed
#   after BEFORE_LIMIT seconds (default 60); a shape's larger sizes are skipped once it was.
# Usage: bench/sos_ethtool_scale.sh [LINES] [RUNS]   (default "1000 10000 100000 1000000", 5)
# Writes bench/results/sos_ethtool_scale.md and .json (or $RESULTS_NAME.*); no root needed.
set -eu
. "$(dirname "$0")/lib/common.sh"
sizes=${1:-1000 10000 100000 1000000}
runs=${2:-5}
name=${RESULTS_NAME:-sos_ethtool_scale}
before=${NETPATH_BEFORE:-}
limit=${BEFORE_LIMIT:-60}
bench_need timeout

tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
raw="$tmp/raw.jsonl"
: > "$raw"

# row SHAPE INFO BUILD M.JSON: one line of $raw from measure.py's output.
row() {
	/usr/bin/python3 - "$@" >> "$raw" <<'PY'
import json, sys
shape, info, build, mj = sys.argv[1:5]
r = json.load(open(mj))["results"][0]
row = {k: int(v) for k, v in (kv.split("=") for kv in info.split())}
row.update(shape=shape, build=build, cpu_ms=r["cpu"]["median"] * 1e3,
           wall_ms=r["wall"]["median"] * 1e3, minflt=r["minflt"]["median"],
           runs=len(r["exit_codes"]),
           killed=124 in r["exit_codes"],
           rss_kib=r["rss_kib"]["median"] if r.get("rss_kib") else None)
print(json.dumps(row))
PY
}

for shape in distinct repeated; do
	skip_before=
	for n in $sizes; do
		tree="$tmp/$shape$n"
		info=$(/usr/bin/python3 "$bench_dir/lib/gen_sos_ethtool.py" "$shape" "$n" "$tree")
		cmd="$NETPATH doctor --root $tree eth0"
		$measure --runs "$runs" --warmup 1 --rss-runs 1 --json "$tmp/m.json" \
			"after=$cmd" >/dev/null 2>&1
		row "$shape" "$info" after "$tmp/m.json"
		if [ -n "$before" ] && [ -z "$skip_before" ]; then
			$measure --runs 1 --warmup 0 --rss-runs 0 --json "$tmp/m.json" \
				"before=timeout $limit $before doctor --root $tree eth0" >/dev/null 2>&1
			row "$shape" "$info" before "$tmp/m.json"
			tail -1 "$raw" | grep -q '"killed": true' && skip_before=1
		fi
		echo "$shape $n done" >&2
		rm -rf "$tree"
	done
done

cp "$raw" "$results_dir/$name.json"
{
	echo "# Benchmark 13: doctor --root SOSREPORT vs the size of its ethtool -S output"
	echo
	echo "Produced by \`${before:+NETPATH_BEFORE=$before BEFORE_LIMIT=$limit }bench/sos_ethtool_scale.sh" \
	     "\"$sizes\" $runs\`; raw numbers in \`$name.json\`."
	echo
	bench_machine
	/usr/bin/python3 "$bench_dir/lib/sos_scale_report.py" "$raw" "$runs" "$limit"
} > "$tmp/out.md"
mv "$tmp/out.md" "$results_dir/$name.md"
cat "$results_dir/$name.md"
