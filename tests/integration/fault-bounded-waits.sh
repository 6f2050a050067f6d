#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Bounded waits: in real doctor and watch runs, every socket netpath receives on (rtnetlink,
# generic netlink, sock_diag) has a receive timeout (SO_RCVTIMEO, at most 5 s) before its first
# receive, so a hung netlink peer or driver callback cannot hang a run. (The unit seams check the
# values for genl and sock_diag; rtnetlink's socket has none, hence this trace.)
. "$(dirname "$0")/lib.sh"
# LeakSanitizer cannot run under ptrace: an ASan build traced here skips leak detection (the
# untraced tests check leaks).
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
np_require_root
command -v strace > /dev/null || np_skip "no strace"
np_pair a b
dev=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") print $(i + 1); exit}')
[ -n "$dev" ] || dev=lo

check() {
	local name=$1
	shift
	env "$NOLEAK" strace -f -qq -e trace=socket,setsockopt,recv,recvfrom,recvmsg,recvmmsg,read,close \
		-o "$NP_TMP/$name.strace" "$@" > /dev/null 2> "$NP_TMP/$name.err"
	local rc=$?
	[ "$rc" -le 2 ] || np_fail "$name: exit $rc: $(head -3 "$NP_TMP/$name.err")"
	"$NP_PY" - "$NP_TMP/$name.strace" <<'PY' || np_fail "$name: a receive without a timeout"
import codecs, re, struct, sys
sock, timeo, bad, netlink = {}, {}, [], 0
for line in open(sys.argv[1]):
    m = re.match(r'(\d+)\s+(\w+)\((\d+)?(.*?)\) += (-?\d+)', line)
    if not m:
        continue
    pid, call, fd, rest, ret = m.group(1), m.group(2), m.group(3), m.group(4), int(m.group(5))
    if call == "socket" and ret >= 0:
        sock[(pid, ret)] = rest
        timeo.pop((pid, ret), None)
        netlink += "AF_NETLINK" in line
    elif call == "close" and fd:
        sock.pop((pid, int(fd)), None)
    elif call == "setsockopt" and "SO_RCVTIMEO" in rest and ret == 0:
        raw = codecs.escape_decode(re.search(r'"(.*)"', rest).group(1))[0]
        sec, usec = struct.unpack("<qq", raw[:16])
        timeo[(pid, int(fd))] = sec + usec / 1e6
    elif call.startswith("recv") or (call == "read" and fd and (pid, int(fd)) in sock):
        key = (pid, int(fd))
        if key not in sock:
            continue
        t = timeo.get(key)
        if t is None or not 0 < t <= 5:
            bad.append(f"{call} on fd {fd} ({sock[key]}) with timeout {t}: {line[:160]}\n")
if not netlink:
    bad.append("no netlink socket at all: is this a live run?")
if bad:
    sys.stderr.write("".join(bad[:10]))
    sys.exit(1)
PY
}

check doctor "$NETPATH" doctor "$dev" --interval 0.3 --sockets 3
check doctor-json "$NETPATH" doctor "$dev" --interval 0 --json
check doctor-veth ip netns exec "$NS_A" "$NETPATH" doctor va --interval 0.3
check doctor-netns "$NETPATH" doctor va --netns "$NS_A" --interval 0.3
check watch "$NETPATH" watch "$dev" --count 2 --interval 0.2
check watch-json "$NETPATH" watch "$dev" --count 2 --interval 0.2 --json
echo "PASS"
