#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath plan --write DIR while DIR and DIR/etc are swapped with symbolic links to a directory
# outside DIR, again and again, during 200 runs. A helper exchanges each with its link
# atomically (renameat2 RENAME_EXCHANGE), so the name always exists: as the real directory or
# as the link. It does so at random moments, and, as an attacker watching DIR would, as soon as
# the plan's first file appears. Every 4th run is slowed (strace delays each file system call
# by 3 ms, as a loaded disk would) to widen the windows between a check and a use. After every
# run the helper pauses with the real directories back in place, and the test asserts:
# - nothing was ever created outside DIR (the outside directory stays empty);
# - the run either succeeded, with the whole plan in the real directory (wherever the swaps left
#   it), or failed with one line and exit 3, with no file and no directory of the plan left;
# - no temporary file is left anywhere.
# The old code checked the paths, then created the files and renamed them by path: some runs
# followed a link swapped in meanwhile and wrote outside, and a failed run left what it had
# written so far.
. "$(dirname "$0")/lib.sh"
np_require_root
umask 022
runs=${NP_RACE_RUNS:-200}
tree=$NP_SRCDIR/tests/fixtures/trees/arm-board/after
base=$NP_TMP/race-$$
outside=$base/outside
mkdir -m 0755 "$base" "$outside" || np_fail "mkdir $base"
files="etc/sysctl.d/90-netpath.conf etc/systemd/network/10-netpath-enp1s0.link
etc/udev/rules.d/70-netpath-enp1s0.rules netpath-apply-now.sh"

# plan DIR [slow]: slow, as on a loaded disk or a network filesystem: each call that looks up,
# creates, renames or syncs a file takes 3 ms more (strace injects the delay after it returns),
# which widens every window between a check and a use for the swapper to hit.
calls=newfstatat,statx,mkdir,mkdirat,rename,renameat,renameat2,link,linkat,unlinkat,fsync
plan() {
	local slow=()
	[ "${2:-}" = slow ] && slow=(env "$NOLEAK" strace -f -qq -o /dev/null -e trace="$calls"
		-e inject="$calls":delay_exit=3000)
	timeout 30 "${slow[@]}" "$NETPATH" plan enp1s0 --root "$tree" --profile lan --write "$1" \
		> "$base/run.out" 2> "$base/run.err"
}
# LeakSanitizer cannot run under ptrace: an ASan build skips leak detection in the slow runs.
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
slow_every=4
command -v strace > /dev/null || { slow_every=0; echo "note: no strace: no slow runs"; }

# The reference plan, written where nothing races it.
plan "$base/ref" || np_fail "plan --write $base/ref failed: $(cat "$base/run.err")"
# DIR and DIR/etc, each with a link to the outside directory beside it to be exchanged with.
mkdir -m 0755 "$base/dir" "$base/dir/etc"
ln -s "$outside" "$base/dir.swap"
ln -s "$outside" "$base/dir/etc.swap"

# The swapper: exchanges the names by path, as an attacker would, until told to stop. While
# DIR is the link, "DIR/etc" is outside/etc, which does not exist (the exchange fails) unless
# something was written there.
"$NP_PY" - "$base" "$base/pause" > "$base/swapper.log" 2>&1 <<'PY' &
import ctypes, os, random, sys, time
libc = ctypes.CDLL(None, use_errno=True)
base, pause = (a.encode() for a in sys.argv[1:3])
DIR, ETC = (base + b"/dir", base + b"/dir.swap"), (base + b"/dir/etc", base + b"/dir/etc.swap")
real = {DIR: True, ETC: True}  # is the first name of the pair the real directory
done = failed = 0
def flip(pair):
    global done, failed
    if libc.renameat2(-100, pair[0], -100, pair[1], 2) == 0:  # AT_FDCWD, RENAME_EXCHANGE
        real[pair] = not real[pair]
        done += 1
    else:
        failed += 1
def first_file():
    d = DIR[0] if real[DIR] else DIR[1]
    return d + (b"/etc" if real[ETC] else b"/etc.swap") + b"/sysctl.d/90-netpath.conf"
