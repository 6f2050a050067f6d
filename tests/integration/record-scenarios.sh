#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The flight recorder on three more drop scenarios, each injected during known seconds while one
# recorder samples the receiving veth every second: (1) a tbf shaper dropping on the veth's
# egress, (2) an nftables DROP rule (iptables-nft) on input, (3) RPS steering into a CPU whose
# backlog holds 8 packets. A live doctor runs inside each phase; the recorder is then killed with
# SIGKILL. For each phase `doctor --at` names the same check as the live doctor, at its stage,
# with a rate in its evidence; the quiet window before the first phase is clean at those stages;
# `history --json` puts the drops in the phase's seconds and none in the quiet ones, and over the
# phase alone its worst second is at that stage, judged by that check (congestion's drops are
# the egress qdiscs', as congestion.qdisc-drops counts them).
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv
dir="$NP_TMP/rec"
now() { date +%s.%N; }
# Seconds of drops per phase: the live doctor takes 2 of them, the rest is recorded only.
PHASE=5

np_bg ip netns exec "$NS_B" "$NETPATH" record vb --dir "$dir" --every 1
rec=$NP_LAST_PID
np_wait_until "$NP_WAIT" "the recorder's first segment" sh -c "ls '$dir'/*.nprec"
# The recorder's first frame is a baseline: the quiet window starts once it is written.
np_rec_wait "$dir" "$(date +%s)"

quiet_from=$(now)
sleep 4
quiet_to=$(now)

