#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath serve / netpath path over IPv6: serve listens on a bracketed address, path reaches it
# (bracketed, with and without the port), the TCP test and the UDP steps run, and the receiver's
# count backs the throughput as it does over IPv4 (path-basic).
. "$NP_SRCDIR/tests/integration/lib.sh"
np_require_root
np_pair cli srv
# nodad: the addresses are usable at once, not after duplicate address detection.
ip -n "$NS_A" addr add fd00:198:18::1/64 dev va nodad || np_fail "IPv6 address on va"
ip -n "$NS_B" addr add fd00:198:18::2/64 dev vb nodad || np_fail "IPv6 address on vb"

KEY="$NP_TMP/key"
head -c 32 /dev/urandom > "$KEY"
chmod 600 "$KEY"

start_serve() {
	: > "$NP_TMP/serve.log"
	np_bg ip netns exec "$NS_B" "$NETPATH" serve --listen "[fd00:198:18::2]:7878" --key "$KEY" \
		--once --max-duration 5 2> "$NP_TMP/serve.log"
	SERVE_PID=$NP_LAST_PID
	np_wait_until "$NP_WAIT" "serve listening" grep -qx \
		"netpath serve: listening on \[fd00:198:18::2\]:7878" "$NP_TMP/serve.log"
}

# $1: the peer as given to path; $2...: more options. Checks the JSON like path-basic does.
run_path() {
	local peer=$1
	shift
	start_serve
	out=$(np_in "$NS_A" timeout 60 "$NETPATH" path "$peer" --key "$KEY" --duration 1 --json "$@" \
		2> "$NP_TMP/path.err")
	rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || np_fail "path $peer $* exited $rc: $(cat "$NP_TMP/path.err")"
	printf '%s' "$out" | UDP="$*" "$NP_PY" -c '
import json, os, sys
d = json.load(sys.stdin)
rb, dur = d["receiver_bytes"], d["duration_s"]
assert rb > 1e6, "the receiver counted only %r bytes" % rb
assert abs(d["throughput_bps"] - rb * 8 / dur) <= 0.1 * rb * 8 / dur, d
if "--udp-steps" in os.environ["UDP"]:
    steps = d["udp_steps"]
    assert steps and all(s["delivered_bps"] > 0 for s in steps), steps
' || np_fail "path $peer $*: $out"
	wait "$SERVE_PID" || np_fail "serve --once did not exit 0: $(cat "$NP_TMP/serve.log")"
}

run_path "[fd00:198:18::2]"
run_path "[fd00:198:18::2]:7878" --udp-steps
echo "ok: path over IPv6, TCP and UDP steps"
