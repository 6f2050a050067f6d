#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The ethtool generic netlink and netdev qstats collectors against ethtool(8) as the oracle:
# link settings, rings, channels, coalescing, offloads and pause of eth0, of veths in a scratch
# namespace (one with 4 queues) and of lo, where each request ethtool calls "Operation not
# supported" must come out "unsupported" with n/a values, never an error and never a zero.
# Per-queue stats are checked against the interface's rx_packets read before and after.
. "$(dirname "$0")/lib.sh"

np_require_root
command -v ethtool >/dev/null || np_skip "ethtool(8) not installed (the oracle)"
# npnic is built next to netpath (build/tools/npnic beside build/src/netpath).
NPNIC="${NPNIC:-$(dirname "$NETPATH")/../tools/npnic}"
[ -x "$NPNIC" ] || np_fail "npnic not built at $NPNIC"

# val FILE KEY: the value of KEY=... in npnic output.
val() { sed -n "s/^$2=//p" "$1" | head -n 1; }

# expect LABEL FILE KEY WANT
expect() {
	got=$(val "$2" "$3")
	[ "$got" = "$4" ] || np_fail "$1: $3 is '$got', ethtool says '$4'"
	checks=$((checks + 1))
}

# ethtool prints "n/a" for what the kernel did not send, numbers otherwise, like npnic.
# sect_val OUTPUT SECTION-PREFIX KEY: "RX:" under "Pre-set maximums:" or "Current hardware".
sect_val() {
	printf '%s\n' "$1" | awk -v sect="$2" -v key="$3" '
		/^Pre-set maximums:/ { s = "max"; next }
		/^Current hardware settings:/ { s = "cur"; next }
		s == sect {
			k = $0; sub(/:.*/, "", k)
			if (k == key) { v = $0; sub(/^[^:]*:[ \t]*/, "", v); print v; exit }
		}'
}

# kv OUTPUT KEY: "key: value" lines (ethtool -c/-k/-a and the settings view).
kv() {
	printf '%s\n' "$1" | awk -v key="$2" '{
		l = $0; sub(/^[ \t]*/, "", l); k = l; sub(/:.*/, "", k)
		if (k != key) next
		v = l; sub(/^[^:]*:[ \t]*/, "", v); sub(/ .*/, "", v); print v; exit
	}'
}

onoff() { case "$1" in on) echo on ;; off) echo off ;; *) echo n/a ;; esac; }

# A request ethtool answers with "Operation not supported" must be unsupported, values n/a.
expect_unsupported() {
	label=$1 out=$2 src=$3
	shift 3
	expect "$label" "$out" "src.$src" unsupported
	for k in "$@"; do expect "$label" "$out" "$k" n/a; done
}

check_rings() {
	label=$1 out=$2
	shift 2
	if ! o=$("$@" ethtool -g "$IF" 2>&1); then
		printf '%s\n' "$o" | grep -q "Operation not supported" ||
			np_fail "$label: ethtool -g failed: $o"
		expect_unsupported "$label" "$out" ethtool_rings rings.rx rings.rx_max rings.tx
		return
	fi
	expect "$label" "$out" src.ethtool_rings ok
	expect "$label" "$out" rings.rx_max "$(sect_val "$o" max RX)"
	expect "$label" "$out" rings.rx_mini_max "$(sect_val "$o" max "RX Mini")"
	expect "$label" "$out" rings.rx_jumbo_max "$(sect_val "$o" max "RX Jumbo")"
	expect "$label" "$out" rings.tx_max "$(sect_val "$o" max TX)"
	expect "$label" "$out" rings.rx "$(sect_val "$o" cur RX)"
	expect "$label" "$out" rings.rx_mini "$(sect_val "$o" cur "RX Mini")"
	expect "$label" "$out" rings.rx_jumbo "$(sect_val "$o" cur "RX Jumbo")"
	expect "$label" "$out" rings.tx "$(sect_val "$o" cur TX)"
	expect "$label" "$out" rings.rx_buf_len "$(sect_val "$o" cur "RX Buf Len")"
}

