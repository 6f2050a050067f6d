#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Judge one scenario's `netpath doctor --json` (and `netpath trace --json`) output.

The verdict the scenario suite asks of netpath:
  1. the expected stage holds the worst finding: highest severity, ties broken by rank (the
     drop rate). The JSON findings are ordered by stage, then severity, so the global worst is
     computed here. The JSON carries no rank field (yet); the rank is then the largest
     per_second of the finding's loss counters (evidence with since_boot/delta/per_second whose
     key names a loss: drops, errors, discards, missed, overflows, failures, prunes, aborts,
     rp_filter). Findings that still tie are all "the worst": the expected stage must hold one
     of them, and the others must be explained;
  2. the expected check id is among the findings, in the expected stage;
  3. no other stage has a finding (warning or worse) as severe as the worst that the scenario
     does not explain: --also ids (required findings) and --allow ids (findings the scenario
     causes besides its main one; each scenario says why next to the option).
A baseline passes --max-severity instead: nothing above that severity anywhere.

Extra assertions: --absent ID (no such finding), --remedy ID=TEXT, --summary ID=TEXT (a
substring of that finding's remedy or summary), --evidence ID=KEY[>=N|<=N] (the finding has
evidence KEY, optionally with its value or per_second within a bound; KEY* matches a prefix). --trace FILE --trace-reason R --trace-stage S
asserts a drop reason counted by `netpath trace` in that stage; --trace-na TEXT records why trace
did not run.

