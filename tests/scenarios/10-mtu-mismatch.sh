#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 10: MTU 9000 on va, 1500 on its peer vb, and 8000-byte UDP datagrams from the 9000
# side: vb refuses every frame (the kernel counts them in vb's rx_dropped) -> link.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv
ip -n "$NS_A" link set va mtu 9000 || np_fail "mtu"

scen_bg "$NS_B" sink udp-sink 198.18.0.2 9000 --drain
scen_bg "$NS_A" flood udp-flood 198.18.0.2 9000 --size 8000 --burst 16 --gap-ms 1
np_wait_moving "$NP_WAIT" "vb's rx_dropped" np_link_stat "$NS_B" vb rx_dropped
scen_doctor "$NS_B" vb
# trace has no reason to count on vb: the kernel frees a refused veth frame in
# __dev_forward_skb without a reason (NOT_SPECIFIED), charged to the sending va.
SCEN_TRACE=(--trace-na "n/a (refused veth frames: NOT_SPECIFIED, on the sender)")
# nic.rx-dropped: the same refused frames, as the rx_dropped counter they are charged to.
scen_assert --stage link --check link.mtu-mismatch \
	--summary 'link.mtu-mismatch=MTU 1500' \
	--evidence 'link.mtu-mismatch=rx_dropped>=100' \
	--allow nic.rx-dropped \
	--note "link.mtu-mismatch: new check (veth rx_dropped beyond rx_packets + backlog drops)"
