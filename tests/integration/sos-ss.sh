#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# issue #32: a sosreport (sos 4.9.2+) without proc/net/sockstat but with sos_commands/networking/
# ss_-s: the orphan count must come from it, so socket.tcp-orphans judges instead of skipping.
# The ss -s text is PurpleI2P/i2pd issue #825's (orphaned 40; that box ran tcp_max_orphans 1024,
# set here in the fixture's sysctl -a so the check compares 40 against it). ss -s has no memory
# pages: the sockstat source must say it is partial.
# Needs no root: it only reads a copied tree.
set -eu
: "${NETPATH:?}" "${NP_SRCDIR:?}"
T=$(mktemp -d "/tmp/np-sos-ss.$$.XXXXXX")
trap 'rm -rf "$T"' EXIT
cp -r "$NP_SRCDIR/tests/fixtures/sos/sos4.0-debian12-virtio" "$T/sos"
rm -f "$T/sos/proc/net/sockstat" "$T/sos/proc/net/sockstat6"
cp "$NP_SRCDIR/tests/fixtures/parsers/ss_s_i2pd825_old.txt" "$T/sos/sos_commands/networking/ss_-s"
sx="$T/sos/sos_commands/kernel/sysctl_-a"
chmod u+w "$sx"
sed -i 's/^net.ipv4.tcp_max_orphans = .*/net.ipv4.tcp_max_orphans = 1024/' "$sx"
grep -q '^net.ipv4.tcp_max_orphans = 1024' "$sx" || echo 'net.ipv4.tcp_max_orphans = 1024' >> "$sx"
out=$(timeout 60 "$NETPATH" doctor --root "$T/sos" -v 2>&1) || true
grep -qE '(passed|INFO|WARNING|CRITICAL) +socket.tcp-orphans|\[socket.tcp-orphans\]' <<<"$out" || {
	echo "FAIL: socket.tcp-orphans did not judge from ss_-s"; grep -n 'tcp-orphans\|sockstat' <<<"$out"; exit 1; }
grep -q 'partial: from sosreport ss_-s' <<<"$out" || { echo "FAIL: sockstat source not partial from ss_-s"; exit 1; }
echo PASS
