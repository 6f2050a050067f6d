#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record --all --drops: every recorded interface is traced (two veth pairs, a UDP receiver that
# never reads behind each, both flooded for a few seconds), and the recorder keeps each
# minute's top dropped flows: doctor --at on the flood's window lists the flows of both
# interfaces (text and JSON), history's worst minute lists them too (JSON). The flows of a
# minute are stored once it has ended, so the test waits for the next minute (up to 70 s).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
trace_require
np_pair snd rcv
ip link add va2 netns "$NS_A" type veth peer name vb2 netns "$NS_B" || np_fail "veth"
ip -n "$NS_A" addr add 198.18.1.1/24 dev va2
ip -n "$NS_B" addr add 198.18.1.2/24 dev vb2
ip -n "$NS_A" link set va2 up
ip -n "$NS_B" link set vb2 up
dir="$NP_TMP/rec"
now() { date +%s.%N; }

np_traffic "$NS_B" sink1 udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_traffic "$NS_B" sink2 udp-sink 198.18.1.2 9001 --rcvbuf 4096
# --all records the interfaces that are up (the kernel says so a moment after `link set up`)
# and carried packets.
for dev in vb vb2; do
	np_wait_until "$NP_WAIT" "$dev to be up" \
		ip netns exec "$NS_B" grep -qx up "/sys/class/net/$dev/operstate"
done
ip netns exec "$NS_A" "$NPTRAFFIC" --count 3 udp-flood 198.18.0.2 9000 > /dev/null ||
	np_fail "nptraffic to vb"
ip netns exec "$NS_A" "$NPTRAFFIC" --count 3 udp-flood 198.18.1.2 9001 > /dev/null ||
	np_fail "nptraffic to vb2"
np_bg ip netns exec "$NS_B" "$NETPATH" record --all --dir "$dir" --every 1 --drops
rec=$NP_LAST_PID
np_wait_until "$NP_WAIT" "the recorder's first segment" sh -c "ls '$dir'/*.nprec"
np_traffic "$NS_A" flood1 udp-flood 198.18.0.2 9000
f1=$NP_LAST_PID
np_traffic "$NS_A" flood2 udp-flood 198.18.1.2 9001
f2=$NP_LAST_PID
np_wait_counter "$NS_B" UdpRcvbufErrors
from=$(now)
sleep 3
np_stop "$f1" "$f2"
to=$(now)
# The flood's last minute is stored at the next minute's first sample, on disk within a block
# (five samples): wait for a frame 8 s into the next minute.
end=$(( (${to%.*} / 60 + 1) * 60 + 8 ))
stop=$(($(np_ms) + 100000))
until [ "$(np_rec_last "$dir")" -ge "$end" ]; do
	[ "$(np_ms)" -lt "$stop" ] || np_fail "waited 100 s for $dir to reach second $end"
	sleep 0.5
done
kill -KILL "$rec"
wait "$rec" 2>/dev/null

win=$(awk -v a="$from" -v b="$to" 'BEGIN { printf "%.0f", b - a + 1 }')
"$NETPATH" doctor --root "$dir" --at "@${from%.*}" --window "$win" --json > "$NP_TMP/at.json"
np_validate "$NP_TMP/at.json"
for port in 9000 9001; do
	np_assert_json "$NP_TMP/at.json" "any(f['reason'] == 'SOCKET_RCVBUFF' and f['dport'] == $port and f['protocol'] == 'udp' and f['drops'] > 0 for f in d['recorded_flows'])"
done
np_assert_json "$NP_TMP/at.json" "{f['interface'] for f in d['recorded_flows'] if f['reason'] == 'SOCKET_RCVBUFF'} == {'vb', 'vb2'}"
np_assert_json "$NP_TMP/at.json" "len(d['recorded_flows']) <= 10"
COLUMNS=200 "$NETPATH" doctor --root "$dir" --at "@${from%.*}" --window "$win" > "$NP_TMP/at.txt"
grep -q "Top dropped flows" "$NP_TMP/at.txt" || np_fail "doctor --at text has no top flows"
grep -Eq "[0-9]+ drops  vb2  198\.18\.1\.1:[0-9]+ > 198\.18\.1\.2:9001 udp  SOCKET_RCVBUFF" \
	"$NP_TMP/at.txt" ||
	np_fail "doctor --at text lacks vb2's flow: $(cat "$NP_TMP/at.txt")"

"$NETPATH" history --root "$dir" --json > "$NP_TMP/h.json" || np_fail "history failed"
np_validate "$NP_TMP/h.json"
np_assert_json "$NP_TMP/h.json" "{f['interface'] for f in d['worst_minutes'][0]['top_flows']} == {'vb', 'vb2'}"
COLUMNS=200 "$NETPATH" history --root "$dir" | grep -q "vb2  198.18.1.1:[0-9]* > 198.18.1.2:9001 udp" ||
	np_fail "history text does not list the worst minute's flows"
# A window the recorder started within is not judged (it was judged from the first sample on,
# as a later window): UNKNOWN, saying what of it the recording covers.
first=$("$NP_PY" -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["first"]))' "$NP_TMP/h.json")
out=$("$NETPATH" doctor --root "$dir" --at "@$((first - 5))" --window 10 2>&1)
rc=$?
[ "$rc" -eq 3 ] && grep -q "started or came back within the window" <<< "$out" &&
	grep -q "the recording covers" <<< "$out" ||
	np_fail "doctor --at over the recorder's start: exit $rc: $out"
echo "PASS"
