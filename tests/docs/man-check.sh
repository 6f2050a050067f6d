#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The generated man pages are lint-clean; netpath-checks(7) documents every check of
# `netpath checks --json` under its own heading, with its thresholds as the table has them and
# the override syntax; netpath(8) lists every id; every id has a non-empty `explain` (text and
# JSON); netpath.conf(5) documents every setting the parser knows, the files and their order,
# the drop-in names and the trust rules, with this build's paths, and netpath(8) points at it;
# meson installs the three pages. The page check is run once on a copy with one heading
# removed, to prove that a missing check fails this test.
set -u
# The distribution's python3, as in tests/integration/lib.sh: a python3 first on PATH (a pyenv
# shim) may be slow to start.
NP_PY=${NP_PYTHON:-/usr/bin/python3}
: "${NETPATH:?}" "${NP_MANPAGE:?}" "${NP_MANPAGE7:?}" "${NP_MANPAGE5:?}" "${NP_BUILDDIR:?}"
: "${NP_MANPAGE_RECORD:?}" "${NP_MANPAGE_PATH:?}"
command -v mandoc >/dev/null || { echo "SKIP: mandoc not installed"; exit 77; }
tmp=$(mktemp -d /tmp/np-man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for page in "$NP_MANPAGE" "$NP_MANPAGE7" "$NP_MANPAGE5" "$NP_MANPAGE_RECORD" "$NP_MANPAGE_PATH"; do
	lint=$(mandoc -Tlint "$page" 2>&1)
	[ -z "$lint" ] || fail "mandoc -Tlint $page:
$lint"
	if command -v groff >/dev/null; then
		lint=$(groff -ww -z -man "$page" 2>&1)
		[ -z "$lint" ] || fail "groff -ww $page:
$lint"
	fi
done
# The pages must render (no troff errors) with their sections.
mandoc -Thtml "$NP_MANPAGE" | grep -q 'id="EXIT_STATUS"' || fail "netpath.8 does not render"
mandoc -Thtml "$NP_MANPAGE7" | grep -q 'id="CHECKS"' || fail "netpath-checks.7 does not render"
mandoc -Thtml "$NP_MANPAGE5" | grep -q 'id="PRECEDENCE"' || fail "netpath.conf.5 does not render"
# netpath-record(8): its options from the tables of record and history, and netpath(8) points at it.
textr=$(MANWIDTH=200 mandoc -Tutf8 "$NP_MANPAGE_RECORD" | col -b)
for o in --dir --every --keep --max-size --capture-on --since --until --worst; do
	grep -q -- "$o" <<< "$textr" || fail "netpath-record(8) does not document $o"
done
grep -q "netpath-record(8)" <<< "$(MANWIDTH=200 mandoc -Tutf8 "$NP_MANPAGE" | col -b)" ||
	fail "netpath(8) does not refer to netpath-record(8)"

# netpath-path(8): serve's and path's options, every limit of src/checks/path_verdict.c's name
# table with its meaning, the exit statuses, and netpath(8) points at it.
textp=$(MANWIDTH=200 mandoc -Tutf8 "$NP_MANPAGE_PATH" | col -b)
for o in --listen --key --once --max-duration --netns --duration --streams --reverse \
	--udp-steps --json; do
	grep -q -- "$o" <<< "$textp" || fail "netpath-path(8) does not document $o"
done
limits=$(sed -n 's/^\t\[NP_LIMIT_[A-Z_]*\] = "\([a-z-]*\)",$/\1/p' "${NP_SRCDIR:?}/src/checks/path_verdict.c")
[ "$(wc -w <<< "$limits")" -eq 10 ] || fail "no limit names found in src/checks/path_verdict.c"
for l in $limits; do
	grep -A1 -x '.TP' "$NP_MANPAGE_PATH" | grep -qE "^\.BR? .*\b${l//-/\\\\-}\b" ||
		fail "netpath-path(8) does not describe the limit $l under LIMITS"
done
for s in EXIT_STATUS SECURITY LIMITS; do
	mandoc -Thtml "$NP_MANPAGE_PATH" | grep -q "id=\"$s\"" || fail "netpath-path(8) has no $s"
done
grep -q "netpath-path(8)" <<< "$(MANWIDTH=200 mandoc -Tutf8 "$NP_MANPAGE" | col -b)" ||
	fail "netpath(8) does not refer to netpath-path(8)"

# netpath.conf(5): every setting of the parser's "unknown setting" list (src/core/conffile.c, so a
# new one must be documented), as a tagged paragraph; the files in their order with this build's
# sysconfdir; the drop-in rules; no template variable left.
text5=$(MANWIDTH=200 mandoc -Tutf8 "$NP_MANPAGE5" | col -b)
settings=$(sed -n "s/.*unknown setting '%s' (\([a-z, ]*\)).*/\1/p" "${NP_SRCDIR:?}/src/core/conffile.c" | tr -d ,)
[ -n "$settings" ] || fail "no settings list found in src/core/conffile.c"
for s in $settings; do
	grep -A1 -x '.TP' "$NP_MANPAGE5" | grep -qE "^\.BI? $s( |\$)" ||
		fail "netpath.conf(5) does not document '$s' (a .TP paragraph)"
done
grep -q '@' "$NP_MANPAGE5" && fail "netpath.conf(5) has a template variable left: $(grep '@' "$NP_MANPAGE5")"
# This build's sysconfdir, as meson joins it (an absolute sysconfdir stays as it is).
sysconfdir=$("$NP_PY" -c 'import json, os, sys
o = {o["name"]: o["value"] for o in json.load(open(sys.argv[1]))}
print(os.path.join(o["prefix"], o["sysconfdir"]))' "$NP_BUILDDIR/meson-info/intro-buildoptions.json")
files=$(sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' <<< "$text5" | grep -o '/[^ ]*' | tr '\n' ' ')
want="/etc/netpath.conf /etc/netpath.conf.d/*.conf "
[ "$sysconfdir" = /etc ] || want="$want$sysconfdir/netpath.conf $sysconfdir/netpath.conf.d/*.conf "
[ "$files" = "$want" ] ||
	fail "netpath.conf(5) SYNOPSIS: /etc's files then $sysconfdir's, not '$files'"
for want in "--config FILE reads FILE alone" "sticky bit" "does not start with a dot" "x.conf.dpkg-old" \
	"the last line read wins" "every line adds to its list" "At most 64 drop-ins"; do
	grep -qF -- "$want" <<< "$(tr -s ' \n' ' ' <<< "$text5")" || fail "netpath.conf(5) does not say '$want'"
done
grep -q "netpath.conf(5)" <<< "$(MANWIDTH=200 mandoc -Tutf8 "$NP_MANPAGE" | col -b)" ||
	fail "netpath(8) does not refer to netpath.conf(5)"

"$NETPATH" checks --json > "$tmp/checks.json" || fail "netpath checks --json"
ids=$("$NP_PY" -c 'import json,sys; print("\n".join(c["id"] for c in json.load(open(sys.argv[1]))["checks"]))' "$tmp/checks.json")
n=$(echo "$ids" | wc -l)
[ "$n" -gt 20 ] || fail "too few checks listed ($n)"

# check_page PAGE: every id is a ".B id" heading of PAGE (hyphens written \-, as the page has
# them), is a line of its rendered text, and the entries carry the table's thresholds.
check_page() {
	local page=$1 missing=0 id text
	text=$(MANWIDTH=200 mandoc -Tutf8 "$page" | col -b)
	for id in $ids; do
		grep -qxF ".B ${id//-/\\-}" "$page" || { echo "  $id: no .B heading in $page"; missing=1; }
		grep -qx "[[:space:]]*${id//./\\.}" <<< "$text" ||
			{ echo "  $id: not a line of the rendered $page"; missing=1; }
	done
	"$NP_PY" - "$tmp/checks.json" "$page" <<'PY' || missing=1
import json, sys
checks = json.load(open(sys.argv[1]))["checks"]
page = open(sys.argv[2]).read().replace("\\-", "-").replace("\\%", "")
# Each check's entry: from its heading to the next check's heading.
pos = sorted((page.find("\n.TP\n.B " + c["id"] + "\n"), c["id"]) for c in checks)
pos = [p for p in pos if p[0] >= 0] + [(len(page), None)]
by_id = {pos[i][1]: page[pos[i][0]:pos[i + 1][0]] for i in range(len(pos) - 1)}
bad = 0
for c in checks:
    e = by_id.get(c["id"])
    if e is None:
        continue
    t = c["thresholds"]
    for head in ("What it looks at", "Why it matters", "Fix and its cost", "Thresholds"):
        if "\n.B " + head not in e:
            print(f"  {c['id']}: no '{head}' section"); bad = 1
    if t["warning"] is None and t["critical"] is None:
        if "Configuration check, no thresholds" not in e:
            print(f"  {c['id']}: configuration check not said so"); bad = 1
        continue
    lv = [f"{k}={v:g}" for k, v in (("warn", t["warning"]), ("crit", t["critical"])) if v is not None]
    want = [f'.B "threshold {c["id"]} {" ".join(lv)}"',
            f'.B "netpath doctor --threshold {c["id"]}:{",".join(lv)}"']
    for w in want:
        if w not in e:
            print(f"  {c['id']}: missing {w}"); bad = 1
    if t["unit"] and t["unit"].split()[0].replace("(", "") not in e.replace("\n", " "):
        print(f"  {c['id']}: unit '{t['unit']}' not documented"); bad = 1
sys.exit(bad)
PY
	return $missing
}

check_page "$NP_MANPAGE7" || fail "netpath-checks(7) does not document every check"
# The test has teeth: the same check on the page without one heading must fail.
victim=$(echo "$ids" | sed -n 5p)
grep -vxF ".B ${victim//-/\\-}" "$NP_MANPAGE7" > "$tmp/cut.7"
out=$(check_page "$tmp/cut.7") && fail "a page without $victim passed the check"
grep -q "$victim" <<< "$out" || fail "the check did not name the missing $victim: $out"

# netpath(8) keeps the ids by stage and points at netpath-checks(7).
text8=$(MANWIDTH=200 mandoc -Tutf8 "$NP_MANPAGE" | col -b)
for id in $ids; do
	grep -qE "(^|[ ,])${id//./\\.}(,|$)" <<< "$text8" || fail "$id not listed in netpath(8)"
done
grep -q "netpath-checks(7)" <<< "$text8" || fail "netpath(8) does not refer to netpath-checks(7)"

# explain: non-empty reference text and JSON with the same id and non-empty why/fix.
for id in $ids; do
	"$NETPATH" explain "$id" > "$tmp/explain.txt" || fail "explain $id exited $?"
	grep -q "^$id — ." "$tmp/explain.txt" && grep -q "^WHY IT MATTERS" "$tmp/explain.txt" &&
		grep -q "^FIX AND ITS COST" "$tmp/explain.txt" || fail "explain $id: $(cat "$tmp/explain.txt")"
	"$NETPATH" explain --json "$id" > "$tmp/explain.json" || fail "explain --json $id"
	"$NP_PY" - "$tmp/explain.json" "$id" <<'PY' || fail "explain --json $id"
import json, sys
d = json.load(open(sys.argv[1]))
ok = d.get("schema") == "netpath/check" and d["id"] == sys.argv[2]
ok = ok and all(isinstance(d.get(k), str) and d[k].strip() for k in ("title", "looks_at", "why", "fix"))
sys.exit(0 if ok else 1)
PY
done

# meson install puts netpath(8) in man8, netpath-checks(7) in man7, netpath.conf(5) in man5.
"$NP_PY" - "$NP_BUILDDIR/meson-info/intro-installed.json" <<'PY' || fail "man pages not installed"
import json, sys
dest = json.load(open(sys.argv[1])).values()
for want in ("/man8/netpath.8", "/man7/netpath-checks.7", "/man5/netpath.conf.5",
             "/man8/netpath-record.8"):
    if not any(d.endswith(want) for d in dest):
        print("not installed:", want); sys.exit(1)
PY
echo "PASS: $n checks documented in netpath-checks(7), listed in netpath(8), explained"
