#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 8a: tcp_mem typed as if in bytes (768 MiB / 1 GiB / 1.5 GiB meant; in pages that is
# 3-6 TiB, more than this machine's RAM) -> socket. tcp_mem is host-global and hidden inside
# network namespaces, so doctor runs in the initial namespace (reading only; on lo, which every
# host has); the EXIT trap restores the old value.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_sysctl_set net.ipv4.tcp_mem "805306368 1073741824 1610612736"

scen_doctor - lo --interval 1
SCEN_TRACE=(--trace-na "n/a (a configuration finding: nothing is dropped)")
# Host-global counters (softnet_stat) show what other traffic on this machine does:
# softnet.single-cpu on a one-queue virtual NIC under load.
scen_assert --stage socket --check socket.tcp-mem \
	--summary 'socket.tcp-mem=looks like bytes' \
	--evidence 'socket.tcp-mem=MemTotal' \
	--evidence 'socket.tcp-mem=tcp_mem' \
	--allow softnet.single-cpu \
	--note "tcp_mem is host-global: doctor on lo in the initial namespace"
