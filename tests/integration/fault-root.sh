#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# doctor --root over hostile trees: files missing, unreadable, empty, truncated, absurdly long,
# full of garbage, FIFOs; 4096 CPUs and thousands of odd IRQ lines; symlinks that try to leave
# the tree. Every run ends in bounded time with a sensible exit (0-2 with what was unavailable,
# or 3 with a reason), valid JSON, and - checked with strace - no file outside the tree opened.
. "$(dirname "$0")/lib.sh"
# LeakSanitizer cannot run under ptrace: an ASan build traced here skips leak detection (the
# untraced tests check leaks).
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
BASE="$NP_SRCDIR/tests/fixtures/trees/vm-virtio/after"
[ -d "$BASE" ] || np_skip "no fixture tree"

# doctor_tree NAME TREE [ARGS...]: run doctor on TREE (bounded); rc in $rc, output NAME.json.
doctor_tree() {
	local name=$1 tree=$2
	shift 2
	timeout -s KILL 60 "$NETPATH" doctor eth0 --root "$tree" --interval 0 --json "$@" \
		> "$NP_TMP/$name.json" 2> "$NP_TMP/$name.err"
	rc=$?
	[ "$rc" -ne 137 ] || np_fail "$name: doctor still running after 60 s"
	[ "$rc" -le 3 ] || np_fail "$name: exit $rc (crash?): $(head -5 "$NP_TMP/$name.err")"
	np_validate "$NP_TMP/$name.json"
	if [ "$rc" -eq 3 ]; then
		[ "$(wc -l < "$NP_TMP/$name.err")" -eq 1 ] ||
			np_fail "$name: exit 3 without a one-line reason: $(head -5 "$NP_TMP/$name.err")"
	else
		[ ! -s "$NP_TMP/$name.err" ] || np_fail "$name: stderr: $(head -5 "$NP_TMP/$name.err")"
	fi
}

fresh() {
	rm -rf "$NP_TMP/$1"
	cp -a "$BASE" "$NP_TMP/$1"
	echo "$NP_TMP/$1"
}

# unavailable SOURCE STATUS in the last run's JSON
unavailable() {
	np_assert_json "$NP_TMP/$1.json" \
		'any(u["source"] == "'"$2"'" and u["status"] == "'"$3"'" for u in d["unavailable"])'
}

# 1. Missing files: what is gone is listed as absent; the rest is still diagnosed.
t=$(fresh missing)
rm -f "$t/proc/net/snmp" "$t/proc/net/netstat" "$t/proc/interrupts" "$t/proc/softirqs"
rm -rf "$t/sys/class/net/eth0/statistics"
doctor_tree missing "$t"
[ "$rc" -le 2 ] || np_fail "missing: exit $rc"
unavailable missing snmp absent
unavailable missing interrupts absent
np_assert_json "$NP_TMP/missing.json" 'len(d["checks"]) > 20'

# 2. Every file empty, then every file cut in half: a report, no crash.
t=$(fresh empty)
find "$t" -type f -exec truncate -s 0 {} +
doctor_tree empty "$t"
t=$(fresh half)
find "$t" -type f | while read -r f; do truncate -s $(( $(stat -c %s "$f") / 2 )) "$f"; done
doctor_tree half "$t"

# 3. Garbage: random bytes in every file (fixed seed), ESC sequences included. The report
# stays valid UTF-8 JSON; the text output carries no ESC from the tree.
t=$(fresh garbage)
"$NP_PY" - "$t" <<'PY'
import os, random, sys
random.seed(20240611)
for d, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        p = os.path.join(d, f)
        if os.path.islink(p):
            continue
        data = bytes(random.randrange(256) for _ in range(random.randrange(1, 400)))
        with open(p, 'wb') as h:
            h.write(data + b'\x1b]0;owned\x07\x1b[2J')
PY
doctor_tree garbage "$t"
timeout -s KILL 60 "$NETPATH" doctor eth0 --root "$t" --interval 0 --color=never -v \
	> "$NP_TMP/garbage.txt" 2>&1
[ $? -le 3 ] || np_fail "garbage: text run crashed"
if grep -q $'\x1b' "$NP_TMP/garbage.txt"; then
	np_fail "garbage: an ESC byte from the tree reached the terminal output"
fi

# 4. Absurdly long: a 10 MB /proc/interrupts of junk IRQ lines (parsed, bounded time), and a
# 70 MB /proc/net/snmp (past the 64 MiB read limit: refused, and said so).
t=$(fresh long)
"$NP_PY" - "$t/proc/interrupts" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write("           CPU0       CPU1\n")
    line = 0
    while f.tell() < 10 * 1024 * 1024:
        f.write(f"{1000 + line}: {line} {line * 7} PCI-MSIX-0000:00:03.0 {line}-edge odd name {line} x" + "y" * 40 + "\n")
        line += 1
