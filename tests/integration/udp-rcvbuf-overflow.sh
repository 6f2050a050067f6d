#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A UDP receiver that never reads, flooded for a few seconds: doctor must flag stage "socket"
# with the rcvbuf evidence, based on the change over its sampling interval.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv

# The flood runs until the EXIT trap stops it; the drops are under way before doctor samples.
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000
np_wait_counter "$NS_B" UdpRcvbufErrors
ip netns exec "$NS_B" "$NETPATH" doctor vb --interval 2 --json > "$NP_TMP/out.json"
rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || np_fail "exit code $rc, expected 1 or 2 (warning/critical)"
np_validate "$NP_TMP/out.json"
np_assert_json "$NP_TMP/out.json" 'any(f["stage"] == "socket" and f["severity"] in ("warning", "critical") and any("rcvbuf" in e["key"].lower() and (e.get("per_second") or 0) > 0 for e in f["evidence"]) for f in d["findings"])'
np_assert_json "$NP_TMP/out.json" 'd["exit_code"] == (2 if d["status"] == "critical" else 1)'
# The funnel's socket row shows the drops as a rate over the interval.
np_assert_json "$NP_TMP/out.json" 'any(r["stage"] == "socket" and r["drops"] and (r["drops"]["per_second"] or 0) > 0 for r in d["funnel"])'
# Text mode names the same finding.
ip netns exec "$NS_B" "$NETPATH" doctor vb --interval 1 --color=never > "$NP_TMP/out.txt"
grep -q "== socket ==" "$NP_TMP/out.txt" || np_fail "text output has no socket stage"
echo "PASS"
