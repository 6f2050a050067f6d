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

# A usage error (the command line's own): exit 3, the reason on one line naming the command,
# then "Try 'netpath CMD --help'." and nothing else (no usage text), nothing on stdout unless
# --json or --nagios asked for it.
expect_usage() {
	local cmd="$1"
	"$NETPATH" "$@" > "$NP_TMP/out" 2> "$NP_TMP/err"
	rc=$?
	[ "$rc" -eq 3 ] || np_fail "'$*' exited $rc, expected 3"
	[ "$(wc -l < "$NP_TMP/err")" -eq 2 ] ||
		np_fail "'$*' stderr is not reason + hint: $(cat "$NP_TMP/err")"
	head -n 1 "$NP_TMP/err" | grep -q "^netpath $cmd: ." ||
		np_fail "'$*' reason does not name the command: $(cat "$NP_TMP/err")"
	[ "$(sed -n 2p "$NP_TMP/err")" = "Try 'netpath $cmd --help'." ] ||
		np_fail "'$*' no hint: $(cat "$NP_TMP/err")"
	if ! printf '%s\n' "$@" | grep -qx -- '--nagios\|--json\|-j'; then
		[ ! -s "$NP_TMP/out" ] || np_fail "'$*' printed on stdout: $(cat "$NP_TMP/out")"
	fi
}

expect3 doctor no-such-if0 --interval 0
grep -q "no such interface 'no-such-if0'" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect3 doctor averyveryverylongname0 --interval 0
grep -q "invalid interface name" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect_usage doctor lo --interval abc
grep -q "invalid --interval" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
expect_usage doctor lo --interval -1
expect_usage doctor lo --rtt 0
expect_usage doctor lo --bandwidth 10Q
expect_usage doctor lo --color=sometimes
expect_usage doctor lo eth0
expect3 doctor lo --root /nonexistent-netpath-root
# Two captures without proc/uptime: the spacing is unknown and the message says how to give it;
# --interval-of gives it. --interval-of alone is an error.
mkdir -p "$NP_TMP/cap0/proc/net" "$NP_TMP/cap1/proc/net"
printf '00000010 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n' \
	> "$NP_TMP/cap0/proc/net/softnet_stat"
printf '00000410 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n' \
	> "$NP_TMP/cap1/proc/net/softnet_stat"
expect3 doctor eth0 --root "$NP_TMP/cap1" --before "$NP_TMP/cap0"
grep -q "no proc/uptime.*--interval-of SECONDS" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
"$NETPATH" doctor eth0 --root "$NP_TMP/cap1" --before "$NP_TMP/cap0" --interval-of 8 --json > "$NP_TMP/pair.json"
[ $? -le 2 ] || np_fail "--interval-of: exit $?"
np_assert_json "$NP_TMP/pair.json" 'd["interval_s"] == 8 and [r for r in d["funnel"] if r["stage"] == "softnet"][0]["packets"]["per_second"] == 128'
expect3 doctor eth0 --root "$NP_TMP/cap1" --interval-of 8
grep -q "needs --before" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
# Nothing in a tree that doctor can judge: UNKNOWN with the reason, not "OK".
mkdir -p "$NP_TMP/empty/proc"
expect3 doctor eth0 --root "$NP_TMP/empty"
grep -q "no stage of the receive path could be judged" "$NP_TMP/err" || np_fail "unclear: $(cat "$NP_TMP/err")"
# A FIFO where a file is expected must not hang the run: refused at once, saying why.
mkfifo "$NP_TMP/fifo"
timeout -s KILL 10 "$NETPATH" doctor lo --interval 0 --config "$NP_TMP/fifo" > /dev/null 2> "$NP_TMP/err"
[ $? -eq 3 ] && grep -q "not a regular file" "$NP_TMP/err" || np_fail "--config FIFO: $(cat "$NP_TMP/err")"
# /dev/null stays the usual "no configuration".
"$NETPATH" doctor lo --interval 0 --config /dev/null > /dev/null 2> "$NP_TMP/err"
[ $? -le 2 ] || np_fail "--config /dev/null: $(cat "$NP_TMP/err")"
if [ "$(id -u)" -eq 0 ]; then
	timeout -s KILL 10 "$NETPATH" doctor lo --interval 0 --netns "$NP_TMP/fifo" > /dev/null 2> "$NP_TMP/err"
	[ $? -eq 3 ] || np_fail "--netns FIFO: $(cat "$NP_TMP/err")"
