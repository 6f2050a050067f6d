#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Attribution: two senders with distinct addresses, one into an iptables DROP rule on port 9001,
# the other into a UDP socket on port 9002 that never reads, and an IPv6 sender to a closed
# port (NO_SOCKET, rated info like doctor's transport.udp-no-ports). `netpath trace` must name the right
# source and port under each reason (NETFILTER_DROP, SOCKET_RCVBUFF), give each a kernel location,
# honour --host/--port/--proto and --by in the kernel, and exit 3 when the interface vanishes
# during the window.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
trace_require
command -v iptables > /dev/null || np_skip "iptables not installed"
np_pair snd rcv
ip -n "$NS_A" addr add 198.18.0.3/24 dev va || np_fail "second sender address"
# IPv6 in the documentation prefix, inside the namespaces only; nodad: usable at once.
ip -n "$NS_A" addr add 2001:db8::1/64 dev va nodad || np_skip "no IPv6 here"
ip -n "$NS_B" addr add 2001:db8::2/64 dev vb nodad || np_skip "no IPv6 here"

ip netns exec "$NS_B" iptables -A INPUT -p udp --dport 9001 -j DROP ||
	np_skip "iptables cannot add a rule here (no netfilter support?)"
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9002 --rcvbuf 4096
np_traffic "$NS_A" flood1 udp-flood 198.18.0.2 9001 --src 198.18.0.1
np_traffic "$NS_A" flood2 udp-flood 198.18.0.2 9002 --src 198.18.0.3
np_traffic "$NS_A" flood6 udp-flood 2001:db8::2 9004 --gap-ms 1
# IPv4 with options (ihl 6: a record-route-free NOP,NOP,NOP,EOL word): the ports sit past the
# 20-byte header, where the drop program reads them apart. A closed port: NO_SOCKET.
np_bg ip netns exec "$NS_A" timeout 120 "$NP_PY" -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_OPTIONS, b"\x01\x01\x01\x00")
s.bind(("198.18.0.1", 0))
while True:
    s.sendto(b"x" * 32, ("198.18.0.2", 9006))
    time.sleep(0.002)
' > "$NP_TMP/ipopt.log" 2>&1
np_wait_counter "$NS_B" UdpRcvbufErrors
np_wait_counter "$NS_B" UdpNoPorts	# the IPv4-with-options sender is sending
rule_packets() {
	ip netns exec "$NS_B" iptables -L INPUT -v -x -n | awk '/dpt:9001/ {print $1}'
}
np_wait_moving "$NP_WAIT" "the DROP rule's packet counter" rule_packets

out=$NP_TMP/out.json
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 2 --json > "$out"
rc=$?
[ "$rc" -eq 2 ] || np_fail "exit code $rc, expected 2 (critical drop rates)"
trace_validate "$out"
trace_assert_drop "$out" NETFILTER_DROP ingress
trace_assert_drop "$out" SOCKET_RCVBUFF socket
# top(): the reason's top flows.
top="next(x for x in d['drops'] if x['reason'] == '%s')"
nf=$(printf "$top" NETFILTER_DROP)
sk=$(printf "$top" SOCKET_RCVBUFF)
np_assert_json "$out" "$nf['top'][0]['src'] == '198.18.0.1' and $nf['top'][0]['dst'] == '198.18.0.2' and $nf['top'][0]['proto'] == 'udp' and $nf['top'][0]['dport'] == 9001 and $nf['top'][0]['ip_version'] == 4"
np_assert_json "$out" "$sk['top'][0]['src'] == '198.18.0.3' and $sk['top'][0]['dport'] == 9002"
ns=$(printf "$top" NO_SOCKET)
np_assert_json "$out" "$ns['top'][0]['src'] == '2001:db8::1' and $ns['top'][0]['ip_version'] == 6 and $ns['top'][0]['dport'] == 9004 and $ns['stage'] == 'transport'"
np_assert_json "$out" "$ns['severity'] == 'info' and $ns['check'] == 'transport.udp-no-ports'"
np_assert_json "$out" "any(f['src'] == '198.18.0.1' and f['dport'] == 9006 and f['ip_version'] == 4 for f in $ns['top'])"
# Each source only under its own reason; the flows add up to the reason's count.
np_assert_json "$out" "all(f['src'] == '198.18.0.1' for f in $nf['top']) and all(f['src'] == '198.18.0.3' for f in $sk['top'])"
np_assert_json "$out" "sum(f['count'] for f in $nf['top']) + $nf['top_other'] == $nf['count']"
np_assert_json "$out" "sum(f['count'] for f in $sk['top']) + $sk['top_other'] == $sk['count']"
# Where: a kernel function+offset for both (kallsyms is readable as root).
np_assert_json "$out" "'+0x' in $nf['location'] and '+0x' in $sk['location']"
np_assert_json "$out" "$sk['check'] == 'socket.udp-rcvbuf' and d['attribution']['enabled']"
# One accounting: the ingress stage counts the netfilter drops.
np_assert_json "$out" "d['stage_drops']['ingress'] >= $nf['count']"

