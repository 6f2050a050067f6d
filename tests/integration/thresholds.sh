#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Threshold overrides (--threshold, config `threshold` lines) and check selection (--check, --skip,
# `check`/`skip` lines) change verdicts and exit codes as documented; the command line overrides
# the config file; unknown ids and malformed config lines are exit 3 with a one-line reason.
# Runs over the x710-server fixture trees (--root/--before): no traffic, no root. As root it runs
# netpath as nobody when nobody can reach the binary, so it also proves it needs no privileges.
. "$(dirname "$0")/lib.sh"

TREE="$NP_SRCDIR/tests/fixtures/trees/x710-server"
chmod 755 "$NP_TMP"
RUN=()
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$NETPATH" &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$TREE/after/proc/uptime"; then
	RUN=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

# doctor over the fixture pair with JSON on stdout; sets $rc.
doc() {
	"${RUN[@]}" "$NETPATH" doctor eth0 --root "$TREE/after" --before "$TREE/before" --json \
		"$@" > "$NP_TMP/out.json" 2> "$NP_TMP/err"
	rc=$?
	np_validate "$NP_TMP/out.json"
}

conf() {
	printf '%s\n' "$@" > "$NP_TMP/netpath.conf"
	chmod 644 "$NP_TMP/netpath.conf"
}

expect_rc() {
	[ "$rc" -eq "$1" ] || np_fail "$2: exit $rc, expected $1 ($(head -c 300 "$NP_TMP/err"))"
}

sev() {	# sev ID SEVERITY: the check's finding has that severity
	np_assert_json "$NP_TMP/out.json" \
		'any(f["id"] == "'"$1"'" and f["severity"] == "'"$2"'" for f in d["findings"])'
}

state() {	# state ID STATE: the check's outcome in the "checks" array
	np_assert_json "$NP_TMP/out.json" \
		'any(c["id"] == "'"$1"'" and c["state"] == "'"$2"'" for c in d["checks"])'
}

# A config error: exit 3, one line on stderr containing $1, a JSON error object. A bad option
# (expect_usage_error) is a usage error: the same line, then "Try 'netpath doctor --help'.".
expect_error() {
	local want="$1" lines=${NP_ERR_LINES:-1}
	shift
	doc "$@"
	expect_rc 3 "$*"
	[ "$(wc -l < "$NP_TMP/err")" -eq "$lines" ] ||
		np_fail "'$*': stderr is not $lines line(s): $(cat "$NP_TMP/err")"
	[ "$lines" -eq 1 ] || [ "$(tail -n 1 "$NP_TMP/err")" = "Try 'netpath doctor --help'." ] ||
		np_fail "'$*': no --help hint: $(cat "$NP_TMP/err")"
	grep -qF -- "$want" "$NP_TMP/err" || np_fail "'$*': '$(cat "$NP_TMP/err")' lacks '$want'"
	np_validate "$NP_TMP/out.json"
	np_assert_json "$NP_TMP/out.json" 'd["schema"] == "netpath/error" and d["exit_code"] == 3'
}
expect_usage_error() {
	NP_ERR_LINES=2 expect_error "$@"
}

# The baseline, with an empty config so that a host /etc/netpath.conf cannot interfere:
# 12,000 backlog drops/s is critical at the default crit=100.
conf "# empty"
doc --config "$NP_TMP/netpath.conf"
expect_rc 2 "baseline"
np_validate "$NP_TMP/out.json"
sev softnet.backlog-drops critical
sev softnet.time-squeeze warning
state softnet.backlog-drops flagged

# Raised in the config file: info; the other criticals (nic.missed, irq.affinity) keep exit 2.
conf "# raised" "threshold softnet.backlog-drops warn=100000 crit=200000   # per second"
doc --config "$NP_TMP/netpath.conf"
expect_rc 2 "config threshold"
np_validate "$NP_TMP/out.json"
sev softnet.backlog-drops info
sev irq.affinity critical

# The same on the command line, and a critical threshold still below the rate stays critical.
conf "# empty"
doc --config "$NP_TMP/netpath.conf" --threshold softnet.backlog-drops:warn=100000,crit=200000
sev softnet.backlog-drops info
doc --config "$NP_TMP/netpath.conf" --threshold softnet.backlog-drops:crit=5000
sev softnet.backlog-drops critical
doc --config "$NP_TMP/netpath.conf" --threshold softnet.backlog-drops:crit=20000
sev softnet.backlog-drops warning

# The command line overrides the file, level by level.
conf "threshold softnet.backlog-drops warn=100000 crit=200000"
doc --config "$NP_TMP/netpath.conf" --threshold softnet.backlog-drops:crit=150000,warn=10000
sev softnet.backlog-drops warning

# Selection: only softnet, minus time-squeeze, with the raised threshold: info only, exit 0.
conf "check softnet" "skip softnet.time-squeeze" \
     "threshold softnet.backlog-drops warn=100000 crit=200000"
