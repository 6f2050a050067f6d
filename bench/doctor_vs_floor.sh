#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 11: doctor against its I/O floor. One `doctor --interval 0` run is recorded with
# strace; bench/floor/record.py turns the log into the operation table of bench/floor/floor.c,
# a program that makes the same opens, reads, directory reads, stats, netlink requests (byte for
# byte) and ioctls in the same order and nothing else. Then netpath, the floor and an empty C
# program run interleaved. Recorded afresh on every run, so the floor follows the collectors.
# Usage: sudo bench/doctor_vs_floor.sh [IFACE] [RUNS] [-- extra doctor arguments]
#        (default eth0, 200 runs). Writes bench/results/doctor_vs_floor.md (and .json);
#        RESULTS_NAME=other changes the name.
set -eu
. "$(dirname "$0")/lib/common.sh"
ifc=${1:-eth0}
runs=${2:-200}
shift $(( $# > 2 ? 2 : $# ))
[ "${1:-}" = -- ] && shift
extra="$*"
name=${RESULTS_NAME:-doctor_vs_floor}
bench_need_root
bench_need cc strace

tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
cc -O2 -o "$tmp/empty" "$tmp/empty.c"

cmd="$NETPATH doctor --interval 0 $extra $ifc"
# A warm-up run first, so that the recorded run sees the caches the measured ones will.
$cmd >/dev/null 2>&1 || true
strace -f -xx -s 1048576 -e write=all -o "$tmp/strace.log" $cmd >/dev/null 2>&1 || true
ops=$(/usr/bin/python3 "$bench_dir/floor/record.py" "$tmp/strace.log" "$tmp/floor_ops.h")
cc -O2 -Wall -Wextra -Werror -I"$tmp" -o "$tmp/floor" "$bench_dir/floor/floor.c"
floor_says=$("$tmp/floor" "$ifc" 2>&1 >/dev/null)
recorded_fail=$(grep -c '= -1 E' "$tmp/strace.log" || true)

out="$results_dir/$name"
$measure --runs "$runs" --warmup 10 --rss-runs 5 --json "$out.json" --markdown "$tmp/table.md" \
	--baseline floor \
	"empty C program=$tmp/empty" \
	"floor=$tmp/floor $ifc" \
	"floor + 100 fresh pages=$tmp/floor $ifc 100 0" \
	"floor + 10^6 loops=$tmp/floor $ifc 0 1000000" \
	"netpath=$cmd"

/usr/bin/python3 - "$out.json" > "$tmp/ratio.md" <<'EOF'
import json, sys
r = {x["name"]: x for x in json.load(open(sys.argv[1]))["results"]}
cpu = {k: v["cpu"]["median"] * 1e3 for k, v in r.items()}
e, f, n = cpu["empty C program"], cpu["floor"], cpu["netpath"]
print(f"- netpath ÷ floor, CPU: **{n / f:.2f}×** ({n:.2f} vs {f:.2f} ms; target ≤ 1.25×)")
print(f"- above an empty process: netpath {n - e:.2f} ms, floor {f - e:.2f} ms "
      f"({(n - e) / (f - e):.2f}×)")
flt = {k: v["minflt"]["median"] for k, v in r.items()}
print(f"- page faults (median): netpath {flt['netpath']:.0f}, floor {flt['floor']:.0f}, "
      f"empty {flt['empty C program']:.0f}")
# Calibration on this machine: the floor again, plus 100 fresh pages, or plus a million
# iterations of a dependent add (a few million instructions).
page = (cpu["floor + 100 fresh pages"] - f) / max(flt["floor + 100 fresh pages"] - flt["floor"], 1)
loops = cpu["floor + 10^6 loops"] - f
extra = flt["netpath"] - flt["floor"]
budget = 0.25 * f
print(f"- one page fault here: **{page * 1e3:.1f} µs** (the floor plus 100 fresh pages); "
      f"10^6 loop iterations: {loops:.2f} ms")
print(f"- netpath's {extra:.0f} page faults beyond the floor's are ~{extra * page:.2f} ms of "
      f"its {n - f:.2f} ms above the floor; the 1.25× target leaves {budget:.2f} ms above "
      f"it, {budget / page:.0f} page faults' worth with no work at all")
EOF

{
	echo "# Benchmark 11: doctor against its I/O floor"
	echo
	echo "Produced by \`sudo bench/doctor_vs_floor.sh $ifc $runs${extra:+ -- $extra}\`."
	echo
	bench_machine
	echo "## The floor"
	echo
	echo "Recorded from \`$cmd\` (strace, then bench/floor/record.py): $ops."
	echo "The recorded run had $recorded_fail failing calls (files this kernel or device does not"
	echo "have, probed on purpose); the replay says: \`$floor_says\`."
	echo "Ethtool ioctls are replayed as ETHTOOL_GDRVINFO: strace does not show the command"
	echo "inside the ifreq."
	echo
	echo "## Result"
	echo
	cat "$tmp/ratio.md"
	echo
	cat "$tmp/table.md"
} > "$out.md"
cat "$out.md"