check_channels() {
	label=$1 out=$2
	shift 2
	if ! o=$("$@" ethtool -l "$IF" 2>&1); then
		printf '%s\n' "$o" | grep -q "Operation not supported" ||
			np_fail "$label: ethtool -l failed: $o"
		expect_unsupported "$label" "$out" ethtool_channels channels.rx channels.combined
		return
	fi
	expect "$label" "$out" src.ethtool_channels ok
	for k in RX TX Other Combined; do
		lk=$(echo "$k" | tr 'A-Z' 'a-z')
		expect "$label" "$out" "channels.${lk}_max" "$(sect_val "$o" max "$k")"
		expect "$label" "$out" "channels.$lk" "$(sect_val "$o" cur "$k")"
	done
}

check_coalesce() {
	label=$1 out=$2
	shift 2
	if ! o=$("$@" ethtool -c "$IF" 2>&1); then
		printf '%s\n' "$o" | grep -q "Operation not supported" ||
			np_fail "$label: ethtool -c failed: $o"
		expect_unsupported "$label" "$out" ethtool_coalesce coalesce.rx_usecs \
			coalesce.adaptive_rx
		return
	fi
	expect "$label" "$out" src.ethtool_coalesce ok
	expect "$label" "$out" coalesce.rx_usecs "$(kv "$o" rx-usecs)"
	expect "$label" "$out" coalesce.rx_frames "$(kv "$o" rx-frames)"
	expect "$label" "$out" coalesce.tx_usecs "$(kv "$o" tx-usecs)"
	expect "$label" "$out" coalesce.tx_frames "$(kv "$o" tx-frames)"
	# "Adaptive RX: off  TX: n/a"
	line=$(printf '%s\n' "$o" | grep '^Adaptive RX:')
	expect "$label" "$out" coalesce.adaptive_rx "$(onoff "$(echo "$line" | awk '{print $3}')")"
	expect "$label" "$out" coalesce.adaptive_tx "$(onoff "$(echo "$line" | awk '{print $5}')")"
}

check_features() {
	label=$1 out=$2
	shift 2
	o=$("$@" ethtool -k "$IF") || np_fail "$label: ethtool -k failed"
	expect "$label" "$out" src.ethtool_features ok
	expect "$label" "$out" features.gro "$(kv "$o" generic-receive-offload)"
	expect "$label" "$out" features.lro "$(kv "$o" large-receive-offload)"
	expect "$label" "$out" features.gro_hw "$(kv "$o" rx-gro-hw)"
	expect "$label" "$out" features.rx_checksum "$(kv "$o" rx-checksumming)"
	expect "$label" "$out" features.rxhash "$(kv "$o" receive-hashing)"
	expect "$label" "$out" features.ntuple "$(kv "$o" ntuple-filters)"
}

check_pause() {
	label=$1 out=$2
	shift 2
	if ! o=$("$@" ethtool -a "$IF" 2>&1); then
		printf '%s\n' "$o" | grep -q "Operation not supported" ||
			np_fail "$label: ethtool -a failed: $o"
		expect_unsupported "$label" "$out" ethtool_pause pause.rx pause.tx pause.rx_frames
		return
	fi
	expect "$label" "$out" src.ethtool_pause ok
	expect "$label" "$out" pause.autoneg "$(onoff "$(kv "$o" Autonegotiate)")"
	expect "$label" "$out" pause.rx "$(onoff "$(kv "$o" RX)")"
	expect "$label" "$out" pause.tx "$(onoff "$(kv "$o" TX)")"
}

check_link() {
	label=$1 out=$2
	shift 2
	o=$("$@" ethtool "$IF" 2>&1)
	if ! printf '%s\n' "$o" | grep -q '^[[:space:]]*Speed:'; then
		# lo: no link settings at all (ethtool prints only "Link detected").
		expect_unsupported "$label" "$out" ethtool_linkmodes link.speed link.duplex
		return
	fi
	expect "$label" "$out" src.ethtool_linkmodes ok
	speed=$(kv "$o" Speed)
	case "$speed" in
	*Mb/s) speed=${speed%Mb/s} ;;
	*) speed=n/a ;;
	esac
	expect "$label" "$out" link.speed "$speed"
	duplex=$(kv "$o" Duplex | tr 'A-Z' 'a-z')
	case "$duplex" in full | half) ;; *) duplex=n/a ;; esac
	expect "$label" "$out" link.duplex "$duplex"
	expect "$label" "$out" link.autoneg "$(onoff "$(kv "$o" Auto-negotiation)")"
}