doc --config "$NP_TMP/netpath.conf"
expect_rc 0 "softnet only, raised"
np_validate "$NP_TMP/out.json"
state nic.missed not_run
state softnet.time-squeeze not_run
np_assert_json "$NP_TMP/out.json" 'all(f["stage"] == "softnet" for f in d["findings"])'
# --check on the command line replaces the file's check lines (and keeps its skip lines).
doc --config "$NP_TMP/netpath.conf" --check nic.missed,irq.*
expect_rc 2 "--check over the file"
state softnet.backlog-drops not_run
state nic.missed flagged
sev irq.affinity critical

# --skip 'softnet.*' removes every softnet finding and marks them not_run.
doc --config /dev/null --skip 'softnet.*'
expect_rc 2 "--skip softnet.*"
np_validate "$NP_TMP/out.json"
np_assert_json "$NP_TMP/out.json" 'not any(f["stage"] == "softnet" for f in d["findings"])'
np_assert_json "$NP_TMP/out.json" \
	'all(c["state"] == "not_run" for c in d["checks"] if c["stage"] == "softnet")'
np_assert_json "$NP_TMP/out.json" \
	'all(c["state"] != "not_run" for c in d["checks"] if c["stage"] != "softnet")'
# Bare stage names and globs select the same checks.
doc --config /dev/null --check softnet --skip 'socket.tcp-*'
expect_rc 2 "--check softnet"
np_assert_json "$NP_TMP/out.json" \
	'all((c["state"] == "not_run") == (c["stage"] != "softnet") for c in d["checks"])'

# Config doctor options, and the command line over them.
conf "interval 0" "rtt 100" "bandwidth 10G"
doc --config "$NP_TMP/netpath.conf"
expect_rc 2 "config rtt"
sev socket.tcp-rmem-bdp warning
doc --config "$NP_TMP/netpath.conf" --rtt 1
np_assert_json "$NP_TMP/out.json" 'not any(f["id"] == "socket.tcp-rmem-bdp" and
	f["severity"] == "warning" for f in d["findings"])'

# Errors: exit 3 and a reason naming what is wrong.
expect_usage_error "no check 'softnet.nope'" --config /dev/null --threshold softnet.nope:warn=1
expect_usage_error "invalid warn value 'abc'" --config /dev/null \
	--threshold softnet.backlog-drops:warn=abc
expect_usage_error "softnet.max-backlog has no thresholds" --config /dev/null \
	--threshold softnet.max-backlog:warn=1
expect_usage_error "is not ID:warn=N,crit=N" --config /dev/null --threshold softnet.backlog-drops
expect_usage_error "warn=500 is above crit=100 (the warning level" --config /dev/null \
	--threshold softnet.backlog-drops:warn=500,crit=100
expect_usage_error "'softnet.nope*' matches no check" --config /dev/null --check 'softnet.nope*'
expect_usage_error "'nosuchstage' matches no check" --config /dev/null --skip nosuchstage
expect_error "leave no check to run" --config /dev/null --skip '*'
expect_error "cannot read config file $NP_TMP/missing.conf" --config "$NP_TMP/missing.conf"

conf "# line 1" "" "threshhold softnet.backlog-drops warn=1"
expect_error "$NP_TMP/netpath.conf:3: unknown setting 'threshhold'" --config "$NP_TMP/netpath.conf"
conf "threshold softnet.nope warn=1"
expect_error "$NP_TMP/netpath.conf:1: no check 'softnet.nope'" --config "$NP_TMP/netpath.conf"
conf "threshold softnet.backlog-drops warn=x"
expect_error "$NP_TMP/netpath.conf:1: softnet.backlog-drops: invalid warn value 'x'" \
	--config "$NP_TMP/netpath.conf"
conf "check softnet" "skip softnet"
expect_error "leave no check to run" --config "$NP_TMP/netpath.conf"
conf "interval=2"
expect_error "$NP_TMP/netpath.conf:1: 'interval=2': write 'NAME VALUE' without '='" \
	--config "$NP_TMP/netpath.conf"
conf "# bandwidth" "bandwidth 10Q"
expect_error "$NP_TMP/netpath.conf:2: invalid bandwidth '10Q'" --config "$NP_TMP/netpath.conf"
conf "rtt -5"
expect_error "$NP_TMP/netpath.conf:1: invalid rtt '-5'" --config "$NP_TMP/netpath.conf"

# Without --config a missing /etc/netpath.conf is no error (only checkable where it is missing).
if [ ! -e /etc/netpath.conf ]; then
	doc
	expect_rc 2 "no /etc/netpath.conf"
fi

# The reference shows each threshold with its unit and the exact override lines.
"$NETPATH" explain softnet.backlog-drops > "$NP_TMP/explain" || np_fail "explain"
grep -qF "warning at 1, critical at 100 (drops/s)" "$NP_TMP/explain" || np_fail "explain: no unit"
grep -qF "threshold softnet.backlog-drops warn=1 crit=100" "$NP_TMP/explain" ||
	np_fail "explain: no config line"
grep -qF -- "--threshold softnet.backlog-drops:warn=1,crit=100" "$NP_TMP/explain" ||
	np_fail "explain: no option"
"$NETPATH" checks > "$NP_TMP/checks" || np_fail "checks"
grep -qF "(drops/s)" "$NP_TMP/checks" || np_fail "checks: thresholds without units"
echo "PASS"