# Filters in the kernel: --host keeps the second sender only, --port the first only.
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 --json --host 198.18.0.3 > "$NP_TMP/host.json"
trace_validate "$NP_TMP/host.json"
trace_assert_no_drop "$NP_TMP/host.json" NETFILTER_DROP
trace_assert_drop "$NP_TMP/host.json" SOCKET_RCVBUFF socket
np_assert_json "$NP_TMP/host.json" "d['attribution']['filter']['host'] == '198.18.0.3/32' and d['attribution']['filter']['filtered_out'] > 0"
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 --json --port 9001 --proto udp > "$NP_TMP/port.json"
trace_validate "$NP_TMP/port.json"
trace_assert_drop "$NP_TMP/port.json" NETFILTER_DROP ingress
trace_assert_no_drop "$NP_TMP/port.json" SOCKET_RCVBUFF
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 --json --proto icmp > "$NP_TMP/icmp.json"
trace_assert_no_drop "$NP_TMP/icmp.json" NETFILTER_DROP
trace_assert_no_drop "$NP_TMP/icmp.json" SOCKET_RCVBUFF
# --by src: addresses only, no ports.
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 --json --by src --host 198.18.0.0/24 > "$NP_TMP/src.json"
trace_validate "$NP_TMP/src.json"
np_assert_json "$NP_TMP/src.json" "$nf['top'][0]['src'] == '198.18.0.1' and $nf['top'][0]['dst'] is None and $nf['top'][0]['dport'] is None and len($nf['top']) == 1"
# Text: the flows under their reasons.
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 --top 2 > "$NP_TMP/out.txt"
grep -q "198.18.0.1:[0-9]* > 198.18.0.2:9001 udp" "$NP_TMP/out.txt" ||
	np_fail "text lacks the netfilter flow: $(cat "$NP_TMP/out.txt")"
grep -q "198.18.0.3:[0-9]* > 198.18.0.2:9002 udp" "$NP_TMP/out.txt" ||
	np_fail "text lacks the socket flow: $(cat "$NP_TMP/out.txt")"

# The interface vanishes mid-window: exit 3 and say so, not "no drop".
# -v logs the attachment ("trace: tp_btf on ifindex ..."): the window is open after it.
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 5 -v > "$NP_TMP/gone.txt" 2> "$NP_TMP/gone.err" &
tpid=$!
np_wait_until "$NP_WAIT" "trace to attach" grep -q "trace: .* on ifindex" "$NP_TMP/gone.err"
ip -n "$NS_B" link del vb
wait "$tpid"
rc=$?
[ "$rc" -eq 3 ] || np_fail "vanished interface: exit $rc, expected 3: $(cat "$NP_TMP/gone.err")"
grep -q "vanished" "$NP_TMP/gone.err" || np_fail "no 'vanished' message: $(cat "$NP_TMP/gone.err")"
echo "PASS"
