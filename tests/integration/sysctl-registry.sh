#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Facts a check asks for are facts the collector reads (src/model/sysctl_registry.h), proven
# through the whole --root path rather than with keys added by hand: an IPv6 router with LRO on
# (ip_forward 0, net.ipv6.conf.all.forwarding 1) is warned. Before the registry the collector
# never read the IPv6 key, so irq.gro judged the router an end host (its unit test added the
# key by hand; tests/unit/checks/synth.c now refuses a key the registry lacks).
. "$(dirname "$0")/lib.sh"
SOS="$NP_SRCDIR/tests/fixtures/sos/sos4.0-debian12-virtio"
[ -d "$SOS" ] || np_skip "no sosreport fixture"

tree="$NP_TMP/router"
cp -a "$SOS" "$tree"
sed -i 's/^net.ipv6.conf.all.forwarding = 0$/net.ipv6.conf.all.forwarding = 1/' \
	"$tree/sos_commands/kernel/sysctl_-a"
sed -i 's/^large-receive-offload: off \[fixed\]$/large-receive-offload: on/' \
	"$tree/sos_commands/networking/ethtool_-k_eth0"
grep -q '^net.ipv6.conf.all.forwarding = 1$' "$tree/sos_commands/kernel/sysctl_-a" ||
	np_fail "fixture edit: no IPv6 forwarding line"
grep -q '^large-receive-offload: on$' "$tree/sos_commands/networking/ethtool_-k_eth0" ||
	np_fail "fixture edit: no LRO line"

"$NETPATH" doctor eth0 --root "$tree" --config /dev/null --check irq.gro --json \
	> "$NP_TMP/router.json" 2> "$NP_TMP/router.err"
rc=$?
[ "$rc" -le 2 ] || np_fail "doctor on the router tree: exit $rc: $(head -3 "$NP_TMP/router.err")"
np_assert_json "$NP_TMP/router.json" \
	'any(f["id"] == "irq.gro" and f["severity"] == "warning" and
	     any(e["key"] == "net.ipv6.conf.all.forwarding" and e["value"] == 1
		 for e in f["evidence"]) for f in d["findings"])'

# The same tree as an end host (IPv6 forwarding off): LRO is harmless there.
sed -i 's/^net.ipv6.conf.all.forwarding = 1$/net.ipv6.conf.all.forwarding = 0/' \
	"$tree/sos_commands/kernel/sysctl_-a"
"$NETPATH" doctor eth0 --root "$tree" --config /dev/null --check irq.gro --json \
	> "$NP_TMP/host.json" 2> "$NP_TMP/host.err"
np_assert_json "$NP_TMP/host.json" \
	'not any(f["id"] == "irq.gro" for f in d["findings"])'
echo "ok: LRO on an IPv6 router is judged from the collected sysctl"
