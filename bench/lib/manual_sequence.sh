#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What an admin runs today to see what one `netpath doctor --interval 0 IFACE` pass reads:
# the driver, rings, channels, coalescing, offloads and counters, the link and qdisc
# statistics, the MIB counters, TCP sockets with memory and tcp_info, softnet, interrupts,
# sockstat, and the sysctls netpath consults (the key list is the file's arguments after IFACE).
# Usage: manual_sequence.sh IFACE KEY...   (output is for reading; the benchmark discards it)
dev=$1
shift
ethtool -i "$dev"
ethtool -g "$dev"
ethtool -l "$dev"
ethtool -c "$dev"
ethtool -k "$dev"
ethtool -S "$dev"
ip -s -s link show dev "$dev"
tc -s qdisc show dev "$dev"
nstat -az
ss -tmi
cat /proc/net/softnet_stat
cat /proc/interrupts
cat /proc/net/sockstat
sysctl -e "$@"
