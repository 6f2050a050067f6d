#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The command line's manners (issue #33): -V/--version on every command (exit 0, or 3 under
# --nagios as the Monitoring Plugins guidelines ask), a default timeout under --nagios, `help
# CMD`, "did you mean" for mistyped commands and check ids, the device in Nagios long output,
# and doctor --brief. Needs no root: it reads lo and the fixture trees.
. "$(dirname "$0")/lib.sh"

X710="$NP_SRCDIR/tests/fixtures/trees/x710-server"
version=$("$NETPATH" --version) || np_fail "netpath --version: exit $?"
[[ $version =~ ^netpath\ [0-9][^\ ]*$ ]] || np_fail "netpath --version printed: $version"

# ---- -V/--version on every command: the version on stdout, nothing on stderr ----
# run EXPECTED_RC ARGS...: stdout in $NP_TMP/out, stderr in $NP_TMP/err.
run() {
	local want=$1
	shift
	"$NETPATH" "$@" > "$NP_TMP/out" 2> "$NP_TMP/err"
	rc=$?
	[ "$rc" -eq "$want" ] || np_fail "'$*' exited $rc, expected $want: $(cat "$NP_TMP/out" "$NP_TMP/err")"
}
cmds=$("$NETPATH" --help | sed -n '/^Commands:/,/^$/{s/^  \([a-z]*\) .*/\1/p}')
[ "$(echo $cmds | wc -w)" -ge 8 ] || np_fail "commands of netpath --help: $cmds"
for c in $cmds; do
	for v in -V --version; do
		run 0 "$c" "$v"
		[ "$(cat "$NP_TMP/out")" = "$version" ] || np_fail "'$c $v' printed: $(cat "$NP_TMP/out")"
		[ ! -s "$NP_TMP/err" ] || np_fail "'$c $v' said on stderr: $(cat "$NP_TMP/err")"
	done
	"$NETPATH" "$c" --help | grep -q -- '-V, --version' || np_fail "'$c --help' lacks -V, --version"
done
# A plugin's -V and --help exit UNKNOWN (3): a check command given one by mistake never shows
# OK. Wherever --nagios stands, and before the configuration file is read.
for args in "doctor --nagios -V" "doctor -V --nagios" "--nagios --version" "-V --nagios" \
	    "doctor --nagios --config /nonexistent-np -V" "doctor lo --nagios --help"; do
	run 3 $args
	[ ! -s "$NP_TMP/err" ] || np_fail "'$args' said on stderr: $(cat "$NP_TMP/err")"
done
run 3 doctor --nagios -V
[ "$(cat "$NP_TMP/out")" = "$version" ] || np_fail "doctor --nagios -V printed: $(cat "$NP_TMP/out")"

# ---- --nagios never hangs: a default timeout of the interval + 10 s ----
# The run is stopped (SIGSTOP) once it has armed its timer, and continued after the default
# would have expired: the pending SIGALRM ends it UNKNOWN at once. Without a default timeout it
# would go on and report OK.
"$NETPATH" doctor lo --nagios --interval 3 > "$NP_TMP/nagios" 2> "$NP_TMP/err" &
pid=$!
NP_PIDS="$NP_PIDS $pid"
start=$(np_ms)
# SIGALRM (14) is caught once the deadline is armed.
np_wait_until 3 "netpath doctor catching SIGALRM" np_catches "$pid" 14
kill -STOP "$pid"
# Stopped in time: still sampling (within the 3 s interval).
[ $(($(np_ms) - start)) -lt 3000 ] || np_skip "too slow a machine to stop doctor within its interval"
# The default is 3 + 10 = 13 s from the start; continue it a second later.
while [ $(($(np_ms) - start)) -lt 14000 ]; do sleep 0.2; done
kill -CONT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 3 ] || np_fail "--nagios past its default timeout: exit $rc, expected 3: $(cat "$NP_TMP/nagios")"
grep -qx "NETPATH UNKNOWN - timed out after 13 s (the --nagios default: the interval + 10 s; set --timeout)" \
	"$NP_TMP/nagios" || np_fail "--nagios default timeout printed: $(cat "$NP_TMP/nagios")"
# An explicit --timeout replaces the default (which would not be reached by then either).
"$NETPATH" doctor lo --nagios --interval 3 --timeout 30 > "$NP_TMP/nagios" 2> "$NP_TMP/err" &
pid=$!
start=$(np_ms)
np_wait_until 3 "netpath doctor catching SIGALRM" np_catches "$pid" 14
kill -STOP "$pid"
[ $(($(np_ms) - start)) -lt 3000 ] || np_skip "too slow a machine to stop doctor within its interval"
while [ $(($(np_ms) - start)) -lt 14000 ]; do sleep 0.2; done
kill -CONT "$pid"
wait "$pid"
rc=$?
[ "$rc" -le 2 ] || np_fail "--timeout 30 ended at 14 s: exit $rc: $(cat "$NP_TMP/nagios")"

