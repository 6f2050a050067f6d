# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# The delay-line topology of the `netpath path` scenarios (path-*.sh); source after lib.sh.
#
#   namespace S (sender)  tS 198.19.34.1/24 ==[ npdelay ]== tR 198.19.34.2/24  namespace R
#
# npdelay (tests/helpers/npdelay.c) opens both TAP devices in this namespace, then each is moved
# into its test namespace (the descriptors stay attached). netem and fq are not built into the
# test kernel, hence a delay line in user space. lib.sh's EXIT trap stops npdelay (SIGTERM: it
# prints its counters into $NP_TMP/npdelay.log) and deletes the namespaces; deleting them also
# deletes the TAP devices, and npdelay's exit would too.
: "${NPDELAY:=$(dirname "$NETPATH")/../tests/helpers/npdelay}"
NP_S_ADDR=198.19.34.1
NP_R_ADDR=198.19.34.2

# np_delay_line [npdelay options...]: build the topology; sets NS_S, NS_R, NP_DELAY_PID.
np_delay_line() {
	local ts="nps$$" tr="npr$$" i
	[ -x "$NPDELAY" ] || np_fail "npdelay not built at $NPDELAY (set NPDELAY)"
	NS_S="np-$$-S"
	NS_R="np-$$-R"
	ip netns add "$NS_S" || np_fail "netns add $NS_S"
	NP_NETNS="$NP_NETNS $NS_S"
	ip netns add "$NS_R" || np_fail "netns add $NS_R"
	NP_NETNS="$NP_NETNS $NS_R"
	np_bg "$NPDELAY" --max-seconds 240 "$@" "$ts" "$tr" 2> "$NP_TMP/npdelay.log"
	NP_DELAY_PID=$NP_LAST_PID
	np_wait_until "$NP_WAIT" "npdelay ready" grep -q '^npdelay: ready' "$NP_TMP/npdelay.log"
	ip link set "$ts" netns "$NS_S" || np_fail "move $ts into $NS_S"
	ip link set "$tr" netns "$NS_R" || np_fail "move $tr into $NS_R"
	ip -n "$NS_S" link set "$ts" name tS
	ip -n "$NS_R" link set "$tr" name tR
	ip -n "$NS_S" addr add "$NP_S_ADDR/24" dev tS
	ip -n "$NS_R" addr add "$NP_R_ADDR/24" dev tR
	for i in "$NS_S" "$NS_R"; do ip -n "$i" link set lo up; done
	ip -n "$NS_S" link set tS up
	ip -n "$NS_R" link set tR up
	# Ready when the line carries traffic both ways: a neighbour resolved through it.
	np_wait_until "$NP_WAIT" "ARP through npdelay" np_delay_arp
}

# The sender resolved the receiver's address through the line (ARP went there and back).
np_delay_arp() {
	ip netns exec "$NS_S" "$NP_PY" -c "
import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(b'x', ('$NP_R_ADDR', 9))" 2> /dev/null
	ip -n "$NS_S" neigh show "$NP_R_ADDR" dev tS | grep -q 'REACHABLE\|STALE\|DELAY'
}

# np_delay_bufs NS RMEM_MAX WMEM_MAX: tcp_rmem/tcp_wmem of one test namespace only (they are
# per-namespace sysctls on this kernel; the root namespace is never touched).
np_delay_bufs() {
	ip netns exec "$1" sh -c "echo '4096 131072 $2' > /proc/sys/net/ipv4/tcp_rmem &&
		echo '4096 16384 $3' > /proc/sys/net/ipv4/tcp_wmem" ||
		np_fail "cannot set tcp_rmem/tcp_wmem in namespace $1"
	[ "$(ip netns exec "$1" awk '{print $3}' /proc/sys/net/ipv4/tcp_rmem)" = "$2" ] ||
		np_fail "tcp_rmem is not per namespace here"
}

# np_delay_down: stop npdelay, delete S and R (a test that builds a second line).
np_delay_down() {
	np_stop "$NP_DELAY_PID"
	ip netns del "$NS_S"
	ip netns del "$NS_R"
	NP_NETNS=$(echo "$NP_NETNS" | tr ' ' '\n' | grep -vx -e "$NS_S" -e "$NS_R" | tr '\n' ' ')
}

# np_delay_counters: stop npdelay and put its exit counters in NP_DELAY_COUNTERS (and print
# them). Call it in the test's own shell, never as $(np_delay_counters): a subshell cannot wait
# for the test's child, so it would read the log before npdelay has written its counters.
np_delay_counters() {
	np_stop "$NP_DELAY_PID"
	NP_DELAY_COUNTERS=$(grep '^npdelay' "$NP_TMP/npdelay.log")
	echo "$NP_DELAY_COUNTERS"
}

