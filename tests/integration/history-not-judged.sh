#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# history judges its worst windows as doctor --at would, and a window the recording does not
# cover whole is "not judged", never judged from the part that was recorded (that would be a
# shorter window presented as the one asked for). A recording of a few seconds with a UDP
# receiver overflowing in it: the worst second is judged (a socket finding), the worst minute,
# which the recording covers only in part, is listed with its drops but not judged, and
# doctor --at on that minute exits 3 (UNKNOWN).
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv
dir="$NP_TMP/rec"
now() { date +%s.%N; }

np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_bg ip netns exec "$NS_B" "$NETPATH" record vb --dir "$dir" --every 1
rec=$NP_LAST_PID
np_wait_until "$NP_WAIT" "the recorder's first segment" sh -c "ls '$dir'/*.nprec"
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000
flood=$NP_LAST_PID
np_wait_counter "$NS_B" UdpRcvbufErrors
sleep 3
np_stop "$flood"
to=$(now)
np_rec_wait "$dir" "$(("${to%.*}" + 1))"
np_stop "$rec"

"$NETPATH" history --root "$dir" --json > "$NP_TMP/h.json" || np_fail "history failed"
np_validate "$NP_TMP/h.json"
# The worst second is covered whole: judged, with a finding at the socket stage.
np_assert_json "$NP_TMP/h.json" \
	"d['worst_seconds'][0]['stage'] == 'socket' and d['worst_seconds'][0]['check'] is not None"
# The worst minute is not: its drops are listed, no check, and the summary says why.
np_assert_json "$NP_TMP/h.json" "d['worst_minutes'][0]['drops_per_second'] > 0"
np_assert_json "$NP_TMP/h.json" \
	"d['worst_minutes'][0]['check'] is None and d['worst_minutes'][0]['severity'] is None"
np_assert_json "$NP_TMP/h.json" "d['worst_minutes'][0]['summary'].startswith('not judged')"
"$NETPATH" history --root "$dir" > "$NP_TMP/h.txt" || np_fail "history (text) failed"
grep -q "not judged" "$NP_TMP/h.txt" || np_fail "history text: no 'not judged': $(cat "$NP_TMP/h.txt")"
minute=$("$NP_PY" -c "import json; print(json.load(open('$NP_TMP/h.json'))['worst_minutes'][0]['time'])")
"$NETPATH" doctor --root "$dir" --at "@$minute" --window 60 > "$NP_TMP/at.txt" 2>&1
rc=$?
[ $rc -eq 3 ] || np_fail "doctor --at on the partly recorded minute: exit $rc, not 3: $(cat "$NP_TMP/at.txt")"
echo "PASS"