Prints the verdict and appends one JSON line (the runner's table row) to --rows. Exit 0 pass,
1 fail, 2 bad usage or unreadable input.
"""
import argparse
import json
import re
import sys

SEV = {"ok": 0, "info": 1, "warning": 2, "critical": 3}
LOSS = re.compile(r"drop|discard|miss|err|overflow|fail|prune|abort|refus|reversepath",
                  re.IGNORECASE)


def rank(f):
    if isinstance(f.get("rank"), (int, float)):
        return float(f["rank"])
    best = 0.0
    for e in f.get("evidence", []):
        ps = e.get("per_second")
        if "since_boot" in e and isinstance(ps, (int, float)) and LOSS.search(e["key"]):
            best = max(best, float(ps))
    return best


def split_kv(spec, opt):
    if "=" not in spec:
        sys.exit(f"{opt} wants ID=VALUE, got '{spec}'")
    return spec.split("=", 1)


def ev_value(e):
    for k in ("per_second", "value"):
        if isinstance(e.get(k), (int, float)):
            return float(e[k])
    return None


def check_evidence(f, spec):
    m = re.fullmatch(r"(.+?)(>=|<=)(-?[0-9.eE+]+)", spec)
    key, op, bound = (m.group(1), m.group(2), float(m.group(3))) if m else (spec, None, None)
    if key.endswith("*"):
        evs = [e for e in f["evidence"] if e["key"].startswith(key[:-1])]
    else:
        evs = [e for e in f["evidence"] if e["key"] == key]
    if not evs:
        return f"{f['id']}: no evidence '{key}' (has: {[e['key'] for e in f['evidence']]})"
    if op is None:
        return None
    for e in evs:
        v = ev_value(e)
        if v is not None and (v >= bound if op == ">=" else v <= bound):
            return None
    return f"{f['id']}: evidence '{key}' = {[ev_value(e) for e in evs]}, wanted {op} {bound:g}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--name", required=True)
    p.add_argument("--doctor", required=True, help="doctor --json output")
    p.add_argument("--stage", help="the stage that must hold the worst finding")
    p.add_argument("--check", help="the check id that must be among the findings")
    p.add_argument("--max-severity", choices=list(SEV), help="baseline: nothing above this")
    p.add_argument("--also", action="append", default=[], metavar="ID[>=SEV]")
    p.add_argument("--allow", action="append", default=[], metavar="ID")
    p.add_argument("--absent", action="append", default=[], metavar="ID")
    p.add_argument("--load", action="append", default=[], metavar="ID",
                   help="a finding the host's own load can cause (live scenarios): set aside "
                        "when ranking the worst, unless it is --check")
    p.add_argument("--remedy", action="append", default=[], metavar="ID=TEXT")
    p.add_argument("--summary", action="append", default=[], metavar="ID=TEXT")
    p.add_argument("--evidence", action="append", default=[], metavar="ID=KEY[>=N]")
    p.add_argument("--trace", help="trace --json output")
    p.add_argument("--trace-reason")
    p.add_argument("--trace-stage")
    p.add_argument("--trace-na", help="why trace did not run")
    p.add_argument("--note", default="")
    p.add_argument("--rows", help="append the table row (JSON) to this file")
    a = p.parse_args()
    if not a.max_severity and not (a.stage and a.check):
        sys.exit("give --stage and --check, or --max-severity")

    try:
        d = json.load(open(a.doctor))
    except (OSError, ValueError) as e:
        print(f"FAIL {a.name}: cannot read doctor output: {e}", file=sys.stderr)
        return 2
    if d.get("schema") != "netpath/doctor":
        print(f"FAIL {a.name}: not a doctor report: {d.get('error', d.get('schema'))}",
              file=sys.stderr)
        return 2
    fs = d["findings"]
    byid = {}
    for f in fs:
        byid.setdefault(f["id"], f)
    errors = []

    worst = None
    tied = []
    # A busy host (CPU hogs beside the suite) overflows the per-CPU backlog under the scenario's
    # own traffic: softnet.backlog-drops and the veth's rx_dropped are then true findings about
    # that load, not the scenario's cause. They are set aside when ranking (still reported in
    # the row), so the scenario's cause must still be found in its stage; on an idle host they
    # do not appear and nothing changes.
    load = [f for f in fs if f["id"] in a.load and f["id"] != a.check]
    ranked = [f for f in fs if f not in load]
    if ranked:
        key = max((SEV[f["severity"]], rank(f)) for f in ranked)
        tied = [f for f in ranked if (SEV[f["severity"]], rank(f)) == key]
        worst = next((f for f in tied if f["id"] == a.check),
                     next((f for f in tied if f["stage"] == a.stage), tied[0]))
    wsev = worst["severity"] if worst else "ok"

    also = {}
    for spec in a.also:
        fid, _, sev = spec.partition(">=")
        also[fid] = sev or "info"
    explained = set(also) | set(a.allow) | set(a.load) | ({a.check} if a.check else set())

    if a.max_severity:
        over = [f for f in fs if SEV[f["severity"]] > SEV[a.max_severity]]
        if over:
            errors.append("findings above %s: %s" % (a.max_severity, ", ".join(
                f"{f['id']} ({f['severity']})" for f in over)))
    if a.stage:
        if not worst or not any(f["stage"] == a.stage for f in tied):
            errors.append(f"worst finding is {worst['id'] if worst else 'none'} "
                          f"({wsev}, stage {worst['stage'] if worst else '-'}), "
                          f"not in stage {a.stage}")
        f = byid.get(a.check)
        if not f:
            errors.append(f"{a.check} not among the findings")
        elif f["stage"] != a.stage:
            errors.append(f"{a.check} is in stage {f['stage']}, not {a.stage}")
        # Anything elsewhere as severe as the worst (warning or worse) must be explained.
        for g in fs:
            if (g["stage"] != a.stage and SEV[g["severity"]] >= max(SEV[wsev], SEV["warning"])
                    and g["id"] not in explained):
                errors.append(f"unexplained {g['severity']} in stage {g['stage']}: {g['id']}: "
                              f"{g['summary'][:120]}")
    for fid in a.absent:
        if fid in byid:
            errors.append(f"{fid} should not be among the findings: {byid[fid]['summary'][:120]}")
    for fid, sev in also.items():
        f = byid.get(fid)
        if not f:
            errors.append(f"required finding {fid} missing")
        elif SEV[f["severity"]] < SEV[sev]:
            errors.append(f"{fid} is {f['severity']}, wanted at least {sev}")
    for what, specs in (("remedy", a.remedy), ("summary", a.summary)):
        for spec in specs:
            fid, text = split_kv(spec, "--" + what)
            f = byid.get(fid)
            if not f:
                errors.append(f"{fid} missing (for its {what})")
            elif text not in f[what]:
                errors.append(f"{fid}: '{text}' not in its {what}: {f[what][:300]!r}")
    for spec in a.evidence:
        fid, key = split_kv(spec, "--evidence")
        f = byid.get(fid)
        err = f"{fid} missing (for evidence {key})" if not f else check_evidence(f, key)
        if err:
            errors.append(err)

    trace = a.trace_na or ""
    if a.trace:
        try:
            t = json.load(open(a.trace))
            rows = [x for x in t.get("drops", []) if x.get("reason") == a.trace_reason]
            if not rows:
                errors.append(f"trace: no {a.trace_reason} drops (saw "
                              f"{[x.get('reason') for x in t.get('drops', [])]})")
            elif rows[0].get("stage") != a.trace_stage:
                errors.append(f"trace: {a.trace_reason} in stage {rows[0].get('stage')}, "
                              f"not {a.trace_stage}")
            else:
                trace = f"{a.trace_reason} → {a.trace_stage} ({rows[0].get('count')})"
        except (OSError, ValueError) as e:
            errors.append(f"trace: cannot read {a.trace}: {e}")

    if worst:
        shown = f"{worst['stage']} / {worst['id']}"
        if len(tied) > 1:
            shown += f" (tie with {len(tied) - 1} other{'s' if len(tied) > 2 else ''})"
    else:
        shown = "— (no findings)"
    if load:
        shown += " (beside the host's load: %s)" % ", ".join(sorted({f["id"] for f in load}))
    row = {
        "scenario": a.name,
        "expected": (f"{a.stage} / {a.check}" if a.stage else
                     f"nothing above {a.max_severity}"),
        "reported": shown,
        "severity": wsev,
        "result": "pass" if not errors else "FAIL",
        "trace": trace,
        "note": a.note if not errors else "; ".join(errors)[:400],
    }
    if a.rows:
        with open(a.rows, "a") as out:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    if errors:
        print(f"FAIL {a.name}:", file=sys.stderr)
        for e in errors:
            print("  - " + e, file=sys.stderr)
        for f in sorted(fs, key=lambda f: (-SEV[f["severity"]], -rank(f))):
            print(f"    {f['severity']:8} {f['stage']:10} {f['id']:34} rank {rank(f):g}",
                  file=sys.stderr)
        return 1
    print(f"PASS {a.name}: worst {shown} ({wsev})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
