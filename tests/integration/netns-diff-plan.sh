#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# diff --live and plan read a namespace as doctor does: --netns NS enters it after reading the
# host-wide sysctls in the initial namespace. Run inside the namespace instead (ip netns exec),
# diff counts the host-wide sysctls it cannot see as not comparable instead of listing each as
# "-> unknown".
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair a b

# BEFORE: a capture of va taken from the host (--netns reads the host-wide values).
"$NETPATH" capture --netns "$NS_A" va -o "$NP_TMP/before.tar.gz" --interval 0.2 2> "$NP_TMP/cap.err" ||
	np_fail "capture: $(cat "$NP_TMP/cap.err")"

# diff --live --netns: every host-wide value read on both sides, none unknown.
"$NETPATH" diff --live --netns "$NS_A" --interval 0.2 --json "$NP_TMP/before.tar.gz" va \
	> "$NP_TMP/netns.json" 2> "$NP_TMP/netns.err"
rc=$?
[ "$rc" -le 2 ] || np_fail "diff --live --netns: exit $rc: $(cat "$NP_TMP/netns.err")"
np_validate "$NP_TMP/netns.json"
np_assert_json "$NP_TMP/netns.json" 'd["host_settings_not_comparable"] == 0'
np_assert_json "$NP_TMP/netns.json" 'not any(s["after"] is None for s in d["settings"] if s["setting"].startswith("net.core.netdev"))'
np_assert_json "$NP_TMP/netns.json" 'd["after"]["source"] == "the running system of namespace '"$NS_A"'"'

# Inside the namespace: the host-wide ones are not comparable, never "-> unknown".
ip netns exec "$NS_A" "$NETPATH" diff --live --interval 0.2 --json "$NP_TMP/before.tar.gz" va \
	> "$NP_TMP/exec.json"
np_validate "$NP_TMP/exec.json"
np_assert_json "$NP_TMP/exec.json" 'd["host_settings_not_comparable"] >= 10'
np_assert_json "$NP_TMP/exec.json" 'not any(s["after"] is None and s["setting"] in ("net.core.netdev_max_backlog", "net.ipv4.tcp_mem", "net.core.default_qdisc") for s in d["settings"])'
np_assert_json "$NP_TMP/exec.json" 'not any(f["change"] == "resolved" and not f["after_judged"] for f in d["findings"])'
ip netns exec "$NS_A" "$NETPATH" diff --live --interval 0 --color=never "$NP_TMP/before.tar.gz" va |
	grep -q "host-wide settings not comparable" || np_fail "text does not say what was not comparable"

# plan --netns: the namespace's interface, planned from the host.
"$NETPATH" plan --netns "$NS_A" --profile lan va --interval 0 --json > "$NP_TMP/plan.json" 2> "$NP_TMP/plan.err" ||
	np_fail "plan --netns: $(cat "$NP_TMP/plan.err")"
np_validate "$NP_TMP/plan.json"
grep -q '"va"' "$NP_TMP/plan.json" || np_fail "plan --netns did not plan for va"
# Refused where they mean nothing.
"$NETPATH" diff --netns "$NS_A" "$NP_TMP/before.tar.gz" "$NP_TMP/before.tar.gz" va 2> "$NP_TMP/err"
[ $? -eq 3 ] && grep -q "needs --live" "$NP_TMP/err" || np_fail "diff --netns without --live: $(cat "$NP_TMP/err")"
"$NETPATH" plan --netns "$NS_A" --root "$NP_TMP/before.tar.gz" --profile lan 2> "$NP_TMP/err"
[ $? -eq 3 ] || np_fail "plan --netns --root: not refused"
echo "PASS"
