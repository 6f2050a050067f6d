# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the integration tests: namespaces, cleanup, traffic, bounded waits, JSON
# assertions. Every test sources this, calls np_require_root if it needs root, and relies on the
# EXIT trap to stop its traffic, delete its namespaces and restore any sysctl it changed, even
# when an assertion fails.
set -u

: "${NETPATH:?NETPATH must point at the built binary}"
: "${NP_SRCDIR:?NP_SRCDIR must point at the source tree}"
NP_SCHEMA="$NP_SRCDIR/doc/netpath.schema.json"
NP_TMP=$(mktemp -d /tmp/netpath-test.XXXXXX)
NP_NETNS=""
NP_SYSCTL_RESTORE=""
NP_PIDS=""
NP_LAST_PID=""
# Python serves only the JSON assertions, and it is always the distribution's interpreter: its
# python3-jsonschema and python3-prometheus-client are what tools/install-deps.sh installs, while
# a python3 first on PATH (a pyenv shim) may lack them and take seconds to start under load.
NP_PY=${NP_PYTHON:-/usr/bin/python3}
# The traffic helper (tests/helpers/nptraffic.c); meson passes its path.
: "${NPTRAFFIC:=$(dirname "$NETPATH")/../tests/helpers/nptraffic}"
# How long a readiness wait may take. Generous: it costs time only when something is wrong, and
# a loaded CI machine (load 8-18 on 2 CPUs) can take seconds to start a process.
NP_WAIT=${NP_WAIT_SECONDS:-30}

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

# np_bg CMD...: in the background, killed (SIGTERM) by the EXIT trap; its pid in NP_LAST_PID.
# Through `ip netns exec` the pid is the command's own (ip execs it, no fork in between).
np_bg() {
	"$@" &
	NP_LAST_PID=$!
	NP_PIDS="$NP_PIDS $!"
}

