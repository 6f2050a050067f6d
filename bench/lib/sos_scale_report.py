#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The tables of bench/sos_ethtool_scale.sh from its raw rows (one JSON object a line).

  sos_scale_report.py RAW.jsonl RUNS LIMIT
"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1])]
runs, limit = sys.argv[2], float(sys.argv[3])
print(f"`doctor --root TREE eth0`; CPU = user + system, median of {runs} runs (the build "
      f"before: one run, killed by `timeout` after {limit:g} s of wall time, its CPU until then "
      "shown as a lower bound; a shape's larger sizes are not run once it was). \"µs per added "
      "line\" is the CPU above the smallest point's over the lines added: it stays flat when "
      "the cost grows linearly, and grows with the size when it does not. Page faults (minor, "
      "median) count the fresh pages the run touched: on these VMs one costs about 20 µs, so the "
      "largest points pay for their memory as much as for their parsing.\n")
for shape in ("distinct", "repeated"):
    after = [r for r in rows if r["shape"] == shape and r["build"] == "after"]
    bef = {r["lines"]: r for r in rows if r["shape"] == shape and r["build"] == "before"}
    if not after:
        continue
    what = ("every name distinct (rx_queue_N_packets)" if shape == "distinct" else
            "one name repeated (rx_dropped, kept as rx_dropped, rx_dropped#2, ...)")
    print(f"### {what}\n")
    head = ("| lines | ethtool -S bytes | CPU ms | µs per added line | page faults | "
            "peak RSS MiB |")
    sep = "|---|---|---|---|---|---|"
    if bef:
        head += " before: CPU ms | µs per added line | before ÷ after |"
        sep += "---|---|---|"
    print(head)
    print(sep)
    a0 = after[0]
    b0 = bef.get(a0["lines"])
    for r in after:
        per = ("–" if r is a0 else
               f"{(r['cpu_ms'] - a0['cpu_ms']) * 1e3 / (r['lines'] - a0['lines']):.2f}")
        rss = f"{r['rss_kib'] / 1024:.1f}" if r["rss_kib"] else "–"
        line = (f"| {r['lines']:,} | {r['bytes']:,} | {r['cpu_ms']:,.1f} | {per} "
                f"| {r['minflt']:,.0f} | {rss} |")
        if bef:
            b = bef.get(r["lines"])
            if not b:
                line += " not run | | |"
            else:
                gt = "> " if b["killed"] else ""
                bper = ("–" if b is b0 or not b0 else
                        f"{gt}{(b['cpu_ms'] - b0['cpu_ms']) * 1e3 / (b['lines'] - b0['lines']):,.1f}")
                kill = f" (killed at {limit:g} s)" if b["killed"] else ""
                line += (f" {gt}{b['cpu_ms']:,.1f}{kill} | {bper} | "
                         f"{gt}{b['cpu_ms'] / r['cpu_ms']:,.0f}× |")
        print(line)
    print()
