#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""CPU of one scrape of a running exporter against the CPU of one run of commands, interleaved.

  scrape_vs_runs.py --pid PID --url URL [--rounds R] [--scrapes S] [--runs N] [--warmup W]
                    [--runs-of NAME=K ...] [--loop NAME=PID:FILE] [--json FILE] [--markdown FILE]
                    NAME=COMMAND [NAME=COMMAND ...]

Each round: S scrapes of URL asking for plain text, then S asking for gzip (what Prometheus
sends), each batch charged with the exporter's own CPU over it, then N runs of every COMMAND
(K for those named by --runs-of). The exporter's CPU is the change of utime + stime in
/proc/PID/stat (the whole thread group, dead threads included; the kernel scales the sum to
the exact run time, but prints it in clock ticks, hence many scrapes a batch), and, as a
cross-check at nanosecond resolution, the sum of /proc/PID/task/*/schedstat's run time. The
scrapes come from this process over one kept-alive connection, as Prometheus scrapes: the
client's CPU is its own, not the exporter's. Commands are measured as bench/lib/measure.py
measures them (posix_spawn, output on /dev/null, wait4's user + system).

--loop: a long-running netpath (`doctor --every`) that rewrites FILE, stopped (SIGSTOP) except
during its own batch of S reports: continued, charged like the exporter from the first new
version of FILE it writes to the S-th after it (versions told apart by inode and mtime, polled
every 2 ms by this process), then stopped again, so it never runs beside the other batches.
"""
import gzip
import http.client
import json
import os
import shlex
import signal
import statistics
import sys
import time
import urllib.parse


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import quantile, run_once  # noqa: E402  (posix_spawn: no fork of this Python to charge)


TICK = os.sysconf("SC_CLK_TCK")


def stat_cpu(pid):
    # Fields 14 and 15 (utime, stime) after the parenthesised comm, which may hold spaces.
    s = open(f"/proc/{pid}/stat").read()
    f = s[s.rindex(")") + 2:].split()
    return (int(f[11]) + int(f[12])) / TICK


def schedstat_cpu(pid):
    t = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            t += int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except FileNotFoundError:
            pass
    return t / 1e9


class Scraper:
    def __init__(self, url):
        u = urllib.parse.urlsplit(url)
        self.host, self.port, self.path = u.hostname, u.port, u.path or "/"
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def scrape(self, gz):
        # Prometheus 2.x's headers for a text-format scrape.
        hdr = {"Accept": "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"}
        if gz:
            hdr["Accept-Encoding"] = "gzip"
        self.conn.request("GET", self.path, headers=hdr)
        r = self.conn.getresponse()
        body = r.read()
        if r.status != 200:
            sys.exit(f"scrape: HTTP {r.status}")
        if r.getheader("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return body


def batch(pid, scraper, n, gz):
    t0, s0, w0 = stat_cpu(pid), schedstat_cpu(pid), time.perf_counter()
    size = series = 0
    for _ in range(n):
        body = scraper.scrape(gz)
        size = len(body)
        series = sum(1 for line in body.split(b"\n") if line and not line.startswith(b"#"))
    return {"stat_cpu": stat_cpu(pid) - t0, "schedstat_cpu": schedstat_cpu(pid) - s0,
            "wall": time.perf_counter() - w0, "scrapes": n, "bytes": size, "series": series}


def version(path):
    try:
        st = os.stat(path)
        return (st.st_ino, st.st_mtime_ns)
    except FileNotFoundError:
        return None


def next_version(path, after, pid, limit=60):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        v = version(path)
        if v is not None and v != after:
            return v
        if not os.path.exists(f"/proc/{pid}"):
            sys.exit(f"loop: process {pid} ended")
        time.sleep(0.002)
    sys.exit(f"loop: no new version of {path} in {limit} s")


def loop_batch(pid, path, n):
    """CPU per report of a repeating netpath: from one finished report to the n-th after it."""
    os.kill(pid, signal.SIGCONT)
    try:
        v = next_version(path, version(path), pid)
        t0, s0, w0 = stat_cpu(pid), schedstat_cpu(pid), time.perf_counter()
        for _ in range(n):
            v = next_version(path, v, pid)
        return {"stat_cpu": stat_cpu(pid) - t0, "schedstat_cpu": schedstat_cpu(pid) - s0,
                "wall": time.perf_counter() - w0, "scrapes": n}
    finally:
        os.kill(pid, signal.SIGSTOP)


def med(v):
    return statistics.median(v) if v else float("nan")


def main():
    args = sys.argv[1:]
    pid = url = out = md = None
    rounds, scrapes, runs, warmup = 10, 50, 50, 20
    runs_of, cmds, loops = {}, [], []
    while args:
        a = args.pop(0)
        if a == "--pid":
            pid = int(args.pop(0))
        elif a == "--url":
            url = args.pop(0)
        elif a == "--rounds":
            rounds = int(args.pop(0))
        elif a == "--scrapes":
            scrapes = int(args.pop(0))
        elif a == "--runs":
            runs = int(args.pop(0))
        elif a == "--warmup":
            warmup = int(args.pop(0))
        elif a == "--runs-of":
            k, v = args.pop(0).split("=", 1)
            runs_of[k] = int(v)
        elif a == "--loop":
            name, v = args.pop(0).split("=", 1)
            lpid, path = v.split(":", 1)
            loops.append((name, int(lpid), path))
        elif a == "--json":
            out = args.pop(0)
        elif a == "--markdown":
            md = args.pop(0)
        elif "=" in a and not a.startswith("-"):
            name, cmd = a.split("=", 1)
            cmds.append((name, shlex.split(cmd), cmd))
        else:
            sys.exit(__doc__)
    if pid is None or url is None:
        sys.exit(__doc__)
    scraper = Scraper(url)
    modes = (("node_exporter scrape (plain)", False), ("node_exporter scrape (gzip)", True))
    for _ in range(warmup):
        for _, gz in modes:
            scraper.scrape(gz)
    for _, argv, _ in cmds:
        for _ in range(min(warmup, 5)):
            run_once(argv)
    for _, lpid, path in loops:
        loop_batch(lpid, path, min(warmup, 5))
    batches = {m: [] for m, _ in modes}
    lbatches = {name: [] for name, _, _ in loops}
    samples = {name: [] for name, _, _ in cmds}
    for _ in range(rounds):
        for m, gz in modes:
            batches[m].append(batch(pid, scraper, scrapes, gz))
        for name, lpid, path in loops:
            lbatches[name].append(loop_batch(lpid, path, scrapes))
        for name, argv, _ in cmds:
            for _ in range(runs_of.get(name, runs)):
                samples[name].append(run_once(argv))
    res = []
    for m, _ in modes:
        b = batches[m]
        n = sum(x["scrapes"] for x in b)
        res.append({"name": m, "kind": "scrape", "scrapes": n,
                     "cpu_mean": sum(x["stat_cpu"] for x in b) / n,
                     "schedstat_cpu_mean": sum(x["schedstat_cpu"] for x in b) / n,
                     "cpu_per_round": [x["stat_cpu"] / x["scrapes"] for x in b],
                     "wall_mean": sum(x["wall"] for x in b) / n,
                     "bytes": b[-1]["bytes"], "series": b[-1]["series"]})
    for name, _, path in loops:
        b = lbatches[name]
        n = sum(x["scrapes"] for x in b)
        res.append({"name": name, "kind": "loop", "reports": n, "file": path,
                    "cpu_mean": sum(x["stat_cpu"] for x in b) / n,
                    "schedstat_cpu_mean": sum(x["schedstat_cpu"] for x in b) / n,
                    "cpu_per_round": [x["stat_cpu"] / x["scrapes"] for x in b],
                    "wall_mean": sum(x["wall"] for x in b) / n})
    for name, _, text in cmds:
        s = samples[name]
        cpu = [x["cpu"] for x in s]
        res.append({"name": name, "kind": "run", "command": text, "runs": len(s),
                    "cpu_mean": statistics.fmean(cpu), "cpu_median": med(cpu),
                    "cpu_p25": quantile(cpu, 0.25), "cpu_p75": quantile(cpu, 0.75),
                    "wall_median": med([x["wall"] for x in s]),
                    "exit_codes": sorted(set(x["status"] for x in s))})
    doc = {"rounds": rounds, "scrapes_per_batch": scrapes, "runs_per_round": runs,
           "runs_of": runs_of, "warmup": warmup, "clk_tck": TICK,
           "loadavg_end": open("/proc/loadavg").read().split()[:3], "results": res}
    if out:
        with open(out, "w") as f:
            json.dump(doc, f, indent=1)
    if md:
        with open(md, "w") as f:
            f.write(markdown(doc))
    for r in res:
        print(f"{r['name']}: cpu mean {r['cpu_mean'] * 1e3:.3f} ms"
              + (f", median {r['cpu_median'] * 1e3:.3f} ms" if r["kind"] == "run" else
                 f", schedstat {r['schedstat_cpu_mean'] * 1e3:.3f} ms"), file=sys.stderr)


def markdown(doc):
    ms = lambda x: f"{x * 1e3:.2f}"  # noqa: E731
    res = doc["results"]
    ref = next(r for r in res if r["name"] == "node_exporter scrape (plain)")
    out = [f"{doc['rounds']} rounds; each: {doc['scrapes_per_batch']} scrapes asking for plain "
           f"text, {doc['scrapes_per_batch']} asking for gzip, then "
           f"{doc['runs_per_round']} runs of each command (fewer where noted). CPU in ms; "
           "ratio = this ÷ one plain scrape (mean ÷ mean).", "",
           "| what | CPU mean | CPU median [p25 – p75] | per-round range | ratio to a plain scrape |",
           "|---|---|---|---|---|"]
    for r in res:
        if r["kind"] == "scrape":
            pr = r["cpu_per_round"]
            out.append(f"| {r['name']}: {r['series']} series, {r['bytes']} bytes (of text) "
                       f"| {ms(r['cpu_mean'])} (schedstat: {ms(r['schedstat_cpu_mean'])}) | – "
                       f"| {ms(min(pr))} – {ms(max(pr))} | {r['cpu_mean'] / ref['cpu_mean']:.2f}× |")
        elif r["kind"] == "loop":
            pr = r["cpu_per_round"]
            out.append(f"| {r['name']} ({r['reports']} reports) | {ms(r['cpu_mean'])} (schedstat: "
                       f"{ms(r['schedstat_cpu_mean'])}) | – | {ms(min(pr))} – {ms(max(pr))} "
                       f"| **{r['cpu_mean'] / ref['cpu_mean']:.2f}×** |")
        else:
            out.append(f"| {r['name']} ({r['runs']} runs) | {ms(r['cpu_mean'])} "
                       f"| {ms(r['cpu_median'])} [{ms(r['cpu_p25'])} – {ms(r['cpu_p75'])}] | – "
                       f"| **{r['cpu_mean'] / ref['cpu_mean']:.2f}×** |")
    out += ["", "Commands:", ""]
    for r in res:
        if r["kind"] == "run":
            bad = [x for x in r["exit_codes"] if x not in (0, 1, 2)]
            note = f" (exit codes {r['exit_codes']})" if bad else ""
            out.append(f"- {r['name']}: `{r['command']}`{note}")
    return "\n".join(out) + "\n"


main()
