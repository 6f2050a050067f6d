#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 9: `netpath watch`'s CPU per frame at scale (#22: <= 50 ms at 200,000 sockets).
# N established TCP connections over loopback inside a namespace this script creates (2N
# sockets, made as in sockets_scale.sh), then inside it `watch lo --count F --interval 0.2`,
# interleaved: the default (adaptive full walk), --socket-walk-every 1 (a full walk every
# frame, the behaviour before), and, with NETPATH_BEFORE=OTHER/netpath, another build
# (NETPATH_BEFORE_LABEL describes it in the results). CPU per
# frame = the process's CPU (wait4: user + system, start-up and the walk before frame 1
# included) / F. At the largest N the same commands also run in a second, empty namespace: the
# kernel's established hash is shared, so a namespace with no sockets of its own pays for the
# other's walk. One extra --json run per case gives watch's own measure of a collection with
# and without the walk. Helpers are killed and namespaces deleted on every exit path.
# Usage: sudo bench/watch_frame_cost.sh [COUNTS] [RUNS] [FRAMES]  (default "0 10000 100000" 3 40)
# Writes bench/results/watch_frame_cost.md and .json.
set -eu
. "$(dirname "$0")/lib/common.sh"
counts=${1:-0 10000 100000}
runs=${2:-3}
frames=${3:-40}
bench_need_root
bench_need ip ss
bench_need_nptraffic

ns="npbench-watch-$$"
other="npbench-watch-other-$$"
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

out="$results_dir/watch_frame_cost"
w="watch lo --count $frames --interval 0.2"
# measure NS CASE: the interleaved runs of one case, then one --json run of the default.
measure_case() {
	local in=$1 case=$2
	local cmds=("adaptive=$NETPATH $w" "every-1=$NETPATH $w --socket-walk-every 1")
	[ -n "${NETPATH_BEFORE:-}" ] && cmds+=("before=$NETPATH_BEFORE $w")
	ip netns exec "$in" $measure --runs "$runs" --warmup 1 --rss-runs 1 \
		--json "$tmp/$case.json" "${cmds[@]}"
	ip netns exec "$in" "$NETPATH" $w --json > "$tmp/$case.frames.jsonl"
}

cases=""
for n in $counts; do
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	pids=""
	bench_connections "$ns" "$n" "$tmp/ready.$n" 1800
	est=$(ip netns exec "$ns" ss -Htn state established | wc -l)
	echo "N=$n: $est established sockets" >&2
	echo "$est" > "$tmp/est.$n"
	measure_case "$ns" "$n"
	cases="$cases $n"
	if [ "$n" = "$(echo $counts | awk '{ print $NF }')" ] && [ "$n" != 0 ]; then
		ip netns add "$other"
		ip -n "$other" link set lo up
		echo "$est" > "$tmp/est.other"
		measure_case "$other" other
		cases="$cases other"
		ip netns del "$other"
	fi
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	pids=""
	ip netns del "$ns"
done

# One table from the measurements and watch's own numbers.
/usr/bin/python3 - "$tmp" "$frames" "$out.json" $cases > "$tmp/table.md" <<'PY'
import json, statistics, sys
tmp, frames, out, cases = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
doc = {"frames": frames, "interval_s": 0.2, "cases": []}
print("| sockets (established) | namespace | command | CPU per frame (median, IQR) | wall per frame | "
      "frames: walked / listeners only, nothing else to walk / carried (--json run) | "
      "CPU of a collection: with the walk / without (watch's own) |")
print("|---|---|---|---|---|---|---|")
for case in cases:
    m = json.load(open(f"{tmp}/{case}.json"))
    est = open(f"{tmp}/est.{case}").read().strip()
    fr = [json.loads(l) for l in open(f"{tmp}/{case}.frames.jsonl")]
    walks = [d["socket_walk"] for d in fr if d.get("socket_walk")]
    full = sum(1 for x in walks if x["full"] and not x["only_listeners"])
    only = sum(1 for x in walks if x["only_listeners"])
    carried = sum(1 for x in walks if not x["full"])
    wcpu = [x["walk_cpu_ms"] for x in walks if x["walk_cpu_ms"] is not None]
    fcpu = [x["frame_cpu_ms"] for x in walks if x["frame_cpu_ms"] is not None]
    every = walks[-1]["every"] if walks else None
    c = {"case": case, "established": int(est), "walked_in_json_run": full,
         "only_listeners_in_json_run": only, "carried_in_json_run": carried,
         "every_last": every, "results": m["results"], "loadavg_end": m["loadavg_end"]}
    doc["cases"].append(c)
    where = "another (empty) one" if case == "other" else "the sockets' own"
    for r in m["results"]:
        cpu, k = r["cpu"], 1000 / frames
        own = "| |"
        if r["name"] == "adaptive":
            own = (f"| {full} / {only} / {carried} (N = {every}) | "
                   f"{statistics.median(wcpu):.1f} / "
                   + (f"{statistics.median(fcpu):.1f} ms |" if fcpu else "- |"))
        print(f"| {est} | {where} | {r['name']} | {cpu['median'] * k:.1f} ms "
              f"({cpu['p25'] * k:.1f}-{cpu['p75'] * k:.1f}) | "
              f"{r['wall']['median'] * k:.0f} ms {own}")
json.dump(doc, open(out, "w"), indent=1)
PY

{
	echo "# Benchmark 9: watch's CPU per frame at scale"
	echo
	echo "Produced by \`sudo bench/watch_frame_cost.sh \"$counts\" $runs $frames\`" \
		"${NETPATH_BEFORE:+with \`NETPATH_BEFORE=$NETPATH_BEFORE\`}" \
		"${NETPATH_BEFORE_LABEL:+($NETPATH_BEFORE_LABEL)}."
	echo
	bench_machine
	echo "## Setup"
	echo
	echo "N TCP connections over 127.0.0.1 in a fresh namespace, both ends there (2N established"
	echo "sockets), made by \`tests/helpers/nptraffic pairs\`. In it, \`netpath $w\`"
	echo "($frames frames 0.2 s apart) under \`bench/lib/measure.py\`, $runs interleaved runs after"
	echo "one warm-up: **adaptive** is the default (a full TCP walk every N frames, N from the measured"
	echo "costs), **every-1** is \`--socket-walk-every 1\` (a full walk every frame, as before),"
	echo "**before** (when present) the build named above. CPU per frame is the process's CPU"
	echo "(user + system, from wait4) over the frame count: start-up and the walk before frame 1 are"
	echo "included. *Wall per frame* above 200 ms means frames came late. The last two columns come"
	echo "from one more \`--json\` run of the default: of its $frames frames, how many walked every TCP"
	echo "socket, how many skipped the walk because the namespace had no TCP socket but listeners"
	echo "(\`only_listeners\`; this applies to every-1 as well), and how many carried the flows of an"
	echo "earlier walk (the walk before frame 1 is not counted); then watch's own CPU measure of a"
	echo "collection with and without the walk (medians over the frames)."
	echo "At the largest N the commands also ran in a second namespace holding no socket: the"
	echo "established hash is shared, so its walks visit the other namespace's sockets."
	echo "Target (#22): ≤ 50 ms CPU per frame at 200,000 sockets."
	echo
	echo "## Results"
	echo
	cat "$tmp/table.md"
} > "$out.md"
cat "$out.md"
