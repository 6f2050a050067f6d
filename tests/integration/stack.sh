#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Device stacks built for real in a namespace: a bridge over a veth, a macvlan and (where the
# kernel has 8021q) a VLAN on the bridge, a vxlan over it. doctor resolves the stack under the
# interface named, names each device's kind, parent and lower devices, tags every finding
# with its device, tells a container's veth where its NIC is diagnosed; --all judges each
# device once. (Bonds are unit-tested from sysfs trees: bonding is a module this kernel lacks.)
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv

inb() { ip netns exec "$NS_B" "$@"; }
inb ip addr flush dev vb
inb ip link add br0 type bridge || np_skip "no bridge support in this kernel"
inb ip link set vb master br0
inb ip addr add 198.18.0.2/24 dev br0
inb ip link set br0 up
inb ip link add link br0 name mv0 type macvlan mode bridge || np_fail "macvlan"
inb ip addr add 198.18.0.3/24 dev mv0
inb ip link set mv0 up
have_vlan=0
if inb ip link add link br0 name br0.100 type vlan id 100 2> /dev/null; then
	inb ip link set br0.100 up
	have_vlan=1
fi
have_vxlan=0
if inb ip link add vx0 type vxlan id 42 remote 198.18.0.1 dstport 4789 dev br0 2> /dev/null; then
	inb ip link set vx0 up
	have_vxlan=1
fi
# Traffic through the bridge, so that --all finds it carrying packets (the macvlan has its
# own: the neighbour discovery of bringing it up).
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --drain
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000 --burst 16 --gap-ms 5
np_wait_moving "$NP_WAIT" "br0 rx_packets" np_link_stat "$NS_B" br0 rx_packets
np_wait_until "$NP_WAIT" "mv0 to have carried a packet" \
	test "$(($(np_link_stat "$NS_B" mv0 rx_packets) + $(np_link_stat "$NS_B" mv0 tx_packets)))" -gt 0

doctor() {
	local name=$1
	shift
	inb "$NETPATH" doctor "$@" --interval 0 --json > "$NP_TMP/$name.json"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "doctor $*: exit $rc"
	np_validate "$NP_TMP/$name.json"
}

# The bridge: its port is the veth; nothing physical beneath, so nothing judged as a NIC.
doctor br0 br0
np_assert_json "$NP_TMP/br0.json" 'd["stack"][0]["name"] == "br0" and d["stack"][0]["kind"] == "bridge" and d["stack"][0]["parent"] is None'
np_assert_json "$NP_TMP/br0.json" '"vb" in d["stack"][0]["lower"] and any(s["name"] == "vb" and s["kind"] == "veth" and s["parent"] == "br0" for s in d["stack"])'
np_assert_json "$NP_TMP/br0.json" 'not any(s["hardware_judged"] for s in d["stack"])'
np_assert_json "$NP_TMP/br0.json" 'all(f["interface"] in ("br0", "vb") for f in d["findings"]) and all(r["interface"] == "br0" for r in d["funnel"])'
# Its nominal speed is no link speed: nothing judged against 10 Gbit/s.
np_assert_json "$NP_TMP/br0.json" 'not any(f["id"] in ("link.mtu-jumbo", "softnet.max-backlog") for f in d["findings"])'

# Prometheus: each device of the stack, and the findings by device.
inb "$NETPATH" doctor br0 --interval 0 --format prometheus > "$NP_TMP/br0.prom"
grep -q '^netpath_stack_device_info{interface="vb",kind="veth",parent="br0",hardware="0",driver="veth"} 1$' "$NP_TMP/br0.prom" ||
	np_fail "no stack series for vb: $(grep stack_device "$NP_TMP/br0.prom")"
if grep -q '^netpath_device_check_severity' "$NP_TMP/br0.prom"; then
	grep '^netpath_device_check_severity' "$NP_TMP/br0.prom" | grep -qv 'interface="\(br0\|vb\)"' &&
		np_fail "a finding about a device outside the stack"
fi

# The macvlan: macvlan -> bridge -> veth, in the text header too.
doctor mv0 mv0
np_assert_json "$NP_TMP/mv0.json" '[(s["name"], s["kind"], s["parent"]) for s in d["stack"]] == [("mv0", "macvlan", None), ("br0", "bridge", "mv0"), ("vb", "veth", "br0")]'
inb "$NETPATH" doctor mv0 --interval 0 --color=never > "$NP_TMP/mv0.txt"
grep -q "^stack: mv0 (macvlan) → br0 (bridge) → vb (veth)$" "$NP_TMP/mv0.txt" ||
	np_fail "text header: $(grep '^stack' "$NP_TMP/mv0.txt")"

