#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every JSON document netpath prints without root or traffic matches the committed, versioned
# schema its "schema" field names, through the integration suite's np_validate: `checks
# --json`, `explain --json ID` for every check, the explain and doctor error objects, and
# `doctor --json` over every fixture tree. explain agrees with the catalogue. The schemas are
# valid JSON Schema 2020-12 and reject broken documents, so passing validation means something.
set -u
: "${NETPATH:?}" "${NP_SRCDIR:?}"
# lib.sh: np_validate, np_fail, $NP_PY (the distribution's python3), $NP_TMP removed on exit.
. "$NP_SRCDIR/tests/integration/lib.sh"
"$NP_PY" -c 'import jsonschema' 2>/dev/null ||
	{ echo "SKIP: python3-jsonschema not installed for $NP_PY"; exit 77; }
out=$NP_TMP

"$NETPATH" checks --json > "$out/checks.json" || np_fail "checks --json exited $?"
ids=$("$NP_PY" -c 'import json,sys; print("\n".join(c["id"] for c in json.load(open(sys.argv[1]))["checks"]))' "$out/checks.json")
files=("$out/checks.json")
for id in $ids; do
	"$NETPATH" explain --json "$id" > "$out/explain-$id.json" || np_fail "explain --json $id"
	files+=("$out/explain-$id.json")
done
"$NETPATH" explain --json no.such-check > "$out/explain-error.json" 2>/dev/null
[ $? -eq 3 ] || np_fail "explain --json of an unknown id must exit 3"
"$NETPATH" doctor --json no-such-if0 > "$out/doctor-error.json" 2>/dev/null
[ $? -eq 3 ] || np_fail "doctor --json of an unknown interface must exit 3"
files+=("$out/explain-error.json" "$out/doctor-error.json")

# doctor over the captured trees: with rates (--before) and without (interval 0).
ntrees=0
for tree in "$NP_SRCDIR"/tests/fixtures/trees/*/; do
	[ -d "$tree/after/sys/class/net" ] || continue
	name=$(basename "$tree")
	for ifpath in "$tree"/after/sys/class/net/*; do
		dev=${ifpath##*/}
		[ "$dev" = lo ] || break
	done
	"$NETPATH" doctor "$dev" --root "$tree/after" --before "$tree/before" --json \
		> "$out/doctor-$name.json" 2>/dev/null
	rc=$?
	[ "$rc" -le 2 ] || np_fail "doctor over $name exited $rc"
	"$NETPATH" doctor "$dev" --root "$tree/after" --all-counters --json \
		> "$out/doctor-$name-0.json" 2>/dev/null
	[ $? -le 2 ] || np_fail "doctor --interval 0 over $name failed"
	files+=("$out/doctor-$name.json" "$out/doctor-$name-0.json")
	ntrees=$((ntrees + 1))