fi
"$NETPATH" frobnicate > "$NP_TMP/out" 2> "$NP_TMP/err"
[ $? -eq 3 ] && [ "$(head -n 1 "$NP_TMP/err")" = "netpath: unknown command 'frobnicate'" ] &&
	[ "$(sed -n 2p "$NP_TMP/err")" = "Try 'netpath --help'." ] ||
	np_fail "unknown command: $(cat "$NP_TMP/err")"
expect3 explain no.such-check

expect3 doctor no-such-if0 --json
np_validate "$NP_TMP/out"
np_assert_json "$NP_TMP/out" 'd["schema"] == "netpath/error" and d["exit_code"] == 3 and "no-such-if0" in d["error"]'

# The reference commands work without root or a network.
"$NETPATH" checks --json > "$NP_TMP/checks.json" || np_fail "checks --json"
np_validate "$NP_TMP/checks.json"
np_assert_json "$NP_TMP/checks.json" 'len(d["checks"]) > 20 and len({c["id"] for c in d["checks"]}) == len(d["checks"])'
for id in $("$NP_PY" -c 'import json,sys; print(" ".join(c["id"] for c in json.load(open(sys.argv[1]))["checks"]))' "$NP_TMP/checks.json"); do
	"$NETPATH" explain "$id" > "$NP_TMP/explain" || np_fail "explain $id"
	grep -q "WHY IT MATTERS" "$NP_TMP/explain" || np_fail "explain $id has no why"
done
echo "PASS"

# Argument validation (hardening): every malformed value is refused with exit 3 and one line
# naming the option; numbers are plain decimal (strtod() would take "0x10" as 16 s, " 1", "inf").
for v in 0x10 0x0 " 1" inf nan 1e999 -0.5 3601 ""; do
	expect_usage doctor lo --interval "$v"
	grep -q "invalid --interval" "$NP_TMP/err" || np_fail "--interval '$v': $(cat "$NP_TMP/err")"
done
for v in 0x1e 0 -5 inf nan; do
	expect_usage doctor lo --rtt "$v"
	grep -q "invalid --rtt" "$NP_TMP/err" || np_fail "--rtt '$v': $(cat "$NP_TMP/err")"
done
for v in 0x10G 0 -10G nanG infG 99999999999999999999G 10Q " 10G"; do
	expect_usage doctor lo --bandwidth "$v"
	grep -q "invalid --bandwidth" "$NP_TMP/err" || np_fail "--bandwidth '$v': $(cat "$NP_TMP/err")"
done
for v in 17 -1 x 1.5; do
	expect_usage doctor lo --sockets "$v"
done
# Interface names: empty, too long, path-like, with ':' or blanks, and one that looks like an
# option after "--".
for v in "" averyveryverylongname0 ../lo lo/x lo:1 "l o" "$(printf 'l\to')" . ..; do
	expect3 doctor "$v" --interval 0
	grep -q "invalid interface name\|no such interface" "$NP_TMP/err" ||
		np_fail "interface '$v': $(cat "$NP_TMP/err")"
done
expect3 doctor --interval 0 -- -lo
# Thresholds: unknown check, bad level, negative, hex, not a number, missing levels.
for v in nope:warn=1 softnet.backlog-drops:warn=-1 softnet.backlog-drops:warn=0x10 \
	softnet.backlog-drops:warn=nan softnet.backlog-drops softnet.backlog-drops:level=3 \
	softnet.backlog-drops:warn=1e999 :warn=1; do
	expect_usage doctor lo --interval 0 --threshold "$v"
	grep -q -- "--threshold" "$NP_TMP/err" || np_fail "--threshold '$v': $(cat "$NP_TMP/err")"
