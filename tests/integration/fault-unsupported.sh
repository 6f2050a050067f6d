#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Devices whose drivers answer EOPNOTSUPP to most ethtool requests (lo, veth, ifb, dummy): a
# degraded report, not a failure. Every ethtool source is either read or "unsupported" with
# "driver does not report ...", the checks that need it say they were skipped, and watch runs.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair a b
ip -n "$NS_A" link add nif0 type ifb 2>/dev/null && ip -n "$NS_A" link set nif0 up
ip -n "$NS_A" link add ndm0 type dummy 2>/dev/null && ip -n "$NS_A" link set ndm0 up

checked=0
for dev in lo va nif0 ndm0; do
	ip -n "$NS_A" link show "$dev" > /dev/null 2>&1 || continue	# module not available
	ip netns exec "$NS_A" "$NETPATH" doctor "$dev" --interval 0.2 --json \
		> "$NP_TMP/$dev.json" 2> "$NP_TMP/$dev.err"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "$dev: exit $rc: $(cat "$NP_TMP/$dev.err")"
	[ ! -s "$NP_TMP/$dev.err" ] || np_fail "$dev: stderr: $(cat "$NP_TMP/$dev.err")"
	np_validate "$NP_TMP/$dev.json"
	"$NP_PY" - "$NP_TMP/$dev.json" "$dev" <<'PY' || np_fail "$dev: ethtool sources not reported as unsupported"
import json, sys
d, dev = json.load(open(sys.argv[1])), sys.argv[2]
un = {u["source"]: u for u in d["unavailable"]}
nic = [s for s in un if s.startswith("ethtool_") or s in ("driver_stats", "netdev_qstats")]
bad = [un[s] for s in nic if un[s]["status"] != "unsupported" or
       not un[s]["reason"].startswith("driver does not report")]
if bad:
    sys.exit(f"{dev}: {bad}")
if dev == "lo" and len(nic) < 8:
    sys.exit(f"lo: only {nic} unsupported: loopback has no rings, channels, coalescing, ...")
# The checks that need what the driver does not report are skipped, saying so: no verdict
# from data that was never read.
needs = {"nic.ring-size": "ethtool_rings", "irq.coalescing": "ethtool_coalesce",
         "irq.rss-channels": "ethtool_channels", "link.speed-below-best": "ethtool_linkmodes"}
for c in d["checks"]:
    src = needs.get(c["id"])
    if src in un and (c["state"] != "skipped" or "driver does not report" not in c.get("reason", "")):
        sys.exit(f"{dev}: {c['id']} is {c['state']} ({c.get('reason')}) without {src}")
PY
	ip netns exec "$NS_A" "$NETPATH" watch "$dev" --count 2 --interval 0.2 \
		> "$NP_TMP/$dev.watch" 2> "$NP_TMP/$dev.werr"
	rc=$?
	[ "$rc" -eq 0 ] || np_fail "$dev: watch exit $rc: $(cat "$NP_TMP/$dev.werr")"
	[ "$(grep -c "^netpath watch $dev" "$NP_TMP/$dev.watch")" -eq 2 ] ||
		np_fail "$dev: watch did not print 2 frames"
	checked=$((checked + 1))
done
[ "$checked" -ge 2 ] || np_fail "only $checked devices checked"
# lo in text: the unsupported sources are listed, in the driver's words.
ip netns exec "$NS_A" "$NETPATH" doctor lo --interval 0 --color=never > "$NP_TMP/lo.txt"
[ $? -le 2 ] || np_fail "lo text"
grep -q "unsupported: driver does not report rings" "$NP_TMP/lo.txt" ||
	np_fail "lo: text does not say the driver does not report rings"
echo "PASS"
