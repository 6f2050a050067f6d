#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 6: an iptables DROP rule in the receiving namespace's INPUT chain -> ingress.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
command -v iptables > /dev/null || np_skip "iptables not installed"
np_pair snd rcv
ip netns exec "$NS_B" iptables -A INPUT -p udp --dport 9000 -j DROP ||
	np_skip "iptables cannot add a rule here (no netfilter support?)"

scen_bg "$NS_B" sink udp-sink 198.18.0.2 9000 --drain
scen_bg "$NS_A" flood udp-flood 198.18.0.2 9000 --burst 32 --gap-ms 1
rule_packets() {
	ip netns exec "$NS_B" iptables -L INPUT -v -x -n | awk '/dpt:9000/ {print $1}'
}
np_wait_moving "$NP_WAIT" "the DROP rule's packet counter" rule_packets
scen_doctor "$NS_B" vb
scen_trace "$NS_B" vb NETFILTER_DROP ingress
scen_assert --stage ingress --check ingress.netfilter-drops \
	--evidence 'ingress.netfilter-drops=vanished>=100' \
	--allow softnet.single-cpu \
	--note "ingress.netfilter-drops: new check (the IPv4 MIB balance)"
