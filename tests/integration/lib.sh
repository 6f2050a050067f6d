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

# Validate a JSON file against the committed schema.
np_validate() {
	python3 - "$NP_SCHEMA" "$1" <<'PY' || np_fail "JSON in $1 does not match the schema"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
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
