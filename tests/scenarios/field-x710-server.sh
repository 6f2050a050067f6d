#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Field report: a 16-core server with an Intel X710 at 10G (tests/fixtures/trees/x710-server):
# RX ring 512 of 4096 and NIC missed counters rising, netdev_max_backlog 1000 with heavy backlog
# drops on CPUs 0-3, only 4 of 16 queues active with their IRQs on CPUs 0-3 -> findings in nic,
# softnet and irq, each with its remedy; the backlog drops (12,000/s) are the worst.
. "$(dirname "$0")/scen_lib.sh"
scen_doctor_root "$NP_SRCDIR/tests/fixtures/trees/x710-server"
SCEN_TRACE=(--trace-na "n/a (a captured tree)")
# A captured tree has no ethtool: the ring size (512 of 4096) is the nic.missed remedy's to
# raise, nic.ring-size cannot run.
scen_assert --stage softnet --check softnet.backlog-drops \
	--also 'nic.missed>=critical' --also 'irq.affinity>=critical' \
	--also 'softnet.time-squeeze>=warning' \
	--evidence 'softnet.backlog-drops=cpu0.dropped>=3000' \
	--evidence 'softnet.backlog-drops=cpu3.dropped>=3000' \
	--evidence 'nic.missed=rx_missed_errors>=9000' \
	--remedy 'softnet.backlog-drops=net.core.netdev_max_backlog=16384' \
	--remedy 'nic.missed=ethtool -G eth0 rx 4096' \
	--remedy 'irq.affinity=ethtool -L eth0 combined 8' \
	--remedy 'irq.affinity=rps_cpus' \
	--note "no ethtool in a tree: the ring is raised by nic.missed's remedy"
