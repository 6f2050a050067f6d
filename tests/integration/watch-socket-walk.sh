#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# watch's full TCP socket walk every N frames (#22), in two namespaces joined by a veth: a TCP
# flow held back by a 32 KiB SO_RCVBUF and a UDP socket that drops. With --socket-walk-every 3
# frames 3 and 6 walk every socket; the frames between ask the kernel for listeners and UDP only,
# yet still report the flow (marked as the last walk's, with its age) and the UDP drops as they
# happen. The default cadence is adaptive and said on the screen. Before the flow starts, the
# namespace holds only listeners: no frame walks then.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv
np_traffic "$NS_B" sink tcp-sink 198.18.0.2 5001 --rcvbuf 16384
np_traffic "$NS_B" usink udp-sink 198.18.0.2 9000 --rcvbuf 4096

# Nothing but a listener (and UDP) in the namespace: after the first walk found no other TCP
# socket, the frames ask for listeners only and sockstat confirms there is nothing else, so no
# frame walks the established hash (shared with the host) again.
ip netns exec "$NS_B" "$NETPATH" watch vb --count 3 --interval 0.3 --json > "$NP_TMP/lis.json" ||
	np_fail "watch exited non-zero"
np_validate "$NP_TMP/lis.json"
"$NP_PY" - "$NP_TMP/lis.json" <<'PY' || np_fail "a namespace of listeners still walks"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert len(frames) == 3, frames
for d in frames:
    w = d["socket_walk"]
    assert w["only_listeners"] and w["full"] and w["age_s"] == 0, w
    assert not any(f["from_walk"] for f in d["findings"]), d["findings"]
PY
# Wide enough for the line whole (the wrapping is docs/width.sh's).
COLUMNS=200 ip netns exec "$NS_B" "$NETPATH" watch vb --count 1 --interval 0.3 > "$NP_TMP/lis.txt"
grep -q '^  no TCP socket here but listeners (sockstat): no full TCP walk needed; listeners and UDP every frame$' "$NP_TMP/lis.txt" ||
	np_fail "no line for the skipped walk: $(cat "$NP_TMP/lis.txt")"

np_traffic "$NS_A" send tcp-send 198.18.0.2 5001
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000
# The flow is judged on what it moved: several buffers' worth (socket_fold.c).
np_wait_until "$NP_WAIT" "the TCP flow to move 1 MiB" sh -c \
	'ip netns exec "$1" ss -Htni sport = :5001 | grep -Eq "bytes_received:[0-9]{7,}"' - "$NS_B"

ip netns exec "$NS_B" "$NETPATH" watch vb --count 6 --interval 0.3 --socket-walk-every 3 \
	--json > "$NP_TMP/walk.json" || np_fail "watch --socket-walk-every 3 exited non-zero"
np_validate "$NP_TMP/walk.json"
"$NP_PY" - "$NP_TMP/walk.json" <<'PY' || np_fail "the frames between walks are not honest"
import json, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
assert len(frames) == 6, len(frames)
walks = [d["socket_walk"] for d in frames]
# Collection 0 (before frame 1) walks, then every third: frames 3 and 6.
assert [w["full"] for w in walks] == [False, False, True, False, False, True], walks
for d, w in zip(frames, walks):
    assert w["every"] == 3 and not w["adaptive"] and not w["only_listeners"], w
    assert w["walk_cpu_ms"] is not None and w["walk_cpu_ms"] >= 0, w
    # The flows' age: 0 on a walk, else the time since it (frames are 0.3 s apart).
    assert (w["age_s"] == 0) if w["full"] else (0.2 < w["age_s"] < 5), w
    # The pinned flow in every frame, marked as the walk's exactly when it is carried.
    hits = [f for f in d["findings"] if f["id"] == "socket.tcp-buffer-pinned"]
    assert hits, (d["frame"], [f["id"] for f in d["findings"]])
    assert all(f["from_walk"] == (not w["full"]) for f in hits), hits
    assert "198.18.0.2:5001" in hits[0]["summary"], hits
    # UDP findings are this frame's own, never the walk's.
    assert not any(f["from_walk"] for f in d["findings"] if f["id"].startswith("socket.udp")), d
# UDP drops measured over frames that did not walk: the cheap request still reads them.
cheap = [d for d, w in zip(frames, walks) if not w["full"]]
assert any(s["local"] == "198.18.0.2:9000" and (s["drops_per_s"] or 0) > 0
           for d in cheap for s in (d["sockets"] or [])), [d["sockets"] for d in cheap]
PY

# The default: adaptive, said on the screen (a veth namespace's walk is cheap, but the hash is
# shared with the host, so N is whatever the measured costs give: at least 1).
COLUMNS=200 ip netns exec "$NS_B" "$NETPATH" watch vb --count 2 --interval 0.3 > "$NP_TMP/walk.txt" ||
	np_fail "watch exited non-zero"
[ "$(grep -cE '^  full TCP walk every (frame|[0-9]+ frames) \(adaptive: [0-9]+ ms CPU a walk(, [0-9.]+ ms a frame between)?\), last (this frame|[0-9.]+ s ago); listeners and UDP every frame$' "$NP_TMP/walk.txt")" -eq 2 ] ||
	np_fail "no cadence line per frame: $(cat "$NP_TMP/walk.txt")"

# Out of range: refused with exit 3, like any bad option.
for bad in 0 1.5 601 x; do
	"$NETPATH" watch lo --count 1 --socket-walk-every "$bad" > /dev/null 2>&1
	[ $? -eq 3 ] || np_fail "--socket-walk-every $bad must exit 3"
done
echo "PASS"
