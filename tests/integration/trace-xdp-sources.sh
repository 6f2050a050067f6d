#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# trace --xdp counts per source address: two IPv4 senders with distinct addresses and an IPv6
# sender, each sending a known number of UDP datagrams (nptraffic prints what it sent), must be
# counted within 1% per source, in native and generic mode; the sources plus "other" plus
# non-IP add up to the total; --top 1 keeps one source and puts the rest in "other"; --top 0
# counts none; nothing stays attached afterwards.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/xdp_lib.sh"
np_require_root
xdp_require_bpf
np_pair a b
ip -n "$NS_A" addr add 198.18.0.3/24 dev va || np_fail "second sender address"
# IPv6 in the documentation prefix, inside the namespaces only; nodad: usable at once.
ip -n "$NS_A" addr add 2001:db8::1/64 dev va nodad || np_skip "no IPv6 here"
ip -n "$NS_B" addr add 2001:db8::2/64 dev vb nodad || np_skip "no IPv6 here"
N1=3000 N3=1500 N6=1000

# send NAME SRC DST COUNT: COUNT datagrams of 100 bytes to DST:9 from SRC, paced (20 per ms)
# so that no ring overflows; the count nptraffic reports is written to $NP_TMP/NAME.sent.
send() {
	ip netns exec "$NS_A" "$NPTRAFFIC" udp-flood "$3" 9 --src "$2" --count "$4" --size 100 \
		--burst 20 --gap-ms 1 --max-seconds "$NP_WAIT" > "$NP_TMP/$1.log" 2>&1 ||
		np_fail "sending from $2 failed: $(cat "$NP_TMP/$1.log")"
	sed -n 's/^nptraffic udp-flood: sent \([0-9]*\),.*/\1/p' "$NP_TMP/$1.log" > "$NP_TMP/$1.sent"
	[ -s "$NP_TMP/$1.sent" ] || np_fail "nptraffic did not say what it sent: $(cat "$NP_TMP/$1.log")"
}

# One datagram from each address first, so ARP and neighbour discovery are done before
# counting starts.
send warm1 198.18.0.1 198.18.0.2 1
send warm3 198.18.0.3 198.18.0.2 1
send warm6 2001:db8::1 2001:db8::2 1

# src FILE ADDR: the source's entry in the JSON's xdp.sources.
src() { echo "next(s for s in d['xdp']['sources'] if s['addr'] == '$1')"; }

for mode in native generic; do
	out="$NP_TMP/$mode.json"
	ip netns exec "$NS_B" "$NETPATH" trace vb --xdp --xdp-mode "$mode" --duration 8 --json \
		> "$out" 2> "$NP_TMP/$mode.err" &
	pid=$!
	xdp_wait_attached "$NS_B" vb
	id=$(xdp_state "$NS_B" vb | cut -d' ' -f2)
	send s1 198.18.0.1 198.18.0.2 "$N1"
	send s3 198.18.0.3 198.18.0.2 "$N3"
	send s6 2001:db8::1 2001:db8::2 "$N6"
	kill -0 "$pid" 2> /dev/null || np_fail "$mode: the 8 s trace ended before all was sent (machine too loaded?)"
	wait "$pid"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "$mode: trace exited $rc: $(cat "$NP_TMP/$mode.err")"
	np_validate "$out"
	for s in 1 3 6; do
		sent=$(cat "$NP_TMP/s$s.sent")
		case $s in 1) a=198.18.0.1 ;; 3) a=198.18.0.3 ;; 6) a=2001:db8::1 ;; esac
		# Every datagram, and at most 1% more (neighbour solicitations, MLD reports).
		np_assert_json "$out" "$sent <= $(src "$a")['packets'] <= $sent * 1.01"
		# 100 bytes of payload + UDP + IP (20 or 40) + Ethernet headers.
		np_assert_json "$out" "$(src "$a")['bytes'] >= $sent * ($s == 6 and 162 or 142)"
	done
	# The busiest first; nothing unaccounted for.
	np_assert_json "$out" "[s['addr'] for s in d['xdp']['sources']][:3] == ['198.18.0.1', '198.18.0.3', '2001:db8::1']"
	np_assert_json "$out" "sum(s['packets'] for s in d['xdp']['sources']) + d['xdp']['sources_other']['packets'] + d['xdp']['sources_non_ip']['packets'] == d['xdp']['packets']"
	np_assert_json "$out" "sum(s['bytes'] for s in d['xdp']['sources']) + d['xdp']['sources_other']['bytes'] + d['xdp']['sources_non_ip']['bytes'] == d['xdp']['bytes']"
	np_assert_json "$out" "d['xdp']['sources_unkeyed']['packets'] == 0 and d['xdp']['sources_map']['cap'] == 4096 and d['xdp']['sources_map']['keys'] >= 3"
	xdp_assert_clean "$NS_B" vb "$id"
done

# Text, --top 1: the busiest source, the others summed.
ip netns exec "$NS_B" "$NETPATH" trace vb --xdp --top 1 --duration 6 > "$NP_TMP/top1.txt" \
	2> "$NP_TMP/top1.err" &
pid=$!
xdp_wait_attached "$NS_B" vb
send t1 198.18.0.1 198.18.0.2 400
send t3 198.18.0.3 198.18.0.2 200
wait "$pid"
[ $? -le 2 ] || np_fail "trace --top 1 failed: $(cat "$NP_TMP/top1.err")"
grep -q "Top 1 sources (a per-CPU map of 4096 keys, [0-9]* used):" "$NP_TMP/top1.txt" ||
	np_fail "no sources header: $(cat "$NP_TMP/top1.txt")"
grep -Eq "^    198\.18\.0\.1 +4[0-9][0-9] packets" "$NP_TMP/top1.txt" ||
	np_fail "no line for 198.18.0.1: $(cat "$NP_TMP/top1.txt")"
grep -Eq "^    \(other sources\) +2[0-9][0-9] packets" "$NP_TMP/top1.txt" ||
	np_fail "198.18.0.3 not in (other sources): $(cat "$NP_TMP/top1.txt")"
grep -q "198.18.0.3" "$NP_TMP/top1.txt" && np_fail "--top 1 listed a second source"

# --top 0: no attribution at all, the sources not even counted.
ip netns exec "$NS_B" "$NETPATH" trace vb --xdp --top 0 --duration 1 --json > "$NP_TMP/top0.json" ||
	[ $? -le 2 ] || np_fail "trace --top 0 failed"
np_validate "$NP_TMP/top0.json"
np_assert_json "$NP_TMP/top0.json" "d['xdp']['sources'] is None and d['xdp']['sources_map'] is None"
xdp_assert_clean "$NS_B" vb
echo "PASS"
