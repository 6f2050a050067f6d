#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The SIOCETHTOOL collector against ethtool(8) as the oracle: driver info and the driver-private
# statistics of eth0 and of a veth in a scratch namespace, the rings/channels ioctl fallback,
# and lo, whose driver supports none of it ("unsupported", never an error and never a zero).
. "$(dirname "$0")/lib.sh"

np_require_root
command -v ethtool >/dev/null || np_skip "ethtool(8) not installed (the oracle)"
# npdrv is built next to netpath (build/tools/npdrv beside build/src/netpath).
NPDRV="${NPDRV:-$(dirname "$NETPATH")/../tools/npdrv}"
[ -x "$NPDRV" ] || np_fail "npdrv not built at $NPDRV"

# val FILE KEY: the value of KEY=... in npdrv output.
val() { sed -n "s/^$2=//p" "$1" | head -n 1; }

# Driver-stat names as ethtool -S prints them ("     name: value", first line is a header),
# and as npdrv prints them (duplicates renamed "name#2": the suffix is stripped for the compare).
oracle_names() { "$@" | tail -n +2 | sed 's/^ *//; s/: [0-9]*$//' | LC_ALL=C sort; }
npdrv_names() { sed -n 's/^stat\.\(.*\)=[0-9]*$/\1/p' "$1" | sed 's/#[0-9]*$//' | LC_ALL=C sort; }

# check_iface LABEL OUT ETHTOOL-PREFIX...: driver and stats equal ethtool's.
check_iface() {
	label=$1 out=$2
	shift 2
	want_drv=$("$@" ethtool -i "$IF" | awk '/^driver:/{print $2}')
	got_drv=$(val "$out" driver)
	[ -n "$want_drv" ] || np_fail "$label: ethtool -i reports no driver"
	[ "$got_drv" = "$want_drv" ] ||
		np_fail "$label: driver '$got_drv', ethtool says '$want_drv'"
	[ "$(val "$out" drvinfo_status)" = ok ] || np_fail "$label: drvinfo not ok"
	want_bus=$("$@" ethtool -i "$IF" | sed -n 's/^bus-info: *//p')
	[ "$(val "$out" bus_info)" = "$want_bus" ] || np_fail "$label: bus_info differs"

	want_n=$("$@" ethtool -S "$IF" | tail -n +2 | wc -l)
	got_n=$(val "$out" stats_count)
	[ "$want_n" -gt 0 ] || np_fail "$label: ethtool -S shows no statistics"
	[ "$got_n" = "$want_n" ] || np_fail "$label: $got_n driver stats, ethtool -S shows $want_n"
	[ "$(val "$out" stats_status)" = ok ] || np_fail "$label: stats not ok"
	oracle_names "$@" ethtool -S "$IF" >"$NP_TMP/want"
	npdrv_names "$out" >"$NP_TMP/got"
	diff -u "$NP_TMP/want" "$NP_TMP/got" >&2 ||
		np_fail "$label: stat names differ from ethtool -S"
}

# 1. eth0: the machine's real NIC (virtio_net here).
IF=eth0
if ip link show "$IF" >/dev/null 2>&1 && ethtool -i "$IF" >/dev/null 2>&1; then
	"$NPDRV" --fallbacks "$IF" >"$NP_TMP/eth0" || np_fail "npdrv eth0"
	check_iface eth0 "$NP_TMP/eth0"
	# The rings/channels fallback reads what ethtool -g/-l print.
	g=$(ethtool -g "$IF")
	want_rx_max=$(echo "$g" | awk '/^Pre-set/{p=1} /^Current/{p=0} p && /^RX:/{print $2}')
	want_rx=$(echo "$g" | awk '/^Current/{c=1} c && /^RX:/{print $2}')
	[ "$(val "$NP_TMP/eth0" rings_status)" = ok ] || np_fail "eth0: rings fallback not ok"
	[ "$(val "$NP_TMP/eth0" rings.rx_max)" = "$want_rx_max" ] || np_fail "eth0: rx_max differs"
	[ "$(val "$NP_TMP/eth0" rings.rx)" = "$want_rx" ] || np_fail "eth0: rx ring differs"
	val "$NP_TMP/eth0" rings_detail | grep -q "(ioctl fallback)" || np_fail "eth0: detail"
	l=$(ethtool -l "$IF")
	want_comb=$(echo "$l" | awk '/^Current/{c=1} c && /^Combined:/{print $2}')
	[ "$(val "$NP_TMP/eth0" channels.combined)" = "$want_comb" ] ||
		np_fail "eth0: combined channels differ"
	echo "ok: eth0 driver $(val "$NP_TMP/eth0" driver), $(val "$NP_TMP/eth0" stats_count) stats"
else
	echo "note: no eth0 with a driver here; eth0 part skipped"
fi

# 2. A veth in a scratch namespace (deleted by the EXIT trap).
np_pair a b
IF=va
ip netns exec "$NS_A" "$NPDRV" va >"$NP_TMP/veth" || np_fail "npdrv veth"
check_iface veth "$NP_TMP/veth" ip netns exec "$NS_A"
[ "$(val "$NP_TMP/veth" driver)" = veth ] || np_fail "veth: driver is not veth"
echo "ok: veth $(val "$NP_TMP/veth" stats_count) stats"

# 3. lo (in the scratch namespace): no driver info, no stats, no rings: all "unsupported".
ip netns exec "$NS_A" "$NPDRV" --fallbacks lo >"$NP_TMP/lo" || np_fail "npdrv lo"
for src in drvinfo stats rings channels coalesce; do
	[ "$(val "$NP_TMP/lo" ${src}_status)" = unsupported ] ||
		np_fail "lo: $src is '$(val "$NP_TMP/lo" ${src}_status)', want unsupported"
done
val "$NP_TMP/lo" drvinfo_detail | grep -q "driver does not report driver info" ||
	np_fail "lo: drvinfo detail"
val "$NP_TMP/lo" rings_detail | grep -q "driver does not report rings (ioctl fallback)" ||
	np_fail "lo: rings detail"
[ "$(val "$NP_TMP/lo" rings.rx)" = n/a ] || np_fail "lo: a ring size was invented"
[ "$(val "$NP_TMP/lo" stats_count)" = 0 ] || np_fail "lo: statistics were invented"
echo "ok: lo unsupported everywhere"

# 4. An interface that vanished: absent, not a crash.
ip netns exec "$NS_A" "$NPDRV" np-gone0 >"$NP_TMP/gone" || np_fail "npdrv on a missing iface"
[ "$(val "$NP_TMP/gone" drvinfo_status)" = absent ] || np_fail "missing iface not absent"
echo "PASS"
