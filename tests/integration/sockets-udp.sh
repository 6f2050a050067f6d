#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A UDP receiver that never reads (SO_RCVBUF 4096), flooded over loopback in a namespace while
# doctor samples: the per-socket finding must name its port and show drops per second; the
# owner of the socket is found through /proc when asked (npsock --owners).
. "$(dirname "$0")/lib.sh"
np_require_root
here=$(dirname "$0")
npsock=${NPSOCK:-$(dirname "$NETPATH")/../tools/npsock}
ns="np-$$-udp"
ip netns add "$ns" || np_fail "netns add"
NP_NETNS="$NP_NETNS $ns"
ip -n "$ns" link set lo up

np_traffic "$ns" sink udp-sink 127.0.0.1 9000 --rcvbuf 4096
np_traffic "$ns" flood udp-flood 127.0.0.1 9000
flood=$NP_LAST_PID
np_wait_counter "$ns" UdpRcvbufErrors
ip netns exec "$ns" "$NETPATH" doctor lo --interval 2 --json > "$NP_TMP/out.json"
rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || np_fail "exit code $rc, expected 1 or 2"
np_validate "$NP_TMP/out.json"
np_assert_json "$NP_TMP/out.json" 'any(f["id"] == "socket.udp-socket-drops" and f["severity"] in ("warning", "critical") and "127.0.0.1:9000" in f["summary"] and any(e["key"] == "port" and e.get("text") == "9000" for e in f["evidence"]) and any(e["key"] == "drops (this socket)" and (e.get("per_second") or 0) > 0 for e in f["evidence"]) for f in d["findings"])'
# Its rcvbuf (4096 doubled) is set by the application, not rmem_default.
np_assert_json "$NP_TMP/out.json" 'any(f["id"] == "socket.udp-socket-drops" and any(e["key"] == "rcvbuf" and e.get("value") == 8192 for e in f["evidence"]) for f in d["findings"])'

# Once the flood is over the drops stand still: the owner (the sink, nptraffic), mapped from
# /proc/PID/fd only when asked, and the counts must match ss exactly.
np_stop "$flood"
ip netns exec "$ns" "$npsock" --top 4 --owners > "$NP_TMP/socks.json" || np_fail "npsock failed"
"$NP_PY" "$here/sock_helper.py" validate "$here/sockets.schema.json" "$NP_TMP/socks.json" ||
	np_fail "npsock output does not match sockets.schema.json"
np_assert_json "$NP_TMP/socks.json" 'd["top"]["owners_mapped"] and d["top"]["udp_drops"]["sockets"][0]["port"] == 9000 and d["top"]["udp_drops"]["sockets"][0]["process"] == "nptraffic" and d["top"]["udp_drops"]["sockets"][0]["pid"] > 0'
drops=$(ip netns exec "$ns" ss -Huanm 'sport = :9000' | grep -o ',d[0-9]*)' | tr -dc 0-9)
[ -n "$drops" ] && [ "$drops" -gt 0 ] || np_fail "ss shows no drops on port 9000"
np_assert_json "$NP_TMP/socks.json" "d['top']['udp_drops']['sockets'][0]['drops'] == $drops"
np_assert_json "$NP_TMP/socks.json" "d['udp']['total'] == $(ip netns exec "$ns" ss -Huan | wc -l)"
echo "PASS"
