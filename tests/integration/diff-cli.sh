#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath diff: bad arguments get one line on stderr and exit 3 (a JSON error object with
# --json), never a verdict code; over the field-report pair the exit code is AFTER's verdict;
# --live compares with the running system read-only.
. "$(dirname "$0")/lib.sh"

pair="$NP_SRCDIR/tests/fixtures/diff/field-bbr"

expect3() {
	"$NETPATH" "$@" > "$NP_TMP/out" 2> "$NP_TMP/err"
	rc=$?
	[ "$rc" -eq 3 ] || np_fail "'$*' exited $rc, expected 3"
	[ "$(wc -l < "$NP_TMP/err")" -eq 1 ] || np_fail "'$*' stderr is not one line: $(cat "$NP_TMP/err")"
	grep -q '^netpath diff: ' "$NP_TMP/err" || np_fail "'$*' does not name the command: $(cat "$NP_TMP/err")"
}
# A usage error: the same, with "Try 'netpath diff --help'." as a second line.
expect_usage() {
	"$NETPATH" "$@" > "$NP_TMP/out" 2> "$NP_TMP/err"
	rc=$?
	[ "$rc" -eq 3 ] || np_fail "'$*' exited $rc, expected 3"
	[ "$(wc -l < "$NP_TMP/err")" -eq 2 ] && [ "$(sed -n 2p "$NP_TMP/err")" = "Try 'netpath diff --help'." ] ||
		np_fail "'$*' stderr is not reason + hint: $(cat "$NP_TMP/err")"
	grep -q '^netpath diff: ' "$NP_TMP/err" || np_fail "'$*' does not name the command: $(cat "$NP_TMP/err")"
}

expect3 diff
grep -q "name the two sides" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect3 diff "$pair/before"
grep -q "AFTER missing" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect_usage diff "$pair/before" "$pair/after" enp1s0f0 extra
grep -q "unexpected argument 'extra'" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect_usage diff --js "$pair/before" "$pair/after"
grep -q "spelled out in full" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect3 diff --interval 2 "$pair/before" "$pair/after"
grep -q "needs --live" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect_usage diff --live --interval abc "$pair/before"
grep -q "invalid --interval" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect_usage diff --color=sometimes "$pair/before" "$pair/after"
expect3 diff /nonexistent-netpath-root "$pair/after"
grep -q "before: " "$NP_TMP/err" || np_fail "which side is unclear: $(cat "$NP_TMP/err")"
expect3 diff "$pair/before" /nonexistent-netpath-root
grep -q "after: " "$NP_TMP/err" || np_fail "which side is unclear: $(cat "$NP_TMP/err")"
expect3 diff "$pair/before" "$pair/after" no-such-if0
grep -q "no such interface 'no-such-if0'" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect3 diff --json "$pair/before"
np_validate "$NP_TMP/out"
np_assert_json "$NP_TMP/out" 'd["schema"] == "netpath/error" and d["command"] == "diff" and d["exit_code"] == 3'
# A tree in which nothing can be judged: AFTER is UNKNOWN (3) with its reason, and the report.
mkdir -p "$NP_TMP/empty/proc" "$NP_TMP/empty/sys"
"$NETPATH" diff "$pair/before" "$NP_TMP/empty" enp1s0f0 > "$NP_TMP/out" 2> "$NP_TMP/err"
[ $? -eq 3 ] && grep -q "no stage of the receive path could be judged" "$NP_TMP/err" ||
	np_fail "empty AFTER: exit $?, $(cat "$NP_TMP/err")"

# --help: exit 0, the usage on stdout.
"$NETPATH" diff --help > "$NP_TMP/out" || np_fail "diff --help exited $?"
grep -q '^Usage: netpath diff' "$NP_TMP/out" || np_fail "diff --help: no usage"

# The exit code is AFTER's verdict: tuned (info: 0), untuned (irq.affinity warning: 1).
# Wide enough for the row on one line (the wrapping is docs/width.sh's).
COLUMNS=200 "$NETPATH" diff "$pair/before" "$pair/after" > "$NP_TMP/out" 2>&1
[ $? -eq 0 ] || np_fail "diff before after: exit $?"
grep -q 'net.ipv4.tcp_congestion_control *cubic *→ bbr' "$NP_TMP/out" || np_fail "no cubic → bbr row"
"$NETPATH" diff "$pair/after" "$pair/before" > "$NP_TMP/out" 2>&1
[ $? -eq 1 ] || np_fail "diff after before: exit $?, expected 1"
# -o FILE: written atomically, nothing on stdout.
"$NETPATH" diff -o "$NP_TMP/diff.json" --json "$pair/before" "$pair/after" > "$NP_TMP/out"
[ $? -eq 0 ] && [ ! -s "$NP_TMP/out" ] || np_fail "-o: exit $? or output on stdout"
np_validate "$NP_TMP/diff.json"

# --live: the running system against a tree of another machine (its interface is named).
dev=$(ip -o route show default 2>/dev/null | awk '{print $5; exit}')
if [ -n "$dev" ]; then
	"$NETPATH" diff --live --interval 0.2 --json "$pair/before" "$dev" > "$NP_TMP/live.json" 2> "$NP_TMP/err"
	rc=$?
	# The tree has no $dev unless it is enp1s0f0: then 3 with the reason, else a verdict.
	if [ "$dev" = enp1s0f0 ]; then
		[ "$rc" -le 3 ] || np_fail "--live: exit $rc"
	else
		[ "$rc" -eq 3 ] && grep -q "before: no such interface" "$NP_TMP/err" ||
			np_fail "--live against a tree without $dev: exit $rc, $(cat "$NP_TMP/err")"
	fi
fi
echo "PASS: diff CLI errors, exit codes and -o"