# Mostly the real directories, with a link standing in for a moment now and then; and as an
# attacker watching DIR would, the link in place of DIR as soon as the plan's first file is in.
# Told to pause (between runs: the pause file holds the run's number), it puts both real
# directories back, acknowledges that number and does nothing until the file is gone; told to
# stop, it ends.
seen, triggers, acked = False, 0, None
while True:
    try:
        with open(pause) as f:
            told = f.read().strip()
    except FileNotFoundError:
        told = None
    if told is not None:
        if told == "stop":
            break
        for pair in (DIR, ETC):
            if not real[pair]:
                flip(pair)
        if told != acked:
            with open(pause + b".ack", "w") as f:
                f.write(told + "\n")
            acked, seen = told, False
        time.sleep(0.001)
        continue
    if os.path.exists(first_file()) != seen:
        seen = not seen
        if seen:
            triggers += 1
            flip(DIR)
            time.sleep(random.uniform(0, 0.03))
            flip(DIR)
        continue
    if random.random() < 0.001:
        pair = random.choice((DIR, ETC))
        flip(pair)
        time.sleep(random.uniform(0, 0.0005))
        flip(pair)
print(f"exchanges: {done} done, {failed} failed, {triggers} on the first file")
PY
swapper=$!
NP_PIDS="$NP_PIDS $swapper"
# pause N: the swapper stopped between two runs, both real directories in place, once it has
# acknowledged the Nth pause; resume: let it go on.
acked() {
	[ "$(cat "$base/pause.ack" 2>/dev/null)" = "$1" ]
}
pause() {
	echo "$1" > "$base/pause"
	np_wait_until "$NP_WAIT" "the swapper to pause" acked "$1"
}
resume() {
	rm -f "$base/pause"
}
# real NAME-A NAME-B: whichever of the two is the real directory now.
real() {
	if [ -d "$1" ] && [ ! -L "$1" ]; then echo "$1"; else echo "$2"; fi
}

ok=0 refused=0
for i in $(seq "$runs"); do
	if [ "$slow_every" -gt 0 ] && [ $((i % slow_every)) = 0 ]; then
		plan "$base/dir" slow
	else
		plan "$base/dir"
	fi
	rc=$?
	pause "$i"
	[ -z "$(ls -A "$outside")" ] ||
		np_fail "run $i (exit $rc) wrote outside DIR: $(cd "$outside" && find . | tr '\n' ' ')"
	d=$(real "$base/dir" "$base/dir.swap")
	e=$(real "$d/etc" "$d/etc.swap")
	tmps=$(find "$base" -name '.*' | tr '\n' ' ')
	[ -z "$tmps" ] || np_fail "run $i (exit $rc) left temporary files: $tmps"
	case $rc in
	0)
		ok=$((ok + 1))
		for f in $files; do
			g=$d/$f
			[ "${f#etc/}" = "$f" ] || g=$e/${f#etc/}
			cmp -s "$base/ref/$f" "$g" || np_fail "run $i succeeded without $f whole in DIR"
		done ;;
	3)
		refused=$((refused + 1))
		[ "$(wc -l < "$base/run.err")" = 1 ] || np_fail "run $i: not one line: $(cat "$base/run.err")"
		left=$(ls -A "$e"; find "$d" -mindepth 1 -maxdepth 1 ! -name etc ! -name etc.swap)
		[ -z "$left" ] || np_fail "run $i failed ($(cat "$base/run.err")) and left: $left" ;;
	*)
		np_fail "run $i exited $rc: $(cat "$base/run.err")" ;;
	esac
	# The next run starts from an empty DIR/etc, so that it creates the directories again.
	rm -rf "${e:?}"/* "$d/netpath-apply-now.sh"
	resume
done
echo stop > "$base/pause"
wait "$swapper"
echo "$runs runs: $ok wrote the whole plan, $refused refused; $(cat "$base/swapper.log")"
[ "$ok" -gt 0 ] || np_fail "no run succeeded while racing: $(cat "$base/run.err")"
echo "PASS"
