#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A listener with backlog 4 that never accepts, hit by a burst of 20 connects, in a namespace:
# doctor must report a "socket" finding that names the listener's port and its accept queue.
. "$(dirname "$0")/lib.sh"
np_require_root
ns="np-$$-lq"
ip netns add "$ns" || np_fail "netns add"
NP_NETNS="$NP_NETNS $ns"
ip -n "$ns" link set lo up

np_traffic "$ns" listener listen 127.0.0.1 8080 4
np_traffic "$ns" connects connect-burst 127.0.0.1 8080 20
# Wait until the accept queue is full (Recv-Q 5 = backlog 4 + 1).
np_wait_until "$NP_WAIT" "the accept queue on 127.0.0.1:8080 to fill (Recv-Q 5)" \
	sh -c '[ "$(ip netns exec "$1" ss -Hltn "sport = :8080" | awk "{print \$2}")" -ge 5 ]' - "$ns"

ip netns exec "$ns" "$NETPATH" doctor lo --interval 1 --json > "$NP_TMP/out.json"
rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || np_fail "exit code $rc, expected 1 or 2"
np_validate "$NP_TMP/out.json"
# The per-socket finding names the port and the queue (current/limit).
np_assert_json "$NP_TMP/out.json" 'any(f["id"] == "socket.listen-queue" and f["stage"] == "socket" and f["severity"] in ("warning", "critical") and "127.0.0.1:8080" in f["summary"] and "5/4" in f["summary"] and any(e["key"] == "port" and e.get("text") == "8080" for e in f["evidence"]) for f in d["findings"])'
# The queue limit is the application's backlog (4 < somaxconn): the remedy says so.
np_assert_json "$NP_TMP/out.json" 'any(f["id"] == "socket.listen-queue" and "listen() backlog" in f["remedy"] for f in d["findings"])'
np_assert_json "$NP_TMP/out.json" '[c["state"] for c in d["checks"] if c["id"] == "socket.listen-queue"] == ["flagged"]'
# Text mode names the port too.
ip netns exec "$ns" "$NETPATH" doctor lo --interval 0 --color=never > "$NP_TMP/out.txt"
grep -q "listener 127.0.0.1:8080: accept queue 5/4" "$NP_TMP/out.txt" ||
	np_fail "text output does not name the listener"
echo "PASS"
