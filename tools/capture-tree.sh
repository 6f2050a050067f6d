#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Capture the /proc and /sys files netpath reads for one interface into DIR, so that
# `netpath doctor --root DIR IFACE` can analyse this machine elsewhere (and so tests have
# fixtures). Read-only on this machine; writes only beneath DIR.
# Usage: tools/capture-tree.sh IFACE DIR
set -eu
ifc=${1:?usage: capture-tree.sh IFACE DIR}
out=${2:?usage: capture-tree.sh IFACE DIR}
[ -e "/sys/class/net/$ifc" ] || { echo "no interface $ifc" >&2; exit 1; }
mkdir -p "$out/proc" "$out/sys"

grab() {	# grab SRC DST: copy one file's content if readable
	[ -r "$1" ] || return 0
	mkdir -p "$(dirname "$2")"
	cat "$1" > "$2" 2>/dev/null || rm -f "$2"
}

for f in net/softnet_stat net/snmp net/snmp6 net/netstat net/sockstat net/route net/ipv6_route \
	 net/stat/nf_conntrack softirqs interrupts meminfo uptime sys/kernel/osrelease; do
	grab "/proc/$f" "$out/proc/$f"
done
find /proc/sys/net/core /proc/sys/net/ipv4 -maxdepth 1 -type f 2>/dev/null |
	while read -r f; do grab "$f" "$out$f"; done
for f in nf_conntrack_count nf_conntrack_max nf_conntrack_buckets; do
	grab "/proc/sys/net/netfilter/$f" "$out/proc/sys/net/netfilter/$f"
done
for c in all default "$ifc"; do
	grab "/proc/sys/net/ipv4/conf/$c/rp_filter" "$out/proc/sys/net/ipv4/conf/$c/rp_filter"
done
grab /sys/devices/system/cpu/online "$out/sys/devices/system/cpu/online"
# irqbalance: systemd's cgroup for it, and its own /proc entry if it runs. Not the other
# processes': a capture passed around for analysis should not list them (so a tree without
# irqbalance reads as "unknown", not "not running").
for c in system.slice unified/system.slice systemd/system.slice; do
	grab "/sys/fs/cgroup/$c/irqbalance.service/cgroup.procs" \
		"$out/sys/fs/cgroup/$c/irqbalance.service/cgroup.procs"
done
for p in $(pgrep -x irqbalance 2>/dev/null); do grab "/proc/$p/comm" "$out/proc/$p/comm"; done

# The interface directory, without following its symlinks (subsystem, device).
src=/sys/class/net/$ifc
dst=$out/sys/class/net/$ifc
mkdir -p "$dst"
for f in ifindex mtu tx_queue_len speed duplex operstate carrier_changes carrier_up_count \
	 carrier_down_count gro_flush_timeout napi_defer_hard_irqs threaded; do
	grab "$src/$f" "$dst/$f"
done
for f in "$src"/statistics/*; do grab "$f" "$dst/statistics/$(basename "$f")"; done
for q in "$src"/queues/*; do
	qn=$(basename "$q")
	mkdir -p "$dst/queues/$qn"
	for f in rps_cpus rps_flow_cnt xps_cpus; do grab "$q/$f" "$dst/queues/$qn/$f"; done
done

# The device: keep the real layout (class/net/IF/device -> devices/...), relative links only.
if [ -e "$src/device" ]; then
	dev=$(readlink -f "$src/device")
	pci=$dev
	[ -e "$pci/subsystem_vendor" ] || pci=$(dirname "$dev")
	rel=${dev#/sys/}
	mkdir -p "$out/sys/$rel"
	ln -sfn "../../../$rel" "$dst/device"
	[ -e "$dev/driver" ] && ln -sfn "$(readlink "$dev/driver")" "$out/sys/$rel/driver"
	prel=${pci#/sys/}
	for f in uevent numa_node local_cpulist subsystem_vendor vendor device current_link_speed \
		 max_link_speed current_link_width max_link_width aer_dev_correctable \
		 aer_dev_nonfatal aer_dev_fatal irq config; do
		grab "$pci/$f" "$out/sys/$prel/$f"
	done
	if [ -d "$pci/msi_irqs" ]; then
		mkdir -p "$out/sys/$prel/msi_irqs"
		for i in "$pci"/msi_irqs/*; do
			n=$(basename "$i")
			grab "$i" "$out/sys/$prel/msi_irqs/$n"
			for f in smp_affinity_list effective_affinity_list; do
				grab "/proc/irq/$n/$f" "$out/proc/irq/$n/$f"
			done
		done
	fi
fi
echo "captured $ifc into $out"
