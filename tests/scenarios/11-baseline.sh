#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 11: a healthy baseline: namespace defaults, modest traffic (about 2,000 datagrams/s
# to a reader that keeps up) -> no warning or critical anywhere.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair snd rcv

scen_bg "$NS_B" sink udp-sink 198.18.0.2 9000 --drain
scen_bg "$NS_A" flood udp-flood 198.18.0.2 9000 --burst 10 --gap-ms 5
np_wait_counter "$NS_B" UdpInDatagrams
scen_doctor "$NS_B" vb
SCEN_TRACE=(--trace-na "n/a (nothing to drop)")
scen_assert --max-severity info
