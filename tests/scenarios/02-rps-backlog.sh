#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 2: RPS steers vb's packets from the sending CPU 0 to CPU 1, whose backlog holds only
# 8 packets (netdev_max_backlog, host-global: restored at exit) -> softnet, drops on CPU 1.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
[ "$(nproc)" -ge 2 ] || np_skip "needs two CPUs"
np_pair snd rcv
np_sysctl_set net.core.netdev_max_backlog 8
ip netns exec "$NS_B" sh -c 'echo 2 > /sys/class/net/vb/queues/rx-0/rps_cpus' ||
	np_skip "cannot set rps_cpus (kernel without CONFIG_RPS?)"

# A reader that keeps up (a big SO_RCVBUF, reads everything) and bursts of 64 datagrams from
# CPU 0: each burst outruns CPU 1's 8-packet backlog, nothing else overflows.
scen_bg "$NS_B" sink udp-sink 198.18.0.2 9000 --drain --rcvbuf 4000000
scen_bg "$NS_A" flood udp-flood 198.18.0.2 9000 --burst 64 --gap-ms 2 --cpu 0
# The backlog drops are under way: CPU 1's "dropped" column of softnet_stat (host-wide).
cpu1_dropped() {
	local d
	d=$(sed -n 2p /proc/net/softnet_stat | cut -d' ' -f2) && echo $((16#$d))
}
np_wait_moving "$NP_WAIT" "CPU 1's softnet_stat dropped (its backlog)" cpu1_dropped
scen_doctor "$NS_B" vb
scen_trace "$NS_B" vb CPU_BACKLOG softnet
# nic.rx-dropped: the kernel counts every backlog drop in the feeding device's rx_dropped too.
scen_assert --stage softnet --check softnet.backlog-drops \
	--evidence 'softnet.backlog-drops=cpu1.dropped>=100' \
	--summary 'softnet.backlog-drops=CPU 1:' \
	--allow nic.rx-dropped \
	--note "backlog size unreadable in a namespace: said so, not printed as 1000"
