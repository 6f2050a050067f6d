#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 1: a UDP receiver that never reads (SO_RCVBUF 4 KiB) under a flood -> socket.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv

scen_bg "$NS_B" udp-sink 198.18.0.2 9000 9 --rcvbuf 4096
sleep 0.3
scen_bg "$NS_A" udp-flood 198.18.0.2 9000 8
sleep 1
scen_doctor "$NS_B" vb
scen_trace "$NS_B" vb SOCKET_RCVBUFF socket
# The flood runs through one veth whose receive work lands on one CPU: softnet.single-cpu may
# escalate when that CPU squeezes during the sample.
scen_assert --stage socket --check socket.udp-rcvbuf \
	--also 'socket.udp-socket-drops>=warning' \
	--evidence 'socket.udp-rcvbuf=UdpRcvbufErrors>=100' \
	--summary 'socket.udp-socket-drops=198.18.0.2:9000' \
	--allow softnet.single-cpu
