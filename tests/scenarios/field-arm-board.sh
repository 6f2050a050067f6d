#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Field report: a 4-CPU arm64 board (GICv3/ITS interrupts) with an Intel X550-T1 in its PCIe
# 3.0 x4 slot (tests/fixtures/trees/arm-board): MPS 128 where the card supports 512, MTU 1500
# on 10G -> findings in pcie and link. Both are info: at 8 GT/s x4 the bus has ~26 Gbit/s left
# even at MPS 128, so netpath calls MPS a note, not a bottleneck, for a 10G port.
. "$(dirname "$0")/scen_lib.sh"
scen_doctor_root "$NP_SRCDIR/tests/fixtures/trees/arm-board"
SCEN_TRACE=(--trace-na "n/a (a captured tree)")
scen_assert --stage pcie --check pcie.mps --also link.mtu-jumbo \
	--evidence 'pcie.mps=mps<=128' --evidence 'pcie.mps=mps_supported>=512' \
	--remedy 'pcie.mps=pci=pcie_bus_perf' \
	--summary 'link.mtu-jumbo=MTU 1500' \
	--note "MPS 128 is info for a 10G port on a x4 Gen3 link"
