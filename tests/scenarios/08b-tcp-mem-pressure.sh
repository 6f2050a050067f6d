#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 8b: a tiny tcp_mem (64/96/128 pages) while TCP transfers into a slow reader hold
# their buffers -> socket (TCP socket memory beyond tcp_mem, pressure). tcp_mem is host-global:
# it is tiny only while doctor samples, restored right after and again by the EXIT trap.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv

scen_bg "$NS_B" sink tcp-sink 198.18.0.2 5001 --slow
scen_bg "$NS_A" send tcp-send 198.18.0.2 5001 --conns 4
np_wait_until "$NP_WAIT" "the transfer to hold TCP memory (sockstat TCP mem > 200 pages)" \
	sh -c "awk '/^TCP:/ { exit !(\$NF > 200) }' /proc/net/sockstat"
old=$(sysctl -n net.ipv4.tcp_mem)
np_sysctl_set net.ipv4.tcp_mem "64 96 128"
scen_doctor - lo --interval 2
sysctl -q -w net.ipv4.tcp_mem="$old"
SCEN_TRACE=(--trace-na "n/a (doctor runs in the initial namespace, where tcp_mem lives)")
# softnet.single-cpu: the transfer's veth receive work lands on one CPU (host-global softnet).
scen_assert --stage socket --check socket.tcp-mem \
	--evidence 'socket.tcp-mem=of tcp_mem[1] (pressure)>=100' \
	--summary 'socket.tcp-mem=of tcp_mem max' \
	--allow softnet.single-cpu \
	--note "tcp_mem is host-global: doctor on lo in the initial namespace"
