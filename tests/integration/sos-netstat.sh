#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# issue #32: a sosreport (or a --root tree holding a pasted output) without proc/net/snmp and
# without nstat_-zas, but with sos_commands/networking/netstat_-s: the net-tools text of
# splunk/splunk-connect-for-syslog issue #2604 (a syslog receiver on Ubuntu 22.04: "0 receive
# buffer errors", "MemErrors: 1945378") must name the UDP memory cause, not leave it unknown.
# And a netstat -su text (no TcpExt section) must not pass the TCP checks as read.
# Needs no root: it only reads a copied tree.
set -eu
: "${NETPATH:?}" "${NP_SRCDIR:?}"
T=$(mktemp -d "/tmp/np-sos-netstat.$$.XXXXXX")
trap 'rm -rf "$T"' EXIT
cp -r "$NP_SRCDIR/tests/fixtures/sos/sos4.0-debian12-virtio" "$T/sos"
rm -f "$T/sos/proc/net/snmp" "$T/sos/proc/net/netstat" "$T/sos/sos_commands/networking/nstat_-zas"
cp "$NP_SRCDIR/tests/fixtures/parsers/nettools_netstat_su_sc4s_memerrors.txt" \
	"$T/sos/sos_commands/networking/netstat_-s"
out=$(timeout 60 "$NETPATH" doctor --root "$T/sos" 2>&1) || true
grep -q 'UDP memory limit hit: 1945378 since boot' <<<"$out" || {
	echo "FAIL: socket.udp-mem did not name the UDP memory cause"; echo "$out" | head -80; exit 1; }
grep -q 'UdpMemErrors  *1945378 datagrams' <<<"$out" || { echo "FAIL: no UdpMemErrors evidence"; exit 1; }
# -su holds no TcpExt: the listen-queue check must say why it could not judge, not blame the
# kernel and not pass.
v=$(timeout 60 "$NETPATH" doctor --root "$T/sos" -v 2>&1) || true
grep -q 'skipped socket.listen-overflow  *not in the netstat -s text' <<<"$v" || {
	echo "FAIL: listen-overflow not skipped as unread"; grep -n 'listen-overflow' <<<"$v"; exit 1; }
# A pasted output alone (the thread's text under sos's name, an empty proc/): no udp_mem sysctl
# in the evidence, yet the counter says the limit was hit.
mkdir -p "$T/paste/sos_commands/networking" "$T/paste/proc"
cp "$NP_SRCDIR/tests/fixtures/parsers/nettools_netstat_su_sc4s_memerrors.txt" \
	"$T/paste/sos_commands/networking/netstat_-s"
p=$(timeout 60 "$NETPATH" doctor --root "$T/paste" eth0 2>&1) || true
grep -q 'UDP memory limit hit: 1945378 since boot (udp_mem not in this' <<<"$p" || {
	echo "FAIL: a pasted netstat -su did not name the UDP memory cause"; echo "$p" | head -40; exit 1; }
echo PASS
