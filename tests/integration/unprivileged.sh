#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Without root doctor still runs, and says what it could not read.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || np_skip "needs root to switch to an unprivileged user"
command -v setpriv >/dev/null || np_skip "no setpriv"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody test -x "$NETPATH" || np_skip "the build directory is not reachable by nobody"
dev=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") print $(i + 1); exit}')
[ -n "$dev" ] || dev=lo

as_nobody "$NETPATH" doctor "$dev" --interval 0.2 --json > "$NP_TMP/out.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "exit code $rc as nobody"
np_validate "$NP_TMP/out.json"
np_assert_json "$NP_TMP/out.json" 'd["interface"] == "'"$dev"'" and len(d["findings"]) >= 0 and len(d["checks"]) > 20'
if [ -e "/sys/class/net/$dev/device" ] && ls -d /sys/class/net/"$dev"/device/../config /sys/class/net/"$dev"/device/config >/dev/null 2>&1; then
	# PCI config space past 64 bytes needs root: reported, not silently zero.
	np_assert_json "$NP_TMP/out.json" 'any(u["source"] == "pcie_config" and u["status"] in ("denied", "absent") for u in d["unavailable"])'
fi
as_nobody "$NETPATH" doctor "$dev" --interval 0 --color=never > "$NP_TMP/out.txt"
grep -q "unavailable" "$NP_TMP/out.txt" || np_fail "text output does not say what was unavailable"
echo "PASS"
