#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# RPS steers the receiving veth's packets to the other CPU, whose backlog holds 4 packets
# (net.core.netdev_max_backlog, restored on exit): a flood overflows it and `netpath trace`
# shows CPU_BACKLOG in stage softnet, counted on the enqueuing CPU.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
trace_require
[ "$(nproc)" -ge 2 ] || np_skip "needs two CPUs for RPS"
np_pair snd rcv

np_sysctl_set net.core.netdev_max_backlog 4
# Sender on CPU 0, the backlog on CPU 1 (mask 2).
ip netns exec "$NS_B" sh -c 'echo 2 > /sys/class/net/vb/queues/rx-0/rps_cpus' ||
	np_fail "cannot set rps_cpus"
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000 --cpu 0
# The backlog drops are under way (host-wide softnet_stat "dropped", summed over CPUs).
softnet_dropped() {
	local n=0 d
	while read -r _ d _; do n=$((n + 16#$d)); done < /proc/net/softnet_stat
	echo "$n"
}
np_wait_moving "$NP_WAIT" "softnet_stat dropped (the CPU backlog)" softnet_dropped

# --arrivals: the arrivals per CPU (a program on every packet; the default has the total only).
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 2 --json --arrivals > "$NP_TMP/out.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "exit code $rc"
trace_validate "$NP_TMP/out.json"
trace_assert_drop "$NP_TMP/out.json" CPU_BACKLOG softnet
# RPS works: the stack runs on CPU 1. The drops happen on CPU 0, where the sender enqueues to
# CPU 1's full backlog (kfree_skb fires on the enqueuing CPU; softnet_stat charges the target).
np_assert_json "$NP_TMP/out.json" 'sum(a["packets"] for a in d["arrivals"] if a["cpu"] == 1) * 2 > sum(a["packets"] for a in d["arrivals"])'
np_assert_json "$NP_TMP/out.json" '[x for x in d["drops"] if x["reason"] == "CPU_BACKLOG"][0]["per_cpu"][0] * 2 > [x for x in d["drops"] if x["reason"] == "CPU_BACKLOG"][0]["count"]'
# The softnet funnel row (host-wide softnet_stat "dropped") saw drops in the same window.
np_assert_json "$NP_TMP/out.json" 'any(r["stage"] == "softnet" and r["drops"] and (r["drops"]["per_second"] or 0) > 0 for r in d["funnel"])'
echo "PASS"
