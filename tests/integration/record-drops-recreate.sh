#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# record --drops across a re-created interface: trace's programs filter on the ifindex they
# were loaded with, so after the veth pair is made again (same name, new ifindex) they must be
# attached again or the recorder counts no drop for the rest of its life. A UDP receiver that
# never reads, flooded after the re-creation, must show as SOCKET_RCVBUFF in history.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
trace_require
np_pair snd rcv
dir="$NP_TMP/rec"
now() { date +%s.%N; }

np_bg ip netns exec "$NS_B" "$NETPATH" record vb --dir "$dir" --every 1 --drops
rec=$NP_LAST_PID
np_wait_until "$NP_WAIT" "the recorder's first segment" sh -c "ls '$dir'/*.nprec"
t0=$(now)
np_rec_wait "$dir" "$(("${t0%.*}" + 2))"
ip -n "$NS_A" link del va
sleep 2
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B" || np_fail "veth again"
ip -n "$NS_A" addr add 198.18.0.1/24 dev va
ip -n "$NS_B" addr add 198.18.0.2/24 dev vb
ip -n "$NS_A" link set va up
ip -n "$NS_B" link set vb up
new_ifindex=$(ip netns exec "$NS_B" cat /sys/class/net/vb/ifindex)
back=$(now)
np_rec_wait "$dir" "$(("${back%.*}" + 2))"

np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000
flood=$NP_LAST_PID
np_wait_counter "$NS_B" UdpRcvbufErrors
from=$(now)
sleep 4
np_stop "$flood"
to=$(now)
np_rec_wait "$dir" "$(("${to%.*}" + 1))"
np_stop "$rec"

"$NETPATH" history --root "$dir" --json > "$NP_TMP/h.json" || np_fail "history failed"
np_validate "$NP_TMP/h.json"
np_assert_json "$NP_TMP/h.json" \
	"sum(1 for s in d['seconds'] if $from <= s['time'] <= $to + 1 and (s.get('top_reason') or {}).get('reason') == 'SOCKET_RCVBUFF') >= 1"
echo "new ifindex $new_ifindex"
echo "PASS"
