#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `netpath watch` in pipes: --count N prints exactly N frames and exits 0, --json one valid
# JSON object per line, no --count runs until SIGTERM, --root is refused. As root, a veth in two
# namespaces with a UDP receiver that never reads: the flood started after frame 1 shows up as
# rates along the path, a finding marked new, and the socket that drops.
. "$(dirname "$0")/lib.sh"

"$NETPATH" watch --help > "$NP_TMP/help" 2>&1 ||
	np_fail "'netpath watch' is not a command of this binary: $(head -1 "$NP_TMP/help")"

# Two plain-text frames through a pipe, then exit 0, in about 2 x 0.3 s.
start=$(date +%s%N)
"$NETPATH" watch lo --count 2 --interval 0.3 | cat > "$NP_TMP/two.txt"
rc=${PIPESTATUS[0]}
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" -eq 0 ] || np_fail "watch --count 2 exited $rc"
[ "$took" -lt 5000 ] || np_fail "two frames of 0.3 s took $took ms"
[ "$(grep -c '^netpath watch lo  frame ' "$NP_TMP/two.txt")" -eq 2 ] ||
	np_fail "expected exactly 2 frames: $(cat "$NP_TMP/two.txt")"
grep -q '^netpath watch lo  frame 1  over 0\.[2-4][0-9] s  ' "$NP_TMP/two.txt" ||
	np_fail "frame 1 title"
grep -q '^netpath watch lo  frame 2  ' "$NP_TMP/two.txt" || np_fail "frame 2 title"
[ "$(grep -c '^stage      scope ' "$NP_TMP/two.txt")" -eq 2 ] || np_fail "stage table per frame"
[ "$(grep -c '^cpu  processed/s' "$NP_TMP/two.txt")" -eq 2 ] || np_fail "cpu table per frame"
grep -q '^findings: ' "$NP_TMP/two.txt" || np_fail "no findings line"
# No escape codes in a pipe: the screen is only for terminals.
if grep -q $'\033' "$NP_TMP/two.txt"; then np_fail "escape codes in piped output"; fi

# --json: two lines, each one object of schema netpath/watch version 1.
"$NETPATH" watch lo --count 2 --interval 0.3 --json | cat > "$NP_TMP/two.json"
[ "${PIPESTATUS[0]}" -eq 0 ] || np_fail "watch --json exited non-zero"
[ "$(wc -l < "$NP_TMP/two.json")" -eq 2 ] ||
	np_fail "expected 2 JSON lines: $(cat "$NP_TMP/two.json")"
np_validate "$NP_TMP/two.json"
"$NP_PY" - "$NP_TMP/two.json" "$(nproc)" <<'PY' || np_fail "JSON lines do not match the schema"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
order = ["link", "nic", "softnet", "ingress", "ip", "transport", "socket"]
for i, line in enumerate(lines, 1):
    d = json.loads(line)
    assert d["schema"] == "netpath/watch" and d["version"] == 1, d
    assert d["frame"] == i and d["interface"] == "lo", d
    assert 0.2 < d["interval_s"] < 0.6 and d["t"] > 0, d
    assert [s["stage"] for s in d["stages"]] == order, d["stages"]
    for key in ("cpus", "queues", "irqs", "findings"):
        assert isinstance(d[key], list), key
    assert len(d["cpus"]) == int(sys.argv[2]), d["cpus"]
    assert all(set(c) == {"cpu", "processed_per_s", "dropped_per_s", "squeezed_per_s",
                          "rps_per_s", "flow_limit_per_s"} for c in d["cpus"])
    # lo has no IRQ and no per-queue counters: empty, with the reason.
    assert d["irqs"] == [] and d["unavailable"]["irqs"], d
    assert d["queues"] == [] and d["unavailable"]["queues"], d
    assert all(f["new"] is False for f in d["findings"] if i == 1)
    assert all(set(f) == {"id", "stage", "severity", "new", "from_walk", "summary"}
               for f in d["findings"])
    # The cadence is adaptive here; whether this frame walked depends on the host's sockets
    # (the established hash is shared), but the first walk is measured and ages are honest.
    w = d["socket_walk"]
    assert w["adaptive"] and w["every"] >= 1 and w["walk_cpu_ms"] is not None, w
    assert (w["age_s"] == 0) == w["full"], w
PY

# Not a terminal and no --count: a frame per interval until SIGTERM, then exit 0.
np_bg "$NETPATH" watch lo --interval 0.2 > "$NP_TMP/run.txt"
pid=$NP_LAST_PID
# Three frames out (about 0.6 s unloaded), then SIGTERM.
np_wait_until "$NP_WAIT" "three frames of 'watch lo --interval 0.2'" \
	sh -c '[ "$(grep -c "^netpath watch lo  frame " "$1")" -ge 3 ]' - "$NP_TMP/run.txt"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || np_fail "watch without --count exited $rc on SIGTERM"
