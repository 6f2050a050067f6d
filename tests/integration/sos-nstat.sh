#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# issue #32: a sosreport without proc/net/snmp and netstat but with sos_commands/networking/
# nstat_-zas (a syslog receiver losing UDP to udp_mem: UdpRcvbufErrors 0, UdpMemErrors 1.95 M)
# must name the UDP memory cause through doctor --root, not leave the counters unread.
# Needs no root: it only reads a copied tree.
set -eu
: "${NETPATH:?}" "${NP_SRCDIR:?}"
T=$(mktemp -d "/tmp/np-sos-nstat.$$.XXXXXX")
trap 'rm -rf "$T"' EXIT
cp -r "$NP_SRCDIR/tests/fixtures/sos/sos4.0-debian12-virtio" "$T/sos"
rm -f "$T/sos/proc/net/snmp" "$T/sos/proc/net/netstat"
cat > "$T/sos/sos_commands/networking/nstat_-zas" <<'NSTAT'
#kernel
UdpInDatagrams                  88412312           0.0
UdpNoPorts                      0                  0.0
UdpInErrors                     1953207            0.0
UdpOutDatagrams                 1200               0.0
UdpRcvbufErrors                 0                  0.0
UdpSndbufErrors                 0                  0.0
UdpInCsumErrors                 0                  0.0
UdpIgnoredMulti                 0                  0.0
UdpMemErrors                    1953207            0.0
NSTAT
out=$(timeout 60 "$NETPATH" doctor --root "$T/sos" 2>&1) || true
grep -q 'UDP memory limit hit: 1953207 since boot' <<<"$out" || {
	echo "FAIL: socket.udp-mem did not name the UDP memory cause"; echo "$out" | head -60; exit 1; }
grep -q 'UdpMemErrors  *1953207 datagrams' <<<"$out" || { echo "FAIL: no UdpMemErrors evidence"; exit 1; }
echo PASS
