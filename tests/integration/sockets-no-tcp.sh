#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A namespace with no TCP socket: doctor asks the kernel for no TCP dump (the walk would visit
# the established hash every namespace shares, to find nothing), and reports what a walk
# would: zero TCP sockets, the sock_diag source available. As soon as the namespace has one (a
# listener; a connection closed into TIME_WAIT), the dump is back and counts it. A capture
# always holds the dump, and its replay agrees.
. "$(dirname "$0")/lib.sh"
np_require_root
command -v strace > /dev/null || np_skip "no strace"
# LeakSanitizer cannot run under ptrace: an ASan build traced here skips leak detection (the
# untraced tests check leaks).
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
NS="np-$$-notcp"
ip netns add "$NS" || np_fail "netns add"
NP_NETNS="$NP_NETNS $NS"
ip -n "$NS" link set lo up
ip -n "$NS" addr add 198.18.9.1/32 dev lo

# tcp_dumps: how many TCP dump requests one doctor run sends (the compatibility request names
# TCPDIAG_GETSOCK; a per-family one IPPROTO_TCP), and its JSON in $NP_TMP/doctor.json.
tcp_dumps() {
	ip netns exec "$NS" env "$NOLEAK" strace -f -qq -e trace=sendto -e signal=none \
		-o "$NP_TMP/strace" "$NETPATH" doctor lo --interval 0 --json > "$NP_TMP/doctor.json" \
		2> "$NP_TMP/doctor.err"
	grep -cE 'TCPDIAG_GETSOCK|sdiag_protocol=IPPROTO_TCP' "$NP_TMP/strace"
}

n=$(tcp_dumps)
[ "$n" -eq 0 ] || np_fail "$n TCP dumps in a namespace without TCP sockets"
grep -q 'SOCK_DIAG_BY_FAMILY' "$NP_TMP/strace" || np_fail "no UDP dump either: sockets not read at all"
np_validate "$NP_TMP/doctor.json"
np_assert_json "$NP_TMP/doctor.json" 'd["sockets"]["tcp"]["total"] == 0 and all(v == 0 for v in d["sockets"]["tcp"]["states"].values())'
np_assert_json "$NP_TMP/doctor.json" 'not any(u["source"] == "sock_diag" for u in d["unavailable"])'

# A capture of the empty namespace holds the dump all the same (a replay cannot read the live
# sockstat the run decided on), and replays as zero TCP sockets with sock_diag available.
ip netns exec "$NS" env "$NOLEAK" strace -f -qq -e trace=sendto -e signal=none \
	-o "$NP_TMP/strace.cap" "$NETPATH" capture lo --interval 0.5 -o "$NP_TMP/empty.cap" 2> "$NP_TMP/err" ||
	np_fail "capture failed: $(cat "$NP_TMP/err")"
grep -qE 'TCPDIAG_GETSOCK|sdiag_protocol=IPPROTO_TCP' "$NP_TMP/strace.cap" ||
	np_fail "the capture recorded no TCP dump: its replay would have none to show"
"$NETPATH" doctor --root "$NP_TMP/empty.cap" lo --json > "$NP_TMP/replay.json" 2> "$NP_TMP/err"
[ $? -le 2 ] || np_fail "doctor --root on the capture failed: $(cat "$NP_TMP/err")"
np_assert_json "$NP_TMP/replay.json" 'd["sockets"]["tcp"]["total"] == 0 and not any(u["source"] == "sock_diag" for u in d["unavailable"])'

# A listener: sockstat counts it, the dump is back and finds it.
ip netns exec "$NS" "$NP_PY" -c '
import socket, sys, time
s = socket.socket(); s.bind(("198.18.9.1", 9500)); s.listen(8)
c = socket.create_connection(("198.18.9.1", 9500)); a, _ = s.accept()
open(sys.argv[1], "w").close()
time.sleep(60)' "$NP_TMP/listening" &
pid=$!
NP_PIDS="$NP_PIDS $pid"
np_wait_file "$NP_TMP/listening" "a listener and a connection in $NS"
n=$(tcp_dumps)
[ "$n" -ge 1 ] || np_fail "no TCP dump with a listener in the namespace"
np_assert_json "$NP_TMP/doctor.json" 'd["sockets"]["tcp"]["states"]["listen"] == 1 and d["sockets"]["tcp"]["states"]["established"] == 2'

# The connection closed by the side that closes first stays in TIME_WAIT, uncounted by "inuse":
# sockstat's tw keeps the dump, which counts it.
np_stop "$pid"
np_wait_until "$NP_WAIT" "a TIME_WAIT socket in $NS" \
	sh -c "ip netns exec '$NS' cat /proc/net/sockstat | grep -q 'tw [1-9]'"
grep -q "TCP: inuse 0 " <(ip netns exec "$NS" cat /proc/net/sockstat) ||
	np_fail "sockets other than TIME_WAIT left: $(ip netns exec "$NS" cat /proc/net/sockstat)"
n=$(tcp_dumps)
[ "$n" -ge 1 ] || np_fail "no TCP dump with a TIME_WAIT socket in the namespace"
np_assert_json "$NP_TMP/doctor.json" 'd["sockets"]["tcp"]["states"]["time_wait"] >= 1'
echo "PASS: no TCP dump without TCP sockets; back with a listener or TIME_WAIT"
