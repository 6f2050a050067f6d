#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# trace --stack: a UDP flood to a closed port (NO_SOCKET) in a namespace; the busiest stack is
# that reason's, starts at the function that freed the skb (not in the tracing machinery)
# and passes through UDP's receive; the stacks account for every drop counted; without
# --stack the member is null.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
trace_require
np_pair snd rcv
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9005 --gap-ms 1

out=$NP_TMP/stack.json
ip netns exec "$NS_B" "$NETPATH" trace vb --stack --duration 2 --json > "$out" 2> "$NP_TMP/err"
[ $? -le 2 ] || np_fail "trace --stack failed: $(cat "$NP_TMP/err")"
trace_validate "$out"
trace_assert_drop "$out" NO_SOCKET transport
top="d['stacks']['top'][0]"
np_assert_json "$out" "$top['reason'] == 'NO_SOCKET' and $top['count'] > 0"
np_assert_json "$out" "not $top['frames'][0].startswith(('bpf_', '__bpf_', '__traceiter_', '0x'))"
np_assert_json "$out" "any(f.startswith('__udp4_lib_rcv+0x') for f in $top['frames'])"
# Every drop counted has its stack counted: the same total (the benign frees that the
# report hides included).
np_assert_json "$out" "d['stacks']['total'] == sum(x['count'] for x in d['drops']) + d['hidden_benign']"
np_assert_json "$out" "sum(s['count'] for s in d['stacks']['top']) + d['stacks']['other'] + d['stacks']['unrecorded'] + d['stacks']['unkeyed'] == d['stacks']['total']"

ip netns exec "$NS_B" "$NETPATH" trace vb --stack --duration 1 > "$NP_TMP/stack.txt"
grep -q "^Top kernel stacks of drops (--stack" "$NP_TMP/stack.txt" ||
	np_fail "no stacks in the text: $(cat "$NP_TMP/stack.txt")"
grep -Eq "^      __udp4_lib_rcv\+0x" "$NP_TMP/stack.txt" ||
	np_fail "no UDP frame in the text: $(cat "$NP_TMP/stack.txt")"

ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 --json > "$NP_TMP/nostack.json"
np_assert_json "$NP_TMP/nostack.json" "d['stacks'] is None"
echo "PASS"
