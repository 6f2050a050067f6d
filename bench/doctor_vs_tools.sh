#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 1: one `netpath doctor --interval 0` pass on IFACE against the command sequence it
# replaces (bench/lib/manual_sequence.sh: ethtool -i/-g/-l/-c/-k/-S, ip -s -s link, tc -s qdisc,
# nstat -az, ss -tmi, cat softnet_stat/interrupts/sockstat, sysctl of the keys netpath reads),
# and the cost of one monitoring run (--format prometheus -o FILE). Wall and CPU time medians
# over interleaved runs, and their ratios. Read-only except a temporary directory.
# Usage: sudo bench/doctor_vs_tools.sh [IFACE] [RUNS]     (default eth0, 100 runs)
# NETPATH_BEFORE=BINARY adds a row for another build (an earlier version, another link mode)
# in the same run, named by NETPATH_BEFORE_LABEL (default "doctor (before)").
# Writes bench/results/doctor_vs_tools.md (and .json).
set -eu
. "$(dirname "$0")/lib/common.sh"
ifc=${1:-eth0}
runs=${2:-100}
bench_need_root
bench_need ethtool ip tc nstat ss sysctl /usr/bin/time
[ -e "/sys/class/net/$ifc" ] || { echo "no interface $ifc" >&2; exit 1; }

tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# nstat keeps a history file; give it its own so the benchmark leaves none behind.
export NSTAT_HISTORY="$tmp/nstat.history"
# The sysctl keys netpath reads, straight from its collector, plus the interface's rp_filter.
keys=$(sed -n 's/^\t{ "\([a-z0-9_.]*\)", [A-Z]* },$/\1/p' "$repo_dir/src/collect/collect_sysctl.c" |
       tr '\n' ' ')
keys="$keys net.ipv4.conf.$ifc.rp_filter"
nkeys=$(echo $keys | wc -w)
seq_cmd="sh $bench_dir/lib/manual_sequence.sh $ifc $keys"

out="$results_dir/doctor_vs_tools"
$measure --runs "$runs" --warmup 5 --rss-runs 5 --baseline tools \
	--json "$out.json" --markdown "$tmp/table.md" \
	"tools=$seq_cmd" \
	"doctor=$NETPATH doctor --interval 0 $ifc" \
	"prometheus=$NETPATH doctor --interval 0 --format prometheus -o $tmp/x.prom $ifc" \
	"json=$NETPATH doctor --interval 0 --json $ifc" \
	${NETPATH_BEFORE:+"${NETPATH_BEFORE_LABEL:-doctor (before)}=$NETPATH_BEFORE doctor --interval 0 $ifc"}

{
	echo "# Benchmark 1: one doctor pass vs the command sequence it replaces"
	echo
	echo "Produced by \`sudo ${NETPATH_BEFORE:+NETPATH_BEFORE=$NETPATH_BEFORE NETPATH_BEFORE_LABEL='${NETPATH_BEFORE_LABEL:-doctor (before)}' }bench/doctor_vs_tools.sh $ifc $runs\`."
	echo
	bench_machine
	echo "## Results"
	echo
	cat "$tmp/table.md"
	echo
	echo "\`tools\` is \`bench/lib/manual_sequence.sh\` run by \`sh\`: 14 commands"
	echo "(ethtool ×6, ip, tc, nstat, ss, cat ×3, one sysctl over the $nkeys keys netpath reads);"
	echo "its output, like netpath's, goes to /dev/null. \`prometheus\` is the monitoring run"
	echo "(textfile collector: the report written atomically to a file)."
} > "$out.md"
cat "$out.md"
