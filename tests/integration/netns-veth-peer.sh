#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A veth's peer in a third namespace is named where it lives (IFLA_LINK_NETNSID resolved in the
# veth's namespace), never by looking its ifindex up where netpath started: both ends of a pair
# created across two fresh namespaces have ifindex 2, and so may a device of the host.
. "$(dirname "$0")/lib.sh"
np_require_root
NS_A="np-$$-pa"
NS_B="np-$$-pb"
ip netns add "$NS_A" || np_fail "netns add"
NP_NETNS="$NP_NETNS $NS_A"
ip netns add "$NS_B" || np_fail "netns add"
NP_NETNS="$NP_NETNS $NS_B"
ip link add x netns "$NS_A" type veth peer name y netns "$NS_B" || np_fail "veth"
ip -n "$NS_A" link set x up
ip -n "$NS_B" link set y up

# From the host: the peer is y, in namespace NS_B.
"$NETPATH" doctor --netns "$NS_A" x --interval 0 --json > "$NP_TMP/x.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "doctor --netns: exit $rc"
np_validate "$NP_TMP/x.json"
np_assert_json "$NP_TMP/x.json" 'd["stack"][0]["peer"] == "y" and d["stack"][0]["peer_netns"] == "'"$NS_B"'" and d["stack"][0]["peer_netnsid"] >= 0'
"$NETPATH" doctor --netns "$NS_A" x --interval 0 --color=never > "$NP_TMP/x.txt"
grep -q "x is a veth whose peer is y in network namespace $NS_B" "$NP_TMP/x.txt" ||
	np_fail "text does not name y in $NS_B: $(grep -i peer "$NP_TMP/x.txt")"
grep -q "started in" "$NP_TMP/x.txt" && np_fail "the peer placed in the start namespace"

# Started in the peer's namespace: that one is named as where netpath started.
ip netns exec "$NS_B" "$NETPATH" doctor --netns "$NS_A" x --interval 0 --json > "$NP_TMP/xb.json"
np_assert_json "$NP_TMP/xb.json" 'd["stack"][0]["peer"] == "y" and d["stack"][0]["peer_netns"] == ""'

# A peer namespace without a name under /run/netns (a process's own): the peer's name and its
# nsid, no namespace name, never a device of another namespace.
np_bg unshare -n sleep 60
holder=$NP_LAST_PID
own_ns() { [ "$(readlink "/proc/$holder/ns/net")" != "$(readlink /proc/self/ns/net)" ]; }
np_wait_until 10 "the unshared namespace" own_ns
ip link add x2 netns "$NS_A" type veth peer name y2 netns "$holder" || np_fail "veth into pid ns"
ip -n "$NS_A" link set x2 up
"$NETPATH" doctor --netns "$NS_A" x2 --interval 0 --json > "$NP_TMP/x2.json"
np_validate "$NP_TMP/x2.json"
np_assert_json "$NP_TMP/x2.json" 'd["stack"][0]["peer"] == "y2" and d["stack"][0]["peer_netns"] is None and d["stack"][0]["peer_netnsid"] >= 0'
"$NETPATH" doctor --netns "$NS_A" x2 --interval 0 --color=never | tr '\n' ' ' |
	grep -q "x2 is a veth whose peer is y2 (ifindex [0-9]*) in another network namespace (nsid [0-9]*" ||
	np_fail "text for an unnamed peer namespace"
echo "PASS"
