#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 4: a tbf shaper at 1 Mbit/s on the sender's egress and a UDP flood -> congestion
# (qdisc drops), diagnosed on the sending interface.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv
tc -n "$NS_A" qdisc add dev va root tbf rate 1mbit burst 4kb latency 20ms ||
	np_skip "cannot attach tbf (sch_tbf missing?)"

scen_bg "$NS_B" udp-sink 198.18.0.2 9000 9 --drain
sleep 0.3
scen_bg "$NS_A" udp-flood 198.18.0.2 9000 8 --size 1000
sleep 1
scen_doctor "$NS_A" va
scen_trace "$NS_A" va QDISC_DROP congestion
# softnet.single-cpu: the flood's veth receive work all lands on the flooding CPU (no RPS);
# it escalates when that CPU squeezes during the sample. congestion.bbr-without-fq: this
# host's default CC is bbr and the root qdisc is the tbf (info).
scen_assert --stage congestion --check congestion.qdisc-drops \
	--evidence 'congestion.qdisc-drops=tbf[*' \
	--summary 'congestion.qdisc-drops=tbf' \
	--allow softnet.single-cpu
