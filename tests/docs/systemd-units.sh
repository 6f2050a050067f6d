#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The textfile-collector units and the flight recorder's as meson configured them (contrib/systemd): `systemd-analyze
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

# The flight recorder's unit: installable, its directory the one systemd makes for it (0700),
# the textfile units' sandbox, verify silent. (Not run: it records until stopped.)
rec=$NP_BUILDDIR/contrib/systemd/netpath-record.service
[ -f "$rec" ] || np_fail "no configured service at $rec"
rkey() { sed -n "s/^$1=//p" "$rec" | tail -1; }
case "$(rkey ExecStart)" in
"$bin record --dir /var/lib/$(rkey StateDirectory) "*) ;;
*) np_fail "the recorder's ExecStart does not record into its StateDirectory: $(rkey ExecStart)" ;;
esac
[ "$(rkey StateDirectoryMode)" = 0700 ] || np_fail "the recording directory is not 0700"
grep -q '^WantedBy=multi-user.target$' "$rec" || np_fail "the recorder's service cannot be enabled"
for k in CapabilityBoundingSet ProtectSystem SystemCallFilter RestrictAddressFamilies \
	MemoryDenyWriteExecute NoNewPrivileges ProtectKernelTunables; do
	[ "$(rkey "$k")" = "$(key "$k")" ] || np_fail "the recorder's $k differs from the textfile unit's"
done
sed -e "s|^ExecStart=$bin |ExecStart=$NETPATH |" "$rec" > "$NP_TMP/units/netpath-record.service"
(cd "$NP_TMP/units" && systemd-analyze verify --man=no ./netpath-record.service) \
	> "$NP_TMP/verify" 2>&1 || np_fail "systemd-analyze verify: $(cat "$NP_TMP/verify")"
[ ! -s "$NP_TMP/verify" ] || np_fail "systemd-analyze verify: $(cat "$NP_TMP/verify")"

# The long-running alternative: the same file and sandbox, excluding the timer, installable
# (the timer's service is not), verify silent; its ExecStart with a short cadence and two
# reports (--every refuses a --root tree: this reads the host it runs on) leaves one textfile
# whose second report has rates.
every=$NP_BUILDDIR/contrib/systemd/netpath-textfile-every.service
[ -f "$every" ] || np_fail "no configured service at $every"
ekey() { sed -n "s/^$1=//p" "$every" | tail -1; }
[ "$(ekey ReadWritePaths)" = "$textdir" ] || np_fail "the two services write different directories"
case "$(ekey ExecStart)" in
"$bin doctor --all --format prometheus --every "*" -o $textdir/netpath.prom") ;;
*) np_fail "the long-running ExecStart is not the timer's report with --every: $(ekey ExecStart)" ;;
esac
grep -q '^Conflicts=netpath-textfile.timer$' "$every" ||
	np_fail "the long-running service does not exclude the timer"
grep -q '^WantedBy=multi-user.target$' "$every" || np_fail "the long-running service cannot be enabled"
for k in CapabilityBoundingSet ProtectSystem SystemCallFilter RestrictAddressFamilies UMask \
	MemoryDenyWriteExecute NoNewPrivileges; do
	[ "$(ekey "$k")" = "$(key "$k")" ] || np_fail "the two services' $k differ"
done
sed -e "s|^ExecStart=$bin |ExecStart=$NETPATH |" -e "s|$textdir|$NP_TMP/textfile2|g" "$every" \
	> "$NP_TMP/units/netpath-textfile-every.service"
(cd "$NP_TMP/units" && systemd-analyze verify --man=no ./netpath-textfile-every.service) \
	> "$NP_TMP/verify" 2>&1 || np_fail "systemd-analyze verify: $(cat "$NP_TMP/verify")"
[ ! -s "$NP_TMP/verify" ] || np_fail "systemd-analyze verify: $(cat "$NP_TMP/verify")"
mkdir -p "$NP_TMP/textfile2"
line=$(sed -n 's/^ExecStart=//p' "$NP_TMP/units/netpath-textfile-every.service" |
	sed 's/--every [0-9.]*/--every 0.3 --count 2 --interval 0/')
# shellcheck disable=SC2086 # split as systemd splits it
(umask "$(ekey UMask)"; exec timeout 60 $line) > "$NP_TMP/stdout" 2> "$NP_TMP/err"
rc=$?
if [ "$rc" -eq 3 ] && grep -q "no interface is up and carrying traffic" "$NP_TMP/err"; then
	echo "systemd-analyze verify clean; ExecStart wrote $(grep -vc '^#' "$out") series; the"
	echo "long-running ExecStart not run: no interface of this host carries traffic (--all)"
	exit 0
fi
[ "$rc" -le 2 ] || np_fail "the long-running ExecStart exited $rc: $(cat "$NP_TMP/err")"
[ ! -s "$NP_TMP/stdout" ] || np_fail "the long-running ExecStart wrote to stdout"
[ "$(ls -A "$NP_TMP/textfile2")" = netpath.prom ] ||
	np_fail "the textfile directory holds more: $(ls -A "$NP_TMP/textfile2")"
awk '$1 == "netpath_interval_seconds" && $2 > 0.2 { f = 1 } END { exit !f }' \
	"$NP_TMP/textfile2/netpath.prom" || np_fail "the second report has no interval: \
$(grep interval "$NP_TMP/textfile2/netpath.prom")"
echo "systemd-analyze verify clean; ExecStart wrote $(grep -vc '^#' "$out") series (exit $rc)"