done
expect_usage doctor lo --interval 0 --check nosuch.check
expect_usage doctor lo --interval 0 --skip ""
# Config files: missing, a directory, binary, a NUL byte, an overlong line, an unknown setting,
# a hex interval: each names the file (and the line).
expect3 doctor lo --interval 0 --config /nonexistent-netpath.conf
grep -q "/nonexistent-netpath.conf" "$NP_TMP/err" || np_fail "missing config: $(cat "$NP_TMP/err")"
expect3 doctor lo --interval 0 --config "$NP_TMP"
printf 'interval 1\n\0\n' > "$NP_TMP/nul.conf"
expect3 doctor lo --interval 0 --config "$NP_TMP/nul.conf"
grep -q "nul.conf:2: NUL byte" "$NP_TMP/err" || np_fail "NUL config: $(cat "$NP_TMP/err")"
head -c 3000 /dev/zero | tr '\0' x > "$NP_TMP/long.conf"
expect3 doctor lo --interval 0 --config "$NP_TMP/long.conf"
grep -q "long.conf:1: line longer" "$NP_TMP/err" || np_fail "long config: $(cat "$NP_TMP/err")"
head -c 4096 /dev/urandom > "$NP_TMP/random.conf"
expect3 doctor lo --interval 0 --config "$NP_TMP/random.conf"
grep -q "random.conf" "$NP_TMP/err" || np_fail "binary config: $(cat "$NP_TMP/err")"
echo "frobnicate 1" > "$NP_TMP/unknown.conf"
expect3 doctor lo --interval 0 --config "$NP_TMP/unknown.conf"
grep -q "unknown.conf:1: unknown setting 'frobnicate'" "$NP_TMP/err" || np_fail "$(cat "$NP_TMP/err")"
echo "interval 0x10" > "$NP_TMP/hex.conf"
expect3 doctor lo --config "$NP_TMP/hex.conf"
grep -q "hex.conf" "$NP_TMP/err" || np_fail "hex interval in config: $(cat "$NP_TMP/err")"
# A config file's bytes are quoted escaped: an xterm title or clear-screen sequence in it must
# not reach the admin's terminal (nor a newline break the one line).
printf 'interval 1\n\033]0;evil\007 1\n' > "$NP_TMP/esc.conf"
expect3 doctor lo --interval 0 --config "$NP_TMP/esc.conf"
grep -qF "esc.conf:2: unknown setting '\x1b]0;evil\x07'" "$NP_TMP/err" || np_fail "escaped config: $(cat "$NP_TMP/err")"
printf 'rtt 3\033[2J\n' > "$NP_TMP/esc.conf"
expect3 watch lo --count 1 --config "$NP_TMP/esc.conf"
grep -qF "esc.conf:1: invalid rtt '3\x1b[2J'" "$NP_TMP/err" || np_fail "escaped config: $(cat "$NP_TMP/err")"
printf 'threshold \033[2J warn=1\n' > "$NP_TMP/esc.conf"
expect3 doctor lo --interval 0 --json --config "$NP_TMP/esc.conf"
! LC_ALL=C grep -q "$(printf '[\001-\037\177]')" "$NP_TMP/err" || np_fail "control bytes on stderr: $(od -c "$NP_TMP/err")"
# watch and trace: durations, counts and interface names.
for a in "--interval 0x1" "--interval 0.01" "--count 0" "--count -1" "--count 1x" \
	"--count 99999999999999999999"; do
	# shellcheck disable=SC2086 # two words: option and value
	expect_usage watch lo $a
done
expect3 watch averyveryverylongname0 --count 1
if "$NETPATH" trace --help > /dev/null 2>&1; then
	for v in 0 -1 0x1 nan 1e9; do
		expect_usage trace lo --duration "$v"
		grep -q "invalid --duration" "$NP_TMP/err" || np_fail "trace --duration '$v': $(cat "$NP_TMP/err")"
	done
	expect3 trace lo/x
fi
expect3 explain ""
expect3 explain "$(head -c 3000 /dev/zero | tr '\0' a)"
echo "PASS (argument validation)"

