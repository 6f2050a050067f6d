#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What schemas.sh (documents valid against their schema) cannot see: every doc/*.schema.json is
# installed by meson (to $datadir/netpath/) and named in README.md's list, and its "$id"
# (urn:netpath:schema:KIND:N), its title ("..., version N") and the version its main document
# requires all say the version netpath emits: a document of each kind is made here (doctor,
# checks, explain, diff and plan over fixtures; watch live on lo, read-only, one frame; trace's
# golden document, which tests/unit/trace compares with its renderer; history over the
# recording of a VM in tests/fixtures/recordings).
set -u
: "${NETPATH:?}" "${NP_SRCDIR:?}" "${NP_BUILDDIR:?}"
. "$NP_SRCDIR/tests/integration/lib.sh"
out=$NP_TMP
fix=$NP_SRCDIR/tests/fixtures
x=$fix/trees/x710-server

"$NETPATH" doctor eth0 --root "$x/after" --before "$x/before" --json > "$out/doctor.json" 2>/dev/null
[ $? -le 2 ] || np_fail "doctor --json over x710-server failed"
"$NETPATH" checks --json > "$out/checks.json" || np_fail "checks --json failed"
"$NETPATH" explain --json softnet.backlog-drops > "$out/check.json" || np_fail "explain --json failed"
"$NETPATH" diff --json "$fix/diff/field-bbr/before" "$fix/diff/field-bbr/after" > "$out/diff.json" 2>/dev/null
[ $? -le 2 ] || np_fail "diff --json over field-bbr failed"
"$NETPATH" plan eth0 --root "$x/after" --profile lan --json > "$out/plan.json" 2>/dev/null ||
	np_fail "plan --json over x710-server failed"
"$NETPATH" watch lo --json --count 1 --interval 0.1 > "$out/watch.json" 2>/dev/null ||
	np_fail "watch lo --json --count 1 failed"
cp "$fix/trace/attribution.json" "$out/trace.json"
# netpath path needs a peer: its renderer's golden document (tests/unit/render, render-path).
cp "$fix/path/sender-buffer.json" "$out/path.json"
# git keeps no directory mode: a private copy, as the recorder makes them.
mkdir -m 0700 "$out/rec" && cp "$fix"/recordings/vm-eth0/*.nprec "$out/rec/"
"$NETPATH" history --root "$out/rec" --json > "$out/history.json" ||
	np_fail "history --json over the recording of this VM failed"

"$NP_PY" - "$NP_SRCDIR" "$NP_BUILDDIR/meson-info/intro-installed.json" "$out" <<'PY' ||
import glob, json, os, re, sys
src, installed, out = sys.argv[1:4]
# Each schema file: the documents it describes, by the file netpath's output was saved in here.
made = {"netpath.schema.json": ["doctor"], "netpath-checks.schema.json": ["checks", "check"],
        "netpath-diff.schema.json": ["diff"], "netpath-plan.schema.json": ["plan"],
        "netpath-watch.schema.json": ["watch"], "netpath-trace.schema.json": ["trace"],
        "netpath-history.schema.json": ["history"], "netpath-path.schema.json": ["path"]}
dest = [d for d in json.load(open(installed)).values()]
readme = open(f"{src}/README.md").read()
bad = []
files = sorted(glob.glob(f"{src}/doc/*.schema.json"))
assert files, "no schemas in doc/"
for path in files:
    name = os.path.basename(path)
    schema = json.load(open(path))
    if not any(d.endswith(f"/netpath/{name}") for d in dest):
        bad.append(f"{name}: not installed by meson (install_data in meson.build)")
    if f"`{name}`" not in readme:
        bad.append(f"{name}: not in README.md's list of schemas")
    if name not in made:
        bad.append(f"{name}: no document of it is made by this test; add one")
        continue
    m = re.fullmatch(r"urn:netpath:schema:[a-z]+:([0-9]+)", schema.get("$id", ""))
    t = re.search(r", version ([0-9]+)$", schema.get("title", ""))
    if not m or not t:
        bad.append(f"{name}: $id {schema.get('$id')!r} or title {schema.get('title')!r} names no version")
        continue
    for doc in made[name]:
        d = json.load(open(f"{out}/{doc}.json"))
        emitted = d["version"]
        # The branch of the schema for this document: the one whose "schema" const it has.
        branches = [schema] + list(schema.get("$defs", {}).values())
        want = [b["properties"]["version"].get("const") for b in branches
                if b.get("properties", {}).get("schema", {}).get("const") == d["schema"]]
        for label, v in (("$id", int(m.group(1))), ("title", int(t.group(1)))):
            if v != emitted:
                bad.append(f"{name}: {label} says version {v}, netpath emits {d['schema']} version {emitted}")
        if want != [emitted]:
            bad.append(f"{name}: the {d['schema']} branch requires version {want}, netpath emits {emitted}")
for msg in bad:
    print(msg)
sys.exit(1 if bad else 0)
PY
	np_fail "the schemas' ids, titles, installation or README list disagree with netpath"
echo "PASS: every doc/*.schema.json installed, listed in README.md, its \$id and title at the version netpath emits"
