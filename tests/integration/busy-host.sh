#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The same verdict on a busy host. openat2(RESOLVE_BENEATH) says EAGAIN when any rename or mount
# happens anywhere on the host while a lookup goes through "..", and every sysfs symlink holds
# "..": a --root read must not turn that into a missing file. With two rename storms running
# beside them (one per CPU of a 2-CPU machine), doctor --root on a fixture tree, doctor --root
# on a capture and plan --root give, run after run, exactly the output (and exit status) they
# give on a quiet host. Reads fixtures only: no root, no network namespace.
. "$(dirname "$0")/lib.sh"
TREE=$NP_SRCDIR/tests/fixtures/trees/x710-server
CAP=$NP_SRCDIR/tests/fixtures/capture/veth-tbf.cap
RUNS=${NP_BUSY_RUNS:-30}
# A capture is unpacked on every run (slower): fewer runs, still many lookups each.
CAP_RUNS=${NP_BUSY_CAP_RUNS:-10}

doctor_tree() {
	"$NETPATH" doctor eth0 --root "$TREE/after" --before "$TREE/before" --json
}
doctor_capture() {
	"$NETPATH" doctor --root "$CAP" va --json
}
plan_tree() {
	"$NETPATH" plan eth0 --root "$TREE/after" --profile busy-server --json
}

# Each command's output and exit status on a quiet host: the reference.
for c in doctor_tree doctor_capture plan_tree; do
	"$c" > "$NP_TMP/$c.quiet" 2>&1
	echo "exit $?" >> "$NP_TMP/$c.quiet"
	grep -q '"schema"' "$NP_TMP/$c.quiet" || np_fail "$c on a quiet host: $(head -c 300 "$NP_TMP/$c.quiet")"
done

# storm DIR: rename a file back and forth, until killed. Each rename bumps the kernel's global
# rename sequence that openat2() checks after every ".."; Python renames some 100,000 times a
# second where a loop of mv(1), a fork each, manages a few hundred on a loaded machine.
storm() {
	exec "$NP_PY" -c '
import os, sys
a, b = sys.argv[1] + "/a", sys.argv[1] + "/b"
open(a, "w").close()
os.rename(a, b)
os.rename(b, a)
open(sys.argv[1] + ".ready", "w").close()
while True:
    os.rename(a, b)
    os.rename(b, a)
' "$1"
}
for i in 1 2; do
	mkdir "$NP_TMP/storm$i"
	np_bg storm "$NP_TMP/storm$i"
done
# Started: each storm has renamed its file once.
for i in 1 2; do
	np_wait_file "$NP_TMP/storm$i.ready" "rename storm $i to start"
done

# check CMD N: N runs of CMD under the storm, each identical to the quiet one.
failed=""
check() {
	local c=$1 n=$2 bad=0 first=""
	for i in $(seq "$n"); do
		"$c" > "$NP_TMP/$c.busy" 2>&1
		echo "exit $?" >> "$NP_TMP/$c.busy"
		if ! cmp -s "$NP_TMP/$c.quiet" "$NP_TMP/$c.busy"; then
			bad=$((bad + 1))
			[ -n "$first" ] || first=$(diff "$NP_TMP/$c.quiet" "$NP_TMP/$c.busy" | head -n 8)
		fi
	done
	echo "$c: $bad of $n runs differ from the quiet host's output"
	if [ "$bad" -gt 0 ]; then
		echo "$first" | sed 's/^/    /'
		failed="$failed $c"
	fi
}
check doctor_tree "$RUNS"
check doctor_capture "$CAP_RUNS"
check plan_tree "$RUNS"
[ -z "$failed" ] || np_fail "verdicts changed with unrelated load:$failed"
echo "PASS: busy-host"
