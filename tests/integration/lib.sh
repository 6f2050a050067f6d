# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the integration tests: namespaces, cleanup, JSON assertions.
# Every test sources this, calls np_require_root if it needs root, and relies on the EXIT trap
# to delete its namespaces and restore any sysctl it changed, even when an assertion fails.
set -u

: "${NETPATH:?NETPATH must point at the built binary}"
: "${NP_SRCDIR:?NP_SRCDIR must point at the source tree}"
NP_SCHEMA="$NP_SRCDIR/doc/netpath.schema.json"
NP_TMP=$(mktemp -d /tmp/netpath-test.XXXXXX)
NP_NETNS=""
NP_SYSCTL_RESTORE=""
NP_PIDS=""

np_cleanup() {
	for pid in $NP_PIDS; do kill "$pid" 2>/dev/null; done
	for pid in $NP_PIDS; do wait "$pid" 2>/dev/null; done
	for ns in $NP_NETNS; do ip netns del "$ns" 2>/dev/null; done
	# Restore global sysctls in reverse order of change.
	printf '%s' "$NP_SYSCTL_RESTORE" | while IFS='=' read -r key val; do
		[ -n "$key" ] && sysctl -q -w "$key=$val" >/dev/null 2>&1
	done
	rm -rf "$NP_TMP"
}
trap np_cleanup EXIT
trap 'exit 1' INT TERM

np_fail() {
	echo "FAIL: $*" >&2
	exit 1
}

np_skip() {
	echo "SKIP: $*"
	exit 77
}

np_require_root() {
	[ "$(id -u)" -eq 0 ] || np_skip "needs root"
	ip netns add "np-probe-$$" 2>/dev/null || np_skip "cannot create network namespaces"
	ip netns del "np-probe-$$"
}

# Change a global sysctl and remember the old value for the EXIT trap.
np_sysctl_set() {
	old=$(sysctl -n "$1") || np_fail "cannot read sysctl $1"
	NP_SYSCTL_RESTORE="$1=$old
$NP_SYSCTL_RESTORE"
	sysctl -q -w "$1=$2" >/dev/null || np_fail "cannot set $1=$2"
}

# np_pair A B: two namespaces joined by a veth pair, va (198.18.0.1) in A, vb (198.18.0.2) in B.
# 198.18.0.0/15 is the benchmarking range: the addresses exist only inside these namespaces.
np_pair() {
	NS_A="np-$$-$1"
	NS_B="np-$$-$2"
	ip netns add "$NS_A" || np_fail "netns add"
	NP_NETNS="$NP_NETNS $NS_A"
	ip netns add "$NS_B" || np_fail "netns add"
	NP_NETNS="$NP_NETNS $NS_B"
	ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B" || np_fail "veth"
	ip -n "$NS_A" addr add 198.18.0.1/24 dev va
	ip -n "$NS_B" addr add 198.18.0.2/24 dev vb
	ip -n "$NS_A" link set lo up
	ip -n "$NS_B" link set lo up
	ip -n "$NS_A" link set va up
	ip -n "$NS_B" link set vb up
}

np_bg() {
	"$@" &
	NP_PIDS="$NP_PIDS $!"
}

# Validate JSON files against the committed schema each document names in its "schema" field:
# netpath/doctor and netpath/error in doc/netpath.schema.json, netpath/checks and netpath/check
# in doc/netpath-checks.schema.json, any other netpath/NAME in doc/netpath-NAME.schema.json
# (a document without a committed schema fails). A file holds one document or JSON lines (one
# document per line, as watch --json prints them).
np_validate() {
	python3 - "$NP_SRCDIR/doc" "$@" <<'PY' || np_fail "JSON in $* does not match its schema"
import json, os, sys
import jsonschema
docdir = sys.argv[1]
files = {"netpath/doctor": "netpath", "netpath/error": "netpath", "netpath/check": "netpath-checks"}
validators = {}
for path in sys.argv[2:]:
    text = open(path).read()
    try:
        docs = [json.loads(text)]
    except json.JSONDecodeError:
        docs = [json.loads(line) for line in text.splitlines() if line.strip()]
    if not docs:
        sys.exit(f"{path}: no JSON document")
    for n, d in enumerate(docs, 1):
        sid = d.get("schema") if isinstance(d, dict) else None
        if not isinstance(sid, str) or not sid.startswith("netpath/"):
            sys.exit(f"{path}: document {n} names no netpath schema")
        name = files.get(sid, sid.replace("/", "-"))
        if name not in validators:
            f = os.path.join(docdir, name + ".schema.json")
            if not os.path.exists(f):
                sys.exit(f"{path}: no committed schema for {sid} ({f})")
            schema = json.load(open(f))
            jsonschema.Draft202012Validator.check_schema(schema)
            validators[name] = jsonschema.Draft202012Validator(schema)
        errs = []
        for e in validators[name].iter_errors(d):
            # Of a oneOf, report the branch for this kind of document (whose "schema" matched).
            other = {c.relative_schema_path[0] for c in e.context if list(c.path) == ["schema"]}
            errs += [c for c in e.context if c.relative_schema_path[0] not in other] or [e]
        err = jsonschema.exceptions.best_match(errs)
        if err:
            where = "/".join(map(str, err.absolute_path))
            sys.exit(f"{path}: document {n} ({sid}) at /{where}: {err.message}")
PY
}

# Evaluate a Python expression over the JSON document `d`; fail with a message if false.
np_assert_json() {
	python3 - "$1" "$2" <<'PY' || np_fail "assertion '$2' failed on $1"
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2], {"d": d, "any": any, "all": all, "len": len})
if not ok:
    print(json.dumps(d.get("findings", d), indent=1)[:4000], file=sys.stderr)
    sys.exit(1)
PY
}
