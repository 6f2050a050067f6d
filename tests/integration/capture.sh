#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath capture, then doctor --root on the capture: the offline verdicts equal the live ones,
# check for check, on scenarios reproduced in namespaces (UDP receive-buffer overflow, a tbf
# shaper dropping, RPS backlog drops, the veth's NIC view). Capture and live doctor sample the
# same seconds side by side, so both see the same rates.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv
CMP="$NP_SRCDIR/tests/integration/capture_compare.py"
# Checks whose info finding may differ between two windows (capture_compare.py): counter
# balances, and link.idle on an idle veth (a stray IPv6 neighbour packet in one window only).
WINDOW="--window ingress.netfilter-drops link.idle"

# side_by_side NS IFACE NAME: capture and live doctor over the same 2 s, then doctor offline.
side_by_side() {
	local ns=$1 ifc=$2 name=$3
	ip netns exec "$ns" "$NETPATH" capture "$ifc" --interval 2 -o "$NP_TMP/$name.cap" \
		2> "$NP_TMP/$name.capture.err" &
	local cap=$!
	ip netns exec "$ns" "$NETPATH" doctor "$ifc" --interval 2 --json > "$NP_TMP/$name.live.json"
	wait "$cap" || { cat "$NP_TMP/$name.capture.err" >&2; np_fail "$name: capture failed"; }
	"$NETPATH" doctor --root "$NP_TMP/$name.cap" "$ifc" --json > "$NP_TMP/$name.off.json"
	np_validate "$NP_TMP/$name.off.json"
}

# 1. UDP receive-buffer overflow on the receiving side.
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
sink=$NP_LAST_PID
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000
flood=$NP_LAST_PID
np_wait_counter "$NS_B" UdpRcvbufErrors
side_by_side "$NS_B" vb udp
"$NP_PY" "$CMP" "$NP_TMP/udp.live.json" "$NP_TMP/udp.off.json" $WINDOW --expect socket.udp-rcvbuf ||
	np_fail "udp: offline verdicts differ from live"
# The capture is private (it names processes and addresses) and names its origin.
[ "$(stat -c %a "$NP_TMP/udp.cap")" = 600 ] || np_fail "capture mode $(stat -c %a "$NP_TMP/udp.cap"), not 600"
tar tzf "$NP_TMP/udp.cap" | grep -qx META || np_fail "capture has no META"
tar tzf "$NP_TMP/udp.cap" | grep -qx 's2/kernel.tape' || np_fail "capture has no kernel answers"
# The directory unpacked from it reads the same as the archive.
mkdir "$NP_TMP/udp.dir" && tar xzf "$NP_TMP/udp.cap" -C "$NP_TMP/udp.dir"
"$NETPATH" doctor --root "$NP_TMP/udp.dir" vb --json > "$NP_TMP/udp.dir.json"
"$NP_PY" "$CMP" "$NP_TMP/udp.off.json" "$NP_TMP/udp.dir.json" ||
	np_fail "the unpacked directory reads differently from the archive"
np_stop "$flood"
np_stop "$sink"

# 2. A tbf shaper dropping on the sending side (qdisc dump from the kernel tape).
tc -n "$NS_A" qdisc add dev va root tbf rate 1mbit burst 4kb latency 20ms ||
	np_skip "cannot attach tbf (sch_tbf missing?)"
tbf_drops() {
	tc -n "$NS_A" -s qdisc show dev va | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n1
}
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --drain
sink=$NP_LAST_PID
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000 --size 1000
flood=$NP_LAST_PID
np_wait_moving "$NP_WAIT" "tbf drops on va (tc)" tbf_drops
side_by_side "$NS_A" va tbf
"$NP_PY" "$CMP" "$NP_TMP/tbf.live.json" "$NP_TMP/tbf.off.json" $WINDOW --expect congestion.qdisc-drops ||
	np_fail "tbf: offline verdicts differ from live"