n=$(grep -c '^netpath watch lo  frame ' "$NP_TMP/run.txt")
[ "$n" -ge 3 ] || np_fail "only $n frames after SIGTERM, 3 were out before"
[ -z "$(tail -c 1 "$NP_TMP/run.txt")" ] || np_fail "output does not end with a whole line"

# Refusals: exit 3 with a one-line reason (JSON error object with --json).
"$NETPATH" watch lo --root / > /dev/null 2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "--root must be refused with exit 3"
grep -q "live system" "$NP_TMP/err" || np_fail "unclear --root message: $(cat "$NP_TMP/err")"
"$NETPATH" watch lo --root / --json > "$NP_TMP/err.json" 2> /dev/null
[ $? -eq 3 ] || np_fail "--root --json must exit 3"
np_validate "$NP_TMP/err.json"
np_assert_json "$NP_TMP/err.json" 'd["schema"] == "netpath/error" and d["exit_code"] == 3'
for bad in "--count 0" "--count 1.5" "--interval 0" "--interval x"; do
	# shellcheck disable=SC2086
	"$NETPATH" watch lo $bad > /dev/null 2>&1
	[ $? -eq 3 ] || np_fail "'watch lo $bad' must exit 3"
done
"$NETPATH" watch no-such-if0 --count 1 > /dev/null 2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "unknown interface must exit 3"
grep -q "no such interface" "$NP_TMP/err" || np_fail "unclear message: $(cat "$NP_TMP/err")"

[ "$(id -u)" -eq 0 ] || { echo "PASS (unprivileged part; the traffic part needs root)"; exit 0; }
np_require_root
np_pair snd rcv
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_bg ip netns exec "$NS_B" "$NETPATH" watch vb --count 6 --interval 1 --json > "$NP_TMP/live.json"
wpid=$NP_LAST_PID
# The flood starts only after frame 1 is out, so its findings must be marked new. It runs until
# stopped, so it covers frames 2 to 6 however long they take.
np_wait_until "$NP_WAIT" "watch's first frame" test -s "$NP_TMP/live.json"
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000
kill -0 "$wpid" 2> /dev/null ||
	np_fail "watch printed its 6 frames before the flood was ready (machine too loaded?)"
wait "$wpid"
[ $? -eq 0 ] || np_fail "watch in the namespace exited non-zero"
np_stop "$NP_LAST_PID"
np_validate "$NP_TMP/live.json"
"$NP_PY" - "$NP_TMP/live.json" <<'PY' || np_fail "the flood is not visible in the frames"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert len(frames) == 6, len(frames)
first, later = frames[0], frames[1:]
def stage(d, name):
    return next(s for s in d["stages"] if s["stage"] == name)
# Frame 1 was quiet on the socket stage.
assert not any(f["id"] == "socket.udp-rcvbuf" for f in first["findings"]), first["findings"]
assert any((stage(d, "link")["packets_per_s"] or 0) > 100 for d in later), "no link rate"
assert any((stage(d, "socket")["drops_per_s"] or 0) > 100 for d in later), "no socket drops"
# The receive-buffer finding turned on during the session: marked new.
hits = [f for d in later for f in d["findings"] if f["id"] == "socket.udp-rcvbuf"]
assert hits and all(f["new"] for f in hits), hits
assert any(f["severity"] in ("warning", "critical") for f in hits), hits
# The socket that drops, by its port, with a rate.
socks = [s for d in later for s in (d["sockets"] or [])]
assert any(s["local"] == "198.18.0.2:9000" and (s["drops_per_s"] or 0) > 0 for s in socks), \
    [d["sockets"] for d in later] + [d["unavailable"] for d in later]
PY

# An interface that goes away mid-watch: the frames so far, then exit 3 with the reason (a
# JSON error line in --json mode).
ip -n "$NS_B" link add vx type veth peer name vy || np_fail "veth vx"
ip -n "$NS_B" link set vx up
np_bg ip netns exec "$NS_B" "$NETPATH" watch vx --interval 0.3 --json > "$NP_TMP/gone.json" \
	2> "$NP_TMP/gone.err"
wpid=$NP_LAST_PID
# Gone once the first frame is out.
np_wait_until "$NP_WAIT" "watch vx's first frame" test -s "$NP_TMP/gone.json"
ip -n "$NS_B" link del vx
wait "$wpid"
rc=$?
[ "$rc" -eq 3 ] || np_fail "interface gone: exit $rc, expected 3"
grep -q "interface 'vx' disappeared" "$NP_TMP/gone.err" || np_fail "$(cat "$NP_TMP/gone.err")"
np_validate "$NP_TMP/gone.json"
"$NP_PY" - "$NP_TMP/gone.json" <<'PY' || np_fail "frames then an error line expected"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) >= 2 and all(d["schema"] == "netpath/watch" for d in lines[:-1]), lines
assert lines[-1]["schema"] == "netpath/error" and lines[-1]["exit_code"] == 3, lines[-1]
PY
echo "PASS"
