#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Not root: every command degrades and says what it skipped. doctor: whatever root could read
# and nobody cannot is listed as "denied" with a reason naming root (no source silently
# missing); watch: the same frames as root; checks/explain: the same text; trace and --netns:
# exit 3 with a one-line reason naming what is missing.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || np_skip "needs root to compare with an unprivileged user"
command -v setpriv > /dev/null || np_skip "no setpriv"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody test -x "$NETPATH" || np_skip "the build directory is not reachable by nobody"
chmod 755 "$NP_TMP"
dev=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") print $(i + 1); exit}')
[ -n "$dev" ] || dev=lo

# doctor: root's and nobody's reports over the same interface.
"$NETPATH" doctor "$dev" --interval 0 --json > "$NP_TMP/root.json"
[ $? -le 2 ] || np_fail "doctor as root"
as_nobody "$NETPATH" doctor "$dev" --interval 0 --json > "$NP_TMP/nobody.json" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -le 2 ] || np_fail "doctor as nobody: exit $rc: $(cat "$NP_TMP/err")"
np_validate "$NP_TMP/root.json" "$NP_TMP/nobody.json"
"$NP_PY" - "$NP_TMP/root.json" "$NP_TMP/nobody.json" <<'PY' || np_fail "doctor as nobody hides what it skipped"
import json, sys
root, nobody = (json.load(open(p)) for p in sys.argv[1:3])
r = {u["source"]: u for u in root["unavailable"]}
n = {u["source"]: u for u in nobody["unavailable"]}
for src, u in n.items():
    if src in r:
        continue
    if u["status"] != "denied" or "root" not in u["reason"]:
        sys.exit(f"{src} readable by root, for nobody: {u} (want status denied, a reason naming root)")
# A check root could run and nobody cannot is skipped with a reason, never silently passed.
rc = {c["id"]: c for c in root["checks"]}
for c in nobody["checks"]:
    if rc[c["id"]]["state"] != "skipped" and c["state"] == "skipped" and not c.get("reason"):
        sys.exit(f"{c['id']} skipped for nobody without a reason")
PY
as_nobody "$NETPATH" doctor "$dev" --interval 0 --color=never > "$NP_TMP/nobody.txt"
if "$NP_PY" -c 'import json,sys; sys.exit(not any(u["status"] == "denied" for u in json.load(open(sys.argv[1]))["unavailable"]))' "$NP_TMP/nobody.json"; then
	grep -q "denied: .*root" "$NP_TMP/nobody.txt" || np_fail "text output does not say what needed root"
fi

# watch: nothing it shows needs root; the frames have the same rows as root's.
"$NETPATH" watch "$dev" --count 1 --interval 0.2 --json > "$NP_TMP/root.watch" || np_fail "watch as root"
as_nobody "$NETPATH" watch "$dev" --count 1 --interval 0.2 --json > "$NP_TMP/nobody.watch" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -eq 0 ] || np_fail "watch as nobody: exit $rc: $(cat "$NP_TMP/err")"
np_validate "$NP_TMP/nobody.watch"
"$NP_PY" - "$NP_TMP/root.watch" "$NP_TMP/nobody.watch" <<'PY' || np_fail "watch as nobody lost rows without saying so"
import json, sys
root, nobody = (json.loads(open(p).readline()) for p in sys.argv[1:3])
def shape(d):
    return {k: (len(v) if isinstance(v, list) else type(v).__name__) for k, v in d.items()
            if k not in ("findings", "unavailable", "time", "t", "interval_s", "frame", "sockets")}
missing = set(nobody["unavailable"]) - set(root["unavailable"])
if shape(root) != shape(nobody) and not missing:
    sys.exit(f"root {shape(root)} vs nobody {shape(nobody)}, nothing declared unavailable")
PY

# checks and explain need nothing: the same output as root.
"$NETPATH" checks > "$NP_TMP/root.checks"
as_nobody "$NETPATH" checks > "$NP_TMP/nobody.checks" || np_fail "checks as nobody"
cmp -s "$NP_TMP/root.checks" "$NP_TMP/nobody.checks" || np_fail "checks differs for nobody"
as_nobody "$NETPATH" explain softnet.backlog-drops > "$NP_TMP/nobody.explain" || np_fail "explain as nobody"
"$NETPATH" explain softnet.backlog-drops | cmp -s - "$NP_TMP/nobody.explain" || np_fail "explain differs"

# trace needs BPF: exit 3 and one line saying so.
if "$NETPATH" trace --help > /dev/null 2>&1; then
	as_nobody timeout -s KILL 30 "$NETPATH" trace "$dev" --duration 1 > "$NP_TMP/out" 2> "$NP_TMP/err"
	rc=$?
	[ "$rc" -eq 3 ] || np_fail "trace as nobody: exit $rc, expected 3"
	[ "$(wc -l < "$NP_TMP/err")" -eq 1 ] || np_fail "trace as nobody: $(cat "$NP_TMP/err")"
	grep -q "root\|CAP_BPF" "$NP_TMP/err" || np_fail "trace as nobody: unclear: $(cat "$NP_TMP/err")"
fi

# --netns needs root: exit 3, one line.
as_nobody "$NETPATH" doctor "$dev" --netns 1 --interval 0 > "$NP_TMP/out" 2> "$NP_TMP/err"
rc=$?
[ "$rc" -eq 3 ] || np_fail "--netns as nobody: exit $rc, expected 3"
[ "$(wc -l < "$NP_TMP/err")" -eq 1 ] || np_fail "--netns as nobody: $(cat "$NP_TMP/err")"
grep -q "Permission denied\|needs root" "$NP_TMP/err" || np_fail "--netns as nobody: unclear: $(cat "$NP_TMP/err")"
echo "PASS"
