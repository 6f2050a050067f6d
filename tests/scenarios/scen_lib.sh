# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Shared helpers for the scenario scripts: namespaces, cleanup traps and sysctl restoration come
# from tests/integration/lib.sh (its EXIT trap runs even when an assertion fails); this adds
# doctor/trace runs and the verdict (assert_scenario.py). Traffic (np_traffic: nptraffic, built
# by meson) and the bounded waits on it (np_wait_*) come from lib.sh too.
SCEN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${NP_SRCDIR:=$(cd "$SCEN_DIR/../.." && pwd)}"
: "${NETPATH:=$NP_SRCDIR/build/src/netpath}"
export NP_SRCDIR NETPATH
# shellcheck source=../integration/lib.sh
. "$NP_SRCDIR/tests/integration/lib.sh"
SCEN_NAME=$(basename "$0" .sh)
SCEN_TRACE=()
# Findings a busy host can add to a live scenario (scen_doctor sets them; see assert_scenario.py).
SCEN_LOAD=()

# scen_bg NS NAME MODE ARGS...: nptraffic MODE ARGS in namespace NS until the EXIT trap stops
# it (60 s at most); returns once it is ready (bound, listening, connected or first burst
# sent). Its log is $NP_TMP/NAME.log, shown when a wait fails.
scen_bg() {
	np_traffic "$@"
}

# Keep a copy of an output file for the runner's logs.
scen_keep() {
	[ -n "${NP_SCEN_OUT:-}" ] && cp "$1" "$NP_SCEN_OUT/$SCEN_NAME-$(basename "$1")" 2>/dev/null
	return 0
}

# scen_doctor NS IFACE [doctor options]: doctor --json inside NS (NS "-" = this namespace) into
# $NP_TMP/doctor.json, validated against the schema. Exit codes 0-2 are verdicts, 3 is an error.
scen_doctor() {
	local ns=$1 ifc=$2 rc
	shift 2
	if [ "$ns" = - ]; then
		"$NETPATH" doctor "$ifc" --interval 2 --json "$@" > "$NP_TMP/doctor.json"
	else
		ip netns exec "$ns" "$NETPATH" doctor "$ifc" --interval 2 --json "$@" \
			> "$NP_TMP/doctor.json"
	fi
	rc=$?
	scen_keep "$NP_TMP/doctor.json"
	[ "$rc" -le 2 ] || np_fail "doctor exited $rc: $(head -c 300 "$NP_TMP/doctor.json")"
	np_validate "$NP_TMP/doctor.json"
	# Live only: on a busy host the scenario's traffic overflows the per-CPU backlog (see
	# assert_scenario.py --load); a captured tree's findings are what was recorded.
	SCEN_LOAD=(--load softnet.backlog-drops --load nic.rx-dropped)
}

# scen_doctor_root TREE [doctor options]: doctor over a captured tree pair (TREE/after with
# TREE/before for the rates), the way a field report is analysed.
scen_doctor_root() {
	local tree=$1 rc
	shift
	"$NETPATH" doctor --root "$tree/after" --before "$tree/before" --json "$@" \
		> "$NP_TMP/doctor.json"
	rc=$?
	scen_keep "$NP_TMP/doctor.json"
	[ "$rc" -le 2 ] || np_fail "doctor exited $rc: $(head -c 300 "$NP_TMP/doctor.json")"
	np_validate "$NP_TMP/doctor.json"
}

# scen_trace NS IFACE REASON STAGE: where drop reasons apply, `netpath trace --json` must count
# REASON in STAGE. Only when this build's netpath has the trace command; otherwise the row says
# "n/a" and why.
scen_trace() {
	local ns=$1 ifc=$2 reason=$3 stage=$4
	if ! "$NETPATH" trace --help > /dev/null 2>&1; then
		SCEN_TRACE=(--trace-na "n/a (no trace command in this build)")
		return 0
	fi
	ip netns exec "$ns" "$NETPATH" trace "$ifc" --duration 2 --json > "$NP_TMP/trace.json"
	scen_keep "$NP_TMP/trace.json"
	SCEN_TRACE=(--trace "$NP_TMP/trace.json" --trace-reason "$reason" --trace-stage "$stage")
}

# scen_assert ARGS...: the verdict (see assert_scenario.py); fails the script on a mismatch.
scen_assert() {
	"$NP_PY" "$SCEN_DIR/assert_scenario.py" --name "$SCEN_NAME" --doctor "$NP_TMP/doctor.json" \
		${NP_SCEN_ROWS:+--rows "$NP_SCEN_ROWS"} "${SCEN_TRACE[@]}" "${SCEN_LOAD[@]}" "$@" ||
		np_fail "$SCEN_NAME: netpath's verdict does not match the scenario"
}
