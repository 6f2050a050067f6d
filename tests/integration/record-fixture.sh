#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A recording netpath did not make in this run: 40 s of a VM's eth0 (virtio_net, 2 CPUs),
# kept in tests/fixtures/recordings/vm-eth0. doctor --at and history read it on any machine,
# without root; a copy with a damaged block, one cut short mid-block (a power cut), and bytes
# that are no recording are read as far as they are good, said so, and never crash.
. "$(dirname "$0")/lib.sh"
rec=$NP_SRCDIR/tests/fixtures/recordings/vm-eth0
# git keeps no directory mode: a private copy, as the recorder makes them.
mkdir -m 0700 "$NP_TMP/rec"
cp "$rec"/*.nprec "$NP_TMP/rec/"
seg=$(ls "$NP_TMP/rec"/*.nprec)
start=$(basename "$seg" .nprec)
start=${start#*-}

"$NETPATH" history --root "$NP_TMP/rec" --json > "$NP_TMP/h.json" || np_fail "history over the fixture"
np_validate "$NP_TMP/h.json"
np_assert_json "$NP_TMP/h.json" 'd["interface"] == "eth0" and len(d["seconds"]) >= 35 and not d["gaps"] and d["damaged_blocks"] == 0'
np_assert_json "$NP_TMP/h.json" '0.9 <= d["interval"] <= 1.1'

"$NETPATH" doctor --root "$NP_TMP/rec" --at "@$((start + 5))" --window 10 --json > "$NP_TMP/d.json"
rc=$?
[ "$rc" -le 2 ] || np_fail "doctor --at over the fixture: exit $rc"
np_validate "$NP_TMP/d.json"
np_assert_json "$NP_TMP/d.json" 'd["origin"]["kind"] == "recording" and d["origin"]["hostname"] and d["interface"] == "eth0"'
np_assert_json "$NP_TMP/d.json" '9 <= d["interval_s"] <= 11'
# Prometheus from the same window: the exposition of a live run.
"$NETPATH" doctor --root "$NP_TMP/rec" --at "@$((start + 5))" --window 10 --format prometheus > "$NP_TMP/d.prom"
grep -q '^netpath_stage_drops_per_second{' "$NP_TMP/d.prom" || np_fail "no per-second stage series from a recorded window"

# Without --at, doctor says what the directory is instead of "no proc/ or sys/".
out=$("$NETPATH" doctor --root "$NP_TMP/rec" 2>&1)
[ $? -eq 3 ] && grep -q "is a recording of netpath record: judge a window of it with --at" <<< "$out" ||
	np_fail "doctor --root RECORDING without --at: $out"

# One byte flipped in the fourth block: it is skipped and counted; the seconds before it are
# read, those after it up to the next key block are lost with it (never zeros).
cp "$seg" "$NP_TMP/orig"
size=$(stat -c %s "$seg")
fourth=$("$NP_PY" - "$seg" <<'PY'
import struct, sys
f = open(sys.argv[1], "rb").read()
off, n = 64, 0
while off + 48 <= len(f) and f[off:off + 4] == b"NPRB":
    n += 1
    if n == 4:
        print(off + 50)
        break
    off += 48 + struct.unpack_from("<I", f, off + 8)[0]
PY
)
[ -n "$fourth" ] || np_fail "the fixture has fewer than four blocks"
printf '\xff' | dd of="$seg" bs=1 seek="$fourth" conv=notrunc status=none
"$NETPATH" history --root "$NP_TMP/rec" --json > "$NP_TMP/h2.json" || np_fail "history over a damaged segment"
np_validate "$NP_TMP/h2.json"
np_assert_json "$NP_TMP/h2.json" 'd["damaged_blocks"] >= 1 and 8 <= len(d["seconds"]) < 30'
"$NETPATH" history --root "$NP_TMP/rec" | grep -q "damaged" || np_fail "history text does not say a block was damaged"

# Cut mid-block (a power cut during a write): the blocks before it are read.
head -c $((size - 60)) "$NP_TMP/orig" > "$seg"
"$NETPATH" history --root "$NP_TMP/rec" --json > "$NP_TMP/h3.json" || np_fail "history over a cut segment"
np_assert_json "$NP_TMP/h3.json" '25 <= len(d["seconds"]) < 39 and d["damaged_blocks"] == 0'

# Bytes that are no recording: an empty history, not a crash (exit 0), and doctor --at says there is
# nothing there (exit 3).
head -c 5000 /dev/urandom > "$seg"
"$NETPATH" history --root "$NP_TMP/rec" --json > "$NP_TMP/h4.json" 2> "$NP_TMP/h4.err"
rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || np_fail "history over random bytes: exit $rc"
out=$("$NETPATH" doctor --root "$NP_TMP/rec" --at "@$((start + 5))" 2>&1)
[ $? -eq 3 ] || np_fail "doctor --at over random bytes: not UNKNOWN: $out"
echo "PASS"