# ---- Nagios long output names the device a finding is about ----
"$NETPATH" doctor --root "$X710/after" --before "$X710/before" --nagios > "$NP_TMP/nagios" 2> "$NP_TMP/err"
[ $? -eq 2 ] || np_fail "x710-server --nagios: not CRITICAL: $(cat "$NP_TMP/nagios")"
grep -q '^CRITICAL nic.missed \[eth0 nic\]: ' "$NP_TMP/nagios" ||
	np_fail "no device in the nic line: $(cat "$NP_TMP/nagios")"
grep -q '^CRITICAL irq.affinity \[eth0 irq\]: ' "$NP_TMP/nagios" ||
	np_fail "no device in the irq line: $(cat "$NP_TMP/nagios")"
# The host's softnet backlog belongs to no device; the status line keeps its form.
grep -q '^CRITICAL softnet.backlog-drops \[softnet\]: ' "$NP_TMP/nagios" ||
	np_fail "softnet line: $(cat "$NP_TMP/nagios")"
head -n 1 "$NP_TMP/nagios" | grep -q '^NETPATH CRITICAL - eth0: irq.affinity: ' ||
	np_fail "status line changed: $(head -n 1 "$NP_TMP/nagios")"

# ---- netpath help [CMD] ----
run 0 help
"$NETPATH" --help | cmp -s - "$NP_TMP/out" || np_fail "'help' is not the general usage"
for c in $cmds; do
	run 0 help "$c"
	"$NETPATH" "$c" --help | cmp -s - "$NP_TMP/out" || np_fail "'help $c' is not '$c --help': $(head -n 2 "$NP_TMP/out")"
	[ ! -s "$NP_TMP/err" ] || np_fail "'help $c' said on stderr: $(cat "$NP_TMP/err")"
done
# one_line_error EXPECTED_LINE ARGS...: exit 3, that reason line and the hint, nothing on stdout.
one_line_error() {
	local want=$1
	shift
	run 3 "$@"
	[ "$(head -n 1 "$NP_TMP/err")" = "$want" ] || np_fail "'$*' said: $(cat "$NP_TMP/err")"
	[ "$(wc -l < "$NP_TMP/err")" -eq 2 ] || np_fail "'$*' stderr is not reason + hint: $(cat "$NP_TMP/err")"
	[ ! -s "$NP_TMP/out" ] || np_fail "'$*' printed on stdout: $(cat "$NP_TMP/out")"
}
one_line_error "netpath help: unknown command 'bogus'" help bogus
one_line_error "netpath help: unknown command 'docter' (did you mean 'doctor'?)" help docter

# ---- "did you mean": mistyped commands and check ids ----
one_line_error "netpath: unknown command 'docter' (did you mean 'doctor'?)" docter
one_line_error "netpath: unknown command 'tarce' (did you mean 'trace'?)" tarce lo
one_line_error "netpath: unknown command 'frobnicate'" frobnicate
run 3 docter --nagios
[ "$(cat "$NP_TMP/out")" = "NETPATH UNKNOWN - unknown command 'docter' (did you mean 'doctor'?)" ] ||
	np_fail "docter --nagios printed: $(cat "$NP_TMP/out")"
run 3 explain softnet.backlog-drop
[ "$(cat "$NP_TMP/err")" = "netpath explain: no check 'softnet.backlog-drop' (did you mean 'softnet.backlog-drops'? list them with 'netpath checks')" ] ||
	np_fail "explain softnet.backlog-drop said: $(cat "$NP_TMP/err")"
run 3 explain zzz
grep -q "did you mean" "$NP_TMP/err" && np_fail "explain zzz suggested: $(cat "$NP_TMP/err")"
one_line_error "netpath doctor: --check: 'softnet.backlog-drop' matches no check (did you mean 'softnet.backlog-drops'? ids, globs like softnet.* or stage names; list them with 'netpath checks')" \
	doctor lo --config /dev/null --check softnet.backlog-drop
one_line_error "netpath doctor: --skip: 'sofnet' matches no check (did you mean 'softnet'? ids, globs like softnet.* or stage names; list them with 'netpath checks')" \
	doctor lo --config /dev/null --skip sofnet
one_line_error "netpath doctor: --threshold: no check 'softnet.backlog-drop' (did you mean 'softnet.backlog-drops'? list them with 'netpath checks')" \
	doctor lo --config /dev/null --threshold softnet.backlog-drop:crit=5

