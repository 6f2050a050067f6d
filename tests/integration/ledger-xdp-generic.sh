#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The loss ledger finds a real loss that no stack counter names: a generic-mode XDP program on
# vb dropping IPv4 UDP (built here with clang). It runs after softnet counts the packet and
# before IP: vb's rx_packets counts the frames, rx_dropped does not move, no MIB counter moves,
# only a drop reason would say it. With GRO off on vb and nothing but vb (and a quiet lo) in
# the namespace, doctor's nic-ip boundary is comparable and its remainder is the flood's rate;
# without the program the same boundary balances. (tc ingress drops, the other such case, need
# cls_* modules this test machine lacks; nftables netdev drops need nft.)
. "$(dirname "$0")/lib.sh"
np_require_root
command -v clang > /dev/null || np_skip "clang not installed (builds the XDP program)"
command -v ethtool > /dev/null || np_skip "ethtool not installed"
np_pair a b
ip netns exec "$NS_B" ethtool -K vb gro off 2> /dev/null || np_skip "cannot turn GRO off on vb"

ledger() {	# FILE: the nic-ip line, as "kind per_second input"
	"$NP_PY" - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = [x for x in d["ledger"] if x["boundary"] == "nic-ip"][0]
print(b["kind"], b["per_second"], b["input"], b.get("caveat") or b.get("reason"))
PY
}

# No program: what vb handed on, IP received (within the read skew).
np_traffic "$NS_A" plain udp-flood 198.18.0.2 9 --max-seconds 60
np_wait_moving "$NP_WAIT" "vb's rx_packets" np_link_stat "$NS_B" vb rx_packets
"$NETPATH" doctor --netns "$NS_B" vb --interval 1 --json > "$NP_TMP/plain.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "doctor --netns $NS_B vb: exit $rc"
np_validate "$NP_TMP/plain.json"
echo "without the program: $(ledger "$NP_TMP/plain.json")"
np_assert_json "$NP_TMP/plain.json" '[b for b in d["ledger"] if b["boundary"] == "nic-ip"][0]["kind"] == "at_most" and [b for b in d["ledger"] if b["boundary"] == "nic-ip"][0]["input"] > 100 and [b for b in d["ledger"] if b["boundary"] == "nic-ip"][0]["packets"] <= 0.02 * [b for b in d["ledger"] if b["boundary"] == "nic-ip"][0]["input"] + 2'
np_stop "$NP_LAST_PID"

# The program: every IPv4 UDP datagram to vb dropped by generic XDP (ARP still passes).
cat > "$NP_TMP/drop.c" <<'C'
struct xdp_md { unsigned int data, data_end, data_meta, ingress_ifindex, rx_queue_index; };
__attribute__((section("xdp"), used)) int np_test_drop_udp(struct xdp_md *ctx)
{
	unsigned char *d = (unsigned char *)(long)ctx->data;
	unsigned char *e = (unsigned char *)(long)ctx->data_end;

	if (d + 34 > e || d[12] != 0x08 || d[13] != 0x00 || d[23] != 17)
		return 2;	/* XDP_PASS */
	return 1;		/* XDP_DROP */
}
char _license[] __attribute__((section("license"), used)) = "GPL";
C
clang -O2 -target bpf -c "$NP_TMP/drop.c" -o "$NP_TMP/drop.o" || np_skip "clang cannot build BPF"
ip -n "$NS_B" link set dev vb xdpgeneric obj "$NP_TMP/drop.o" sec xdp ||
	np_skip "cannot attach a generic XDP program"
np_traffic "$NS_A" dropped udp-flood 198.18.0.2 9 --max-seconds 60
np_wait_moving "$NP_WAIT" "vb's rx_packets" np_link_stat "$NS_B" vb rx_packets
"$NETPATH" doctor --netns "$NS_B" vb --interval 1 --json > "$NP_TMP/drop.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "doctor --netns $NS_B vb: exit $rc"
np_validate "$NP_TMP/drop.json"
echo "with the program: $(ledger "$NP_TMP/drop.json")"
np_assert_json "$NP_TMP/drop.json" 'any(b["boundary"] == "nic-ip" and b["kind"] == "at_most" and b["per_second"] > 100 and b["packets"] >= 0.9 * b["input"] and "generic XDP" in b["caveat"] for b in d["ledger"])'
# No boundary ever negative, and the text report prints the line.
np_assert_json "$NP_TMP/drop.json" 'all((b["packets"] or 0) >= 0 for b in d["ledger"])'
"$NETPATH" doctor --netns "$NS_B" vb --interval 1 > "$NP_TMP/drop.txt"
grep -q "^  nic-ip .*at most" "$NP_TMP/drop.txt" || np_fail "no nic-ip ledger line in the text: $(cat "$NP_TMP/drop.txt")"
np_stop "$NP_LAST_PID"
ip -n "$NS_B" link set dev vb xdpgeneric off
# Its reference: text and JSON (netpath/topic).
"$NETPATH" explain ledger | grep -q "^nic-ip" || np_fail "explain ledger has no nic-ip section"
"$NETPATH" explain --json ledger > "$NP_TMP/explain.json" || np_fail "explain --json ledger"
np_validate "$NP_TMP/explain.json"
echo "PASS"
