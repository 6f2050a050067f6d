#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Bad input gets a clear one-line reason and exit 3 (and a JSON error object with --json).
. "$(dirname "$0")/lib.sh"

expect3() {
	"$NETPATH" "$@" > "$NP_TMP/out" 2> "$NP_TMP/err"
	rc=$?
	[ "$rc" -eq 3 ] || np_fail "'$*' exited $rc, expected 3"
	[ "$(wc -l < "$NP_TMP/err")" -eq 1 ] || np_fail "'$*' stderr is not one line: $(cat "$NP_TMP/err")"
}

expect3 doctor no-such-if0 --interval 0
grep -q "no such interface 'no-such-if0'" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect3 doctor averyveryverylongname0 --interval 0
grep -q "invalid interface name" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect3 doctor lo --interval abc
grep -q "invalid --interval" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect3 doctor lo --interval -1
expect3 doctor lo --rtt 0
expect3 doctor lo --bandwidth 10Q
expect3 doctor lo --color=sometimes
expect3 doctor lo eth0
expect3 doctor lo --root /nonexistent-netpath-root
expect3 frobnicate
expect3 explain no.such-check

expect3 doctor no-such-if0 --json
np_validate "$NP_TMP/out"
np_assert_json "$NP_TMP/out" 'd["schema"] == "netpath/error" and d["exit_code"] == 3 and "no-such-if0" in d["error"]'

# The reference commands work without root or a network.
"$NETPATH" checks --json > "$NP_TMP/checks.json" || np_fail "checks --json"
np_validate "$NP_TMP/checks.json"
np_assert_json "$NP_TMP/checks.json" 'len(d["checks"]) > 20 and len({c["id"] for c in d["checks"]}) == len(d["checks"])'
for id in $(python3 -c 'import json,sys; print(" ".join(c["id"] for c in json.load(open(sys.argv[1]))["checks"]))' "$NP_TMP/checks.json"); do
	"$NETPATH" explain "$id" > "$NP_TMP/explain" || np_fail "explain $id"
	grep -q "WHY IT MATTERS" "$NP_TMP/explain" || np_fail "explain $id has no why"
done
echo "PASS"
