#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath path, issue #34 scenario (d): npdelay polices at 20 Mbit/s (a token bucket with a
# 5 ms burst, drops above the rate, no queue), both ends roomy; --udp-steps offers rising UDP
# rates and delivery plateaus with loss: limited by a policer on the path, policer_bps within 25%
# of 20 Mbit/s, exit 0.
# Topology: lib_delay.sh (namespaces S and R joined by npdelay, 30 ms each way); tcp_rmem and
# tcp_wmem are set inside those namespaces only. Skips (77) without root, or while this build has
# no `netpath path` command.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_delay.sh"
np_require_root
np_path_require
np_delay_line --delay-ms 30 --police-mbit 20
np_delay_bufs "$NS_S" 33554432 33554432
np_delay_bufs "$NS_R" 33554432 33554432
key=$(np_path_key k)
np_path_serve "$key"
np_path_run "$key" --duration 8 --udp-steps
echo "udp_steps: $("$NP_PY" -c "import json,sys; print(json.load(open(sys.argv[1]))['udp_steps'])" "$NP_TMP/path.json")"
np_path_check "j['limited_by'] == 'policer'" "j['side'] == 'path'" \
	"abs(j['evidence']['policer_bps'] - 20e6) <= 0.25 * 20e6" "len(j['udp_steps']) >= 2"
[ "$NP_PATH_RC" -eq 0 ] || np_fail "exit $NP_PATH_RC, want 0 (the path itself is the limit)"
np_path_served
echo ok
