#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run a command on a busy machine: one CPU hog per CPU and a rename loop, as a loaded production
# box or CI runner is. Defects that only load shows (openat2's EAGAIN while any rename happens on
# the host, netlink dumps interrupted by a changing table, readiness waits that assumed an idle
# CPU) surface here and not on an idle machine.
#
#   tools/busy.sh [--hogs N] [--renames N] -- COMMAND [ARG...]
#
# --hogs N     busy loops (default: the number of CPUs)
# --renames N  rename loops in a scratch directory (default 1)
# The load stops with the command, however it ends; the command's exit status is returned, and
# the number of renames done is said on stderr so a run can show the storm was real.
set -eu
hogs=$(nproc 2>/dev/null || echo 2)
renames=1
while [ $# -gt 0 ]; do
	case "$1" in
	--hogs) hogs=$2; shift 2 ;;
	--renames) renames=$2; shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "busy.sh: no command given (busy.sh --help)" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/np-busy.XXXXXX")
pids=""
stop() {
	# KILL: a TERM sent between a loop's fork and its exec would meet this script's trap.
	# shellcheck disable=SC2086
	[ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
	# shellcheck disable=SC2086
	[ -z "$pids" ] || wait $pids 2>/dev/null || true
	# Each count is replaced whole (written aside, renamed over): a loop killed mid-write leaves
	# the last count, never an empty file read as 0.
	n=$(cat "$scratch"/count.* 2>/dev/null | awk '{s += $1} END {print s + 0}')
	echo "busy.sh: $hogs CPU hog(s), $renames rename loop(s); at least $n renames done" >&2
	rm -rf "$scratch"
}
trap stop EXIT
trap 'exit 143' TERM INT HUP

i=0
while [ "$i" -lt "$hogs" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
i=0
while [ "$i" -lt "$renames" ]; do
	mkdir "$scratch/r$i"
	: >"$scratch/r$i/a"
	# rename(2) in a tight loop: python3 when present (thousands a second), else mv(1), whose
	# fork per rename is a hundred times slower. Counted by the thousand, written now and then.
	if command -v python3 >/dev/null; then
		python3 -c 'import os, sys
d, c, t, n = sys.argv[1], sys.argv[2], sys.argv[3], 0
while True:
    for _ in range(500):
        os.rename(d + "/a", d + "/b"); os.rename(d + "/b", d + "/a")
    n += 1000
    with open(t, "w") as f: f.write("%d\n" % n)
    os.replace(t, c)' "$scratch/r$i" "$scratch/count.$i" "$scratch/.count.$i" &
	else
		sh -c 'd=$1; c=$2; t=$3; n=0
		       while :; do
		               k=0
		               while [ $k -lt 100 ]; do mv "$d/a" "$d/b"; mv "$d/b" "$d/a"; k=$((k + 1)); done
		               n=$((n + 200)); echo $n >"$t"; mv "$t" "$c"
		       done' busy "$scratch/r$i" "$scratch/count.$i" "$scratch/.count.$i" &
	fi
	pids="$pids $!"
	i=$((i + 1))
done

rc=0
"$@" || rc=$?
exit "$rc"