if [ "$have_vlan" = 1 ]; then
	doctor vlan br0.100
	np_assert_json "$NP_TMP/vlan.json" 'd["stack"][0]["kind"] == "vlan" and d["stack"][0]["lower"] == ["br0"]'
fi
if [ "$have_vxlan" = 1 ]; then
	# The tunnel sits on its underlay (created with "dev br0"); at the kernel's MTU (br0's
	# less 50) a full frame fits, at 1500 it does not.
	doctor vx0 vx0
	np_assert_json "$NP_TMP/vx0.json" '[(s["name"], s["kind"], s["parent"]) for s in d["stack"]][:2] == [("vx0", "vxlan", None), ("br0", "bridge", "vx0")]'
	np_assert_json "$NP_TMP/vx0.json" 'not any(f["id"] == "link.tunnel-mtu" for f in d["findings"])'
	# The kernel refuses more on vx0 (its lower caps it). A vxlan created without "dev" takes
	# any MTU; its underlay is then the default route's device.
	inb ip route add default via 198.18.0.1 dev br0
	inb ip link add vx1 type vxlan id 43 remote 198.18.0.1 dstport 4790
	inb ip link set vx1 mtu 1500 up
	doctor vx1 vx1
	np_assert_json "$NP_TMP/vx1.json" '[(s["name"], s["parent"]) for s in d["stack"]][:2] == [("vx1", None), ("br0", "vx1")]'
	np_assert_json "$NP_TMP/vx1.json" 'any(f["id"] == "link.tunnel-mtu" and f["interface"] == "vx1" and f["severity"] == "warning" and "needs 1550 bytes" in f["summary"] for f in d["findings"])'
	inb ip link del vx1
fi

# The container's veth: its peer lives in another namespace, where the NIC is diagnosed.
inb ip link set vb nomaster
doctor vb vb
np_assert_json "$NP_TMP/vb.json" 'd["stack"][0]["kind"] == "veth" and d["stack"][0]["peer_in_other_netns"] is True and d["stack"][0]["peer_ifindex"] > 0'
inb "$NETPATH" doctor vb --interval 0 --color=never | grep -q "vb is a veth whose peer is va in network namespace $NS_A" ||
	np_fail "text does not say where vb's NIC is diagnosed"
# Started in the peer's namespace with --netns: the peer is named (va).
ip netns exec "$NS_A" "$NETPATH" doctor --netns "$NS_B" vb --interval 0 --json > "$NP_TMP/vbpeer.json"
[ $? -le 2 ] || np_fail "doctor --netns: exit $?"
np_validate "$NP_TMP/vbpeer.json"
np_assert_json "$NP_TMP/vbpeer.json" 'd["stack"][0]["peer"] == "va"'
ip netns exec "$NS_A" "$NETPATH" doctor --netns "$NS_B" vb --interval 0 --color=never |
	grep -q "vb is a veth whose peer is va in the namespace netpath was started in" ||
	np_fail "text does not name vb's peer"
inb ip link set vb master br0

# --all: every interface up with traffic, each device once; members left to their master.
doctor all --all
np_assert_json "$NP_TMP/all.json" 'len({s["name"] for s in d["stack"]}) == len(d["stack"])'
np_assert_json "$NP_TMP/all.json" '{"br0", "mv0", "vb"} <= {s["name"] for s in d["stack"]} and [s["parent"] for s in d["stack"] if s["name"] == "vb"] == ["br0"]'
np_assert_json "$NP_TMP/all.json" '"lo" not in {s["name"] for s in d["stack"]}'

# --all with a name, and an abbreviated option: clear errors.
inb "$NETPATH" doctor --all br0 --interval 0 > /dev/null 2> "$NP_TMP/err"
[ $? -eq 3 ] && grep -q "name none" "$NP_TMP/err" || np_fail "--all IFACE: $(cat "$NP_TMP/err")"
inb "$NETPATH" doctor --all-c --interval 0 > /dev/null 2> "$NP_TMP/err"
[ $? -eq 3 ] && grep -q "unknown option '--all-c'" "$NP_TMP/err" || np_fail "--all-c: $(cat "$NP_TMP/err")"
echo "PASS"
