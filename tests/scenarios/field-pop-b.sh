#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Field report: anycast POP-B (tests/fixtures/trees/pop-b), POP-A's tuned twin: bbr, fq,
# rmem_max 32 MiB / wmem_max 16 MiB, tcp_mtu_probing 1. With --rtt 30 --bandwidth 500M it is
# clean: no warning or critical, and none of POP-A's findings. A tree has no rtnetlink, so the
# attached qdisc is unknown (congestion.bbr-without-fq skips): default_qdisc is what it shows.
. "$(dirname "$0")/scen_lib.sh"
scen_doctor_root "$NP_SRCDIR/tests/fixtures/trees/pop-b" --rtt 30 --bandwidth 500M
SCEN_TRACE=(--trace-na "n/a (a captured tree)")
scen_assert --max-severity info \
	--absent congestion.cc --absent congestion.pacing --absent congestion.mtu-probing \
	--absent socket.rmem-max --absent socket.tcp-rmem-bdp --absent socket.tcp-wmem-bdp \
	--note "attached qdisc needs rtnetlink: judged by default_qdisc"
