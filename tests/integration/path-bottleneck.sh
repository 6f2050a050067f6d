#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath path, issue #34 scenario (c): both ends roomy (32 MiB), and npdelay serialises at
# 50 Mbit/s through a tail-drop queue of one BDP (50 Mbit/s * 60 ms = 375 kB): limited by the
# bottleneck on the path at 40..52 Mbit/s (TCP's payload over 1514-byte frames at 50 Mbit/s is
# 47.8 Mbit/s at most; path-line measured ~46.5 over 8 s with slow start), exit 0.
# Topology: lib_delay.sh (namespaces S and R joined by npdelay, 30 ms each way); tcp_rmem and
# tcp_wmem are set inside those namespaces only. Skips (77) without root, or while this build has
# no `netpath path` command.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_delay.sh"
np_require_root
np_path_require
np_delay_line --delay-ms 30 --rate-mbit 50 --queue-bytes 375000
np_delay_bufs "$NS_S" 33554432 33554432
np_delay_bufs "$NS_R" 33554432 33554432
key=$(np_path_key k)
np_path_serve "$key"
np_path_run "$key" --duration 8
np_path_check "j['limited_by'] == 'bottleneck'" "j['side'] == 'path'" \
	"40e6 <= j['throughput_bps'] <= 52e6"
[ "$NP_PATH_RC" -eq 0 ] || np_fail "exit $NP_PATH_RC, want 0 (the path itself is the limit)"
np_path_served
echo ok
