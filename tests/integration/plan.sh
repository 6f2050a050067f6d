#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath plan, applied where it can be without touching the host: a veth in a throwaway
# namespace. The plan's sysctl file (written inside the namespace, so it holds only the keys a
# namespace has) loads with `sysctl -p` there, its tc line runs there, and doctor, run again
# there, no longer reports the findings the plan says it resolves. The host's values are
# unchanged. The .link file and the udev rule are checked by systemd's own tools where they
# exist (udevadm test-builtin net_setup_link in a private mount namespace; udevadm verify,
# systemd 254+), else by a parser-level check of their syntax and keys.
# Note: `sysctl -p` of tcp_congestion_control=bbr (and `tc ... fq`) may autoload tcp_bbr and
# sch_fq on the host, as any first use does: modules, not settings; nothing to restore.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair a b
dir=$NP_TMP/plan
path=(--rtt 50 --bandwidth 10G)
keys="net.ipv4.tcp_rmem net.ipv4.tcp_wmem net.core.rmem_max net.core.wmem_max
net.ipv4.tcp_congestion_control net.ipv4.tcp_mtu_probing net.ipv4.tcp_slow_start_after_idle
net.ipv4.tcp_keepalive_time"
host_before=$(for k in $keys; do sysctl -n "$k" 2>/dev/null; done)

ip netns exec "$NS_B" "$NETPATH" doctor vb "${path[@]}" --interval 0 --json \
	> "$NP_TMP/before.json"
[ $? -le 2 ] || np_fail "doctor before the plan failed"
ip netns exec "$NS_B" "$NETPATH" plan vb --profile long-haul "${path[@]}" --interval 0 --json \
	> "$NP_TMP/plan.json" || np_fail "plan --json exited $?"
np_validate "$NP_TMP/plan.json"
np_assert_json "$NP_TMP/plan.json" 'd["interface"] == "vb" and d["path"]["rtt_ms"] == 50'
# The namespace starts from the kernel's defaults: the plan has work to do, and claims it.
np_assert_json "$NP_TMP/plan.json" '"socket.tcp-rmem-bdp" in d["resolved"]'
# rmem_max/wmem_max: shown in a namespace, settable on the host only: planned as host-wide.
np_assert_json "$NP_TMP/plan.json" 'all(l["host_wide"] for l in d["lines"] if l["key"] in ("net.core.rmem_max", "net.core.wmem_max"))'
ip netns exec "$NS_B" "$NETPATH" plan vb --profile long-haul "${path[@]}" --interval 0 \
	--write "$dir" > "$NP_TMP/plan.txt" || np_fail "plan --write exited $?"
conf=$dir/etc/sysctl.d/90-netpath.conf
[ -f "$conf" ] || np_fail "no $conf: $(cat "$NP_TMP/plan.txt")"

# Apply it inside the namespace only. A key a namespace shows but may not set (read-only there
# on some kernels) is left out and named; the checks its lines answer are then not asserted.
: > "$NP_TMP/skipped"
while IFS= read -r line; do
	case $line in
	'#'* | '') printf '%s\n' "$line" ;;
	*)
		key=${line%% =*}
		if ip netns exec "$NS_B" test -w "/proc/sys/${key//.//}"; then
			printf '%s\n' "$line"
		else
			echo "$key" >> "$NP_TMP/skipped"
			echo "note: $key is not writable inside a namespace here: left out" >&2
		fi ;;
	esac
done < "$conf" > "$NP_TMP/ns.conf"
ip netns exec "$NS_B" sysctl -p "$NP_TMP/ns.conf" > "$NP_TMP/sysctl.out" 2>&1 ||
	np_fail "sysctl -p of the plan failed inside the namespace: $(cat "$NP_TMP/sysctl.out")"
"$NP_PY" - "$NP_TMP/plan.json" > "$NP_TMP/tc.sh" <<'PY'
import json, sys
for l in json.load(open(sys.argv[1]))["lines"]:
    if l["kind"] == "qdisc":
        print(l["command"])
PY
while read -r cmd; do
	# shellcheck disable=SC2086 # the plan's own command, words as printed
	ip netns exec "$NS_B" $cmd || np_fail "'$cmd' failed inside the namespace"
done < "$NP_TMP/tc.sh"
# Each planned sysctl now reads back as planned.
"$NP_PY" - "$NP_TMP/plan.json" > "$NP_TMP/planned" <<'PY'
import json, sys
for l in json.load(open(sys.argv[1]))["lines"]:
    if l["kind"] == "sysctl":
        print(l["key"], l["planned"])
PY
while read -r key val; do
	grep -qx "$key" "$NP_TMP/skipped" && continue
	now=$(ip netns exec "$NS_B" sysctl -n "$key" | tr -s '\t ' '  ')
	[ "$now" = "$val" ] || np_fail "$key is '$now' in the namespace, planned '$val'"
done < "$NP_TMP/planned"

ip netns exec "$NS_B" "$NETPATH" doctor vb "${path[@]}" --interval 0 --json \
	> "$NP_TMP/after.json"
