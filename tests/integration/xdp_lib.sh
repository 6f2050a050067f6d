# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the trace-xdp-* tests (sourced after lib.sh): the XDP state of a device as the
# kernel reports it, bounded waits ($NP_WAIT), and the skip when built without BPF.

# "MODE ID" of the program attached to DEV in namespace NS (mode as IFLA_XDP_ATTACHED: 1 native,
# 2 generic), or "none".
xdp_state() {
	ip -n "$1" -j link show dev "$2" | "$NP_PY" -c '
import json, sys
x = json.load(sys.stdin)[0].get("xdp")
print("%s %s" % (x["mode"], x["prog"]["id"]) if x else "none")'
}

# Wait (NP_WAIT, 30 s) until a program is attached to DEV in NS; fail otherwise.
xdp_attached() {
	[ "$(xdp_state "$1" "$2")" != none ]
}
xdp_wait_attached() {
	np_wait_until "$NP_WAIT" "an XDP program on $2 in namespace $1" xdp_attached "$1" "$2"
}

# Nothing of ours may remain on DEV in NS: no program attached (ip and bpftool agree) and, when
# the id of the program netpath attached is given, no such program loaded and no BPF link
# holding it (by id: other netpath runs on this machine may hold programs of the same name).
# The kernel releases a closed link at once; NP_WAIT (30 s) is allowed for the process's
# teardown on a loaded machine (it returns as soon as all is clean).
xdp_assert_clean() {
	local st="" id="${3:-}" end=$(($(np_ms) + NP_WAIT * 1000))
	while :; do
		st=$(xdp_state "$1" "$2")
		[ "$st" = none ] &&
			{ [ -z "$id" ] || ! bpftool prog show id "$id" > /dev/null 2>&1; } && break
		[ "$(np_ms)" -lt "$end" ] || break
		sleep 0.1
	done
	[ "$st" = none ] || np_fail "an XDP program is still attached to $2: $st"
	command -v bpftool > /dev/null || return 0
	ip netns exec "$1" bpftool net show dev "$2" | grep -A2 '^xdp:' | grep -q "$2" &&
		np_fail "bpftool net show still lists XDP on $2"
	[ -z "$id" ] && return 0
	bpftool prog show id "$id" > /dev/null 2>&1 && np_fail "program $id is still loaded"
	bpftool -j link show | "$NP_PY" -c '
import json, sys
held = [l["id"] for l in json.load(sys.stdin) if l.get("prog_id") == int(sys.argv[1])]
sys.exit("BPF links %s still hold program %s" % (held, sys.argv[1]) if held else 0)' "$id" ||
		np_fail "a BPF link of ours remains"
}

# Skip (77) when this netpath was built without BPF (no counter object next to it).
XDP_OBJ="$(dirname "$NETPATH")/../bpf/xdp_count.bpf.o"
xdp_require_bpf() {
	[ -e "$XDP_OBJ" ] || np_skip "netpath was built without BPF support"
	[ -x "$NPTRAFFIC" ] || np_fail "nptraffic not built at $NPTRAFFIC"
}

# Send COUNT UDP datagrams of 100 bytes from NS to DST:9, paced (20 per ms) so no ring
# overflows; returns once all are sent.
xdp_send_udp() {
	ip netns exec "$1" "$NPTRAFFIC" udp-flood "$2" 9 --count "$3" --size 100 --burst 20 \
		--gap-ms 1 --max-seconds "$NP_WAIT" > "$NP_TMP/send.log" 2>&1 ||
		np_fail "sending $3 datagrams to $2 failed: $(cat "$NP_TMP/send.log")"
}
