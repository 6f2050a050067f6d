#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A tbf shaper at 1 Mbit/s on the sending veth under a UDP flood: doctor on the sending side must
# report the qdisc's drops in stage "congestion" (warning or worse) with the tbf's drops per
# second as evidence; once the flood is over, the same drops are history (at most info).
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv
here=$(dirname "$0")

tc -n "$NS_A" qdisc add dev va root tbf rate 1mbit burst 4kb latency 20ms ||
	np_skip "cannot attach tbf (sch_tbf missing?)"

np_bg ip netns exec "$NS_B" python3 "$here/udp_sink.py" 198.18.0.2 9000 12
np_bg ip netns exec "$NS_A" timeout 8 python3 "$here/udp_flood.py" 198.18.0.2 9000 4 1000
flood=$!
sleep 0.5
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
drops=$(tc -n "$NS_A" -s qdisc show dev va | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n1)
[ "${drops:-0}" -gt 0 ] || np_fail "tc reports no tbf drops; the scenario did not happen"

# After the flood: the drops are since-boot history, never more than info.
wait "$flood" 2>/dev/null
sleep 0.5
ip netns exec "$NS_A" "$NETPATH" doctor va --interval 1 --json > "$NP_TMP/after.json"
np_validate "$NP_TMP/after.json"
qd='[f for f in d["findings"] if f["id"] == "congestion.qdisc-drops"]'
np_assert_json "$NP_TMP/after.json" "len($qd) == 1 and all(f['severity'] == 'info' for f in $qd)"
echo "PASS"
