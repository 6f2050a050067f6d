#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 4: a tbf shaper at 1 Mbit/s on the sender's egress and a UDP flood -> congestion
# (qdisc drops), diagnosed on the sending interface.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv
tc -n "$NS_A" qdisc add dev va root tbf rate 1mbit burst 4kb latency 20ms ||
	np_skip "cannot attach tbf (sch_tbf missing?)"

scen_bg "$NS_B" sink udp-sink 198.18.0.2 9000 --drain
scen_bg "$NS_A" flood udp-flood 198.18.0.2 9000 --size 1000
tbf_drops() {
	tc -n "$NS_A" -s qdisc show dev va | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n1
}
np_wait_moving "$NP_WAIT" "tbf drops on va (tc)" tbf_drops
scen_doctor "$NS_A" va
scen_trace "$NS_A" va QDISC_DROP congestion
# softnet.single-cpu: the flood's veth receive work all lands on the flooding CPU (no RPS);
# it escalates when that CPU squeezes during the sample. congestion.bbr-without-fq: this
# host's default CC is bbr and the root qdisc is the tbf (info).
scen_assert --stage congestion --check congestion.qdisc-drops \
	--evidence 'congestion.qdisc-drops=tbf[*' \
	--summary 'congestion.qdisc-drops=tbf' \
	--allow softnet.single-cpu
