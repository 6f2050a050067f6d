#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath serve / netpath path over a veth pair between two namespaces: a 2-second test with the
# right key runs (and one with --reverse; a second client meanwhile is told it is busy), and the throughput path reports is within 10% of the bytes the receiver
# counted (both in the JSON); a wrong key is refused with exit 3 and the one line of spec34.md;
# a key file readable by others (0644) is refused by both commands before anything listens or
# connects; serve without --listen or --key refuses to start.
. "$NP_SRCDIR/tests/integration/lib.sh"
np_require_root
np_pair cli srv

KEY="$NP_TMP/key"
BAD="$NP_TMP/wrong"
OPEN="$NP_TMP/open"
head -c 32 /dev/urandom > "$KEY"
head -c 32 /dev/urandom > "$BAD"
cp "$KEY" "$OPEN"
chmod 600 "$KEY" "$BAD"
chmod 644 "$OPEN"

# serve in srv; readiness is its one "listening" line on stderr.
start_serve() {
	: > "$NP_TMP/serve.log"
	np_bg ip netns exec "$NS_B" "$NETPATH" serve --listen 198.18.0.2 --key "$KEY" --once \
		--max-duration 5 2> "$NP_TMP/serve.log"
	SERVE_PID=$NP_LAST_PID
	np_wait_until "$NP_WAIT" "serve listening" grep -q "^netpath serve: listening on 198.18.0.2:7878$" \
		"$NP_TMP/serve.log"
}

# 1. A 2-second test that runs: the throughput is the receiver's count over the transfer.
start_serve
out=$(np_in "$NS_A" timeout 60 "$NETPATH" path 198.18.0.2 --key "$KEY" --duration 2 --json \
	2> "$NP_TMP/path.err")
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || np_fail "path exited $rc: $(cat "$NP_TMP/path.err")"
printf '%s' "$out" | "$NP_PY" -c '
import json, sys
d = json.load(sys.stdin)
t, rb, dur = d["throughput_bps"], d["receiver_bytes"], d["duration_s"]
assert rb > 1e6, "the receiver counted only %r bytes" % rb
counted = rb * 8 / dur
assert abs(t - counted) <= 0.1 * counted, "throughput %r vs receiver %r bit/s" % (t, counted)
assert 1.5 <= dur <= 8, "duration %r" % dur
assert d["sender_bytes"] > 0.9 * rb, "sender acked %r, receiver counted %r" % (d["sender_bytes"], rb)
' || np_fail "path's JSON: $out"
wait "$SERVE_PID" || np_fail "serve --once did not exit 0 after the test: $(cat "$NP_TMP/serve.log")"

# 1b. --reverse with two streams: serve sends and ships its samples; this end counts.
start_serve
out=$(np_in "$NS_A" timeout 60 "$NETPATH" path 198.18.0.2 --key "$KEY" --duration 1 --streams 2 \
	--reverse --json 2> "$NP_TMP/path.err")
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || np_fail "path --reverse exited $rc: $(cat "$NP_TMP/path.err")"
printf '%s' "$out" | "$NP_PY" -c '
import json, sys
d = json.load(sys.stdin)
rb, dur = d["receiver_bytes"], d["duration_s"]
assert d["reverse"] is True and d["streams"] == 2, d
assert rb > 1e6, "the receiver counted only %r bytes" % rb
assert abs(d["throughput_bps"] - rb * 8 / dur) <= 0.1 * rb * 8 / dur, d
assert d["sender_bytes"] > 0.9 * rb, "serve acked %r, this end counted %r" % (d["sender_bytes"], rb)
' || np_fail "path --reverse's JSON: $out"
wait "$SERVE_PID" || np_fail "serve --once did not exit 0 after the reverse test"

# 1c. One test at a time: a second client during a test is turned away in one line, exit 3,
# and the first test completes. The first is running once its data connection is up (two
# established connections to serve's port).
start_serve
np_bg ip netns exec "$NS_A" "$NETPATH" path 198.18.0.2 --key "$KEY" --duration 3 --json
FIRST=$NP_LAST_PID
running() {
	[ "$(ip netns exec "$NS_B" ss -Htn state established '( sport = :7878 )' | wc -l)" -ge 2 ]
}
np_wait_until "$NP_WAIT" "the first test's data connection" running
np_in "$NS_A" timeout 30 "$NETPATH" path 198.18.0.2 --key "$KEY" --duration 1 2> "$NP_TMP/err" \
	> /dev/null
rc=$?
[ "$rc" -eq 3 ] && [ "$(cat "$NP_TMP/err")" = \
	"netpath: 198.18.0.2 is busy with another test (try again later)" ] ||
	np_fail "a second client during a test: exit $rc, '$(cat "$NP_TMP/err")'"
wait "$FIRST" > /dev/null
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || np_fail "the first test, with a second client turned away: exit $rc"
wait "$SERVE_PID" || np_fail "serve --once did not exit 0 after the first test"

# 2. The wrong key: exit 3, one line.
start_serve
np_in "$NS_A" timeout 30 "$NETPATH" path 198.18.0.2 --key "$BAD" > "$NP_TMP/out" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -eq 3 ] || np_fail "a wrong key: exit $rc, want 3"
[ "$(cat "$NP_TMP/err")" = "netpath: 198.18.0.2 refused the key (authentication failed)" ] ||
	np_fail "a wrong key: stderr '$(cat "$NP_TMP/err")'"
[ ! -s "$NP_TMP/out" ] || np_fail "a wrong key printed a result: $(cat "$NP_TMP/out")"
np_stop "$SERVE_PID"

# 3. A key file others can read: refused by path and by serve, exit 3, the spec's line.
want="netpath: key file $OPEN is readable by others (mode 0644): chmod 600 $OPEN"
np_in "$NS_A" timeout 30 "$NETPATH" path 198.18.0.2 --key "$OPEN" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -eq 3 ] && [ "$(cat "$NP_TMP/err")" = "$want" ] ||
	np_fail "path with a 0644 key: exit $rc, '$(cat "$NP_TMP/err")'"
np_in "$NS_B" timeout 30 "$NETPATH" serve --listen 198.18.0.2 --key "$OPEN" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -eq 3 ] && [ "$(cat "$NP_TMP/err")" = "$want" ] ||
	np_fail "serve with a 0644 key: exit $rc, '$(cat "$NP_TMP/err")'"

# 4. serve never without a key, never on every address.
np_in "$NS_B" timeout 30 "$NETPATH" serve --listen 198.18.0.2 2> /dev/null
[ $? -eq 3 ] || np_fail "serve without --key did not exit 3"
np_in "$NS_B" timeout 30 "$NETPATH" serve --key "$KEY" 2> /dev/null
[ $? -eq 3 ] || np_fail "serve without --listen did not exit 3"
# 5. Nothing listening: one line, exit 3.
np_in "$NS_A" timeout 30 "$NETPATH" path 198.18.0.2:7879 --key "$KEY" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -eq 3 ] && grep -q "^netpath: cannot reach 198.18.0.2:7879: Connection refused$" "$NP_TMP/err" ||
	np_fail "an unreachable peer: exit $rc, '$(cat "$NP_TMP/err")'"
echo "PASS"