# check_all LABEL NS-PREFIX...: every section against ethtool run the same way.
check_all() {
	label=$1
	shift
	"$@" "$NPNIC" "$IF" >"$NP_TMP/$label.out" 2>"$NP_TMP/$label.err" ||
		np_fail "$label: npnic failed: $(cat "$NP_TMP/$label.err")"
	[ -s "$NP_TMP/$label.err" ] &&
		np_fail "$label: npnic wrote to stderr: $(cat "$NP_TMP/$label.err")"
	for c in check_link check_rings check_channels check_coalesce check_features check_pause; do
		$c "$label" "$NP_TMP/$label.out" "$@"
	done
	# Whatever a driver does not support is data: no source may be in an error state.
	bad=$(grep -E '^src\.[a-z_]+=(malformed|denied|absent|partial|unread)$' \
		"$NP_TMP/$label.out")
	[ -z "$bad" ] || np_fail "$label: sources in error: $bad"
}

checks=0

# The machine's NIC (virtio_net here), in the host namespace.
IF=eth0
if [ -d /sys/class/net/eth0 ]; then
	check_all eth0
	# qstats: the driver's per-queue rx_packets sum to the interface counter, read around it.
	if [ "$(val "$NP_TMP/eth0.out" src.netdev_qstats)" = ok ]; then
		before=$(cat /sys/class/net/eth0/statistics/rx_packets)
		"$NPNIC" eth0 >"$NP_TMP/q.out"
		after=$(cat /sys/class/net/eth0/statistics/rx_packets)
		sum=$(sed -n 's/^qstats\.rx[0-9]*\.rx_packets=\([0-9]*\)$/\1/p' "$NP_TMP/q.out" |
			awk '{ s += $1 } END { print s + 0 }')
		n=$(val "$NP_TMP/q.out" qstats.queues)
		[ "$n" -ge 1 ] || np_fail "eth0: qstats ok but no queues"
		[ "$sum" -ge "$before" ] && [ "$sum" -le "$after" ] ||
			np_fail "eth0: qstats rx_packets sum $sum outside [$before, $after]"
		checks=$((checks + 1))
	fi
fi

# lo: only features are supported; everything else must degrade to "unsupported".
IF=lo
check_all lo
expect lo "$NP_TMP/lo.out" src.ethtool_rings unsupported
expect lo "$NP_TMP/lo.out" src.netdev_qstats unsupported

# veth pairs in scratch namespaces: one single-queue (np_pair), one with 4 queues.
np_pair a b
IF=vb
check_all veth ip netns exec "$NS_B"
ip -n "$NS_A" link add vm numtxqueues 4 numrxqueues 4 type veth peer name vn \
	numtxqueues 4 numrxqueues 4 || np_fail "4-queue veth"
ip -n "$NS_A" link set vm up
ip -n "$NS_A" link set vn up
IF=vm
check_all veth4 ip netns exec "$NS_A"
expect veth4 "$NP_TMP/veth4.out" channels.rx 4
expect veth4 "$NP_TMP/veth4.out" channels.rx_max 4

# An interface that does not exist: the collectors still answer, without crashing.
"$NPNIC" np-nosuch0 >"$NP_TMP/nosuch.out" 2>&1 || np_fail "npnic on a missing interface failed"
expect nosuch "$NP_TMP/nosuch.out" rings.rx n/a
expect nosuch "$NP_TMP/nosuch.out" src.ethtool_rings absent
grep -q '^src.ethtool_rings.detail=interface vanished' "$NP_TMP/nosuch.out" ||
	np_fail "nosuch: a missing interface is not a driver that does not report rings"

echo "PASS ($checks comparisons)"