done
[ "$ntrees" -ge 1 ] || np_fail "no fixture trees under tests/fixtures/trees"
# The sosreport fixtures: the "origin" object with kind "sosreport" and what each lacks.
for tree in "$NP_SRCDIR"/tests/fixtures/sos/*/; do
	[ -d "$tree/sos_commands" ] || continue
	name=sos-$(basename "$tree")
	"$NETPATH" doctor eth0 --root "$tree" --json > "$out/doctor-$name.json" 2>/dev/null
	[ $? -le 2 ] || np_fail "doctor over $name failed"
	"$NP_PY" -c 'import json,sys; o=json.load(open(sys.argv[1]))["origin"]; assert o["kind"] == "sosreport", o' \
		"$out/doctor-$name.json" || np_fail "$name: origin.kind is not sosreport"
	files+=("$out/doctor-$name.json")
done

# diff: the field-report pair both ways, a tree against itself, and its error object. The exit
# code is AFTER's verdict (0-2 here), 3 for bad arguments.
pair="$NP_SRCDIR/tests/fixtures/diff/field-bbr"
"$NETPATH" diff --json "$pair/before" "$pair/after" > "$out/diff.json" 2>/dev/null
[ $? -le 2 ] || np_fail "diff --json over field-bbr failed"
"$NETPATH" diff --json "$pair/after" "$pair/before" enp1s0f0 > "$out/diff-back.json" 2>/dev/null
[ $? -eq 1 ] || np_fail "diff --json back to the untuned side must exit 1 (its warning)"
"$NETPATH" diff --json "$pair/after" "$pair/after" > "$out/diff-same.json" 2>/dev/null
[ $? -le 2 ] || np_fail "diff --json of a tree with itself failed"
"$NETPATH" diff --json "$pair/before" > "$out/diff-error.json" 2>/dev/null
[ $? -eq 3 ] || np_fail "diff --json without AFTER must exit 3"
files+=("$out/diff.json" "$out/diff-back.json" "$out/diff-same.json" "$out/diff-error.json")
# plan: every profile over the field-report trees (the modules unknown there), and its errors.
for tree in pop-a x710-server lan-10g arm-board; do
	t="$NP_SRCDIR/tests/fixtures/trees/$tree/after"
	dev=$(ls "$t/sys/class/net" | grep -vx lo | head -n1)
	for prof in lan long-haul busy-server low-latency; do
		"$NETPATH" plan "$dev" --root "$t" --profile "$prof" --json \
			> "$out/plan-$tree-$prof.json" 2>/dev/null || np_fail "plan over $tree ($prof) failed"
		files+=("$out/plan-$tree-$prof.json")
	done
done
"$NETPATH" plan --json --profile lan no-such-if0 > "$out/plan-error.json" 2>/dev/null
[ $? -eq 3 ] || np_fail "plan --json of an unknown interface must exit 3"
files+=("$out/plan-error.json")
# trace needs root; its renderer's golden document (tests/unit/trace, test_render_attribution)
# stands for it here.
trace_doc="$NP_SRCDIR/tests/fixtures/trace/attribution.json"
# ... and the XDP section with its top sources (tests/unit/xdp, test_trace_document).
xdp_doc="$NP_SRCDIR/tests/fixtures/trace/xdp-sources.json"
# ... and --stack's top kernel stacks (tests/unit/trace, test_trace_stack).
stack_doc="$NP_SRCDIR/tests/fixtures/trace/stacks.json"
# netpath path needs a peer; its renderer's golden document (tests/unit/render, render-path).
path_doc="$NP_SRCDIR/tests/fixtures/path/sender-buffer.json"
files+=("$trace_doc" "$xdp_doc" "$stack_doc" "$path_doc")

np_validate "${files[@]}"

# What the schemas cannot say: ids unique and under their stage; explain = catalogue entry;
# each document names the schema of what it is.
"$NP_PY" - "$out" $ids <<'PY' || np_fail "explain and the catalogue disagree"
import json, sys
out, ids = sys.argv[1], sys.argv[2:]
cat = json.load(open(f"{out}/checks.json"))
assert len(set(ids)) == len(ids), "duplicate ids"
for c in cat["checks"]:
    assert c["id"].startswith(c["stage"] + "."), c["id"]
    e = json.load(open(f"{out}/explain-{c['id']}.json"))
    assert e["schema"] == "netpath/check" and e["version"] == 1, c["id"]
    for k in ("id", "stage", "title", "thresholds"):
        assert e[k] == c[k], (c["id"], k)
for f, sid in (("explain-error", "netpath/error"), ("doctor-error", "netpath/error"),
               ("diff", "netpath/diff"), ("diff-error", "netpath/error"),
               ("plan-pop-a-long-haul", "netpath/plan"), ("plan-error", "netpath/error")):
    assert json.load(open(f"{out}/{f}.json"))["schema"] == sid, f
PY

# The validation has teeth: each broken copy must be rejected.
"$NP_PY" - "$out" "$trace_doc" "$xdp_doc" "$stack_doc" "$path_doc" <<'PY' || np_fail "could not write the broken documents"
import copy, json, sys
out = sys.argv[1]
pa = json.load(open(sys.argv[5]))
tr = json.load(open(sys.argv[2]))
xd = json.load(open(sys.argv[3]))
st = json.load(open(sys.argv[4]))
cat = json.load(open(f"{out}/checks.json"))
ex = json.load(open(f"{out}/explain-{cat['checks'][0]['id']}.json"))
thr = next(c for c in cat["checks"] if c["thresholds"]["warning"] is not None)
bad = {}
def mut(name, doc, fn):
    d = copy.deepcopy(doc); fn(d); bad[name] = d
mut("explain-no-why", ex, lambda d: d.pop("why"))
mut("explain-empty-fix", ex, lambda d: d.update(fix=""))
mut("explain-no-schema", ex, lambda d: d.pop("schema"))
mut("explain-version-2", ex, lambda d: d.update(version=2))
mut("explain-bad-stage", ex, lambda d: d.update(stage="l2"))
mut("explain-extra-field", ex, lambda d: d.update(note="x"))
mut("checks-as-check", cat, lambda d: d.update(schema="netpath/check"))
mut("checks-empty", cat, lambda d: d.update(checks=[]))
mut("checks-bad-id", cat, lambda d: d["checks"][0].update(id="Link Duplex"))
mut("checks-negative", cat, lambda d: d["checks"][cat["checks"].index(thr)]["thresholds"].update(warning=-1))
mut("checks-no-unit", cat, lambda d: d["checks"][cat["checks"].index(thr)]["thresholds"].update(unit=None))
mut("checks-full-entry", cat, lambda d: d["checks"][0].update(why="x"))
mut("unknown-schema", ex, lambda d: d.update(schema="netpath/nosuch"))
df = json.load(open(f"{out}/diff.json"))
assert df["settings"] and df["findings"], "field-bbr: no settings or findings changed"
mut("diff-both-unknown", df, lambda d: d["settings"][0].update(before=None, after=None))
mut("diff-zero-not-text", df, lambda d: d["settings"][0].update(before=0))
mut("diff-bad-change", df, lambda d: d["findings"][0].update(change="fixed"))
mut("diff-bad-stage", df, lambda d: d["settings"][0].update(stage="l2"))
mut("diff-no-funnel", df, lambda d: d.pop("funnel"))
mut("diff-exit-4", df, lambda d: d.update(exit_code=4))
pl = json.load(open(f"{out}/plan-pop-a-long-haul.json"))
assert any(l["kind"] == "sysctl" for l in pl["lines"]), "pop-a long-haul: no sysctl line"
si = next(i for i, l in enumerate(pl["lines"]) if l["kind"] == "sysctl")
mut("plan-sysctl-no-host-wide", pl, lambda d: d["lines"][si].pop("host_wide"))
mut("plan-sysctl-no-checks", pl, lambda d: d["lines"][si].update(checks=[]))
mut("plan-current-zero", pl, lambda d: d["lines"][si].update(current=0))
mut("plan-bad-kind", pl, lambda d: d["lines"][si].update(kind="ethtool"))
mut("plan-bad-profile", pl, lambda d: d.update(profile="wan"))
mut("plan-file-in-etc-root", pl, lambda d: d["files"].append("etc/passwd"))
sk = next(i for i, x in enumerate(tr["drops"]) if x["top"])
mut("trace-no-top", tr, lambda d: d["drops"][sk].pop("top"))
mut("trace-flow-no-count", tr, lambda d: d["drops"][sk]["top"][0].pop("count"))
mut("trace-flow-port-range", tr, lambda d: d["drops"][sk]["top"][0].update(dport=70000))
mut("trace-flow-ip-5", tr, lambda d: d["drops"][sk]["top"][0].update(ip_version=5))
mut("trace-stage-drops-bad-stage", tr, lambda d: d["stage_drops"].update(l2=1))
mut("trace-by-5tuple", tr, lambda d: d["attribution"].update(by="5tuple"))
mut("trace-no-location", tr, lambda d: d["drops"][sk].pop("location"))
nf = next(i for i, x in enumerate(tr["drops"]) if x["reason"] == "NETFILTER_DROP")
assert tr["drops"][nf]["rule"], "the golden document names no netfilter rule"
mut("trace-rule-no-packets", tr, lambda d: d["drops"][nf]["rule"][0].pop("packets"))
mut("trace-rule-accept", tr, lambda d: d["drops"][nf]["rule"][0].update(verdict="accept"))
mut("trace-rule-position-0", tr, lambda d: d["drops"][nf]["rule"][0].update(position=0))
mut("trace-rule-note-no-advice", tr, lambda d: d["drops"][nf]["rule_note"].pop("advice"))
assert xd["xdp"]["sources"], "xdp-sources.json: no sources"
mut("xdp-no-sources", xd, lambda d: d["xdp"].pop("sources"))
mut("xdp-source-no-addr", xd, lambda d: d["xdp"]["sources"][0].pop("addr"))
mut("xdp-source-negative", xd, lambda d: d["xdp"]["sources"][0].update(bytes=-1))
mut("xdp-source-extra", xd, lambda d: d["xdp"]["sources"][0].update(count=1))
mut("xdp-other-no-bytes", xd, lambda d: d["xdp"]["sources_other"].pop("bytes"))
mut("xdp-no-unkeyed", xd, lambda d: d["xdp"].pop("sources_unkeyed"))
mut("xdp-map-no-cap", xd, lambda d: d["xdp"]["sources_map"].pop("cap"))
assert st["stacks"]["top"], "stacks.json: no stacks"
mut("stacks-missing", st, lambda d: d.pop("stacks"))
mut("stacks-empty-frames", st, lambda d: d["stacks"]["top"][0].update(frames=[]))
mut("stacks-frame-number", st, lambda d: d["stacks"]["top"][0]["frames"].append(12))
mut("stacks-no-unrecorded", st, lambda d: d["stacks"].pop("unrecorded"))
mut("path-bad-limit", pa, lambda d: d.update(limited_by="cpu"))
mut("path-bad-side", pa, lambda d: d.update(side="both"))
mut("path-no-fix", pa, lambda d: d.pop("fix"))
mut("path-share-2", pa, lambda d: d["evidence"].update(share_sndbuf_limited=2))
mut("path-finding-bad-severity", pa, lambda d: d["findings"]["receiver"][0].update(severity="bad"))
mut("path-version-2", pa, lambda d: d.update(version=2))
for name, d in bad.items():
    json.dump(d, open(f"{out}/bad-{name}.json", "w"))
print("\n".join(bad))
PY
nbad=0
for f in "$out"/bad-*.json; do
	why=$( (np_validate "$f") 2>&1) && np_fail "np_validate accepted $(basename "$f")"
	grep -q "does not match its schema" <<< "$why" && ! grep -q Traceback <<< "$why" ||
		np_fail "$(basename "$f") rejected for the wrong reason: $why"
	nbad=$((nbad + 1))
done
[ "$nbad" -ge 10 ] || np_fail "only $nbad broken documents"
echo "PASS: ${#files[@]} documents valid ($(echo "$ids" | wc -l) checks, $ntrees trees), $nbad broken ones rejected"
