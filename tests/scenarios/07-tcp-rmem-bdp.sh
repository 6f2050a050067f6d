#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 7: a TCP transfer into a namespace whose tcp_rmem max (1 MiB, per namespace) is far
# below 2 x BDP of --rtt 50 --bandwidth 10G (2 x 62.5 MB) -> socket (buffers vs BDP).
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv
ip netns exec "$NS_B" sysctl -q -w net.ipv4.tcp_rmem="4096 131072 1048576" || np_fail "tcp_rmem"

scen_bg "$NS_B" sink tcp-sink 198.18.0.2 5001
scen_bg "$NS_A" send tcp-send 198.18.0.2 5001
np_wait_counter "$NS_B" TcpInSegs
scen_doctor "$NS_B" vb --rtt 50 --bandwidth 10G
SCEN_TRACE=(--trace-na "n/a (a buffer limit drops nothing: TCP flow control holds the sender)")
# congestion.slow-start-after-idle: a warning at >= 50 ms RTT, caused by the --rtt 50 this
# scenario gives (the namespace keeps the default tcp_slow_start_after_idle=1).
# softnet.single-cpu: the transfer's veth receive work lands on one CPU (no RPS).
scen_assert --stage socket --check socket.tcp-rmem-bdp \
	--evidence 'socket.tcp-rmem-bdp=tcp_rmem[2]<=1048576' \
	--evidence 'socket.tcp-rmem-bdp=bdp>=62000000' \
	--evidence 'socket.tcp-rmem-bdp=bdp<=63000000' \
	--summary 'socket.tcp-rmem-bdp=1 MiB' \
	--remedy 'socket.tcp-rmem-bdp=net.ipv4.tcp_rmem=' \
	--allow congestion.slow-start-after-idle --allow softnet.single-cpu