PY
truncate -s 70M "$t/proc/net/snmp"
start=$(date +%s)
doctor_tree long "$t"
[ $(( $(date +%s) - start )) -le 30 ] || np_fail "long: a 10 MB interrupts file took over 30 s"
[ "$rc" -le 2 ] || np_fail "long: exit $rc"
np_assert_json "$NP_TMP/long.json" 'any(u["source"] == "snmp" and "64 MiB" in u["reason"] for u in d["unavailable"])'

# 5. A FIFO where a file should be: refused at once, not a read that waits for a writer.
t=$(fresh fifo)
rm -f "$t/proc/net/snmp" "$t/proc/interrupts"
mkfifo "$t/proc/net/snmp" "$t/proc/interrupts"
doctor_tree fifo "$t"
[ "$rc" -le 2 ] || np_fail "fifo: exit $rc"
unavailable fifo snmp malformed

# 6. Unreadable files (as an unprivileged user: root reads mode 000 files anyway).
if command -v setpriv > /dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$NETPATH"; then
	t=$(fresh unreadable)
	chmod -R a+rX "$NP_TMP"
	chmod 000 "$t/proc/net/snmp" "$t/proc/interrupts" "$t/proc/net/softnet_stat"
	timeout -s KILL 60 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$NETPATH" doctor eth0 --root "$t" --interval 0 --json > "$NP_TMP/unreadable.json"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "unreadable: exit $rc"
	np_validate "$NP_TMP/unreadable.json"
	unavailable unreadable snmp denied
	unavailable unreadable softnet_stat denied
fi

# 7. 4096 CPUs: softnet_stat with 4096 rows, cpu/online 0-4095, interrupts and softirqs with
# 4096 columns (600 IRQ lines: 27 MB, as such a machine prints it), and separately 5000 IRQ
# lines with odd names (spaces, colons, UTF-8, control bytes, empty, 200 characters).
t=$(fresh cpus)
"$NP_PY" - "$t" <<'PY'
import os, sys
t, n = sys.argv[1], 4096
open(f"{t}/sys/devices/system/cpu/online", "w").write(f"0-{n - 1}\n")
with open(f"{t}/proc/net/softnet_stat", "w") as f:
    for c in range(n):
        f.write(" ".join(["%08x" % (c * 3), "%08x" % (c % 7), "%08x" % (c % 5)] + ["00000000"] * 9 +
                         ["%08x" % c, "00000000", "00000000"]) + "\n")