PHASES=""
# phase NAME: the drops are under way; a live doctor judges 2 s of them, the phase lasts PHASE
# seconds from here. Sets NAME_from and NAME_to.
phase() {
	local from
	from=$(now)
	ip netns exec "$NS_B" "$NETPATH" doctor vb --interval 2 --json > "$NP_TMP/$1.live.json"
	local rc=$?
	[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || np_fail "$1: live doctor exited $rc, want 1 or 2"
	sleep "$("$NP_PY" -c "print(max(0, $from + $PHASE - $(now)))")"
	printf -v "${1}_from" %s "$from"
	printf -v "${1}_to" %s "$(now)"
	PHASES="$PHASES $1"
}

# 1. tbf at 1 Mbit/s on vb's egress, flooded from vb's side (a sink drains on the other side).
tc -n "$NS_B" qdisc add dev vb root tbf rate 1mbit burst 4kb latency 20ms ||
	np_skip "cannot attach tbf (sch_tbf missing?)"
tbf_drops() {
	tc -n "$NS_B" -s qdisc show dev vb | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -n1
}
np_traffic "$NS_A" sink1 udp-sink 198.18.0.1 9000 --drain
sink=$NP_LAST_PID
np_traffic "$NS_B" flood1 udp-flood 198.18.0.1 9000 --size 1000
flood=$NP_LAST_PID
np_wait_moving "$NP_WAIT" "tbf drops on vb (tc)" tbf_drops
phase tbf
np_stop "$flood" "$sink"
tc -n "$NS_B" qdisc del dev vb root
sleep 2

# 2. An nftables rule dropping the flood's port on input (iptables-nft writes nf_tables rules).
nft_ok=0
if ! command -v iptables-nft > /dev/null; then
	echo "note: nft phase skipped: iptables-nft not installed"
elif ! ip netns exec "$NS_B" iptables-nft -A INPUT -p udp --dport 9001 -j DROP; then
	echo "note: nft phase skipped: iptables-nft cannot add a rule here (no nf_tables?)"
else
	nft_ok=1
	rule_packets() {
		ip netns exec "$NS_B" iptables-nft -L INPUT -v -x -n | awk '/dpt:9001/ {print $1}'
	}
	np_traffic "$NS_A" flood2 udp-flood 198.18.0.2 9001
	flood=$NP_LAST_PID
	np_wait_moving "$NP_WAIT" "the nft DROP rule's packet counter" rule_packets
	phase nft
	np_stop "$flood"
	ip netns exec "$NS_B" iptables-nft -F INPUT
	sleep 2
fi

# 3. RPS steers vb's packets to CPU 1, whose backlog holds 8 packets (host-global: restored
# right after the phase, and by the EXIT trap).
rps_ok=0
if [ "$(nproc)" -lt 2 ]; then
	echo "note: RPS phase skipped: needs two CPUs"
elif ! ip netns exec "$NS_B" sh -c 'echo 2 > /sys/class/net/vb/queues/rx-0/rps_cpus' 2>/dev/null; then
	echo "note: RPS phase skipped: cannot set rps_cpus (no CONFIG_RPS?)"
else
	rps_ok=1
	backlog=$(sysctl -n net.core.netdev_max_backlog)
	np_sysctl_set net.core.netdev_max_backlog 8
	np_traffic "$NS_B" sink3 udp-sink 198.18.0.2 9000 --drain --rcvbuf 4000000
	sink=$NP_LAST_PID
	np_traffic "$NS_A" flood3 udp-flood 198.18.0.2 9000 --burst 64 --gap-ms 2 --cpu 0
	flood=$NP_LAST_PID
	cpu1_dropped() {
		local d
		d=$(sed -n 2p /proc/net/softnet_stat | cut -d' ' -f2) && echo $((16#$d))
	}
	np_wait_moving "$NP_WAIT" "CPU 1's softnet_stat dropped" cpu1_dropped
	phase rps
	np_stop "$flood" "$sink"
	sysctl -q -w "net.core.netdev_max_backlog=$backlog" > /dev/null
	ip netns exec "$NS_B" sh -c 'echo 0 > /sys/class/net/vb/queues/rx-0/rps_cpus'
fi
after=$(now)

# Everything up to the last phase's end is on disk, then the recorder dies without warning.
np_rec_wait "$dir" "$((${after%.*} + 1))"
kill -KILL "$rec"
wait "$rec" 2>/dev/null

# CHECK STAGE EVIDENCE: what each phase must show (the live tests' check ids).
declare -A CHECK=([tbf]=congestion.qdisc-drops [nft]=ingress.netfilter-drops [rps]=softnet.backlog-drops)
declare -A STAGE=([tbf]=congestion [nft]=ingress [rps]=softnet)
declare -A EVID=([tbf]='k.startswith("tbf[") and k.endswith(".drops")' [nft]='k == "vanished"'
	[rps]='k == "dropped"')
# fires ID STAGE EVIDENCE: the check fired (warning or worse) at its stage with a rate > 0.
fires() {
	echo "any(f['id'] == '$1' and f['stage'] == '$2' and f['severity'] in ('warning', 'critical')
		and any((lambda k: $3)(e['key']) and (e.get('per_second') or 0) > 0
			for e in f['evidence']) for f in d['findings'])"
}

# np_sev FILE ID: the severity of finding ID in doctor JSON FILE (for the log).
np_sev() {
	"$NP_PY" -c 'import json, sys
print(",".join(f["severity"] for f in json.load(open(sys.argv[1]))["findings"] if f["id"] == sys.argv[2]))' "$1" "$2"
}

"$NETPATH" history --root "$dir" --json > "$NP_TMP/hist.json" || np_fail "history --json failed"
np_validate "$NP_TMP/hist.json"
# hist_window STAGE FROM TO: how many seconds of history from FROM to TO (times of the ends of
# their intervals) have drops at STAGE, then each second as TIME:DROPS_PER_SECOND.
hist_window() {
	"$NP_PY" -c 'import json, sys
secs = [s for s in json.load(open(sys.argv[1]))["seconds"] if float(sys.argv[3]) <= s["time"] <= float(sys.argv[4])]
print(sum(1 for s in secs if (s["drops"].get(sys.argv[2]) or 0) > 0),
      " ".join("%.1f:%s" % (s["time"], s["drops"].get(sys.argv[2])) for s in secs))' \
		"$NP_TMP/hist.json" "$1" "$("$NP_PY" -c "print($2)")" "$("$NP_PY" -c "print($3)")"
}
# Stages the funnel (and so history) has a drop row for.
hist_stages=$("$NP_PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted({k for s in d["seconds"] for k, v in s["drops"].items() if v is not None})))' \
	"$NP_TMP/hist.json")

for p in $PHASES; do
	from=${p}_from to=${p}_to
	from=${!from} to=${!to}
	id=${CHECK[$p]} st=${STAGE[$p]}
	np_validate "$NP_TMP/$p.live.json"
	np_assert_json "$NP_TMP/$p.live.json" "$(fires "$id" "$st" "${EVID[$p]}")"
	mid=$("$NP_PY" -c "print(($from + $to) / 2 - 1)")
	"$NETPATH" doctor --root "$dir" --at "@$mid" --window 2 --json > "$NP_TMP/$p.at.json"
	rc=$?
	[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || np_fail "$p: doctor --at @$mid exited $rc, want 1 or 2"
	np_validate "$NP_TMP/$p.at.json"
	np_assert_json "$NP_TMP/$p.at.json" 'd["origin"]["kind"] == "recording"'
	np_assert_json "$NP_TMP/$p.at.json" "$(fires "$id" "$st" "${EVID[$p]}")"
	# history: the phase's seconds have drops at the stage, the quiet seconds none.
	[[ " $hist_stages " == *" $st "* ]] || np_fail "$p: history has no drop counter at stage $st"
	got=$(hist_window "$st" "$from + 1" "$to")
	[ "${got%% *}" -ge 3 ] ||
		np_fail "$p: history has drops at $st in fewer than 3 of the phase's seconds: $got"
	got=$(hist_window "$st" "$quiet_from + 1" "$quiet_to")
	[ "${got%% *}" -eq 0 ] || np_fail "$p: history has drops at $st in the quiet seconds: $got"
	# Over the phase alone, the worst second is at its stage, judged by the same check.
	"$NETPATH" history --root "$dir" --since "@${from%.*}" --until "@${to%.*}" --json \
		> "$NP_TMP/$p.hist.json" || np_fail "$p: history --since --until failed"
	np_validate "$NP_TMP/$p.hist.json"
	np_assert_json "$NP_TMP/$p.hist.json" "d['worst_seconds'] and d['worst_seconds'][0]['stage'] == '$st' and d['worst_seconds'][0]['check'] == '$id' and d['worst_seconds'][0]['severity'] in ('warning', 'critical')"
	echo "$p: $id fired live ($(np_sev "$NP_TMP/$p.live.json" "$id")) and at @$mid ($(np_sev "$NP_TMP/$p.at.json" "$id"))"
done

# The quiet window before the first phase: no warning at any of those stages.
qmid=$("$NP_PY" -c "print(($quiet_from + $quiet_to) / 2 - 1)")
"$NETPATH" doctor --root "$dir" --at "@$qmid" --window 2 --json > "$NP_TMP/quiet.json"
np_validate "$NP_TMP/quiet.json"
np_assert_json "$NP_TMP/quiet.json" 'd["origin"]["kind"] == "recording"'
np_assert_json "$NP_TMP/quiet.json" 'not any(f["stage"] in ("congestion", "ingress", "softnet") and f["severity"] in ("warning", "critical") for f in d["findings"])'
np_assert_json "$NP_TMP/quiet.json" 'all((r["drops"]["per_second"] or 0) == 0 for r in d["funnel"] if r["stage"] in ("ingress", "softnet") and r["drops"])'
[ "$nft_ok$rps_ok" = 11 ] || echo "note: phases run:$PHASES"
echo "PASS"
