#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The rule behind NETFILTER_DROP: an iptables-nft DROP rule on port 9001 (an nftables rule with
# a counter) and an iptables-legacy DROP rule on port 9003 (x_tables), each flooded from its own
# sender. `netpath trace` must name each rule under NETFILTER_DROP with about the packets its
# flow lost in the window, in JSON (schema-valid) and text, and must not change either ruleset.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
trace_require
command -v iptables-nft > /dev/null || np_skip "iptables-nft not installed"
np_pair snd rcv
ip -n "$NS_A" addr add 198.18.0.3/24 dev va || np_fail "second sender address"
ip netns exec "$NS_B" iptables-nft -A INPUT -p udp --dport 9001 -j DROP ||
	np_skip "iptables-nft cannot add a rule here (no nf_tables?)"
legacy=0
if command -v iptables-legacy > /dev/null &&
	ip netns exec "$NS_B" iptables-legacy -A INPUT -p udp --dport 9003 -j DROP 2> /dev/null; then
	legacy=1
fi
# A steady, moderate rate: the rule counters are read a few milliseconds away from the BPF
# window's edges, which must stay small against the window's count.
np_traffic "$NS_A" flood1 udp-flood 198.18.0.2 9001 --src 198.18.0.1 --burst 8 --gap-ms 1
[ "$legacy" = 1 ] && np_traffic "$NS_A" flood3 udp-flood 198.18.0.2 9003 --src 198.18.0.3 --burst 8 --gap-ms 1
rule_packets() {
	ip netns exec "$NS_B" iptables-nft -L INPUT -v -x -n | awk '/dpt:9001/ {print $1}'
}
np_wait_moving "$NP_WAIT" "the nft DROP rule's packet counter" rule_packets
before_nft=$(ip netns exec "$NS_B" iptables-nft-save | grep -v '^[#:]')
before_legacy=$(ip netns exec "$NS_B" iptables-legacy-save 2> /dev/null | grep -v '^[#:]')

out=$NP_TMP/out.json
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 2 --json > "$out"
rc=$?
[ "$rc" -le 2 ] || np_fail "trace exited $rc"
trace_validate "$out"
trace_assert_drop "$out" NETFILTER_DROP ingress
"$NP_PY" -c 'import json, sys
x = next(x for x in json.load(open(sys.argv[1]))["drops"] if x["reason"] == "NETFILTER_DROP")
print("NETFILTER_DROP", x["count"], [(f["dport"], f["count"]) for f in x["top"]],
      [(r["source"], r["match"], r["packets"]) for r in x["rule"]])' "$out"
nf="next(x for x in d['drops'] if x['reason'] == 'NETFILTER_DROP')"
# flows(PORT): the window's NETFILTER_DROP drops of the flow to PORT, from the BPF side.
flows="sum(f['count'] for f in $nf['top'] if f['dport'] == %s)"
rule="next(r for r in $nf['rule'] if 'dport 9001' in r['match'])"
np_assert_json "$out" "$nf['rule_note']['nftables'] == 'read' and $nf['rule_note']['uncounted_drop_rules'] == 0"
np_assert_json "$out" "$rule['source'] == 'nftables' and $rule['family'] == 'ip' and $rule['table'] == 'filter' and $rule['chain'] == 'INPUT' and $rule['position'] == 1 and $rule['handle'] > 0 and $rule['verdict'] == 'drop'"
np_assert_json "$out" "$rule['match'] == 'meta l4proto udp udp dport 9001'"
# About the right count: within 5% (plus a few milliseconds of traffic) of what the tracepoint
# counted for that flow.
want=$(printf "$flows" 9001)
np_assert_json "$out" "$want > 100 and abs($rule['packets'] - $want) <= 0.05 * $want + 50"
if [ "$legacy" = 1 ]; then
	lrule="next(r for r in $nf['rule'] if r['source'] == 'iptables-legacy')"
	want=$(printf "$flows" 9003)
	np_assert_json "$out" "$lrule['match'] == '-p udp --dport 9003' and $lrule['chain'] == 'INPUT' and $lrule['handle'] is None and $lrule['position'] == 1"
	np_assert_json "$out" "$want > 100 and abs($lrule['packets'] - $want) <= 0.05 * $want + 50"
	np_assert_json "$out" "$nf['rule_note']['iptables_legacy'] == 'read'"
fi
# The rules together explain the reason: their growth is about its count.
np_assert_json "$out" "abs($nf['rule_note']['packets'] - $nf['count']) <= 0.05 * $nf['count'] + 100"

# Text: the rule under its reason, on one line when the width allows (docs/width.sh wraps).
COLUMNS=200 ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 > "$NP_TMP/out.txt"
grep -A12 "^    NETFILTER_DROP" "$NP_TMP/out.txt" |
	grep -q "rule nftables ip filter INPUT rule 1 (handle [0-9]*): meta l4proto udp udp dport 9001 drop" ||
	np_fail "text lacks the nft rule: $(cat "$NP_TMP/out.txt")"
if [ "$legacy" = 1 ]; then
	grep -q "rule iptables-legacy ip filter INPUT rule 1: -p udp --dport 9003 drop" "$NP_TMP/out.txt" ||
		np_fail "text lacks the legacy rule: $(cat "$NP_TMP/out.txt")"
fi

# Read-only: both rulesets as they were.
[ "$(ip netns exec "$NS_B" iptables-nft-save | grep -v '^[#:]')" = "$before_nft" ] ||
	np_fail "the nftables ruleset changed"
[ "$(ip netns exec "$NS_B" iptables-legacy-save 2> /dev/null | grep -v '^[#:]')" = "$before_legacy" ] ||
	np_fail "the iptables-legacy ruleset changed"
echo "PASS"
