#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Field report: a 10G LAN host already carrying the full recommended sysctl set (bbr/fq, 64 MiB
# ceilings, netdev_max_backlog 16384, MTU 9000; tests/fixtures/trees/lan-10g) -> no warnings,
# info-level notes at most, and none of the tuning findings.
. "$(dirname "$0")/scen_lib.sh"
scen_doctor_root "$NP_SRCDIR/tests/fixtures/trees/lan-10g"
SCEN_TRACE=(--trace-na "n/a (a captured tree)")
scen_assert --max-severity info \
	--absent link.mtu-jumbo --absent softnet.max-backlog --absent socket.rmem-max \
	--absent socket.tcp-rmem-bdp --absent socket.tcp-wmem-bdp --absent congestion.pacing \
	--absent congestion.mtu-probing --absent congestion.slow-start-after-idle