[ $? -le 2 ] || np_fail "doctor after the plan failed"
"$NP_PY" - "$NP_TMP/plan.json" "$NP_TMP/before.json" "$NP_TMP/after.json" "$NP_TMP/skipped" \
	<<'PY' \
	|| np_fail "doctor after the plan disagrees with it"
import json, sys
plan, before, after = (json.load(open(f)) for f in sys.argv[1:4])
skipped = set(open(sys.argv[4]).read().split())
fired = lambda d: {f["id"] for f in d["findings"]}
claimed = set(plan["resolved"])
# Checks answered by a key left out cannot be judged here.
claimed -= {c for l in plan["lines"] if l["key"] in skipped for c in l["checks"]}
assert {"socket.tcp-rmem-bdp", "congestion.mtu-probing"} <= claimed, claimed
assert claimed <= fired(before), f"resolved but never fired: {claimed - fired(before)}"
still = claimed & fired(after)
assert not still, f"the plan claims to resolve {sorted(still)}, doctor still reports them"
print("resolved in the namespace:", ", ".join(sorted(claimed)))
PY

# The host kept its values.
host_after=$(for k in $keys; do sysctl -n "$k" 2>/dev/null; done)
[ "$host_before" = "$host_after" ] || np_fail "the host's sysctls changed"

# The NIC files: a veth has no NIC settings to plan, so check the ones a tree's plan writes.
tree=$NP_SRCDIR/tests/fixtures/trees/arm-board/after
"$NETPATH" plan enp1s0 --root "$tree" --profile lan --write "$dir/nic" > /dev/null ||
	np_fail "plan --write over arm-board failed"
link=$dir/nic/etc/systemd/network/10-netpath-enp1s0.link
rules=$dir/nic/etc/udev/rules.d/70-netpath-enp1s0.rules
if [ ! -f "$link" ] || [ ! -f "$rules" ]; then
	np_fail "no .link file or udev rule written"
fi
if command -v udevadm >/dev/null && [ -d /etc/systemd/network ]; then
	# systemd-udevd's own parser of .link files, on a private copy of /etc/systemd/network
	# (ip netns exec runs in a mount namespace of its own; the bind mount stays in it).
	cp "$link" "$dir/10-netpath-vb.link"
	sed -i 's/^Path=.*/OriginalName=vb/' "$dir/10-netpath-vb.link"
	mkdir -p "$dir/networkd" && mv "$dir/10-netpath-vb.link" "$dir/networkd/"
	ip netns exec "$NS_B" sh -c "mount --bind '$dir/networkd' /etc/systemd/network &&
		udevadm test-builtin net_setup_link /sys/class/net/vb" > "$NP_TMP/udev.out" 2>&1
	grep -qiE 'unknown (key|section)|failed to parse|invalid' "$NP_TMP/udev.out" &&
		np_fail "udevd's parser rejects the .link file: $(cat "$NP_TMP/udev.out")"
	grep -q '10-netpath-vb.link' "$NP_TMP/udev.out" ||
		np_fail "udevd did not read the .link file: $(tail -5 "$NP_TMP/udev.out")"
else
	echo "note: no udevadm here; the .link file gets the parser-level check only"
fi
if udevadm verify --help >/dev/null 2>&1; then
	udevadm verify "$rules" > "$NP_TMP/verify.out" 2>&1 ||
		np_fail "udevadm verify rejects the rule: $(cat "$NP_TMP/verify.out")"
fi
# Parser-level: sections and keys systemd.link(5) documents, values of the right shape; udev
# lines of KEY==/KEY+= "value" pairs with the match keys netpath writes.
"$NP_PY" - "$link" "$rules" <<'PY' || np_fail "the .link file or the udev rule is malformed"
import re, sys
keys = {"Match": {"Path", "OriginalName"},
        "Link": {"NamePolicy", "AlternativeNamesPolicy", "MACAddressPolicy", "MTUBytes",
                 "RxBufferSize", "RxChannels", "CombinedChannels", "UseAdaptiveRxCoalesce",
                 "RxCoalesceSec"}}
section, seen = None, set()
for n, line in enumerate(open(sys.argv[1]), 1):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    m = re.fullmatch(r"\[(\w+)\]", line)
    if m:
        section = m.group(1)
        assert section in keys, f"line {n}: unknown section {section}"
        continue
    k, _, v = line.partition("=")
    assert section and k in keys[section], f"line {n}: {k} not a {section} key"
    if k in ("MTUBytes", "RxBufferSize", "RxChannels", "CombinedChannels"):
        assert re.fullmatch(r"[1-9][0-9]*", v), f"line {n}: {v} not a count"
    seen.add(k)
assert {"Path", "MTUBytes", "NamePolicy"} <= seen, seen
pair = r'(ACTION|SUBSYSTEM|KERNEL|KERNELS)=="[^"]+"|RUN\+="[^"]+"'
rules = [l.strip() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
assert rules, "no rule"
for r in rules:
    parts = [p.strip() for p in r.split(", ")]
    assert all(re.fullmatch(pair, p) for p in parts), r
    assert parts[-1].startswith('RUN+="/usr/sbin/'), r
PY
echo "PASS"
