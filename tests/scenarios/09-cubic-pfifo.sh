#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 9: kernel defaults on a long fat path: cubic, pfifo_fast, rmem_max/wmem_max 208 KiB,
# default tcp_rmem/tcp_wmem, with --rtt 30 --bandwidth 500M (BDP 1.875 MB) -> congestion
# findings for CC and pacing (info: no loss measured) and a socket warning for buffers below
# the BDP, which is the worst finding. Diagnosed on the sending interface.
#
# This machine's default CC is bbr, and only "reno bbr" may be chosen inside a namespace: cubic
# is added to tcp_allowed_congestion_control (host-global) and made the namespaces' default.
# rmem_max/wmem_max are host-global (read-only in namespaces): set to the kernel's default
# 212992. All restored by the EXIT trap. No fq or netem on this kernel: not needed here.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
grep -qw cubic /proc/sys/net/ipv4/tcp_available_congestion_control ||
	np_skip "cubic not available"
hostcc=$(sysctl -n net.ipv4.tcp_congestion_control)
allowed=$(sysctl -n net.ipv4.tcp_allowed_congestion_control)
case " $allowed " in
*" cubic "*) ;;
*) np_sysctl_set net.ipv4.tcp_allowed_congestion_control "$allowed cubic" ;;
esac
np_sysctl_set net.core.rmem_max 212992
np_sysctl_set net.core.wmem_max 212992
np_pair snd rcv
for ns in "$NS_A" "$NS_B"; do
	ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_congestion_control=cubic \
		net.ipv4.tcp_rmem="4096 131072 6291456" net.ipv4.tcp_wmem="4096 16384 4194304" ||
		np_fail "namespace sysctls"
done
tc -n "$NS_A" qdisc add dev va root pfifo_fast || np_skip "cannot attach pfifo_fast"
tc -n "$NS_B" qdisc add dev vb root pfifo_fast || np_skip "cannot attach pfifo_fast"

scen_bg "$NS_B" sink tcp-sink 198.18.0.2 5001
scen_bg "$NS_A" send tcp-send 198.18.0.2 5001
np_wait_counter "$NS_A" TcpOutSegs
scen_doctor "$NS_A" va --rtt 30 --bandwidth 500M
SCEN_TRACE=(--trace-na "n/a (configuration findings: nothing is dropped)")
# softnet.single-cpu: the transfer's veth receive work lands on one CPU (no RPS). On a busy host
# it also carries the backlog drops that load causes (its rank), so it is set aside like them.
scen_assert --stage socket --check socket.rmem-max --load softnet.single-cpu \
	--also congestion.cc --also congestion.pacing \
	--evidence 'socket.rmem-max=bdp>=1870000' --evidence 'socket.rmem-max=bdp<=1880000' \
	--evidence 'socket.rmem-max=wmem_max<=212992' \
	--summary 'congestion.cc=cubic at 30 ms' \
	--summary 'congestion.pacing=pfifo_fast' \
	--allow softnet.single-cpu \
	--note "cubic set in the namespaces (host default: $hostcc); pacing judged on va's qdisc"
