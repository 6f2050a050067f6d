#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# doctor on a veth inside a namespace: valid JSON, the right interface, degraded cleanly where a
# virtual device has no PCI device or IRQs of its own.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair a b

ip netns exec "$NS_B" "$NETPATH" doctor vb --interval 0.5 --json > "$NP_TMP/out.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "exit code $rc"
np_validate "$NP_TMP/out.json"
np_assert_json "$NP_TMP/out.json" 'd["interface"] == "vb" and d["interval_s"] > 0.4'
np_assert_json "$NP_TMP/out.json" 'd["exit_code"] == '"$rc"
# veth has no PCI device: PCIe data is "absent", and its checks say they were skipped.
np_assert_json "$NP_TMP/out.json" 'any(u["source"] == "pcie_link" and u["status"] == "absent" for u in d["unavailable"])'
np_assert_json "$NP_TMP/out.json" 'all(c["state"] == "skipped" for c in d["checks"] if c["stage"] == "pcie")'
np_assert_json "$NP_TMP/out.json" 'not any(u["source"] in ("netdev_sysfs", "snmp", "softnet_stat") for u in d["unavailable"])'
# Default interface inside the namespace: a default route via vb picks vb.
ip -n "$NS_B" route add default via 198.18.0.1 dev vb
ip netns exec "$NS_B" "$NETPATH" doctor --interval 0 --json > "$NP_TMP/def.json"
np_validate "$NP_TMP/def.json"
np_assert_json "$NP_TMP/def.json" 'd["interface"] == "vb"'
# No default route at all: a clear error, exit 3.
ip netns exec "$NS_A" "$NETPATH" doctor --interval 0 2> "$NP_TMP/err" && np_fail "expected failure"
[ $? -eq 3 ] || np_fail "expected exit 3 without a default route"
grep -q "no default route" "$NP_TMP/err" || np_fail "unclear error: $(cat "$NP_TMP/err")"
echo "PASS"
