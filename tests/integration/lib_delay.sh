# SPDX-License-Identifier: GPL-2.0-only
# The delay-line topology of the `netpath path` scenarios (path-*.sh); source after lib.sh.
#
#   namespace S (sender)  tS 198.19.34.1/24 ==[ npdelay ]== tR 198.19.34.2/24  namespace R
#
# npdelay (tests/helpers/npdelay.c) opens both TAP devices in this namespace, then each is moved
# into its test namespace (the descriptors stay attached). netem and fq are not built into the
# test kernel, hence a delay line in user space. lib.sh's EXIT trap stops npdelay (SIGTERM: it
# prints its counters into $NP_TMP/npdelay.log) and deletes the namespaces; deleting them also
# deletes the TAP devices, and npdelay's exit would too.
: "${NPDELAY:=$(dirname "$NETPATH")/../tests/helpers/npdelay}"
NP_S_ADDR=198.19.34.1
NP_R_ADDR=198.19.34.2

# np_delay_line [npdelay options...]: build the topology; sets NS_S, NS_R, NP_DELAY_PID.
np_delay_line() {
	local ts="nps$$" tr="npr$$" i
	[ -x "$NPDELAY" ] || np_fail "npdelay not built at $NPDELAY (set NPDELAY)"
	NS_S="np-$$-S"
	NS_R="np-$$-R"
	ip netns add "$NS_S" || np_fail "netns add $NS_S"
	NP_NETNS="$NP_NETNS $NS_S"
	ip netns add "$NS_R" || np_fail "netns add $NS_R"
	NP_NETNS="$NP_NETNS $NS_R"
	np_bg "$NPDELAY" --max-seconds 240 "$@" "$ts" "$tr" 2> "$NP_TMP/npdelay.log"
	NP_DELAY_PID=$NP_LAST_PID
	np_wait_until "$NP_WAIT" "npdelay ready" grep -q '^npdelay: ready' "$NP_TMP/npdelay.log"
	ip link set "$ts" netns "$NS_S" || np_fail "move $ts into $NS_S"
	ip link set "$tr" netns "$NS_R" || np_fail "move $tr into $NS_R"
	ip -n "$NS_S" link set "$ts" name tS
	ip -n "$NS_R" link set "$tr" name tR
	ip -n "$NS_S" addr add "$NP_S_ADDR/24" dev tS
	ip -n "$NS_R" addr add "$NP_R_ADDR/24" dev tR
	for i in "$NS_S" "$NS_R"; do ip -n "$i" link set lo up; done
	ip -n "$NS_S" link set tS up
	ip -n "$NS_R" link set tR up
	# Ready when the line carries traffic both ways: a neighbour resolved through it.
	np_wait_until "$NP_WAIT" "ARP through npdelay" np_delay_arp
}

# The sender resolved the receiver's address through the line (ARP went there and back).
np_delay_arp() {
	ip netns exec "$NS_S" "$NP_PY" -c "
import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(b'x', ('$NP_R_ADDR', 9))" 2> /dev/null
	ip -n "$NS_S" neigh show "$NP_R_ADDR" dev tS | grep -q 'REACHABLE\|STALE\|DELAY'
}

# np_delay_bufs NS RMEM_MAX WMEM_MAX: tcp_rmem/tcp_wmem of one test namespace only (they are
# per-namespace sysctls on this kernel; the root namespace is never touched).
np_delay_bufs() {
	ip netns exec "$1" sh -c "echo '4096 131072 $2' > /proc/sys/net/ipv4/tcp_rmem &&
		echo '4096 16384 $3' > /proc/sys/net/ipv4/tcp_wmem" ||
		np_fail "cannot set tcp_rmem/tcp_wmem in namespace $1"
	[ "$(ip netns exec "$1" awk '{print $3}' /proc/sys/net/ipv4/tcp_rmem)" = "$2" ] ||
		np_fail "tcp_rmem is not per namespace here"
}

# np_delay_counters: npdelay's exit counters (stops it first).
np_delay_counters() {
	np_stop "$NP_DELAY_PID"
	grep '^npdelay' "$NP_TMP/npdelay.log"
}
