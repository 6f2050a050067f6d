#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The textfile-collector units as meson configured them (contrib/systemd): `systemd-analyze
# verify` has nothing to say about either (unknown keys, a missing binary, a bad timer), and the
# service's ExecStart line, run as the unit would run it (its nice level, its umask, its timeout
# as the limit, exit 1 and 2 counted as success like SuccessExitStatus=) against a fixture tree
# instead of the live host, leaves one valid textfile in the directory and nothing else.
# No systemd needs to run, and no root: the binary and the directory are pointed at the build.
set -u
: "${NETPATH:?}" "${NP_SRCDIR:?}" "${NP_BUILDDIR:?}"
. "$NP_SRCDIR/tests/integration/lib.sh"
command -v systemd-analyze > /dev/null ||
	{ echo "SKIP: systemd-analyze not installed (Debian: systemd)"; exit 77; }
service=$NP_BUILDDIR/contrib/systemd/netpath-textfile.service
timer=$NP_SRCDIR/contrib/systemd/netpath-textfile.timer
[ -f "$service" ] || np_fail "no configured service at $service"

# The unit's own values, read back from it.
key() { sed -n "s/^$1=//p" "$service" | tail -1; }
exec_start=$(key ExecStart)
textdir=$(key ReadWritePaths)
bin=${exec_start%% *}
[ -n "$textdir" ] || np_fail "no ReadWritePaths= in the service"
case "$exec_start" in
*" -o $textdir/netpath.prom"*) ;;
*) np_fail "ExecStart does not write into ReadWritePaths=$textdir: $exec_start" ;;
esac
grep -q '^SuccessExitStatus=1 2$' "$service" || np_fail "findings (exit 1, 2) would fail the unit"
grep -q '^ProtectSystem=strict$' "$service" || np_fail "no ProtectSystem=strict"
grep -q '^IOSchedulingClass=idle$' "$service" || np_fail "no IOSchedulingClass=idle"
grep -q '^\[Install\]' "$service" && np_fail "the service has an [Install] section: the timer starts it"
grep -q '^WantedBy=timers.target$' "$timer" || np_fail "the timer is not wanted by timers.target"

# The units with the binary and the directory of this build: verify must be silent.
mkdir -p "$NP_TMP/units" "$NP_TMP/textfile"
sed -e "s|^ExecStart=$bin |ExecStart=$NETPATH |" -e "s|$textdir|$NP_TMP/textfile|g" "$service" \
	> "$NP_TMP/units/netpath-textfile.service"
cp "$timer" "$NP_TMP/units/"
(cd "$NP_TMP/units" && systemd-analyze verify --man=no ./netpath-textfile.service \
	./netpath-textfile.timer) > "$NP_TMP/verify" 2>&1 ||
	np_fail "systemd-analyze verify: $(cat "$NP_TMP/verify")"
[ ! -s "$NP_TMP/verify" ] || np_fail "systemd-analyze verify: $(cat "$NP_TMP/verify")"

# ExecStart as the unit runs it, on a fixture tree with two snapshots.
line=$(sed -n 's/^ExecStart=//p' "$NP_TMP/units/netpath-textfile.service")
limit=$(key TimeoutStartSec)
tree=$NP_SRCDIR/tests/fixtures/trees/x710-server
echo "old" > "$NP_TMP/textfile/netpath.prom"
# shellcheck disable=SC2086 # the unit's line is split into words as systemd splits it
(umask "$(key UMask)"; exec nice -n "$(key Nice)" timeout "$limit" \
	$line --root "$tree/after" --before "$tree/before") > "$NP_TMP/stdout" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -le 2 ] || np_fail "ExecStart exited $rc: $(cat "$NP_TMP/err")"
[ ! -s "$NP_TMP/stdout" ] || np_fail "ExecStart wrote to stdout (the journal): -o is the output"
out=$NP_TMP/textfile/netpath.prom
[ "$(ls -A "$NP_TMP/textfile")" = netpath.prom ] ||
	np_fail "the textfile directory holds more: $(ls -A "$NP_TMP/textfile")"
grep -q '^netpath_status ' "$out" || np_fail "no netpath_status in $out: $(head -3 "$out")"
[ "$(stat -c %a "$out")" = 644 ] || np_fail "mode $(stat -c %a "$out"): node_exporter must read it"
if command -v promtool > /dev/null; then
	promtool check metrics < "$out" > "$NP_TMP/lint" 2>&1 && [ ! -s "$NP_TMP/lint" ] ||
		np_fail "promtool check metrics: $(cat "$NP_TMP/lint")"
fi
echo "systemd-analyze verify clean; ExecStart wrote $(grep -vc '^#' "$out") series (exit $rc)"
