#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# --netns from the host gives the same report as running inside the namespace, by name, by
# path and by PID, and says which values are host-wide. It sees more than a run inside: the
# host-wide sysctls (netdev_max_backlog, tcp_mem, udp_mem) have no file in a child namespace,
# so --netns reads them before entering.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair a b
# Something namespace-specific to see: a sysctl only this namespace has.
ip netns exec "$NS_B" sysctl -q -w net.ipv4.tcp_slow_start_after_idle=0
ip -n "$NS_B" link set vb mtu 1400

ip netns exec "$NS_B" "$NETPATH" doctor vb --interval 0 --json > "$NP_TMP/inside.json"
"$NETPATH" doctor vb --netns "$NS_B" --interval 0 --json > "$NP_TMP/byname.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "--netns exit $rc"
np_validate "$NP_TMP/byname.json" "$NP_TMP/inside.json"
"$NETPATH" doctor vb --netns "/run/netns/$NS_B" --interval 0 --json > "$NP_TMP/bypath.json" ||
	[ $? -le 2 ] || np_fail "--netns PATH"
# A process in the namespace: ip netns exec execs sleep, so $! is its pid (no pgrep, which
# could find another test's sleep).
np_bg ip netns exec "$NS_B" sleep 60
pid=$NP_LAST_PID
np_wait_until "$NP_WAIT" "pid $pid to enter namespace $NS_B" \
	sh -c '[ "$(readlink "/proc/$1/ns/net")" = "$(ip netns exec "$2" readlink /proc/self/ns/net)" ]' - "$pid" "$NS_B"
"$NETPATH" doctor vb --netns "$pid" --interval 0 --json > "$NP_TMP/bypid.json" ||
	[ $? -le 2 ] || np_fail "--netns PID"
np_validate "$NP_TMP/bypath.json" "$NP_TMP/bypid.json"

same() {
	"$NP_PY" - "$1" "$2" <<'PY' || np_fail "$1 and $2 differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
host = {"socket.tcp-mem", "socket.udp-mem", "socket.tcp-orphans"}	# on host-wide keys only
key = lambda d: sorted((f["id"], f["severity"]) for f in d["findings"] if f["id"] not in host)
assert key(a) == key(b), (key(a), key(b))
assert a["nic"]["rtnl"]["mtu"] == b["nic"]["rtnl"]["mtu"] == 1400
state = lambda d: [(c["id"], c["state"]) for c in d["checks"] if c["id"] not in host]
assert state(a) == state(b), set(state(a)) ^ set(state(b))
# Inside, the host-wide keys are missing; through --netns they were read on the host.
st = lambda d: {c["id"]: c["state"] for c in d["checks"] if c["id"] in host}
assert set(st(a).values()) == {"skipped"}, st(a)
assert "skipped" not in st(b).values(), st(b)
PY
}
same "$NP_TMP/inside.json" "$NP_TMP/byname.json"
same "$NP_TMP/inside.json" "$NP_TMP/bypath.json"
same "$NP_TMP/inside.json" "$NP_TMP/bypid.json"
np_assert_json "$NP_TMP/byname.json" 'd["netns"]["spec"] == "'"$NS_B"'" and d["interface"] == "vb"'
np_assert_json "$NP_TMP/byname.json" 'all(f["scope"] == "host" for f in d["findings"] if f["id"].startswith("softnet."))'
# A veth's 10000 Mbit/s is nominal: softnet.max-backlog does not judge the backlog against it,
# inside or through --netns, and says why.
np_assert_json "$NP_TMP/byname.json" '[c.get("reason", "") for c in d["checks"] if c["id"] == "softnet.max-backlog"][0].startswith("link speed of vb unknown: a virtual device")'
np_assert_json "$NP_TMP/byname.json" 'not any(f["id"] in ("softnet.max-backlog", "link.mtu-jumbo") for f in d["findings"])'
# The host's own view is untouched: vb does not exist here.
[ ! -e /sys/class/net/vb ] || np_fail "the host sees vb: the mount namespace leaked"
"$NETPATH" doctor --netns "$NS_B" vb --interval 0 --color=never | grep -q "host-wide" ||
	np_fail "text output does not say which values are host-wide"
"$NETPATH" doctor vb --netns no-such-ns-$$ --interval 0 2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "unknown namespace must exit 3"
grep -q "cannot open network namespace" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
echo "PASS"
