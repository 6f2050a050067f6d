#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""The results and fitted growth of bench/parsers_scale.sh, as markdown on stdout.

  scale_report.py RAW.jsonl RUNS PREVIOUS.md

RAW holds one JSON object per measured point (dim "cpus" or "ifaces", cmd, cpus, ifaces,
cells, ..., ir, ir_parse, cpu_ms, rss_kib). Each cost is fitted by ordinary least squares,
cost = a + b * x, over the points of one dimension, and printed with R^2. The section
"## Earlier versions" of PREVIOUS.md, when there is one, is copied unchanged (the history is
kept by hand, one row per version), and so is a "## Notes" section before it.
"""
import json
import sys


def fit(xs, ys):
    """Least squares a + b x; R^2 (1 when every point is on the line)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    a = my - b * mx
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    return a, b, 1.0 - ss_res / ss_tot if ss_tot else 1.0


def si(v, unit):
    """v in a readable scale of unit ("B" for bytes: KiB/MiB; "instr." and "ms": k/M)."""
    if unit == "B":
        for u, d in (("MiB", 1 << 20), ("KiB", 1 << 10)):
            if abs(v) >= d:
                return f"{v / d:.2f} {u}"
        return f"{v:.0f} B"
    if unit == "ms":
        return f"{v:.3f} ms" if abs(v) < 1 else f"{v:.2f} ms"
    for u, d in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(v) >= d:
            return f"{v / d:.2f} {u} {unit}"
    return f"{v:.1f} {unit}"


def fit_line(what, xs, ys, unit, per):
    a, b, r2 = fit(xs, ys)
    return f"| {what} | {si(a, unit)} {'−' if b < 0 else '+'} {si(abs(b), unit)} × {per} | {r2:.4f} |"


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    runs = sys.argv[2]
    out = []
    p = out.append
    cpus = [r for r in rows if r["dim"] == "cpus"]
    ifs = [r for r in rows if r["dim"] == "ifaces"]
    empty = sorted(r["empty_cpu_ms"] for r in rows)
    p("## Results")
    p("")
    p(f"`netpath doctor --root TREE --interval 0 ...` over generated trees "
      f"(bench/lib/gen_scale_tree.py); {runs} runs each, interleaved with `/bin/true`, medians; "
      "peak RSS from `/usr/bin/time -f %M` (median of 3); Ir = instructions executed "
      "(callgrind, whole run, user space only: deterministic), of which the interrupts parser "
      "(np_irq_parse_line, inclusive); cells = per-CPU count cells of /proc/interrupts. An "
      f"empty process (`/bin/true`) cost {empty[len(empty) // 2]:.2f} ms CPU (median over the "
      f"points, {empty[0]:.2f}-{empty[-1]:.2f}) on this host: CPU times include it and move "
      "10-20% with the VM's neighbours; Ir and RSS do not.")
    p("")
    p("### Machine size: CPUs (one interface, eth0 with min(CPUs, 256) queue IRQs)")
    p("")
    p("| CPUs | IRQ rows | interrupts cells | interrupts KiB | softnet_stat KiB | wall ms "
      "| CPU ms | peak RSS MiB | Ir (M) | Ir parse_interrupts (M) | parse Ir per cell |")
    p("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in cpus:
        p(f"| {r['cpus']} | {r['irq_rows']} | {r['cells']:,} | "
          f"{r['interrupts_bytes'] / 1024:,.0f} | {r['softnet_bytes'] / 1024:,.0f} | "
          f"{r['wall_ms']:.2f} | {r['cpu_ms']:.2f} | {r['rss_kib'] / 1024:.1f} | "
          f"{r['ir'] / 1e6:.1f} | {r['ir_parse'] / 1e6:.1f} | "
          f"{r['ir_parse'] / r['cells']:.0f} |")
    p("")
    if ifs:
        ncpu = ifs[0]["cpus"]
        p(f"### Interfaces ({ncpu} CPUs; eth0 and N - 1 container veths, each up and carrying "
          "traffic)")
        p("")
        p("| interfaces | command | wall ms | CPU ms | peak RSS MiB | Ir (M) |")
        p("|---|---|---|---|---|---|")
        for r in ifs:
            p(f"| {r['ifaces']} | `{r['cmd']}` | {r['wall_ms']:.2f} | {r['cpu_ms']:.2f} | "
              f"{r['rss_kib'] / 1024:.1f} | {r['ir'] / 1e6:.1f} |")
        p("")
    p("### Fitted growth (least squares, cost = a + b × x, over the points above)")
    p("")
    p("| cost | fit | R² |")
    p("|---|---|---|")
    if len(cpus) >= 2:
        x = [r["cpus"] for r in cpus]
        p(fit_line("peak RSS vs CPUs", x, [r["rss_kib"] * 1024 for r in cpus], "B", "CPUs"))
        p(fit_line("instructions vs CPUs", x, [r["ir"] for r in cpus], "instr.", "CPUs"))
        p(fit_line("CPU time vs CPUs", x, [r["cpu_ms"] for r in cpus], "ms", "CPUs"))
        p(fit_line("interrupts parser instructions vs IRQ cells", [r["cells"] for r in cpus],
                   [r["ir_parse"] for r in cpus], "instr.", "cells"))
        p(fit_line("whole-run instructions vs IRQ cells", [r["cells"] for r in cpus],
                   [r["ir"] for r in cpus], "instr.", "cells"))
    for cmd in dict.fromkeys(r["cmd"] for r in ifs):
        pts = [r for r in ifs if r["cmd"] == cmd]
        if len(pts) < 2:
            continue
        x = [r["ifaces"] for r in pts]
        p(fit_line(f"`{cmd}` peak RSS vs interfaces", x, [r["rss_kib"] * 1024 for r in pts],
                   "B", "interfaces"))
        p(fit_line(f"`{cmd}` instructions vs interfaces", x, [r["ir"] for r in pts],
                   "instr.", "interfaces"))
        p(fit_line(f"`{cmd}` CPU time vs interfaces", x, [r["cpu_ms"] for r in pts], "ms",
                   "interfaces"))
    p("")
    try:
        prev = open(sys.argv[3]).read()
    except OSError:
        prev = ""
    k = prev.find("## Notes")
    k = k if k >= 0 else prev.find("## Earlier versions")
    if k >= 0:
        p(prev[k:].rstrip("\n"))
    print("\n".join(out))


main()
