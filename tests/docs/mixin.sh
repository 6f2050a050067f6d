#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The Prometheus mixin (contrib/prometheus): `promtool check rules` and `promtool test rules`
# (synthetic series) pass, and every metric the rules and the Grafana dashboard query is one
# netpath really writes (doctor --format prometheus over the fixtures, --all-counters), one the
# rules record, or one of node_exporter's that netpath leaves to it, with the labels they group
# by. A renamed metric breaks this test, not a fleet's dashboard.
set -u
: "${NETPATH:?}" "${NP_SRCDIR:?}"
. "$NP_SRCDIR/tests/integration/lib.sh"
command -v promtool > /dev/null || { echo "SKIP: promtool not installed (Debian: prometheus)"; exit 77; }
mixin=$NP_SRCDIR/contrib/prometheus
fix=$NP_SRCDIR/tests/fixtures

promtool check rules "$mixin/netpath-rules.yml" > "$NP_TMP/check" 2>&1 ||
	np_fail "promtool check rules: $(cat "$NP_TMP/check")"
promtool test rules "$mixin/netpath-rules.test.yml" > "$NP_TMP/test" 2>&1 ||
	np_fail "promtool test rules: $(cat "$NP_TMP/test")"

# What netpath writes: families with and without rates, with NIC counters (sos, capture).
n=0
for tree in "$fix"/trees/*/; do
	[ -d "$tree/after/sys/class/net" ] || continue
	"$NETPATH" doctor --all --root "$tree/after" --before "$tree/before" --all-counters \
		--format prometheus > "$NP_TMP/out-$n.prom" 2> /dev/null
	[ $? -le 2 ] || np_fail "doctor over $tree failed"
	n=$((n + 1))
done
for tree in "$fix"/sos/*/; do
	[ -d "$tree/sos_commands" ] || continue
	"$NETPATH" doctor eth0 --root "$tree" --all-counters --format prometheus \
		> "$NP_TMP/out-$n.prom" 2> /dev/null
	[ $? -le 2 ] || np_fail "doctor over $tree failed"
	n=$((n + 1))
done
[ "$n" -ge 2 ] || np_fail "no fixtures to read the metric names from"

"$NP_PY" - "$mixin/netpath-rules.yml" "$mixin/netpath-dashboard.json" "$NP_TMP"/out-*.prom \
	<<'PY' || np_fail "the mixin queries what netpath does not write"
import json, re, sys

rules_path, dash_path, outputs = sys.argv[1], sys.argv[2], sys.argv[3:]
labels = {}                      # metric -> label names netpath writes on it
for path in outputs:
    for line in open(path):
        m = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})? ", line)
        if not m or line.startswith("#"):
            continue
        names = re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="', m.group(3) or "")
        labels.setdefault(m.group(1), set()).update(names)
# node_exporter's series the mixin uses where netpath does not repeat them (its default
# collectors, names and labels as node_exporter's collector/*_linux.go declare them; see
# contrib/prometheus/README.md). Only these: a node_exporter name outside the list fails.
node = {
    "node_softnet_dropped_total": {"cpu"}, "node_softnet_processed_total": {"cpu"},
    "node_softnet_times_squeezed_total": {"cpu"}, "node_softnet_flow_limit_count_total": {"cpu"},
    "node_network_mtu_bytes": {"device"}, "node_network_speed_bytes": {"device"},
    "node_nf_conntrack_entries": set(), "node_nf_conntrack_entries_limit": set(),
    "node_sockstat_TCP_mem": set(), "node_sockstat_UDP_mem": set(),
}
for name, names in node.items():
    assert not name in labels, f"netpath writes node_exporter's {name}"
    labels[name] = set(names)
# The targets' own labels, added by Prometheus.
for names in labels.values():
    names.update({"instance", "job"})

# Recording rules: their name, and the labels their aggregation keeps.
rules_text = open(rules_path).read()
exprs = re.findall(r"^\s*expr:\s*(.+)$", rules_text, re.M)
for rec, expr in re.findall(r"^\s*- record:\s*(\S+)\s*\n\s*expr:\s*(.+)$", rules_text, re.M):
    by = re.search(r"\bby \(([^)]*)\)", expr)
    labels[rec] = {s.strip() for s in by.group(1).split(",")} if by else {"instance", "job"}

dash = json.load(open(dash_path))
queries = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]
for v in dash["templating"]["list"]:
    q = v.get("query")
    if isinstance(q, dict):
        queries.append(q["query"])
assert len(queries) >= 8, f"only {len(queries)} dashboard queries"

problems = []
keywords = {"sum", "by", "max", "min", "count", "rate", "topk", "time", "label_values", "without",
            "instance", "irate", "avg"}
def check(where, expr):
    # Metric names: netpath_* and recorded level:metric:operation names.
    used = set(re.findall(r"\b(netpath_[a-z0-9_]+|node_[a-zA-Z0-9_]+|[a-z_]+:netpath_[a-z0-9_:]+)\b",
                          expr))
    if not used:
        problems.append(f"{where}: no netpath metric in {expr!r}")
    have = set()
    for name in used:
        if name not in labels:
            problems.append(f"{where}: {name} is not in netpath's output nor recorded")
        else:
            have |= labels[name]
    for group in re.findall(r"\bby \(([^)]*)\)", expr):
        for lab in (s.strip() for s in group.split(",")):
            if lab not in have:
                problems.append(f"{where}: groups by {lab}, which {sorted(used)} lack")
    for lab in re.findall(r"\{\{\s*\$?\.?(?:labels\.)?([a-z_]+)\s*\}\}", expr):
        if lab not in have:
            problems.append(f"{where}: legend uses {lab}")

for e in exprs:
    check("rules", e)
for p in dash["panels"]:
    for t in p.get("targets", []):
        check(f"panel {p['title']!r}", t["expr"])
        for lab in re.findall(r"\{\{\s*([a-z_]+)\s*\}\}", t.get("legendFormat", "")):
            used = re.findall(r"\b(netpath_[a-z0-9_]+|node_[a-zA-Z0-9_]+|[a-z_]+:netpath_[a-z0-9_:]+)\b",
                              t["expr"])
            if not any(lab in labels.get(u, set()) for u in used):
                problems.append(f"panel {p['title']!r}: legend label {lab} not on {used}")
for v in dash["templating"]["list"]:
    q = v.get("query")
    if isinstance(q, dict):
        check(f"variable {v['name']}", q["query"])
for msg in problems:
    print(msg, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
echo "mixin: rules checked and tested; every query names metrics netpath writes ($n outputs)"