# np_catches PID SIGNUM: PID is $NETPATH itself (exec done) and catches SIGNUM (SigCgt). The exe
# check matters: between fork and exec the child is this shell, whose `trap ... TERM` shows as a
# caught SIGTERM; a signal sent then is lost in the exec, and netpath runs on undisturbed. The
# file is compared by device and inode: the link's text names it from the process's own mount
# namespace (`ip netns exec` makes one), which in a chroot is not the path we know.
np_catches() {
	local exe cgt
	exe=$(stat -L -c %d:%i "/proc/$1/exe" 2> /dev/null) || return 1
	[ "$exe" = "$(stat -L -c %d:%i "$NETPATH")" ] || return 1
	cgt=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2> /dev/null) || return 1
	[ -n "$cgt" ] && (( (16#$cgt >> ($2 - 1)) & 1 ))
}

# np_stop PID...: stop background commands now (SIGTERM) and reap them.
np_stop() {
	for pid in "$@"; do kill "$pid" 2>/dev/null; done
	for pid in "$@"; do wait "$pid" 2>/dev/null; done
	return 0
}

# ---- Traffic, and waiting for it ----
# No fixed sleeps: every wait polls a condition and gives up after a deadline, and a failed wait
# says what it waited for, for how long, what it saw, and what the traffic helpers logged, so a
# loaded CI machine can be told apart from a product bug.

np_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# The traffic helpers' logs ($NP_TMP/*.log), last lines each, for a failure message.
np_logs() {
	local f
	for f in "$NP_TMP"/*.log; do
		[ -s "$f" ] || continue
		printf '\n  %s log: %s' "$(basename "$f" .log)" "$(tail -n 3 "$f" | tr '\n' ' ')"
	done
}

# np_fail_wait SECS WHAT SAW: the failure of a wait. The traffic is stopped first so that each
# helper's exit summary (sent, failed, last error) is in its log.
np_fail_wait() {
	# shellcheck disable=SC2086
	np_stop $NP_PIDS
	np_fail "waited $1 s for $2: $3$(np_logs)"
}

# np_in NS CMD...: CMD inside namespace NS ("-": this one).
np_in() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then "$@"; else ip netns exec "$ns" "$@"; fi
}

# np_wait_until SECS WHAT CMD...: poll CMD (every 0.1 s) until it succeeds.
np_wait_until() {
	local secs=$1 what=$2 end
	shift 2
	end=$(($(np_ms) + secs * 1000))
	until "$@" > /dev/null 2>&1; do
		[ "$(np_ms)" -lt "$end" ] ||
			np_fail_wait "$secs" "$what" "not yet; last try: $("$@" 2>&1 | tail -n 2 | tr '\n' ' ')"
		sleep 0.1
	done
}

# np_wait_file FILE WHAT [SECS]: until FILE exists (a helper's --ready file).
np_wait_file() {
	np_wait_until "${3:-$NP_WAIT}" "$2 ($1)" test -e "$1"
}

# np_wait_moving SECS WHAT CMD...: CMD prints a number (a counter); poll until it is above its
# first reading, so that the traffic demonstrably reached it before a sample window starts.
np_wait_moving() {
	local secs=$1 what=$2 first now end
	shift 2
	first=$("$@" 2> /dev/null)
	end=$(($(np_ms) + secs * 1000))
	while :; do
		sleep 0.1
		now=$("$@" 2> /dev/null)
		case "$first$now" in
		*[!0-9]* | "") ;;	# not a number (yet): keep polling
		*) [ -n "$first" ] && [ "$now" -gt "$first" ] && return 0 ;;
		esac
		[ -n "$first" ] || first=$now
		[ "$(np_ms)" -lt "$end" ] ||
			np_fail_wait "$secs" "$what to move" "first read '${first}', last read '${now}'"
	done
}

# np_counter NS NAME: a counter of /proc/net/snmp or /proc/net/netstat in NS, named as nstat
# names it (UdpRcvbufErrors, TcpExtListenOverflows, TcpInSegs, ...).
np_counter() {
	np_in "$1" cat /proc/net/snmp /proc/net/netstat | awk -v want="$2" '
		$1 == prev { for (i = 2; i <= NF; i++) if (p h[i] == want) { print $i; found = 1 }
			prev = ""; next }
		{ prev = $1; p = substr($1, 1, length($1) - 1); for (i = 2; i <= NF; i++) h[i] = $i }
		END { exit !found }'
}

# np_wait_counter NS NAME [SECS]: until counter NAME in NS moves.
np_wait_counter() {
	np_wait_moving "${3:-$NP_WAIT}" "$2 in namespace $1" np_counter "$1" "$2"
}

# np_link_stat NS DEV STAT: /sys/class/net/DEV/statistics/STAT inside NS.
np_link_stat() {
	np_in "$1" cat "/sys/class/net/$2/statistics/$3"
}

# np_traffic NS NAME MODE ARGS...: nptraffic MODE ARGS in namespace NS ("-": this one), in the
# background until the test kills it (or the EXIT trap does; --max-seconds is the backstop: 180
# here, which ARGS may lower, since a test on a busy host outlasted nptraffic's own 60 and its
# last step saw no flood). Returns once the helper is ready: socket bound or listening, connections up,
# first burst sent. Its output goes to $NP_TMP/NAME.log, its pid to NP_LAST_PID.
np_traffic() {
	local ns=$1 name=$2 ready
	shift 2
	[ -x "$NPTRAFFIC" ] || np_fail "nptraffic not built at $NPTRAFFIC (set NPTRAFFIC)"
	ready="$NP_TMP/$name.ready"
	rm -f "$ready"
	if [ "$ns" = - ]; then
		np_bg "$NPTRAFFIC" --max-seconds 180 "$@" --ready "$ready" > "$NP_TMP/$name.log" 2>&1
	else
		np_bg ip netns exec "$ns" "$NPTRAFFIC" --max-seconds 180 "$@" --ready "$ready" \
			> "$NP_TMP/$name.log" 2>&1
	fi
	np_wait_file "$ready" "nptraffic $1 ($name) to be ready"
}

# Validate JSON files against the committed schema each document names in its "schema" field:
# netpath/doctor and netpath/error in doc/netpath.schema.json, netpath/checks and netpath/check
# in doc/netpath-checks.schema.json, any other netpath/NAME in doc/netpath-NAME.schema.json
# (a document without a committed schema fails). A file holds one document or JSON lines (one
# document per line, as watch --json prints them).
np_validate() {
	"$NP_PY" - "$NP_SRCDIR/doc" "$@" <<'PY' || np_fail "JSON in $* does not match its schema"
import json, os, sys
import jsonschema
docdir = sys.argv[1]
files = {"netpath/doctor": "netpath", "netpath/error": "netpath", "netpath/check": "netpath-checks",
         "netpath/topic": "netpath-checks"}
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
	"$NP_PY" - "$1" "$2" <<'PY' || np_fail "assertion '$2' failed on $1"
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2], {"d": d, "any": any, "all": all, "len": len})
if not ok:
    print(json.dumps(d.get("findings", d), indent=1)[:4000], file=sys.stderr)
    sys.exit(1)
PY
}

# ---- The flight recorder ----

# np_rec_last DIR: the wall-clock second of the last frame on disk in recording DIR (0: none).
np_rec_last() {
	"$NETPATH" history --root "$1" --json --worst 0 2>/dev/null |
		"$NP_PY" -c 'import json,sys; print(int(json.load(sys.stdin)["last"] or 0))' 2>/dev/null ||
		echo 0
}

# np_rec_wait DIR SECOND: until recording DIR holds frames up to SECOND (the recorder writes a
# block every five frames, so a frame reaches the disk up to five seconds after its moment).
np_rec_wait() {
	local end=$(($(np_ms) + NP_WAIT * 1000))
	until [ "$(np_rec_last "$1")" -ge "$2" ]; do
		[ "$(np_ms)" -lt "$end" ] ||
			np_fail "waited $NP_WAIT s for $1 to reach second $2 (at $(np_rec_last "$1"))"
		sleep 0.2
	done
}
