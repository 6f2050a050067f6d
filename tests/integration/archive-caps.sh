#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The caps on unpacking an archive given to doctor --root and diff (issue #29), from the
# command line: archives made with Python's tarfile. A 2 MB gzip whose skipped member inflates
# to 2.1 GiB stops at the decompressed-size cap, in seconds, exit 3 with a one-line reason that
# names the cap and its value, and no scratch directory left behind; diff says the same. A
# capture carrying a 300 MiB file (a journal in a sosreport) is still read: the file is too
# big for any collector, so it is not written (before, the 256 MiB per-member cap refused the
# whole archive).
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || np_skip "needs root"
CAP="$NP_SRCDIR/tests/fixtures/capture/veth-tbf.cap"
[ -f "$CAP" ] || np_skip "no capture fixture"
SCRATCH="$NP_TMP/scratch.$$"
mkdir -p "$SCRATCH"

"$NP_PY" - "$NP_TMP" "$CAP" <<'PY' || np_fail "cannot build the archives"
import gzip, io, sys, tarfile
tmp, cap = sys.argv[1], sys.argv[2]

# A vendor-type member ('Z' carries data) of 2.1 GiB of zeros: its header and the first
# 64 MiB in one gzip member, then 33 more gzip members of 64 MiB of zeros (gzip allows them
# one after the other).
chunk = 64 << 20
ti = tarfile.TarInfo('vendor')
ti.type, ti.size = b'Z', 34 * chunk - 1536
one = gzip.compress(bytes(chunk), 9)
with open(f'{tmp}/bomb.tar.gz', 'wb') as f:
    f.write(gzip.compress(ti.tobuf(format=tarfile.USTAR_FORMAT) + bytes(chunk - 512), 9))
    for _ in range(33):
        f.write(one)

# The capture fixture with a 300 MiB file added.
class Zeros(io.RawIOBase):
    def __init__(self, n):
        self.left = n
    def readinto(self, b):
        n = min(len(b), self.left)
        b[:n] = bytes(n)
        self.left -= n
        return n
with tarfile.open(cap, 'r:gz') as src, \
        tarfile.open(f'{tmp}/journal.tar.gz', 'w:gz', compresslevel=1) as dst:
    for m in src.getmembers():
        dst.addfile(m, src.extractfile(m) if m.isfile() else None)
    big = tarfile.TarInfo('var/log/journal/system.journal')
    big.size = 300 << 20
    dst.addfile(big, Zeros(big.size))
PY

# one_line NAME: stderr of the last run is one line.
one_line() {
	[ "$(wc -l < "$NP_TMP/$1.err")" -eq 1 ] ||
		np_fail "$1: not a one-line reason: $(head -5 "$NP_TMP/$1.err")"
}
no_scratch() {
	[ -z "$(ls -A "$SCRATCH")" ] || np_fail "$1: scratch left behind: $(ls -A "$SCRATCH")"
}

# 1. The bomb: doctor stops at the cap, in bounded time.
start=$(date +%s)
TMPDIR=$SCRATCH timeout -s KILL 60 "$NETPATH" doctor --root "$NP_TMP/bomb.tar.gz" \
	> /dev/null 2> "$NP_TMP/bomb.err"
rc=$?
[ "$rc" -eq 3 ] || np_fail "bomb: exit $rc, want 3: $(head -5 "$NP_TMP/bomb.err")"
[ $(( $(date +%s) - start )) -le 30 ] || np_fail "bomb: took over 30 s"
one_line bomb
grep -q "the decompressed-size cap (2 GiB of tar data) is reached" "$NP_TMP/bomb.err" ||
	np_fail "bomb: the cap is not named: $(cat "$NP_TMP/bomb.err")"
grep -q "unpack it (tar xf) and name the directory instead" "$NP_TMP/bomb.err" ||
	np_fail "bomb: no hint: $(cat "$NP_TMP/bomb.err")"
no_scratch bomb

# 2. diff with the bomb on either side: exit 3, the same reason, nothing left.
TMPDIR=$SCRATCH timeout -s KILL 60 "$NETPATH" diff "$CAP" "$NP_TMP/bomb.tar.gz" \
	> /dev/null 2> "$NP_TMP/diff.err"
rc=$?
[ "$rc" -eq 3 ] || np_fail "diff: exit $rc, want 3: $(head -5 "$NP_TMP/diff.err")"
one_line diff
grep -q "decompressed-size cap (2 GiB of tar data)" "$NP_TMP/diff.err" ||
	np_fail "diff: the cap is not named: $(cat "$NP_TMP/diff.err")"
no_scratch diff

# 3. A capture with a 300 MiB member: read, the member not written, the report as without it.
TMPDIR=$SCRATCH timeout -s KILL 60 "$NETPATH" doctor --root "$NP_TMP/journal.tar.gz" --json \
	> "$NP_TMP/journal.json" 2> "$NP_TMP/journal.err"
rc=$?
[ "$rc" -le 2 ] || np_fail "journal: exit $rc: $(head -5 "$NP_TMP/journal.err")"
np_validate "$NP_TMP/journal.json"
TMPDIR=$SCRATCH timeout -s KILL 60 "$NETPATH" doctor --root "$CAP" --json \
	> "$NP_TMP/plain.json" 2> /dev/null
"$NP_PY" - "$NP_TMP/plain.json" "$NP_TMP/journal.json" <<'PY' ||
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
def key(d):
    return [(c["id"], c["state"], c["severity"]) for c in d["checks"]]
sys.exit(0 if key(a) == key(b) else 1)
PY
	np_fail "journal: the report differs from the capture's without the big file"
no_scratch journal
echo "PASS"
