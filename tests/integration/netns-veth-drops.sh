#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Drops a veth pair shows on the side an admin starts from:
#  - the sender (va, MTU 1500) floods 1400-byte datagrams into a peer whose MTU is 1000: the
#    peer refuses every frame; doctor on the SENDER names its peer refusing them and the MTU;
#  - frames sent to a MAC that is not the receiver's (a wrong neighbour entry on the sender):
#    the receiver counts them in rx_otherhost_dropped (not rx_dropped); doctor says so, never
#    as NIC loss.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair a b
ip -n "$NS_B" link set vb mtu 1000

np_traffic "$NS_A" big udp-flood 198.18.0.2 9 --size 1400 --max-seconds 60
np_wait_moving "$NP_WAIT" "va's tx_dropped" np_link_stat "$NS_A" va tx_dropped
"$NETPATH" doctor --netns "$NS_A" va --interval 1 --json > "$NP_TMP/va.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "doctor --netns $NS_A va: exit $rc"
np_validate "$NP_TMP/va.json"
np_assert_json "$NP_TMP/va.json" 'any(f["id"] == "link.veth-peer-refuses" and f["severity"] == "critical" and "peer vb refuses" in f["summary"] and "its MTU 1000 is smaller than va'"'"'s 1500" in f["summary"] for f in d["findings"])'
np_stop "$NP_LAST_PID"

# A wrong neighbour entry on the sender: 198.18.0.2 mapped to a MAC vb does not have.
ip -n "$NS_B" link set vb mtu 1500
ip -n "$NS_A" neigh replace 198.18.0.2 lladdr 02:00:00:00:00:99 dev va nud permanent
np_traffic "$NS_A" other udp-flood 198.18.0.2 9 --max-seconds 60
other_host() { ip -n "$NS_B" -s -s link show vb | awk '/otherhost/ { getline; print $6 }'; }
np_wait_moving "$NP_WAIT" "vb's rx_otherhost_dropped" other_host
"$NETPATH" doctor --netns "$NS_B" vb --interval 1 --json > "$NP_TMP/vb.json"
np_validate "$NP_TMP/vb.json"
np_assert_json "$NP_TMP/vb.json" 'any(f["id"] == "nic.rx-dropped" and "for another host'"'"'s MAC (rx_otherhost_dropped), not NIC loss" in f["summary"] for f in d["findings"])'
echo "PASS"
