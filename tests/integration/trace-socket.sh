#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A UDP receiver that never reads, flooded: `netpath trace` counts SOCKET_RCVBUFF in stage
# socket for the receiving veth, both run inside its namespace and from the host with --netns;
# the same ifindex in the sender's namespace sees none of them (namespace matching); the JSON
# matches doc/netpath-trace.schema.json and the exit code is the drop rate's severity. The
# arrivals come from vb's rx_packets counter, with no program loaded per packet (--arrivals
# loads them). The raw-tracepoint fallback, forced, sees the same.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/trace_lib.sh"
trace_require
np_pair snd rcv

# Until the EXIT trap stops it: five traces below, each loading its programs (slow under load).
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096 --max-seconds 110
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000 --max-seconds 110
np_wait_counter "$NS_B" UdpRcvbufErrors

ip netns exec "$NS_B" "$NETPATH" trace vb --duration 2 --json > "$NP_TMP/in.json"
rc=$?
trace_validate "$NP_TMP/in.json"
trace_assert_drop "$NP_TMP/in.json" SOCKET_RCVBUFF socket
# Thousands per second: critical (100/s and more), so exit 2.
[ "$rc" -eq 2 ] || np_fail "exit code $rc, expected 2 (critical drop rate)"
np_assert_json "$NP_TMP/in.json" 'd["status"] == "critical" and d["exit_code"] == 2 and d["interface"] == "vb" and d["attach"] == "tp_btf" and d["grouped_by"] == "reason"'
# Every dropped datagram arrived on vb first: the arrival count covers the drops. By default
# it is vb's rx_packets counter over the window, with no rows per queue and CPU.
np_assert_json "$NP_TMP/in.json" 'd["arrivals_total"]["from"] == "rx_packets" and d["arrivals"] == [] and d["arrivals_total"]["packets"] >= [x["count"] for x in d["drops"] if x["reason"] == "SOCKET_RCVBUFF"][0] > 0'
# ... and no program runs on every packet: once trace attached a program (programs are all
# loaded before the first attach), it holds one program, the drop program.
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 4 --json > "$NP_TMP/bg.json" &
bg=$!
progs=""
for _ in $(seq 300); do
	if grep -qs '^link_type:' /proc/"$bg"/fdinfo/*; then
		# Program and link fds both name their program's id.
		progs=$(grep -hs '^prog_id:' /proc/"$bg"/fdinfo/* | sort -u | wc -l)
		break
	fi
	sleep 0.05
done
wait "$bg"
[ "$progs" = 1 ] || np_fail "trace holds ${progs:-no} BPF programs, expected only the drop program"
# The counters agree over the same window: the funnel's socket row and doctor's finding.
np_assert_json "$NP_TMP/in.json" 'any(r["stage"] == "socket" and r["drops"] and (r["drops"]["per_second"] or 0) > 0 for r in d["funnel"])'
np_assert_json "$NP_TMP/in.json" 'any(f["stage"] == "socket" and f["severity"] in ("warning", "critical") for f in d["findings"])'

# The raw-tracepoint fallback (Linux 5.4 has no tp_btf) counts the same drops and, with
# --arrivals, the arrivals per queue and CPU: its programs read fields through
# bpf_probe_read_kernel(), the typed ones directly.
NETPATH_TRACE_ATTACH=raw_tp ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 --json \
	--arrivals > "$NP_TMP/raw.json"
trace_validate "$NP_TMP/raw.json"
trace_assert_drop "$NP_TMP/raw.json" SOCKET_RCVBUFF socket
np_assert_json "$NP_TMP/raw.json" 'd["attach"] == "raw_tp" and d["arrivals_total"]["from"] == "netif_receive_skb"'
np_assert_json "$NP_TMP/raw.json" 'd["arrivals_total"]["packets"] == sum(a["packets"] for a in d["arrivals"]) >= [x["count"] for x in d["drops"] if x["reason"] == "SOCKET_RCVBUFF"][0] > 0'

# From the host: --netns joins the namespace; the programs match its inode.
"$NETPATH" trace vb --netns "$NS_B" --duration 1 --json > "$NP_TMP/netns.json"
trace_validate "$NP_TMP/netns.json"
trace_assert_drop "$NP_TMP/netns.json" SOCKET_RCVBUFF socket
want=$(stat -L -c %i "/run/netns/$NS_B")
np_assert_json "$NP_TMP/netns.json" "d['netns']['inode'] == $want and d['netns']['spec'] == '$NS_B'"

# va in the sender's namespace has the same ifindex as vb: none of vb's drops are its.
ia=$(ip netns exec "$NS_A" cat /sys/class/net/va/ifindex)
ib=$(ip netns exec "$NS_B" cat /sys/class/net/vb/ifindex)
[ "$ia" = "$ib" ] || echo "note: ifindex differ ($ia, $ib): the namespace check is weaker"
ip netns exec "$NS_A" "$NETPATH" trace va --duration 1 --json > "$NP_TMP/other.json"
trace_validate "$NP_TMP/other.json"
trace_assert_no_drop "$NP_TMP/other.json" SOCKET_RCVBUFF

# Text: the reason sits under the socket stage, and the top line names it.
ip netns exec "$NS_B" "$NETPATH" trace vb --duration 1 > "$NP_TMP/out.txt"
grep -q "^Top: critical SOCKET_RCVBUFF" "$NP_TMP/out.txt" || np_fail "text: no top line"
sed -n '/^socket /,/^[a-z]/p' "$NP_TMP/out.txt" | grep -q "SOCKET_RCVBUFF" ||
	np_fail "text: SOCKET_RCVBUFF not under the socket stage"
echo "PASS"