# ---- The scenarios through `netpath path` (spec: /doc and man/netpath-path.8) ----

# np_path_require: skip (77) only while this build has no `netpath path` command at all.
np_path_require() {
	if "$NETPATH" path --help 2>&1 | grep -q "unknown command 'path'"; then
		np_skip "this build has no 'netpath path' command"
	fi
}

# np_path_key NAME: a 0600 key file of 32 random bytes; prints its path.
np_path_key() {
	local f="$NP_TMP/$1.key"
	(umask 077 && head -c 32 /dev/urandom > "$f") || np_fail "cannot write $f"
	echo "$f"
}

# np_path_serve KEY: `netpath serve --once` in R, listening on the line; waits for its line
# "netpath serve: listening on ADDR:PORT" on stderr.
np_path_serve() {
	np_bg ip netns exec "$NS_R" "$NETPATH" serve --listen "$NP_R_ADDR" --key "$1" --once \
		--max-duration 30 > "$NP_TMP/serve.out" 2> "$NP_TMP/serve.log"
	NP_SERVE_PID=$NP_LAST_PID
	np_wait_until "$NP_WAIT" "netpath serve listening" \
		grep -q '^netpath serve: listening on ' "$NP_TMP/serve.log"
}

# np_path_served: serve --once ends by itself, exit 0, after the one authenticated test.
np_path_served() {
	local end=$(($(np_ms) + 15000)) rc=0
	while kill -0 "$NP_SERVE_PID" 2> /dev/null; do
		[ "$(np_ms)" -lt "$end" ] || np_fail "serve --once still running 15 s after the test"
		sleep 0.1
	done
	wait "$NP_SERVE_PID" || rc=$?
	[ "$rc" -eq 0 ] || np_fail "serve --once exit $rc, want 0: $(tail -n 3 "$NP_TMP/serve.log")"
}

# np_path_run KEY ARGS...: `netpath path` in S toward R with --json; its JSON in
# $NP_TMP/path.json, stderr in $NP_TMP/path.err, exit code in NP_PATH_RC. Bounded by timeout.
np_path_run() {
	local key=$1
	shift
	NP_PATH_RC=0
	timeout 60 ip netns exec "$NS_S" "$NETPATH" path "$NP_R_ADDR" --key "$key" --json "$@" \
		> "$NP_TMP/path.json" 2> "$NP_TMP/path.err" || NP_PATH_RC=$?
	[ "$NP_PATH_RC" -ne 124 ] || np_fail "netpath path did not end within 60 s"
}

# np_path_check EXPR...: each EXPR is a Python expression over the JSON `j` that must hold;
# the first that does not fails the test with the verdict, the evidence and npdelay's counters.
# Always checked too (f): throughput_bps within 10% of receiver_bytes*8/duration_s.
np_path_check() {
	"$NP_PY" - "$NP_TMP/path.json" "$@" <<'PY' || np_fail "netpath path (exit $NP_PATH_RC): $(head -c 600 "$NP_TMP/path.err") $(tail -n 2 "$NP_TMP/npdelay.log" | tr '\n' ' ')"
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except ValueError as e:
    sys.exit("not JSON: %s: %s" % (e, open(sys.argv[1]).read()[:300]))
checks = sys.argv[2:] + [
    "j['schema'] == 'netpath/path' and j['version'] == 1",
    "j['duration_s'] > 0 and j['receiver_bytes'] > 0",
    "abs(j['throughput_bps'] - j['receiver_bytes'] * 8 / j['duration_s'])"
    " <= 0.10 * j['receiver_bytes'] * 8 / j['duration_s']",
]
brief = {k: j.get(k) for k in ("limited_by", "side", "throughput_bps", "rtt_ms", "bdp_bytes",
                               "loss_rate", "receiver_bytes", "duration_s", "evidence", "fix")}
for c in checks:
    try:
        ok = eval(c, {"j": j})
    except Exception as e:  # a missing field is a failed check, said plainly
        ok = False
        c += " (%r)" % e
    if not ok:
        sys.exit("check failed: %s\n  %s" % (c, json.dumps(brief)))
print("path: limited by %s (%s), %.1f Mbit/s, rtt %s ms" % (
    j["limited_by"], j["side"], j["throughput_bps"] / 1e6, j.get("rtt_ms")))
PY
}