np_stop "$flood"
np_stop "$sink"
tc -n "$NS_A" qdisc del dev va root

# 3. RPS steering into a CPU whose backlog holds 8 packets (host-global, restored at exit).
if [ "$(nproc)" -ge 2 ] &&
	ip netns exec "$NS_B" sh -c 'echo 2 > /sys/class/net/vb/queues/rx-0/rps_cpus' 2>/dev/null; then
	np_sysctl_set net.core.netdev_max_backlog 8
	np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --drain --rcvbuf 4000000
	sink=$NP_LAST_PID
	np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000 --burst 64 --gap-ms 2 --cpu 0
	flood=$NP_LAST_PID
	cpu1_dropped() {
		local d
		d=$(sed -n 2p /proc/net/softnet_stat | cut -d' ' -f2) && echo $((16#$d))
	}
	np_wait_moving "$NP_WAIT" "CPU 1's softnet_stat dropped" cpu1_dropped
	side_by_side "$NS_B" vb rps
	"$NP_PY" "$CMP" "$NP_TMP/rps.live.json" "$NP_TMP/rps.off.json" $WINDOW --expect softnet.backlog-drops ||
		np_fail "rps: offline verdicts differ from live"
	np_stop "$flood"
	np_stop "$sink"
else
	echo "note: RPS part skipped (one CPU, or no CONFIG_RPS)"
fi

# 4. --netns: the host-wide sysctls read before entering travel in the capture.
"$NETPATH" capture --netns "$NS_B" vb --interval 1 -o "$NP_TMP/ns.cap" 2>/dev/null ||
	np_fail "capture --netns failed"
"$NETPATH" doctor --netns "$NS_B" vb --interval 1 --json > "$NP_TMP/ns.live.json"
"$NETPATH" doctor --root "$NP_TMP/ns.cap" vb --json > "$NP_TMP/ns.off.json"
"$NP_PY" "$CMP" "$NP_TMP/ns.live.json" "$NP_TMP/ns.off.json" $WINDOW ||
	np_fail "--netns: offline verdicts differ from live"
tar xzOf "$NP_TMP/ns.cap" s2/host_sysctls | grep -q '^net.core.netdev_max_backlog	' ||
	np_fail "the capture lacks the host-wide netdev_max_backlog"
# The SO_RCVBUF ceiling is the host's as well (a read-only mirror inside a namespace on recent
# kernels, no file there on older ones): it travels with them.
tar xzOf "$NP_TMP/ns.cap" s2/host_sysctls | grep -q '^net.core.rmem_max	' ||
	np_fail "the capture lacks the host-wide rmem_max"

# 5. diff: two captures around a change list the change, old -> new, in JSON and text.
ip netns exec "$NS_B" sysctl -q -w net.ipv4.tcp_rmem="4096 131072 6291456" >/dev/null ||
	np_fail "cannot set tcp_rmem in the namespace"
ip -n "$NS_B" link set vb mtu 1400
"$NETPATH" capture --netns "$NS_B" vb --interval 0.5 -o "$NP_TMP/after.cap" 2>/dev/null ||
	np_fail "second capture failed"
"$NETPATH" diff "$NP_TMP/ns.cap" "$NP_TMP/after.cap" vb --json > "$NP_TMP/diff.json"
np_assert_json "$NP_TMP/diff.json" 'any("tcp_rmem" in c["setting"] and "131072" in str(c["after"])
	for c in d["settings"])'
np_assert_json "$NP_TMP/diff.json" 'any("mtu" in c["setting"].lower() and str(c["before"]) == "1500" and
	str(c["after"]) == "1400" for c in d["settings"])'
"$NETPATH" diff "$NP_TMP/ns.cap" "$NP_TMP/after.cap" vb --color=never > "$NP_TMP/diff.txt"
grep -Eq "mtu +1500 +→ +1400" "$NP_TMP/diff.txt" || np_fail "diff text lacks 'mtu 1500 → 1400'"
echo "PASS"
