#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Field report: anycast POP-A (tests/fixtures/trees/pop-a) on kernel defaults: cubic with bbr
# not loaded, default_qdisc pfifo_fast, rmem_max/wmem_max 208 KiB, tcp_mtu_probing 0. With
# --rtt 30 --bandwidth 500M (BDP 1.875 MB) each is flagged; the buffer ceiling below the BDP
# is the worst (a warning), the congestion findings are info (no loss was measured).
. "$(dirname "$0")/scen_lib.sh"
scen_doctor_root "$NP_SRCDIR/tests/fixtures/trees/pop-a" --rtt 30 --bandwidth 500M
SCEN_TRACE=(--trace-na "n/a (a captured tree)")
scen_assert --stage socket --check socket.rmem-max \
	--also congestion.cc --also congestion.pacing --also congestion.mtu-probing \
	--evidence 'socket.rmem-max=bdp>=1870000' --evidence 'socket.rmem-max=bdp<=1880000' \
	--evidence 'socket.rmem-max=rmem_max<=212992' \
	--evidence 'socket.rmem-max=wmem_max<=212992' \
	--summary 'socket.rmem-max=500 Mbit/s × 30 ms' \
	--remedy 'socket.rmem-max=net.core.wmem_max=' \
	--summary 'congestion.cc=bbr (not loaded)' \
	--remedy 'congestion.cc=modprobe tcp_bbr' \
	--summary 'congestion.pacing=pfifo_fast' \
	--summary 'congestion.mtu-probing=tcp_mtu_probing=0' \
	--note "BDP is evidence of the buffer finding; cc/pacing/mtu-probing carry the RTT"
