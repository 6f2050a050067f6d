#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 1: a UDP receiver that never reads (SO_RCVBUF 4 KiB) under a flood -> socket.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv

scen_bg "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
scen_bg "$NS_A" flood udp-flood 198.18.0.2 9000
np_wait_counter "$NS_B" UdpRcvbufErrors
scen_doctor "$NS_B" vb
scen_trace "$NS_B" vb SOCKET_RCVBUFF socket
# The flood runs through one veth whose receive work lands on one CPU: softnet.single-cpu may
# escalate when that CPU squeezes during the sample.
scen_assert --stage socket --check socket.udp-rcvbuf \
	--also 'socket.udp-socket-drops>=warning' \
	--evidence 'socket.udp-rcvbuf=UdpRcvbufErrors>=100' \
	--summary 'socket.udp-socket-drops=198.18.0.2:9000' \
	--allow softnet.single-cpu
