#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Scenario 3: a listener with backlog 4 that never accepts and a burst of 30 connects from the
# other namespace -> socket (accept queue), naming the listener's address and port.
. "$(dirname "$0")/scen_lib.sh"
np_require_root
np_pair cli srv

scen_bg "$NS_B" listener listen 198.18.0.2 8080 4
scen_bg "$NS_A" connects connect-burst 198.18.0.2 8080 30
np_wait_counter "$NS_B" TcpExtListenOverflows
scen_doctor "$NS_B" vb
# SYN retries keep ListenOverflows growing during the sample. trace has nothing to count: the
# kernel consumes a SYN refused for a full accept queue without a drop reason (checked on
# 6.18: trace on vb counts no drop while ListenOverflows grows).
SCEN_TRACE=(--trace-na "n/a (SYNs refused by a full accept queue carry no drop reason)")
# socket.listen-overflow is the host-wide (netns) counter of the same overflows, same stage.
scen_assert --stage socket --check socket.listen-queue \
	--also 'socket.listen-overflow>=warning' \
	--summary 'socket.listen-queue=198.18.0.2:8080' \
	--evidence 'socket.listen-queue=port' \
	--remedy 'socket.listen-queue=listen() backlog'
