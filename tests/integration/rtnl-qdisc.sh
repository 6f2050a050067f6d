#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The rtnetlink collector against tc(8) and ip(8) as oracles: a tbf qdisc on a veth dropping a
# UDP flood, a clsact beside it, and va's link stats64. Each live value must lie between the
# oracle's reading just before and just after the collector's (counters only grow).
. "$(dirname "$0")/lib.sh"
np_require_root

NPRTNL=${NPRTNL:-$(dirname "$NETPATH")/../tools/nprtnl}
[ -x "$NPRTNL" ] || np_fail "nprtnl not built at $NPRTNL"
command -v tc >/dev/null || np_skip "tc(8) not installed"

np_pair a b
ip netns exec "$NS_A" tc qdisc add dev va root tbf rate 1mbit burst 4kb latency 20ms ||
	np_skip "no tbf qdisc (sch_tbf)"
ip netns exec "$NS_A" tc qdisc add dev va clsact || np_skip "no clsact qdisc"

# Oracle readings as JSON files, and one collector run as key=value lines.
tc_json() { ip netns exec "$NS_A" tc -s -j qdisc show dev va >"$NP_TMP/$1" || np_fail "tc"; }
ip_json() { ip netns exec "$NS_A" ip -s -s -j link show va >"$NP_TMP/$1" || np_fail "ip"; }
collect() {
	ip netns exec "$NS_A" "$NPRTNL" va >"$NP_TMP/$1" 2>"$NP_TMP/$1.err" ||
		{ cat "$NP_TMP/$1.err" >&2; np_fail "nprtnl va failed"; }
}

# Python with the three readings: tc/ip before (b), the collector (n), tc/ip after (a).
check() {
	"$NP_PY" - "$NP_TMP" "$1" <<'PY' || np_fail "$1: collector disagrees with tc/ip (see above)"
import json, sys
d, phase = sys.argv[1], sys.argv[2]
def kv(name):
    out = {}
    for line in open(f"{d}/{name}"):
        k, _, v = line.rstrip("\n").partition("=")
        out[k] = v
    return out
n = kv(f"np.{phase}")
tcb, tca = (json.load(open(f"{d}/tc.{phase}.{x}")) for x in ("b", "a"))
ipb, ipa = (json.load(open(f"{d}/ip.{phase}.{x}"))[0] for x in ("b", "a"))
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)

need(n["link_status"] == "ok", f"link_status {n['link_status']} ({n['link_detail']})")
need(n["qdisc_status"] == "ok", f"qdisc_status {n['qdisc_status']} ({n['qdisc_detail']})")
need(int(n["stats64_len"]) >= 184, "stats64_len " + n["stats64_len"])
need(int(n["mtu"]) == ipa["mtu"], f"mtu {n['mtu']} vs ip {ipa['mtu']}")
need(int(n["txqlen"]) == ipa["txqlen"], f"txqlen {n['txqlen']} vs ip {ipa['txqlen']}")
need(n["operstate"] == ipa["operstate"].lower(), f"operstate {n['operstate']}")
need(n["xdp_attached"] == "0" and n["xdp_prog_id"] == "0", "xdp should be none")
for dirn in ("rx", "tx"):
    for f in ("packets", "bytes"):
        v = int(n[f"stats64.{dirn}_{f}"])
        lo, hi = ipb["stats64"][dirn][f], ipa["stats64"][dirn][f]
        # The bracket is exact; a few packets of slack for ARP/ND racing the readings.
        need(lo - 4 <= v <= hi + 4, f"{dirn}_{f} {v} not within ip's [{lo}, {hi}]")

qd = [{k.split(".", 2)[2]: n[k] for k in n if k.startswith(f"qdisc.{i}.")}
      for i in range(int(n["qdisc_count"]))]
need(len(qd) == len(tca), f"{len(qd)} qdiscs, tc lists {len(tca)}")
tbf = [q for q in qd if q["kind"] == "tbf"]
need(len(tbf) == 1, "no tbf qdisc in the collector's list")
cls = [q for q in qd if q["kind"] == "clsact"]
need(len(cls) == 1 and cls[0]["ingress"] == "1" and cls[0]["root"] == "0",
     "clsact missing or not flagged ingress")
if tbf:
    t = tbf[0]
    ob = next(q for q in tcb if q["kind"] == "tbf")
    oa = next(q for q in tca if q["kind"] == "tbf")
    need(t["root"] == "1" and t["ingress"] == "0", "tbf not flagged root")
    need(t["handle"] == oa["handle"], f"tbf handle {t['handle']} vs tc {oa['handle']}")
    need(int(t["drops"]) > 0, "tbf drops are 0 after a 2 s flood through 1 Mbit/s")
    for f in ("drops", "overlimits", "packets", "bytes"):
        v = int(t[f])
        need(ob[f] <= v <= oa[f], f"tbf {f} {v} not within tc's [{ob[f]}, {oa[f]}]")
    print(f"{phase}: tbf drops {t['drops']} (tc {ob['drops']}..{oa['drops']}), "
          f"va tx_packets {n['stats64.tx_packets']}")
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY
}

sample() {
	tc_json "tc.$1.b"
	ip_json "ip.$1.b"
	collect "np.$1"
	tc_json "tc.$1.a"
	ip_json "ip.$1.a"
	check "$1"
}

# While the flood runs (counters moving), then after it (counters still).
# The flood runs until stopped; sampling starts once tc counts tbf drops.
tbf_drops() {
	ip netns exec "$NS_A" tc -s qdisc show dev va | sed -n 's/.*dropped \([0-9]*\).*/\1/p' |
		head -n1
}
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9
np_wait_moving "$NP_WAIT" "tbf drops on va (tc)" tbf_drops
sample during
np_stop "$NP_LAST_PID"
np_wait_until "$NP_WAIT" "va's qdiscs and link counters to stand still after the flood" \
	sh -c 'a=$(tc -n "$1" -s qdisc show dev va; ip -n "$1" -s link show va); sleep 0.3
		[ "$a" = "$(tc -n "$1" -s qdisc show dev va; ip -n "$1" -s link show va)" ]' - "$NS_A"
sample after
# Once still, the collector and tc read the very same drop count.
"$NP_PY" - "$NP_TMP" <<'PY' || np_fail "tbf drops differ from tc once traffic stopped"
import json, sys
d = sys.argv[1]
n = dict(l.rstrip("\n").split("=", 1) for l in open(f"{d}/np.after"))
i = next(k.split(".")[1] for k in n if k.endswith(".kind") and n[k] == "tbf")
oa = next(q for q in json.load(open(f"{d}/tc.after.a")) if q["kind"] == "tbf")
sys.exit(0 if int(n[f"qdisc.{i}.drops"]) == oa["drops"] else 1)
PY

# A vanished interface is a clear "absent", for both requests, and no crash.
ip netns exec "$NS_A" "$NPRTNL" nosuch0 >"$NP_TMP/gone" || np_fail "nprtnl nosuch0 failed"
grep -qx "link_status=absent" "$NP_TMP/gone" || np_fail "missing interface: link not absent"
grep -q "^link_detail=interface nosuch0 does not exist" "$NP_TMP/gone" ||
	np_fail "missing interface: unclear detail"
grep -qx "qdisc_status=absent" "$NP_TMP/gone" || np_fail "missing interface: qdisc not absent"
echo "PASS: rtnl-qdisc"
