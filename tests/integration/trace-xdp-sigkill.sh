#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The XDP counter lives only as long as the process: after SIGKILL in the middle of
# trace --xdp, no XDP program is attached to the interface and no BPF link or program of ours
# remains (the kernel detached it when the link's last fd closed). SIGTERM and SIGINT end the
# trace early, still report, and leave nothing behind either.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/xdp_lib.sh"
np_require_root
xdp_require_bpf
np_pair a b

ip netns exec "$NS_A" "$NETPATH" trace va --xdp --duration 60 --json > /dev/null 2>&1 &
pid=$!
xdp_wait_attached "$NS_A" va
id=$(xdp_state "$NS_A" va | cut -d' ' -f2)
bpftool prog show id "$id" 2>/dev/null | grep -q np_xdp_count ||
	{ ! command -v bpftool > /dev/null || np_fail "program $id is not netpath's counter"; }
kill -KILL "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 137 ] || np_fail "trace was not killed by SIGKILL (exit $rc)"
xdp_assert_clean "$NS_A" va "$id"

for sig in TERM INT; do
	ip netns exec "$NS_A" "$NETPATH" trace va --xdp --duration 60 --json \
		> "$NP_TMP/$sig.json" 2> "$NP_TMP/$sig.err" &
	pid=$!
	xdp_wait_attached "$NS_A" va
	id=$(xdp_state "$NS_A" va | cut -d' ' -f2)
	start=$(date +%s)
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "SIG$sig: trace exited $rc: $(cat "$NP_TMP/$sig.err")"
	[ $(($(date +%s) - start)) -le 5 ] || np_fail "SIG$sig: trace took more than 5 s to stop"
	np_validate "$NP_TMP/$sig.json"
	np_assert_json "$NP_TMP/$sig.json" "d['xdp']['mode'] == 'native'"
	np_assert_json "$NP_TMP/$sig.json" "d['xdp']['program_id'] == $id"
	np_assert_json "$NP_TMP/$sig.json" "d['interrupted']"
	xdp_assert_clean "$NS_A" va "$id"
done
echo "PASS"