hdr = "".join(f"CPU{c}".rjust(11) for c in range(n))
with open(f"{t}/proc/softirqs", "w") as f:
    f.write(" " * 9 + hdr + "\n")
    for name in ("HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "SCHED"):
        f.write(f"{name + ':':>12}" + "".join(f"{c:>11}" for c in range(n)) + "\n")
odd = ["eth0-TxRx-{i}", "odd name with spaces {i}", "a:b:c:{i}", "caf\u00e9-{i}",
       "ctl\x07\x1b[0m-{i}", "virtio2-input.{i}", "", "-", "x" * 200]
with open(f"{t}/proc/interrupts", "w") as f:
    f.write(" " * 4 + hdr + "\n")
    counts = "".join(f"{c % 13:>11}" for c in range(n))
    for i in range(600):
        name = odd[i % len(odd)].format(i=i)
        f.write(f"{i + 24:>4}:{counts}  PCI-MSIX-0000:00:03.0 {i}-edge      {name}\n")
    f.write(f" NMI:{counts}   Non-maskable interrupts\n")
PY
start=$(date +%s)
doctor_tree cpus "$t"
[ $(( $(date +%s) - start )) -le 30 ] || np_fail "cpus: 4096 CPUs took over 30 s"
[ "$rc" -le 2 ] || np_fail "cpus: exit $rc"
np_assert_json "$NP_TMP/cpus.json" 'd["cpus_online"] == 4096'
np_assert_json "$NP_TMP/cpus.json" 'not any(u["source"] in ("softnet_stat", "interrupts", "softirqs") for u in d["unavailable"])'
t=$(fresh irqnames)
"$NP_PY" - "$t/proc/interrupts" <<'PY'
import sys
odd = ["eth0-TxRx-{i}", "odd name with spaces {i}", "a:b:c:{i}", "caf\u00e9-{i}",
       "ctl\x07\x1b[0m-{i}", "virtio2-input.{i}", "", "-", "x" * 200, "eth0"]
with open(sys.argv[1], "w") as f:
    f.write("           CPU0       CPU1\n")
    for i in range(5000):
        name = odd[i % len(odd)].format(i=i)
        f.write(f"{i + 24:>5}: {i:>10} {i % 3:>10}  PCI-MSIX-0000:00:03.0 {i}-edge      {name}\n")
    f.write(f"  NMI: {0:>10} {0:>10}   Non-maskable interrupts\n")
PY
doctor_tree irqnames "$t"
[ "$rc" -le 2 ] || np_fail "irqnames: exit $rc"
np_assert_json "$NP_TMP/irqnames.json" 'not any(u["source"] == "interrupts" for u in d["unavailable"])'

# 8. Symlinks out of the tree: absolute, ../../.., a symlinked directory, the tree's proc/
# itself. A marked file outside must never be opened (strace: every successful open's path).
command -v strace > /dev/null || np_skip "no strace (the runs above passed)"
out="$NP_TMP/outside"
mkdir -p "$out/net" "$out/eth0/statistics"
echo "Ip: Forwarding" > "$out/secret"
cp "$BASE/proc/net/snmp" "$out/net/snmp"
cp -a "$BASE/sys/class/net/eth0/." "$out/eth0/"
t=$(fresh escape)
ln -sf /etc/passwd "$t/proc/net/snmp"
ln -sf ../../../../../../../../../../../../etc/passwd "$t/proc/net/netstat"
ln -sf "$out/secret" "$t/proc/net/snmp6"
rm -rf "$t/proc/net/stat"
ln -s "$out/net" "$t/proc/net/stat"
rm -rf "$t/sys/class/net/eth0/statistics"
ln -s "$out/eth0/statistics" "$t/sys/class/net/eth0/statistics"
ln -sf /proc/self/root/etc/passwd "$t/proc/meminfo"
env "$NOLEAK" strace -f -qq -y -e trace=open,openat,openat2,creat,readlinkat,readlink,execve \
	-o "$NP_TMP/escape.strace" "$NETPATH" doctor eth0 --root "$t" --interval 0 --json \
	> "$NP_TMP/escape.json" 2> "$NP_TMP/escape.err"
rc=$?
[ "$rc" -le 2 ] || np_fail "escape: exit $rc: $(cat "$NP_TMP/escape.err")"
np_validate "$NP_TMP/escape.json"
unavailable escape snmp malformed
np_assert_json "$NP_TMP/escape.json" 'any("outside the --root tree" in u["reason"] for u in d["unavailable"])'
"$NP_PY" - "$NP_TMP/escape.strace" "$t" "$out" <<'PY' || np_fail "escape: a read left the tree"
import re, sys
trace, tree, out = sys.argv[1:4]
# Loader and libc: libraries, the linker cache, locale data (newlocale() reads
# /usr/share/locale/locale.alias, a link to /etc/locale.alias on Debian); the output file;
# /dev/null.
allowed = ("/etc/ld.so.cache", "/lib/", "/usr/lib/", "/lib64/", "/usr/share/locale/",
           "/usr/lib/locale/", "/etc/locale.alias", "/dev/null", "/dev/tty", "/dev/pts/")
bad = []
for line in open(trace):
    if "passwd" in line and "= -1" not in line:
        bad.append(line)
    m = re.search(r'^\d+\s+(open|openat|openat2|creat)\(.*\) = (\d+)<([^>]*)>', line)
    if not m:
        continue
    path = m.group(3)
    if path.startswith(tree + "/") or path == tree or path.startswith(allowed):
        continue
    if path.startswith("/proc/" + line.split()[0] + "/"):
        continue	# the process's own /proc/self (sanitizer runtimes read maps, cmdline)
    bad.append(line)
for line in open(trace):
    if out in line and re.search(r'= \d+<', line):
        bad.append(line)
if bad:
    sys.stderr.write("".join(sorted(set(bad))[:20]))
    sys.exit(1)
PY
# The tree's proc/ itself a symlink to the live /proc: not used (the live kernel is not
# "the tree"), and sys/ alone still diagnoses.
t=$(fresh procln)
rm -rf "$t/proc"
ln -s /proc "$t/proc"
env "$NOLEAK" strace -f -qq -y -e trace=open,openat,openat2 -o "$NP_TMP/procln.strace" \
	"$NETPATH" doctor eth0 --root "$t" --interval 0 --json > "$NP_TMP/procln.json" 2>&1
rc=$?
[ "$rc" -le 3 ] || np_fail "procln: exit $rc"
if grep -E '= [0-9]+</proc/(net|interrupts|softirqs|meminfo|sys/net)' "$NP_TMP/procln.strace"; then
	np_fail "procln: read the live /proc through the tree's proc symlink"
fi
echo "PASS"
