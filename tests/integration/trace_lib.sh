# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the trace-* drop-reason tests (sourced after lib.sh): the skip when netpath was
# built without BPF or the kernel has no BTF, and assertions on trace JSON's "drops" array.

# Skip (77) unless `netpath trace` can load its programs here.
trace_require() {
	np_require_root
	[ -r /sys/kernel/btf/vmlinux ] || np_skip "kernel without BTF (/sys/kernel/btf/vmlinux)"
	"$NETPATH" trace lo --duration 0.1 --json > "$NP_TMP/probe.json" 2> "$NP_TMP/probe.err"
	rc=$?
	if [ "$rc" -eq 3 ]; then
		grep -q "built without BPF support" "$NP_TMP/probe.err" &&
			np_skip "$(cat "$NP_TMP/probe.err")"
		np_fail "trace lo exited 3: $(cat "$NP_TMP/probe.err")"
	fi
	[ "$rc" -le 2 ] || np_fail "trace lo exited $rc: $(cat "$NP_TMP/probe.err")"
}

# lib.sh's np_validate picks doc/netpath-trace.schema.json by the "schema" field.
trace_validate() {
	np_validate "$1"
}

# trace_assert_drop FILE REASON STAGE: REASON is listed under STAGE with count > 0, its
# per-CPU counts add up to the count and its rate matches count / duration (JSON prints 6
# significant digits).
trace_assert_drop() {
	np_assert_json "$1" "any(x['reason'] == '$2' and x['stage'] == '$3' and x['count'] > 0 and sum(x['per_cpu']) == x['count'] and abs(x['per_second'] * d['duration_s'] - x['count']) <= 1 + x['count'] * 1e-4 for x in d['drops'])"
}

# trace_assert_no_drop FILE REASON: REASON is absent (or counted zero times).
trace_assert_no_drop() {
	np_assert_json "$1" "not any(x['reason'] == '$2' and x['count'] > 0 for x in d['drops'])"
}
