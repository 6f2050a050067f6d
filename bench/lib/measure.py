#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run commands repeatedly, interleaved; report medians of wall time, CPU time and peak RSS.

  measure.py [--runs N] [--warmup N] [--rss-runs N] [--baseline NAME] [--json FILE]
             [--markdown FILE] NAME=COMMAND [NAME=COMMAND ...]

COMMAND is split like a shell word list and exec'd directly (wrap a sequence of commands in a
script: `sh script.sh`). Each run is one posix_spawn with stdin, stdout and stderr on /dev/null;
wait4() gives its user and system CPU time, descendants it waited for included (so a script's
children count). Runs alternate between the commands (A B C A B C ...), so a change of machine
load touches all of them alike.

Peak RSS is measured apart, with GNU time (`/usr/bin/time -f %M`): a child forked from this
Python process would report Python's own resident size as its maximum.

--baseline NAME adds ratios: NAME's median over each command's median (2.0 = twice as fast).
"""
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    # posix_spawn (vfork-like): a fork() of this Python process would charge the child with
    # copying and then tearing down Python's address space, about a millisecond here.
    devnull = os.open(os.devnull, os.O_RDWR)
    acts = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
            (os.POSIX_SPAWN_DUP2, devnull, 2)]
    t0 = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=acts)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    os.close(devnull)
    return {"wall": wall, "user": ru.ru_utime, "sys": ru.ru_stime,
            "cpu": ru.ru_utime + ru.ru_stime, "minflt": ru.ru_minflt,
            "status": os.waitstatus_to_exitcode(status)}


def peak_rss_kib(argv):
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "--"] + argv, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1])


def quantile(v, q):
    v = sorted(v)
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def stats(v):
    return {"median": statistics.median(v), "p25": quantile(v, 0.25), "p75": quantile(v, 0.75),
            "min": min(v), "max": max(v)}


def ms(x):
    return f"{x * 1e3:.2f}"


def markdown(doc, baseline):
    res = doc["results"]
    base = next((r for r in res if r["name"] == baseline), None)
    out = [f"{doc['runs']} runs each after {doc['warmup']} warm-up runs, interleaved; "
           "medians with the interquartile range [p25 – p75]; CPU = user + system of the "
           "process and the children it waited for.", ""]
    head = "| what | wall ms | CPU ms | user ms | sys ms | page faults | peak RSS MiB |"
    sep = "|---|---|---|---|---|---|---|"
    if base:
        head += f" wall: {baseline} ÷ this | CPU: {baseline} ÷ this |"
        sep += "---|---|"
    out += [head, sep]
    for r in res:
        w, c = r["wall"], r["cpu"]
        row = (f"| {r['name']} | {ms(w['median'])} [{ms(w['p25'])} – {ms(w['p75'])}] "
               f"| {ms(c['median'])} [{ms(c['p25'])} – {ms(c['p75'])}] "
               f"| {ms(r['user']['median'])} | {ms(r['sys']['median'])} "
               f"| {r['minflt']['median']:.0f} "
               f"| {r['rss_kib']['median'] / 1024:.1f} |" if r.get("rss_kib") else
               f"| {r['name']} | {ms(w['median'])} [{ms(w['p25'])} – {ms(w['p75'])}] "
               f"| {ms(c['median'])} [{ms(c['p25'])} – {ms(c['p75'])}] "
               f"| {ms(r['user']['median'])} | {ms(r['sys']['median'])} "
               f"| {r['minflt']['median']:.0f} | – |")
        if base:
            row += (f" {base['wall']['median'] / w['median']:.2f}× "
                    f"| {base['cpu']['median'] / c['median']:.2f}× |")
        out.append(row)
    out += ["", "Commands:", ""]
    for r in res:
        bad = [x for x in r["exit_codes"] if x not in (0,)]
        note = f" (exit codes {r['exit_codes']})" if bad else ""
        out.append(f"- {r['name']}: `{r['command']}`{note}")
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    runs, warmup, rss_runs, out, md, baseline = 30, 3, 5, None, None, None
    cmds = []
    while args:
        a = args.pop(0)
        if a == "--runs":
            runs = int(args.pop(0))
        elif a == "--warmup":
            warmup = int(args.pop(0))
        elif a == "--rss-runs":
            rss_runs = int(args.pop(0))
        elif a == "--json":
            out = args.pop(0)
        elif a == "--markdown":
            md = args.pop(0)
        elif a == "--baseline":
            baseline = args.pop(0)
        elif "=" in a and not a.startswith("-"):
            name, cmd = a.split("=", 1)
            cmds.append((name, shlex.split(cmd), cmd))
        else:
            sys.exit(__doc__)
    if not cmds:
        sys.exit(__doc__)
    samples = {name: [] for name, _, _ in cmds}
    for _ in range(warmup):
        for name, argv, _ in cmds:
            run_once(argv)
    for _ in range(runs):
        for name, argv, _ in cmds:
            samples[name].append(run_once(argv))
    rss = {name: [] for name, _, _ in cmds}
    for _ in range(rss_runs):
        for name, argv, _ in cmds:
            rss[name].append(peak_rss_kib(argv))
    res = []
    for name, argv, text in cmds:
        s = samples[name]
        r = {"name": name, "command": text, "runs": len(s),
             "exit_codes": sorted(set(x["status"] for x in s))}
        for k in ("wall", "user", "sys", "cpu", "minflt"):
            r[k] = stats([x[k] for x in s])
        if rss[name]:
            r["rss_kib"] = stats(rss[name])
        res.append(r)
    doc = {"runs": runs, "warmup": warmup, "rss_runs": rss_runs,
           "loadavg_end": open("/proc/loadavg").read().split()[:3], "results": res}
    if out:
        with open(out, "w") as f:
            json.dump(doc, f, indent=1)
    if md:
        with open(md, "w") as f:
            f.write(markdown(doc, baseline))
    for r in res:
        print(f"{r['name']}: wall {ms(r['wall']['median'])} ms, cpu {ms(r['cpu']['median'])} ms "
              f"(user {ms(r['user']['median'])}, sys {ms(r['sys']['median'])}), "
              + (f"peak rss {r['rss_kib']['median'] / 1024:.1f} MiB, " if 'rss_kib' in r else "")
              + f"{r['minflt']['median']:.0f} page faults, exit {r['exit_codes']}",
              file=sys.stderr)


if __name__ == "__main__":
    main()