# Usage errors: one line naming the problem and the hint, never the 24-48 lines of usage; the
# same for every kind (unknown short or long option, a missing value, a value for a flag, an
# invalid value, an extra operand) and every command.
expect_usage doctor -w 10
grep -q "unknown option '-w'" "$NP_TMP/err" || np_fail "-w: $(cat "$NP_TMP/err")"
expect_usage doctor lo -vx
grep -q "unknown option '-x'" "$NP_TMP/err" || np_fail "-vx: $(cat "$NP_TMP/err")"
expect_usage doctor --no-such-option
grep -q "unknown option '--no-such-option'" "$NP_TMP/err" || np_fail "$(cat "$NP_TMP/err")"
expect_usage doctor lo --interval
grep -q "option '--interval' needs a value" "$NP_TMP/err" || np_fail "$(cat "$NP_TMP/err")"
expect_usage doctor lo -i
grep -q "option '-i' needs a value" "$NP_TMP/err" || np_fail "$(cat "$NP_TMP/err")"
expect_usage doctor --verbose=yes lo
grep -q "option '--verbose' takes no value" "$NP_TMP/err" || np_fail "$(cat "$NP_TMP/err")"
# With --json the reason is a JSON error object on stdout as well.
expect_usage doctor --json lo --interval
np_validate "$NP_TMP/out"
np_assert_json "$NP_TMP/out" 'd["schema"] == "netpath/error" and d["exit_code"] == 3'
expect_usage doctor --all-c
grep -q "spelled out in full" "$NP_TMP/err" || np_fail "$(cat "$NP_TMP/err")"
expect_usage watch -z
expect_usage watch lo --count
expect_usage capture --frobnicate
expect_usage plan --profile
expect_usage diff --bogus a b
expect_usage checks --bogus
expect_usage checks extra
expect_usage explain --bogus
expect_usage explain
expect_usage trace --bogus
# Without a command the options are doctor's.
"$NETPATH" -w 10 > "$NP_TMP/out" 2> "$NP_TMP/err"
[ $? -eq 3 ] && [ "$(wc -l < "$NP_TMP/err")" -eq 2 ] &&
	[ "$(sed -n 2p "$NP_TMP/err")" = "Try 'netpath doctor --help'." ] ||
	np_fail "netpath -w 10: $(cat "$NP_TMP/err")"

# Nagios shows stdout only ("(No output)" otherwise): with --nagios anywhere on the command
# line, before or after the bad option, exactly one "NETPATH UNKNOWN - reason" line there.
expect_nagios() {
	expect_usage "$@"
	[ "$(wc -l < "$NP_TMP/out")" -eq 1 ] || np_fail "'$*' stdout is not one line: $(cat "$NP_TMP/out")"
	grep -q '^NETPATH UNKNOWN - ..*' "$NP_TMP/out" || np_fail "'$*' no UNKNOWN line: $(cat "$NP_TMP/out")"
	[ "$(sed 's/^NETPATH UNKNOWN - //' "$NP_TMP/out")" = "$(head -n 1 "$NP_TMP/err" | sed 's/^netpath doctor: //')" ] ||
		np_fail "'$*' stdout and stderr give different reasons: $(cat "$NP_TMP/out" "$NP_TMP/err")"
}
expect_nagios doctor --nagios -w 10
expect_nagios doctor -w 10 --nagios
expect_nagios doctor lo --nagios --interval
expect_nagios doctor lo --interval --nagios	# "--nagios" is the value here: invalid --interval
grep -q "invalid --interval '--nagios'" "$NP_TMP/err" || np_fail "$(cat "$NP_TMP/err")"
expect_nagios doctor --nagios lo --interval abc
expect_nagios doctor lo --timeout=x --nagios
expect_nagios doctor --nagios --all-c
expect_nagios doctor --nagios lo eth0
expect_nagios doctor --nagios --verbose=2 lo
expect_nagios doctor --nagios --threshold nope:warn=1 lo
"$NETPATH" --nagios -w 10 > "$NP_TMP/out" 2> "$NP_TMP/err"
[ $? -eq 3 ] && [ "$(wc -l < "$NP_TMP/out")" -eq 1 ] && grep -q '^NETPATH UNKNOWN - ' "$NP_TMP/out" ||
	np_fail "netpath --nagios -w 10: $(cat "$NP_TMP/out" "$NP_TMP/err")"
# An argument is quoted escaped too, in the Nagios line as well.
expect_nagios doctor --nagios --rtt "$(printf '1\033[2J')"
grep -qF "invalid --rtt '1\x1b[2J'" "$NP_TMP/out" || np_fail "escaped argument: $(cat "$NP_TMP/out")"
# --help is no error: the whole usage on stdout, exit 0.
"$NETPATH" doctor --help > "$NP_TMP/out" 2> "$NP_TMP/err" || np_fail "doctor --help exited $?"
[ ! -s "$NP_TMP/err" ] && [ "$(wc -l < "$NP_TMP/out")" -gt 20 ] && grep -q '^Usage: netpath doctor' "$NP_TMP/out" ||
	np_fail "doctor --help: $(cat "$NP_TMP/err")"
echo "PASS (usage errors)"
