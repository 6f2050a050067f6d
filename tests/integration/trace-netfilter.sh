#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# An iptables DROP rule in the receiving namespace: `netpath trace` shows NETFILTER_DROP in
# stage ingress, about as many as were sent, and no socket-stage drops (the rule fires first).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
trace_require
command -v iptables > /dev/null || np_skip "iptables not installed"
np_pair snd rcv

ip netns exec "$NS_B" iptables -A INPUT -p udp --dport 9001 -j DROP ||
	np_skip "iptables cannot add a rule here (no netfilter support?)"
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9001 --rcvbuf 4096
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9001
# The rule's packet counter.
rule_packets() {
	ip netns exec "$NS_B" iptables -L INPUT -v -x -n | awk '/dpt:9001/ {print $1}'
}
np_wait_moving "$NP_WAIT" "the DROP rule's packet counter" rule_packets

ip netns exec "$NS_B" "$NETPATH" trace vb --duration 2 --json > "$NP_TMP/out.json"
rc=$?
[ "$rc" -eq 2 ] || np_fail "exit code $rc, expected 2 (critical drop rate)"
trace_validate "$NP_TMP/out.json"
trace_assert_drop "$NP_TMP/out.json" NETFILTER_DROP ingress
trace_assert_no_drop "$NP_TMP/out.json" SOCKET_RCVBUFF
# The rule's own counter moved at least as much as trace counted over its shorter window.
pk=$(rule_packets)
np_assert_json "$NP_TMP/out.json" "0 < [x for x in d['drops'] if x['reason'] == 'NETFILTER_DROP'][0]['count'] <= $pk"
echo "PASS"
