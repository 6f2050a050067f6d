#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# doctor, watch, explain and checks are read-only and run nothing: under strace, no open for
# writing (O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND), no creat/rename/unlink/mkdir/link,
# and no execve but netpath's own - except, with -o FILE, the one temporary file beside FILE
# and its rename over FILE.
. "$(dirname "$0")/lib.sh"
# LeakSanitizer cannot run under ptrace: an ASan build traced here skips leak detection (the
# untraced tests check leaks).
NOLEAK="ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
np_require_root
command -v strace > /dev/null || np_skip "no strace"
np_pair a b
calls=open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,rmdir
calls=$calls,link,linkat,symlink,symlinkat,truncate,mknod,mknodat,execve,execveat
dev=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") print $(i + 1); exit}')
[ -n "$dev" ] || dev=lo

# traced NAME [-o FILE] -- CMD...: strace into NAME.strace, then check it; FILE is the one
# file the run may create (through a temporary beside it and a rename).
traced() {
	local name=$1 allow=""
	shift
	if [ "$1" = "-o" ]; then
		allow=$2
		shift 2
	fi
	[ "$1" = "--" ] && shift
	env "$NOLEAK" strace -f -qq -y -e trace="$calls" -o "$NP_TMP/$name.strace" "$@" \
		> "$NP_TMP/$name.out" 2> "$NP_TMP/$name.err"
	local rc=$?
	[ "$rc" -le 2 ] || np_fail "$name: exit $rc: $(head -3 "$NP_TMP/$name.err")"
	"$NP_PY" - "$NP_TMP/$name.strace" "$NETPATH" "$allow" <<'PY' || np_fail "$name: not read-only"
import os, re, sys
trace, exe, allow = sys.argv[1], os.path.realpath(sys.argv[2]), sys.argv[3]
allow_dir = os.path.dirname(os.path.realpath(allow)) if allow else None
bad, execs, tmp = [], [], None
write = re.compile(r'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND')
for line in open(trace):
    m = re.match(r'\d+\s+(\w+)\((.*)\) += (-?\d+)', line)
    if not m:
        continue
    call, args, ret = m.group(1), m.group(2), int(m.group(3))
    if call in ("execve", "execveat"):
        execs.append(line)
        continue
    if ret < 0:
        continue	# refused: nothing happened
    if call in ("open", "openat", "openat2", "creat"):
        if call != "creat" and not write.search(args):
            continue
        # -o FILE: one new hidden file in FILE's directory, opened exclusively.
        p = re.search(r'= \d+<([^>]*)>', line)
        path = p.group(1) if p else ""
        if allow and tmp is None and os.path.dirname(path) == allow_dir and "O_EXCL" in args:
            tmp = path
            continue
        bad.append(line)
    elif call.startswith("rename") and allow and tmp and os.path.basename(tmp) in args and \
            os.path.basename(allow) in args:
        continue
    else:
        bad.append(line)
if len(execs) != 1 or exe not in execs[0] and os.path.basename(exe) not in execs[0]:
    bad += ["exec: " + l for l in execs]
if allow and not tmp:
    bad.append(f"-o {allow}: no temporary file seen")
if bad:
    sys.stderr.write("".join(bad[:20]))
    sys.exit(1)
PY
}

traced doctor-text -- "$NETPATH" doctor "$dev" --interval 0.3
traced doctor-json -- "$NETPATH" doctor "$dev" --interval 0.3 --json --sockets 5
traced doctor-prom -- "$NETPATH" doctor "$dev" --interval 0 --format prometheus
traced doctor-nagios -- "$NETPATH" doctor "$dev" --interval 0 --nagios
traced doctor-netns -- "$NETPATH" doctor va --netns "$NS_A" --interval 0.3
traced doctor-root -- "$NETPATH" doctor eth0 --root "$NP_SRCDIR/tests/fixtures/trees/vm-virtio/after" --interval 0
traced watch -- "$NETPATH" watch "$dev" --count 2 --interval 0.2
traced watch-json -- "$NETPATH" watch "$dev" --count 2 --interval 0.2 --json
traced checks -- "$NETPATH" checks
traced checks-json -- "$NETPATH" checks --json
traced explain -- "$NETPATH" explain softnet.backlog-drops
mkdir "$NP_TMP/outdir"
traced doctor-o -o "$NP_TMP/outdir/report.prom" -- \
	"$NETPATH" doctor "$dev" --interval 0 --format prometheus -o "$NP_TMP/outdir/report.prom"
[ -s "$NP_TMP/outdir/report.prom" ] || np_fail "-o FILE: no report written"
[ "$(ls -A "$NP_TMP/outdir")" = "report.prom" ] || np_fail "-o FILE left files: $(ls -A "$NP_TMP/outdir")"
# The checker itself: a run that does write must be caught.
if (traced selftest -- sh -c "echo x > '$NP_TMP/selftest.txt'") 2> /dev/null; then
	np_fail "the strace checker missed a write"
fi
echo "PASS"
