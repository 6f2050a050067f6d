#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A tbf shaper at 1 Mbit/s on the sending veth under a UDP flood: doctor on the sending side must
# report the qdisc's drops in stage "congestion" (warning or worse) with the tbf's drops per
# second as evidence; once the flood is over, the same drops are history (at most info).
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv

tc -n "$NS_A" qdisc add dev va root tbf rate 1mbit burst 4kb latency 20ms ||
	np_skip "cannot attach tbf (sch_tbf missing?)"

# tbf drops as reported by tc (the oracle below), for the waits.
tbf_drops() {
	tc -n "$NS_A" -s qdisc show dev va | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n1
}
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000 --size 1000
flood=$NP_LAST_PID
np_wait_moving "$NP_WAIT" "tbf drops on va (tc)" tbf_drops
ip netns exec "$NS_A" "$NETPATH" doctor va --interval 2 --json > "$NP_TMP/flood.json"
rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || np_fail "exit code $rc, expected 1 or 2 (warning/critical)"
np_validate "$NP_TMP/flood.json"
# The rtnetlink qdisc dump must have worked, or nothing below can hold.
np_assert_json "$NP_TMP/flood.json" 'not any(u["source"] == "rtnl_qdisc" for u in d["unavailable"])'
# A congestion finding, warning or worse, whose evidence has the tbf's drops per second.
tbf_drops='any(e["key"].startswith("tbf[") and e["key"].endswith(".drops") and
	(e.get("per_second") or 0) > 0 for e in f["evidence"])'
np_assert_json "$NP_TMP/flood.json" "any(f['stage'] == 'congestion' and
	f['severity'] in ('warning', 'critical') and $tbf_drops for f in d['findings'])"
np_assert_json "$NP_TMP/flood.json" 'any(f["id"] == "congestion.qdisc-drops" and
	f["severity"] != "info" for f in d["findings"])'
np_assert_json "$NP_TMP/flood.json" 'd["exit_code"] == '"$rc"

# The oracle: tc itself saw drops on that tbf.
drops=$(tbf_drops)
[ "${drops:-0}" -gt 0 ] || np_fail "tc reports no tbf drops; the scenario did not happen"

# After the flood: the drops are since-boot history, never more than info.
np_stop "$flood"
# tbf's queue drains within its 20 ms latency; wait until tc's drop count stands still.
np_wait_until "$NP_WAIT" "tbf drops to stop growing after the flood" \
	sh -c 'a=$(tc -n "$1" -s qdisc show dev va); sleep 0.3; [ "$a" = "$(tc -n "$1" -s qdisc show dev va)" ]' - "$NS_A"
ip netns exec "$NS_A" "$NETPATH" doctor va --interval 1 --json > "$NP_TMP/after.json"
np_validate "$NP_TMP/after.json"
qd='[f for f in d["findings"] if f["id"] == "congestion.qdisc-drops"]'
np_assert_json "$NP_TMP/after.json" "len($qd) == 1 and all(f['severity'] == 'info' for f in $qd)"
echo "PASS"
