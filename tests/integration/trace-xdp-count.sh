#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# trace --xdp on a veth counts exactly the frames that arrive: N UDP datagrams sent from the
# peer namespace, counted within a few frames of IPv6 noise, in native and in generic mode;
# per-queue and per-CPU rows add up to the total, and nothing stays attached afterwards.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/xdp_lib.sh"
np_require_root
xdp_require_bpf
np_pair a b
N=2000

# One datagram first, so ARP is resolved before counting starts.
xdp_send_udp "$NS_B" 198.18.0.1 1

for mode in native generic; do
	out="$NP_TMP/$mode.json"
	ip netns exec "$NS_A" "$NETPATH" trace va --xdp --xdp-mode "$mode" --duration 6 --json \
		> "$out" 2> "$NP_TMP/$mode.err" &
	pid=$!
	xdp_wait_attached "$NS_A" va
	want=$([ "$mode" = native ] && echo 1 || echo 2)
	[ "$(xdp_state "$NS_A" va | cut -d' ' -f1)" = "$want" ] ||
		np_fail "$mode: IFLA_XDP reports mode $(xdp_state "$NS_A" va), expected $want"
	id=$(xdp_state "$NS_A" va | cut -d' ' -f2)
	xdp_send_udp "$NS_B" 198.18.0.1 "$N"
	# All sent while the trace still counted, or the count below cannot hold.
	kill -0 "$pid" 2> /dev/null || np_fail "$mode: the 6 s trace ended before $N datagrams were sent ($(cat "$NP_TMP/send.log"); machine too loaded?)"
	wait "$pid"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "$mode: trace exited $rc: $(cat "$NP_TMP/$mode.err")"
	np_validate "$out"
	np_assert_json "$out" "d['xdp']['mode'] == '$mode'"
	np_assert_json "$out" "d['xdp']['program_id'] == $id"
	# Every datagram, plus at most a few IPv6 router solicitations / MLD reports.
	np_assert_json "$out" "$N <= d['xdp']['packets'] <= $N + 10"
	# 100 bytes of payload + UDP + IPv4 + Ethernet headers = 142 bytes a frame.
	np_assert_json "$out" "d['xdp']['bytes'] >= $N * 142"
	for list in per_queue per_cpu; do
		for what in packets bytes; do
			np_assert_json "$out" \
				"sum(r['$what'] for r in d['xdp']['$list']) == d['xdp']['$what']"
		done
	done
	np_assert_json "$out" "[q['queue'] for q in d['xdp']['per_queue']] == [0]"
	xdp_assert_clean "$NS_A" va "$id"
done
echo "PASS"
