#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare a live doctor report with the one made offline from a capture of the same moment.

Usage: capture_compare.py LIVE.json OFFLINE.json [--window CHECK_ID ...] [--expect CHECK_ID ...]

The verdicts must agree check for check: the same findings (id, interface, severity), the same
coverage per stage, the same unavailable sources, the same NIC settings (rings, channels,
coalescing, features, MTU, qdisc kinds). Counters differ between two reads of a moving system
and are not compared. --expect: findings the scenario must produce (in both).

--window: checks that depend on what one sample window happened to hold (ingress.netfilter-drops:
IP in = delivered + explained drops; link.idle: no packet at all). Two windows a few
milliseconds apart under a flood can each see a packet or two in flight, and an idle veth a
stray IPv6 neighbour packet in one of them, so such a check may report an *info* finding on one
side only; any other difference (a warning, a critical, any other check) still fails.
"""
import json
import sys


def findings(d):
    return {(f["id"], f.get("interface")): f["severity"] for f in d.get("findings", [])}


def nic_settings(d):
    n = d.get("nic") or {}
    return {
        "rings": n.get("rings"),
        "channels": n.get("channels"),
        "coalesce": n.get("coalesce"),
        "features": n.get("features"),
        "driver": n.get("driver"),
        "mtu": (n.get("rtnl") or {}).get("mtu"),
        "qdiscs": sorted((q["kind"], q["handle"], q["parent"]) for q in n.get("qdiscs") or []),
    }


def main():
    live, off = (json.load(open(p)) for p in sys.argv[1:3])
    expect = sys.argv[sys.argv.index("--expect") + 1:] if "--expect" in sys.argv else []
    window = []
    if "--window" in sys.argv:
        rest = sys.argv[sys.argv.index("--window") + 1:]
        window = rest[:rest.index("--expect")] if "--expect" in rest else rest
    problems = []
    fl, fo = findings(live), findings(off)
    for k in set(fl) ^ set(fo):
        if k[0] in window and fl.get(k, "info") == "info" and fo.get(k, "info") == "info":
            fl.pop(k, None)
            fo.pop(k, None)
    if fl != fo:
        problems.append("findings differ: live only %s, offline only %s, severity %s" % (
            {k: v for k, v in fl.items() if k not in fo},
            {k: v for k, v in fo.items() if k not in fl},
            {k: (fl[k], fo[k]) for k in fl if k in fo and fl[k] != fo[k]}))
    cl = {c["stage"]: c["status"] for c in live["coverage"]}
    co = {c["stage"]: c["status"] for c in off["coverage"]}
    if cl != co:
        problems.append("coverage differs: %s" % {k: (cl[k], co.get(k)) for k in cl if cl[k] != co.get(k)})
    ul = sorted((u["source"], u["status"]) for u in live["unavailable"])
    uo = sorted((u["source"], u["status"]) for u in off["unavailable"])
    if ul != uo:
        problems.append("unavailable sources differ: live %s, offline %s" % (ul, uo))
    if nic_settings(live) != nic_settings(off):
        problems.append("NIC settings differ: live %s, offline %s" % (nic_settings(live), nic_settings(off)))
    if live["exit_code"] != off["exit_code"]:
        problems.append("exit codes differ: live %s, offline %s" % (live["exit_code"], off["exit_code"]))
    for cid in expect:
        if not any(k[0] == cid for k in fo):
            problems.append("the scenario's finding %s is missing" % cid)
    for p in problems:
        print("FAIL:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
