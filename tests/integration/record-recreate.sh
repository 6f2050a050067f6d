#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# An interface created again under the recorder (a driver reload, a container's veth): its
# counters start over, so no rate may span the moment. The recorder finds it again and begins
# a new run; history shows a gap there and doctor --at across it is UNKNOWN (exit 3), while
# windows on either side are judged.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv
dir="$NP_TMP/rec"
now() { date +%s.%N; }
np_bg ip netns exec "$NS_B" "$NETPATH" record vb --dir "$dir" --every 1
rec=$NP_LAST_PID
np_wait_until "$NP_WAIT" "the recorder's first segment" sh -c "ls '$dir'/*.nprec"
t0=$(now)
np_rec_wait "$dir" "$(("${t0%.*}" + 3))"
# The pair deleted and made again: vb has a new ifindex and counters from zero.
ip -n "$NS_A" link del va
gone=$(now)
sleep 2
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B" || np_fail "veth again"
ip -n "$NS_B" addr add 198.18.0.2/24 dev vb
ip -n "$NS_A" link set va up
ip -n "$NS_B" link set vb up
back=$(now)
np_rec_wait "$dir" "$(("${back%.*}" + 4))"
np_stop "$rec"

"$NETPATH" history --root "$dir" --json > "$NP_TMP/h.json" || np_fail "history failed"
np_validate "$NP_TMP/h.json"
np_assert_json "$NP_TMP/h.json" "any(g['from'] <= $back and g['to'] >= $gone for g in d['gaps'])"
out=$("$NETPATH" doctor --root "$dir" --at "@$("$NP_PY" -c "print($gone - 1)")" --window 4 2>&1)
[ $? -eq 3 ] || np_fail "doctor --at across the re-creation: not UNKNOWN: $out"
"$NETPATH" doctor --root "$dir" --at "@$("$NP_PY" -c "print($t0)")" --window 2 --json > "$NP_TMP/before.json"
[ $? -le 2 ] || np_fail "doctor --at before the re-creation failed"
"$NETPATH" doctor --root "$dir" --at "@$("$NP_PY" -c "print($back + 1)")" --window 2 --json > "$NP_TMP/after.json"
[ $? -le 2 ] || np_fail "doctor --at after the re-creation failed"
np_assert_json "$NP_TMP/after.json" 'd["interface"] == "vb"'
echo "PASS"
