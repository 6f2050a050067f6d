#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What a signal leaves behind, with a private TMPDIR for the unpacked archives:
# - the reader of stdout going away (SIGPIPE: `| head -c1`, `| true`) removes the unpacked
#   capture, every time;
# - SIGTERM or SIGHUP during an unpack (doctor --root, diff) ends the run with exit 3 (could not
#   diagnose) and one line on stderr, nothing left;
# - doctor --every, a service, stopped by SIGTERM after its first report exits 0 (a clean stop
#   for systemd) after a line saying so, its temporary file removed and the report file whole.
# A signal ignored when a shell starts stays ignored in everything it runs (nohup ignores SIGHUP,
# a background job SIGINT), and netpath rightly keeps an ignored signal ignored: run again with
# the default dispositions, so the test asks what it means to however it was started.
if [ -z "${NP_SIGNALS_RESET:-}" ] && env --default-signal=HUP true 2> /dev/null; then
	NP_SIGNALS_RESET=1 exec env --default-signal=HUP,INT,QUIT,TERM,PIPE bash "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
CAP="$NP_SRCDIR/tests/fixtures/capture/veth-tbf.cap"
[ -f "$CAP" ] || np_skip "no fixture capture"
scratch=$NP_TMP/scratch
mkdir "$scratch"
export TMPDIR=$scratch

left() {
	[ -z "$(ls -A "$scratch")" ] || np_fail "$1: left in TMPDIR: $(ls -A "$scratch" | head -3)"
}

# 1. SIGPIPE, 12 times each way, text and JSON.
for i in $(seq 12); do
	timeout -s KILL 60 "$NETPATH" doctor --root "$CAP" --interval 0 | head -c1 > /dev/null
	timeout -s KILL 60 "$NETPATH" doctor --root "$CAP" --interval 0 --json | true
	timeout -s KILL 60 "$NETPATH" diff "$CAP" "$CAP" | true
done
left "a reader that went away"
# SIGPIPE ignored by the parent: the write fails instead; the scratch still goes.
for i in $(seq 3); do
	(trap '' PIPE; timeout -s KILL 60 "$NETPATH" doctor --root "$CAP" --interval 0 --json | true)
done
left "a reader that went away, SIGPIPE ignored"
# A stdout that cannot be written is said, exit 3, not a verdict.
timeout -s KILL 60 "$NETPATH" doctor --root "$CAP" --interval 0 > /dev/full 2> "$NP_TMP/full.err"
rc=$?
[ "$rc" -eq 3 ] || np_fail "stdout on /dev/full: exit $rc, not 3"
grep -q "cannot write to standard output" "$NP_TMP/full.err" ||
	np_fail "stdout on /dev/full: not said: $(cat "$NP_TMP/full.err")"

# 2. An archive whose unpack takes a while: many small members.
"$NP_PY" - "$NP_TMP/big.tar.gz" <<'PY' || np_fail "cannot make the archive"
import sys, tarfile
with tarfile.open(sys.argv[1], "w:gz", compresslevel=1) as t:
    for d in range(40):
        ti = tarfile.TarInfo(f"d{d}")
        ti.type, ti.mode = tarfile.DIRTYPE, 0o755
        t.addfile(ti)
        for f in range(1000):
            t.addfile(tarfile.TarInfo(f"d{d}/f{f}"))
PY

# unpack_killed SIG CMD...: CMD in the background, SIG once its unpack has begun; exit 3, one
# line saying so, nothing left.
unpack_killed() {
	local sig=$1 pid rc
	shift
	"$@" > /dev/null 2> "$NP_TMP/sig.err" &
	pid=$!
	np_wait_until "$NP_WAIT" "the unpack to begin" \
		sh -c 'ls -A "$1"/netpath.*/ 2>/dev/null | grep -q .' sh "$scratch"
	kill -0 "$pid" 2> /dev/null || np_fail "$sig: the unpack ended before the signal"
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -eq 3 ] || np_fail "$sig during an unpack: exit $rc, not 3: $(cat "$NP_TMP/sig.err")"
	[ "$(wc -l < "$NP_TMP/sig.err")" -eq 1 ] && grep -q "terminated by SIG$sig" "$NP_TMP/sig.err" ||
		np_fail "$sig during an unpack: stderr: $(cat "$NP_TMP/sig.err")"
	left "$sig during an unpack"
}
unpack_killed TERM "$NETPATH" doctor --root "$NP_TMP/big.tar.gz" --interval 0
unpack_killed HUP "$NETPATH" doctor --root "$NP_TMP/big.tar.gz" --interval 0
unpack_killed TERM "$NETPATH" diff "$CAP" "$NP_TMP/big.tar.gz"
unpack_killed TERM "$NETPATH" doctor --root "$CAP" --before "$NP_TMP/big.tar.gz" --interval 0

# SIGINT (Ctrl-C) removes the same, says so, and ends netpath by SIGINT so that a shell loop
# stops too. (A shell's background jobs ignore SIGINT: started from Python instead.)
"$NP_PY" - "$NETPATH" "$NP_TMP/big.tar.gz" "$scratch" <<'PY' || np_fail "SIGINT during an unpack"
import os, signal, subprocess, sys, time
netpath, archive, scratch = sys.argv[1:]
p = subprocess.Popen([netpath, "doctor", "--root", archive, "--interval", "0"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
end = time.monotonic() + 30
while not any(os.listdir(os.path.join(scratch, d)) for d in os.listdir(scratch)):
    if time.monotonic() > end or p.poll() is not None:
        sys.exit("SIGINT: the unpack did not begin")
    time.sleep(0.05)
p.send_signal(signal.SIGINT)
rc, err = p.wait(), p.stderr.read().decode()
if rc != -signal.SIGINT or err != "netpath doctor: interrupted by SIGINT\n":
    sys.exit(f"SIGINT during an unpack: returncode {rc}, stderr {err!r}")
PY
left "SIGINT during an unpack"

# 3. --every with a long cadence, stopped between reports.
mkdir "$NP_TMP/out"
"$NETPATH" doctor lo --interval 0 --format prometheus --every 600 -o "$NP_TMP/out/np.prom" \
	2> "$NP_TMP/every.err" &
pid=$!
np_wait_file "$NP_TMP/out/np.prom" "the first report of --every"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || np_fail "--every on SIGTERM after a report: exit $rc, not 0 (a clean stop)"
grep -qx "netpath doctor: stopped by SIGTERM" "$NP_TMP/every.err" ||
	np_fail "--every on SIGTERM: stderr: $(cat "$NP_TMP/every.err")"
[ "$(ls -A "$NP_TMP/out")" = np.prom ] || np_fail "--every left: $(ls -A "$NP_TMP/out")"
tail -c 1 "$NP_TMP/out/np.prom" | od -An -c | grep -q '\\n' || np_fail "the report is not whole"
left "--every"

# 4. --every stopped while its first report is still sampling: no report, so exit 3 (UNKNOWN).
"$NETPATH" doctor lo --interval 30 --format prometheus --every 600 -o "$NP_TMP/out/np2.prom" \
	2> "$NP_TMP/every2.err" &
pid=$!
# Ready once netpath's SIGTERM handler is in, not merely forked.
np_wait_until "$NP_WAIT" "the --every process to catch SIGTERM" np_catches "$pid" 15
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 3 ] || np_fail "--every on SIGTERM before its first report: exit $rc, not 3"
[ ! -e "$NP_TMP/out/np2.prom" ] || np_fail "--every stopped before its first report wrote one"
left "--every before its first report"
exit 0
