#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 11: a healthy baseline: namespace defaults, modest traffic (about 2,000 datagrams/s
# to a reader that keeps up) -> no warning or critical anywhere.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv

scen_bg "$NS_B" udp-sink 198.18.0.2 9000 9 --drain
sleep 0.3
scen_bg "$NS_A" udp-flood 198.18.0.2 9000 8 --burst 10 --gap-ms 5
sleep 1
scen_doctor "$NS_B" vb
SCEN_TRACE=(--trace-na "n/a (nothing to drop)")
scen_assert --max-severity info
