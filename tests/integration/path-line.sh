#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The delay line of the `netpath path` scenarios, measured without netpath: npdelay
# (tests/helpers/npdelay.c) between namespaces S and R (lib_delay.sh) with 30 ms each way gives
# a round trip of ~60 ms; roomy buffers carry well over 50 Mbit/s through it; with a
# 128 KiB tcp_wmem (sender) or tcp_rmem (receiver) max it stays far below; with
# --rate-mbit 50 the transfer settles at the bottleneck (40..52 Mbit/s), and npdelay counts
# frames both ways and queue drops only when it serialises.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_delay.sh"
np_require_root
PROBE="$(dirname "$0")/path_probe.py"

# measure NAME SECONDS: one TCP transfer S -> R; prints "Mbit/s".
measure() {
	local ready="$NP_TMP/$1.ready" out="$NP_TMP/$1.out" pid
	ip netns exec "$NS_R" "$NP_PY" "$PROBE" sink "$NP_R_ADDR" 5201 "$ready" > "$out" 2>&1 < /dev/null &
	pid=$!
	np_wait_file "$ready" "probe sink"
	timeout 60 ip netns exec "$NS_S" "$NP_PY" "$PROBE" send "$NP_R_ADDR" 5201 "$2" ||
		np_fail "probe send failed"
	wait "$pid"
	awk '$2 > 0 { printf "%.1f\n", $1 * 8 / $2 / 1e6 }' "$out"
}

# rtt: the median TCP handshake time S -> R in ms (a listener in R that only accepts).
rtt() {
	np_bg ip netns exec "$NS_R" "$NP_PY" -c "
import socket; s = socket.socket(); s.bind(('$NP_R_ADDR', 5202)); s.listen(64)
open('$NP_TMP/rtt.ready', 'w').close()
while True: s.accept()[0].close()" > /dev/null 2>&1
	np_wait_file "$NP_TMP/rtt.ready" "rtt listener"
	ip netns exec "$NS_S" "$NP_PY" "$PROBE" rtt "$NP_R_ADDR" 5202 7 > "$NP_TMP/rtt.out" ||
		np_fail "rtt probe failed"
	np_stop "$NP_LAST_PID"
	cat "$NP_TMP/rtt.out"
}

# 1. Delay only, roomy buffers.
np_delay_line --delay-ms 30
np_delay_bufs "$NS_S" 33554432 33554432
np_delay_bufs "$NS_R" 33554432 33554432
rtt > /dev/null
r=$(cat "$NP_TMP/rtt.out")
echo "delay 30 ms each way: TCP handshake RTT $r ms"
awk -v r="$r" 'BEGIN { exit !(r >= 58 && r <= 80) }' || np_fail "RTT $r ms, want 58..80"
m=$(measure free 6)
echo "delay 30 ms, roomy buffers: $m Mbit/s"
awk -v m="$m" 'BEGIN { exit !(m > 60) }' || np_fail "only $m Mbit/s through the plain line"
# The preconditions of path-sender-buffer and path-receiver-window, without netpath: a 128 KiB
# tcp_wmem max on the sender, or tcp_rmem max on the receiver, holds the same line far below it.
np_delay_bufs "$NS_S" 33554432 131072
m=$(measure small-wmem 5)
echo "delay 30 ms, sender tcp_wmem max 128 KiB: $m Mbit/s"
awk -v m="$m" 'BEGIN { exit !(m < 30) }' || np_fail "$m Mbit/s with a 128 KiB sender buffer"
np_delay_bufs "$NS_S" 33554432 33554432
np_delay_bufs "$NS_R" 131072 33554432
m=$(measure small-rmem 5)
echo "delay 30 ms, receiver tcp_rmem max 128 KiB: $m Mbit/s"
awk -v m="$m" 'BEGIN { exit !(m < 30) }' || np_fail "$m Mbit/s with a 128 KiB receive buffer"
np_delay_counters
c=$NP_DELAY_COUNTERS
echo "$c" | grep -q 'a->b: forwarded [1-9][0-9]*, dropped queue 0 police 0' ||
	np_fail "counters: $c"
np_delay_down

# 2. A 50 Mbit/s bottleneck with a queue of one BDP (50 Mbit/s * 60 ms = 375 kB).
np_delay_line --delay-ms 30 --rate-mbit 50 --queue-bytes 375000
np_delay_bufs "$NS_S" 33554432 33554432
np_delay_bufs "$NS_R" 33554432 33554432
m=$(measure bottleneck 8)
echo "delay 30 ms, 50 Mbit/s bottleneck: $m Mbit/s"
awk -v m="$m" 'BEGIN { exit !(m >= 40 && m <= 52) }' || np_fail "$m Mbit/s, want 40..52"
np_delay_counters
np_delay_down

# 3. A 20 Mbit/s policer: UDP offered at 40 Mbit/s is delivered at ~20 (16..22), no queue.
np_delay_line --delay-ms 30 --police-mbit 20
ready="$NP_TMP/udp.ready"
ip netns exec "$NS_R" "$NP_PY" "$PROBE" udp-sink "$NP_R_ADDR" 5203 "$ready" \
	> "$NP_TMP/udp.out" 2>&1 < /dev/null &
pid=$!
np_wait_file "$ready" "udp sink"
timeout 30 ip netns exec "$NS_S" "$NP_PY" "$PROBE" udp-send "$NP_R_ADDR" 5203 40 5 ||
	np_fail "udp send failed"
wait "$pid"
m=$(awk '$2 > 0 { printf "%.1f\n", $1 * 8 / $2 / 1e6 }' "$NP_TMP/udp.out")
echo "delay 30 ms, 20 Mbit/s policer, UDP offered at 40 Mbit/s: delivered $m Mbit/s"
awk -v m="$m" 'BEGIN { exit !(m >= 16 && m <= 22) }' || np_fail "$m Mbit/s, want 16..22"
np_delay_counters
c=$NP_DELAY_COUNTERS
echo "$c" | grep -q 'a->b: forwarded [1-9][0-9]*, dropped queue 0 police [1-9]' ||
	np_fail "counters: $c"
echo "ok"
