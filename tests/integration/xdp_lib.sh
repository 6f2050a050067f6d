# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the trace-xdp-* tests (sourced after lib.sh): the XDP state of a device as the
# kernel reports it, waits bounded by a few seconds, and the skip when built without BPF.

# "MODE ID" of the program attached to DEV in namespace NS (mode as IFLA_XDP_ATTACHED: 1 native,
# 2 generic), or "none".
xdp_state() {
	ip -n "$1" -j link show dev "$2" | python3 -c '
import json, sys
x = json.load(sys.stdin)[0].get("xdp")
print("%s %s" % (x["mode"], x["prog"]["id"]) if x else "none")'
}

# Milliseconds on the monotonic-enough wall clock, for deadlines.
xdp_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# Wait (5 s at most) until a program is attached to DEV in NS; fail otherwise.
xdp_wait_attached() {
	local end=$(($(xdp_ms) + 5000))
	while [ "$(xdp_ms)" -lt "$end" ]; do
		[ "$(xdp_state "$1" "$2")" != none ] && return 0
		sleep 0.1
	done
	np_fail "no XDP program appeared on $2 within 5 s"
}

# Nothing of ours may remain on DEV in NS: no program attached (ip and bpftool agree) and, when
# the id of the program netpath attached is given, no such program loaded and no BPF link
# holding it (by id: other netpath runs on this machine may hold programs of the same name).
# The kernel releases a closed link at once; 3 s are allowed for the process's teardown.
xdp_assert_clean() {
	local st="" id="${3:-}" end=$(($(xdp_ms) + 3000))
	while :; do
		st=$(xdp_state "$1" "$2")
		[ "$st" = none ] &&
			{ [ -z "$id" ] || ! bpftool prog show id "$id" > /dev/null 2>&1; } && break
		[ "$(xdp_ms)" -lt "$end" ] || break
		sleep 0.1
	done
	[ "$st" = none ] || np_fail "an XDP program is still attached to $2: $st"
	command -v bpftool > /dev/null || return 0
	ip netns exec "$1" bpftool net show dev "$2" | grep -A2 '^xdp:' | grep -q "$2" &&
		np_fail "bpftool net show still lists XDP on $2"
	[ -z "$id" ] && return 0
	bpftool prog show id "$id" > /dev/null 2>&1 && np_fail "program $id is still loaded"
	bpftool -j link show | python3 -c '
import json, sys
held = [l["id"] for l in json.load(sys.stdin) if l.get("prog_id") == int(sys.argv[1])]
sys.exit("BPF links %s still hold program %s" % (held, sys.argv[1]) if held else 0)' "$id" ||
		np_fail "a BPF link of ours remains"
}

# Skip (77) when this netpath was built without BPF (no counter object next to it).
XDP_OBJ="$(dirname "$NETPATH")/../bpf/xdp_count.bpf.o"
xdp_require_bpf() {
	[ -e "$XDP_OBJ" ] || np_skip "netpath was built without BPF support"
	command -v python3 > /dev/null || np_skip "needs python3"
}

# Send COUNT UDP datagrams of 100 bytes from NS to DST:9, paced so no ring overflows.
xdp_send_udp() {
	ip netns exec "$1" python3 - "$2" "$3" <<'PY' || np_fail "sending UDP failed"
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(int(sys.argv[2])):
    s.sendto(b"x" * 100, (sys.argv[1], 9))
    if i % 20 == 19:
        time.sleep(0.001)
PY
}