# ---- doctor --brief: one line per stage, at most 100 columns, never OK without evidence ----
stages="link pcie nic irq softnet ingress ip transport socket congestion"
not_judged=0
for t in "$NP_SRCDIR"/tests/fixtures/trees/*/; do
	name=$(basename "$t")
	"$NETPATH" doctor --root "$t/after" --before "$t/before" --brief > "$NP_TMP/brief" 2> "$NP_TMP/err"
	rc=$?
	"$NETPATH" doctor --root "$t/after" --before "$t/before" > /dev/null 2>&1
	[ "$rc" -eq $? ] || np_fail "$name --brief exit $rc differs from the report's"
	[ "$(awk '{ print $1 }' "$NP_TMP/brief" | xargs)" = "$stages" ] ||
		np_fail "$name --brief: not one line per stage: $(cat "$NP_TMP/brief")"
	[ "$(wc -L < "$NP_TMP/brief")" -le 100 ] || np_fail "$name --brief wider than 100 columns"
	[ "$(LC_ALL=C awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$NP_TMP/brief")" -le 100 ] ||
		np_fail "$name --brief: a line over 100 bytes"
	awk '$2 !~ /^(OK|INFO|WARNING|CRITICAL|UNKNOWN|PARTIAL|-)$/ { exit 1 }' "$NP_TMP/brief" ||
		np_fail "$name --brief: a verdict outside the words: $(cat "$NP_TMP/brief")"
	# A stage the report says was not judged is UNKNOWN here, with its reason.
	"$NETPATH" doctor --root "$t/after" --before "$t/before" --json > "$NP_TMP/j" 2> /dev/null
	for s in $("$NP_PY" -c 'import json, sys
for c in json.load(open(sys.argv[1]))["coverage"]:
    if c["status"] == "not_judged": print(c["stage"])' "$NP_TMP/j"); do
		grep -q "^$s  *UNKNOWN  *- *not judged: " "$NP_TMP/brief" ||
			np_fail "$name --brief: $s not judged but: $(grep "^$s " "$NP_TMP/brief")"
		not_judged=$((not_judged + 1))
	done
done
[ "$not_judged" -gt 0 ] || np_fail "no fixture has a stage not judged: the UNKNOWN lines went untested"
# Under C no digit groups (locale.sh tests the grouped forms).
LC_ALL=C "$NETPATH" doctor --root "$X710/after" --before "$X710/before" --brief > "$NP_TMP/brief"
grep -q '^nic  *CRITICAL eth0  *(partly judged) eth0 ran out of receive buffers: 9000 packets/s' "$NP_TMP/brief" ||
	np_fail "x710 --brief nic line: $(cat "$NP_TMP/brief")"
grep -q '^softnet  *CRITICAL -  *Per-CPU backlog full: 12000 packets/s dropped' "$NP_TMP/brief" ||
	np_fail "x710 --brief softnet line: $(cat "$NP_TMP/brief")"
grep -q '^ip  *OK  *-  *no finding ([0-9]* checks)$' "$NP_TMP/brief" ||
	np_fail "x710 --brief ip line: $(cat "$NP_TMP/brief")"
# Nothing readable: every stage UNKNOWN, exit 3, not a line of OK.
mkdir -p "$NP_TMP/empty/proc"
"$NETPATH" doctor eth0 --root "$NP_TMP/empty" --brief > "$NP_TMP/brief" 2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "--brief over an empty tree: not exit 3"
[ "$(grep -c '^[a-z]*  *UNKNOWN  *- *not judged: ' "$NP_TMP/brief")" -eq 10 ] ||
	np_fail "--brief over an empty tree: $(cat "$NP_TMP/brief")"
"$NETPATH" doctor --root "$X710/after" --brief --format text > /dev/null || [ $? -le 2 ] ||
	np_fail "--brief --format text refused"
# Refused with the machine formats and Nagios: one line, exit 3 (JSON error with --json,
# an UNKNOWN line with --nagios).
for f in "--json" "--format json" "--format prometheus" "--nagios"; do
	run 3 doctor --root "$X710/after" --brief $f
	[ "$(cat "$NP_TMP/err")" = "netpath doctor: --brief is a short text form: not with $(
		case $f in --json|"--format json") echo "--json or --format json" ;;
		*prometheus) echo "--format prometheus" ;; *) echo "--nagios" ;; esac)" ] ||
		np_fail "--brief $f said: $(cat "$NP_TMP/err")"
done
run 3 doctor --root "$X710/after" --brief --nagios
[ "$(cat "$NP_TMP/out")" = "NETPATH UNKNOWN - --brief is a short text form: not with --nagios" ] ||
	np_fail "--brief --nagios printed: $(cat "$NP_TMP/out")"
run 3 doctor --root "$X710/after" --brief --json
np_assert_json "$NP_TMP/out" 'd["schema"] == "netpath/error" and "--brief" in d["error"]'
echo "PASS: -V, the --nagios timeout, help CMD, did you mean, Nagios devices, --brief"
