#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# doctor on the live default-route interface: valid JSON and consistent exit codes. Values are
# not asserted (a live NIC is not a fixture).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || np_skip "needs root"
dev=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") print $(i + 1); exit}')
[ -n "$dev" ] || np_skip "no default route on this machine"

"$NETPATH" doctor --interval 0.5 --json > "$NP_TMP/out.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "exit code $rc"
np_validate "$NP_TMP/out.json"
np_assert_json "$NP_TMP/out.json" 'd["interface"] == "'"$dev"'" and d["exit_code"] == '"$rc"
np_assert_json "$NP_TMP/out.json" 'len(d["checks"]) > 20 and len(d["funnel"]) >= 5'
# The driver's own counters and sysfs must have been read as root.
np_assert_json "$NP_TMP/out.json" 'not any(u["source"] in ("netdev_sysfs", "snmp", "netstat", "softnet_stat", "sysctl") for u in d["unavailable"])'
"$NETPATH" doctor "$dev" --interval 0.2 --color=always > "$NP_TMP/out.txt"
rc2=$?
[ "$rc2" -le 2 ] || np_fail "text mode exit code $rc2"
grep -q "Packet funnel" "$NP_TMP/out.txt" || np_fail "no funnel in text output"
grep -q "result:" "$NP_TMP/out.txt" || np_fail "no result line"
echo "PASS"
