#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# issue #32: a sosreport copies sys/class/net/IF/statistics/* beside its ip -s -d link text
# (sos networking plugin: "/sys/class/net/*/statistics/"). The real sos 4.0 fixture
# (tests/fixtures/sos/sos4.0-debian12-virtio) with one edit, labelled as such: statistics/
# rx_crc_errors of eth0 set to 5123 (the real file holds 0; ip -s -d link has no crc column).
# link.rx-errors must read it (it was skipped: "interface error counters not reported"), the
# report must not say "sysfs not copied by sos", the stack must not print "eth0 (unknown)", and
# softnet.single-cpu, without a queue list, must judge from the softnet rows (edited here too:
# CPU 0's processed column cut to 0x00050000 so 99.7% of the work is on CPU 1), and
# link.carrier-flaps must read `ip -s -s -d link`'s transns column.
# Needs no root: it only reads a copied tree.
set -eu
: "${NETPATH:?}" "${NP_SRCDIR:?}"
T=$(mktemp -d "/tmp/np-sos-sysfs.$$.XXXXXX")
trap 'rm -rf "$T"' EXIT
cp -r "$NP_SRCDIR/tests/fixtures/sos/sos4.0-debian12-virtio" "$T/sos"
stats="$T/sos/sys/devices/pci0000:00/0000:00:03.0/virtio2/net/eth0/statistics"
chmod u+w "$stats" "$stats/rx_crc_errors"
echo 5123 > "$stats/rx_crc_errors"
sn="$T/sos/proc/net/softnet_stat"
chmod u+w "$sn"
sed -i '1s/^05ea765d/00050000/' "$sn"
out=$(timeout 60 "$NETPATH" doctor --root "$T/sos" -v 2>&1) || true
grep -q 'rx_crc_errors  *5123' <<<"$out" || {
	echo "FAIL: link.rx-errors did not read statistics/rx_crc_errors"; echo "$out" | grep -n 'rx-errors\|crc'; exit 1; }
if grep -q 'sysfs not copied by sos' <<<"$out"; then echo "FAIL: says sysfs not copied"; exit 1; fi
if grep -q 'eth0 (unknown)' <<<"$out"; then echo "FAIL: stack prints eth0 (unknown)"; exit 1; fi
grep -q '99.7% of softnet packets (.* since boot) ran on CPU 1 of 2' <<<"$out" || {
	echo "FAIL: softnet.single-cpu did not judge from the rows"; echo "$out" | grep -n 'single-cpu'; exit 1; }
grep -qE 'passed +link.rx-errors|\[link.rx-errors\]' <<<"$out" || { echo "FAIL: rx-errors not judged"; exit 1; }
# Some sos versions keep `ip -s -s -d link` instead: its "transns" column is carrier_changes,
# which sos copies no file for. The fixture's eth0 block with the -s -s rows added (edited:
# transns 2, as iproute2 prints them), and the -s -d file removed.
nw="$T/sos/sos_commands/networking"
chmod u+w "$nw"
awk '/^[0-9]+: eth0:/ {p=1} /^[0-9]+: / && !/eth0:/ {p=0} p' "$nw/ip_-s_-d_link" |
	sed '/^    TX:/i\    RX errors:  length    crc   frame    fifo overrun\n                     0      0       0       0       0' \
	> "$nw/ip_-s_-s_-d_link"
printf '    TX errors: aborted   fifo  window heartbt transns\n                     0      0       0       0       2\n' \
	>> "$nw/ip_-s_-s_-d_link"
rm -f "$nw/ip_-s_-d_link"
out=$(timeout 60 "$NETPATH" doctor --root "$T/sos" -v 2>&1) || true
grep -qE 'passed +link.carrier-flaps' <<<"$out" || {
	echo "FAIL: link.carrier-flaps not judged from transns"; grep -n 'carrier' <<<"$out"; cat "$nw/ip_-s_-s_-d_link"; exit 1; }
echo PASS
