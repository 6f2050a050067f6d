#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath path, issue #34 scenario (b): the receiver's tcp_rmem max is 128 KiB, far below the
# 30+30 ms path's BDP, and the sender is roomy: limited by receiver-window on the receiver, the
# fix names tcp_rmem, exit 1.
# Topology: lib_delay.sh (namespaces S and R joined by npdelay, 30 ms each way); tcp_rmem and
# tcp_wmem are set inside those namespaces only. Skips (77) without root, or while this build has
# no `netpath path` command.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_delay.sh"
np_require_root
np_path_require
np_delay_line --delay-ms 30
np_delay_bufs "$NS_S" 33554432 33554432
np_delay_bufs "$NS_R" 131072 33554432
key=$(np_path_key k)
np_path_serve "$key"
np_path_run "$key" --duration 8
np_path_check "j['limited_by'] == 'receiver-window'" "j['side'] == 'receiver'" \
	"'tcp_rmem' in j['fix']['text']" "j['evidence']['share_rwnd_limited'] >= 0.1"
[ "$NP_PATH_RC" -eq 1 ] || np_fail "exit $NP_PATH_RC, want 1 (a host-side cause with a fix)"
np_path_served
echo ok
