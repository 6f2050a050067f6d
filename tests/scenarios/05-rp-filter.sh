#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 5: strict rp_filter in the receiving namespace and an asymmetric route: packets from
# 198.19.1.1 arrive on vb, but the route back to 198.19.1.0/24 leaves through vd -> ip.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv
ip link add vc netns "$NS_A" type veth peer name vd netns "$NS_B" || np_fail "veth"
ip -n "$NS_A" link set vc up
ip -n "$NS_B" link set vd up
ip -n "$NS_A" addr add 198.19.1.1/32 dev va
ip -n "$NS_B" addr add 198.18.1.2/24 dev vd
ip -n "$NS_B" route add 198.19.1.0/24 dev vd
ip netns exec "$NS_B" sysctl -q -w net.ipv4.conf.all.rp_filter=1 net.ipv4.conf.vb.rp_filter=1 ||
	np_fail "rp_filter"
# No ARP for the spoofed-looking source: a static neighbour entry.
mac=$(ip -n "$NS_B" -br link show vb | awk '{print $3}')
ip -n "$NS_A" neigh replace 198.18.0.2 lladdr "$mac" dev va nud permanent || np_fail "neigh"

scen_bg "$NS_B" sink udp-sink 198.18.0.2 9000 --drain
scen_bg "$NS_A" flood udp-flood 198.18.0.2 9000 --src 198.19.1.1 --burst 32 --gap-ms 1
np_wait_counter "$NS_B" TcpExtIPReversePathFilter
scen_doctor "$NS_B" vb
scen_trace "$NS_B" vb IP_RPFILTER ip
scen_assert --stage ip --check ip.rp-filter \
	--evidence 'ip.rp-filter=TcpExtIPReversePathFilter>=100' \
	--summary 'ip.rp-filter=rp_filter=1' \
	--allow softnet.single-cpu
