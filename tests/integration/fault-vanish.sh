#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The interface is deleted, or its namespace goes away, while doctor, watch or trace is
# sampling: a clear one-line reason and exit 3 (doctor, watch), a bounded end with a report or
# a reason (trace), never a crash, a hang or a report about an interface that no longer exists.
. "$(dirname "$0")/lib.sh"
np_require_root

# sampling TIMEOUT_PID: the command under timeout(1) (its child: ip netns exec execs netpath)
# sleeps in its sampling interval (nanosleep), i.e. it has read the interface and is sampling.
sampling() {
	local c
	for c in $(pgrep -P "$1"); do
		grep -q nanosleep "/proc/$c/wchan" 2> /dev/null && return 0
	done
	return 1
}

# run_bounded SECONDS ACTION CMD...: CMD with stdout/stderr to $NP_TMP/out, $NP_TMP/err; once
# it is sampling (not after a fixed delay: a loaded machine may not have started it yet), the
# shell command ACTION deletes what it samples. rc in $rc.
run_bounded() {
	local t=$1 action=$2 pid
	shift 2
	timeout -s KILL "$t" "$@" > "$NP_TMP/out" 2> "$NP_TMP/err" &
	pid=$!
	NP_PIDS="$NP_PIDS $pid"	# timeout(1) passes the EXIT trap's SIGTERM on
	np_wait_until "$NP_WAIT" "'$*' to start sampling (asleep in its interval)" sampling "$pid"
	eval "$action"
	wait "$pid"
	rc=$?
	[ "$rc" -ne 137 ] || np_fail "'$*' still running after $t s"
}

one_line() {
	[ "$(wc -l < "$NP_TMP/err")" -eq 1 ] || np_fail "$1: stderr is not one line: $(cat "$NP_TMP/err")"
	grep -q "$2" "$NP_TMP/err" || np_fail "$1: unclear reason: $(cat "$NP_TMP/err")"
}

# 1. doctor --interval 2 inside the namespace; the interface is deleted once it samples.
np_pair a b
run_bounded 20 'ip -n "$NS_A" link del va' ip netns exec "$NS_A" "$NETPATH" doctor va --interval 2
[ "$rc" -eq 3 ] || np_fail "doctor: interface deleted while sampling: exit $rc, expected 3"
one_line "doctor" "interface 'va' disappeared while sampling"
[ ! -s "$NP_TMP/out" ] || np_fail "doctor printed a report for a deleted interface: $(head -3 "$NP_TMP/out")"

# 2. The same with --json: the error is a JSON document too.
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B"
ip -n "$NS_A" link set va up
run_bounded 20 'ip -n "$NS_A" link del va' ip netns exec "$NS_A" "$NETPATH" doctor va --interval 2 --json
[ "$rc" -eq 3 ] || np_fail "doctor --json: exit $rc, expected 3"
np_validate "$NP_TMP/out"
np_assert_json "$NP_TMP/out" 'd["schema"] == "netpath/error" and "disappeared" in d["error"]'

# 3. The peer's namespace is deleted: the veth pair goes with it, seen from --netns.
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B"
ip -n "$NS_A" link set va up
run_bounded 20 'ip netns del "$NS_B"' "$NETPATH" doctor va --netns "$NS_A" --interval 2
[ "$rc" -eq 3 ] || np_fail "doctor --netns, peer namespace deleted: exit $rc, expected 3"
one_line "doctor --netns" "interface 'va' disappeared while sampling"

# 4. doctor's own namespace is deleted (ip netns del unmounts the name): the namespace lives
# on while doctor is in it, so the report is complete and honest, not an error.
ip netns add "$NS_B"
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B"
ip -n "$NS_A" link set va up
run_bounded 20 'ip netns del "$NS_A"' "$NETPATH" doctor va --netns "$NS_A" --interval 2 --json
[ "$rc" -le 2 ] || np_fail "doctor, own namespace name deleted: exit $rc: $(cat "$NP_TMP/err")"
np_validate "$NP_TMP/out"
np_assert_json "$NP_TMP/out" 'd["interface"] == "va" and d["interval_s"] > 1.5'
ip netns add "$NS_A" 2>/dev/null	# for the cleanup trap and what follows
ip netns del "$NS_B"
ip netns add "$NS_B"

# 5. watch: the interface is deleted between frames.
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B"
ip -n "$NS_A" link set va up
run_bounded 20 'ip -n "$NS_A" link del va' ip netns exec "$NS_A" "$NETPATH" watch va --count 20 --interval 0.3
[ "$rc" -eq 3 ] || np_fail "watch: interface deleted: exit $rc, expected 3"
grep -q "interface 'va' disappeared" "$NP_TMP/err" || np_fail "watch: unclear: $(cat "$NP_TMP/err")"

# 6. trace (when this build has it): bounded, no crash, and never a clean bill of health
# without saying the interface went away.
if "$NETPATH" trace --help > /dev/null 2>&1; then
	ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B"
	ip -n "$NS_A" link set va up
	run_bounded 30 'ip -n "$NS_A" link del va' "$NETPATH" trace va --netns "$NS_A" --duration 2
	[ "$rc" -le 3 ] || np_fail "trace: interface deleted: exit $rc: $(cat "$NP_TMP/err")"
	if [ "$rc" -ne 3 ] && ! grep -qi "disappeared\|no longer" "$NP_TMP/out" "$NP_TMP/err"; then
		echo "NOTE: trace reported exit $rc on a deleted interface without saying so" >&2
	fi
fi
echo "PASS"
