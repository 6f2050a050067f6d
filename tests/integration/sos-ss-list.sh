#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# issue #32: a sosreport's ss -peaonmi (sos 3.4+) read where sock_diag cannot be asked, so the
# socket checks judge its sockets and say "from ss text"; --netns NS reads that namespace's
# copies (tests/fixtures/sos/sos4.5-netns-composite: blue in sos 4.3+'s layout) and never the
# host's; an unknown namespace is a one-line error naming the report's namespaces, exit 3.
# The host's ss text is tests/fixtures/parsers/ss_layouts_synthetic.txt (synthetic: a rsyslog
# socket with 1953207 drops, a full listener). Needs no root: it only reads a copied tree.
set -eu
: "${NETPATH:?}" "${NP_SRCDIR:?}"
FX="$NP_SRCDIR/tests/fixtures/sos/sos4.5-netns-composite"
out=$(timeout 60 "$NETPATH" doctor --root "$FX" eth0 -v 2>&1) || true
grep -q 'socket.udp-socket-drops' <<<"$out" || { echo "FAIL: no UDP socket finding from ss text"; exit 1; }
grep -qE 'from +ss text \(ss_-peaonmi\)' <<<"$out" || { echo "FAIL: evidence does not say 'from ss text'"; exit 1; }
grep -q 'listener 0.0.0.0:8080: accept queue 129/128 (full)' <<<"$out" || { echo "FAIL: full listener not judged"; exit 1; }
ns=$(timeout 60 "$NETPATH" doctor --root "$FX" --netns blue eth0 -v 2>&1) || true
grep -q 'Sockets: TCP 4 ' <<<"$ns" || { echo "FAIL: --netns blue did not read the namespace's ss copy"; exit 1; }
grep -q 'UdpMemErrors *1945378' <<<"$ns" || { echo "FAIL: --netns blue did not read its netstat -s"; exit 1; }
if grep -q '0.0.0.0:514\|UdpInDatagrams *452' <<<"$ns"; then echo "FAIL: the host's values mixed in"; exit 1; fi
rc=0
err=$(timeout 60 "$NETPATH" doctor --root "$FX" --netns green eth0 2>&1 >/dev/null) || rc=$?
[ "$rc" = 3 ] || { echo "FAIL: unknown namespace exit $rc, want 3"; exit 1; }
[ "$(wc -l <<<"$err")" = 1 ] && grep -q "no namespace 'green' in this sosreport (it has: blue red)" <<<"$err" || {
	echo "FAIL: unknown namespace message: $err"; exit 1; }
echo PASS
