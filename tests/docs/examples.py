# SPDX-License-Identifier: GPL-2.0-only
# Every example command of the documentation, as a reader sees it, runs here or is on the skip
# list below with the reason it cannot. The man pages are rendered to plain text (mandoc), so a
# quote that troff eats is caught; README.md's examples are its indented code blocks.
#   netpath(8): the commands of EXAMPLES, and the settings file of FILES (run with --config);
#   netpath-checks(7): every `netpath doctor --threshold ...` line, and its `threshold ...`
#   settings lines together as one file;
#   README.md: every command line of its code blocks (trailing "# ..." comments dropped).
# Only read-only commands run, each against a fixture tree instead of this machine: doctor,
# plan, diff, checks, explain, help, optionally piped into jq (whose filter must parse and print
# something). Paths the examples name are mapped to fixtures, output files (-o, --write) go to
# a scratch directory, and the working directory is one too. An example that no rule covers,
# or a rule that no example uses, fails the test: the list stays the documentation's.
# Usage: examples.py NETPATH NETPATH.8 NETPATH-CHECKS.7 README.md FIXTURES
import os
import re
import shutil
import subprocess
import sys
import tempfile

netpath, man8, man7, readme, fix = sys.argv[1:6]
tree = f"{fix}/trees/x710-server"          # eth0, sampled twice: doctor's "this machine"

# Examples that cannot run here, and why (first match wins). Each must match at least one.
SKIP = [
    (r"^sudo tools/install-deps\.sh", "installs packages as root"),
    (r"^(sudo )?tests/run-all\.sh$", "the whole suite: root, network namespaces, minutes; CI runs it"),
    (r"^(sudo )?meson (setup|compile|test|install) ", "builds or installs netpath: this test runs from such a build"),
    (r"^sudo apt install ", "installs the Debian package (tools/build-deb.sh installs it in CI's clean room)"),
    (r"^(sudo )?systemctl ", "enables a systemd unit on this machine"),
    (r"^netpath record ", "records this machine until stopped (tests/integration/record.sh)"),
    (r"^netpath doctor --root /var/lib/netpath/record --at ",
     "a moment relative to today, which no fixed recording holds (tests/integration/record.sh "
     "and record-fixture.sh judge recorded windows)"),
    (r"^sudo sed -i .*/etc/prometheus/", "edits the Prometheus server's configuration"),
    (r"^netpath watch ", "live, interactive or a minute long (tests/integration/watch-*.sh)"),
    (r"^netpath trace ", "needs root and BPF, attaches to a live interface (tests/integration/trace-*.sh)"),
    (r"^netpath capture ", "samples this machine for a second and writes a capture (tests/integration/capture.sh)"),
    (r"^netpath diff --live ", "judges the running system, so its verdict is this machine's (tests/integration/diff-cli.sh)"),
    (r"^netpath doctor .*--netns ", "needs a network namespace named web1 (tests/integration/netns.sh)"),
    (r"^netpath doctor bond0\.100$", "no fixture has a VLAN on a bond (tests/integration/stack.sh builds one)"),
    (r"^netpath doctor .*--every ", "runs until stopped (tests/integration/doctor-every.sh)"),
    (r"^head -c 32 /dev/urandom > ", "writes a key file in /etc (tests/integration/path-basic.sh makes one)"),
    (r"^netpath (serve|path) ", "a test transfer between two hosts (tests/integration/path-*.sh, two namespaces)"),
]

# Paths the examples name, and the fixture each one stands for.
PATHS = {
    "/srv/captures/web7": f"{tree}/after", "/captures/web7": f"{tree}/after",
    "after/": f"{tree}/after", "before/": f"{tree}/before",
    "cap/": f"{tree}/after", "cap0/": f"{tree}/before",
    "web7.cap": f"{fix}/capture/veth-tbf.cap",
    # diff: two machines' captures with the same interface name (eth0).
    "monday/": f"{fix}/trees/pop-a/after", "friday/": f"{fix}/trees/pop-b/after",
    "/srv/captures/web7-monday": f"{fix}/trees/pop-a/after",
    "/srv/captures/web7-friday": f"{fix}/trees/pop-b/after",
    "/var/lib/netpath/record": f"{fix}/recordings/vm-eth0",
}
# What may run: one read-only netpath command, at most piped into jq; no other shell.
RUNNABLE = re.compile(r"^netpath (doctor|plan|diff|checks|explain|help|history)( [^;&|<>`$()]*)?( \| jq '[^']*')?$")


def render(page):
    """The page as plain text, wide enough that no command wraps."""
    out = subprocess.run(["mandoc", "-Tutf8", "-O", "width=1000", page], check=True,
                         capture_output=True, text=True).stdout
    return re.sub(r".\x08", "", out).expandtabs().splitlines()


def section(lines, name):
    start = lines.index(name) + 1
    end = next((i for i in range(start, len(lines)) if re.match(r"^[A-Z]", lines[i])), len(lines))
    return lines[start:end]


def man8_examples():
    lines = render(man8)
    # EXAMPLES: each example is a tag line at the section's indent, its text indented deeper.
    cmds = [("netpath(8) EXAMPLES", l.strip()) for l in section(lines, "EXAMPLES")
            if re.match(r"^ {7}\S", l)]
    # FILES: the settings file shown between the first comment line and the blank line.
    files = section(lines, "FILES")
    i = next(i for i, l in enumerate(files) if l.strip().startswith("# "))
    conf = []
    while i < len(files) and files[i].strip():
        conf.append(files[i].strip())
        i += 1
    return cmds, conf


def man7_examples():
    lines = [l.strip() for l in render(man7)]
    cmds = [("netpath-checks(7)", l) for l in lines if l.startswith("netpath doctor --threshold ")]
    conf = [l for l in lines if re.match(r"^threshold [a-z0-9.-]+ (warn|crit)=", l)]
    return cmds, conf


def readme_examples():
    cmds, prev_blank, in_block = [], True, False
    for l in open(readme):
        l = l.rstrip("\n")
        if l.startswith("    ") and (in_block or prev_blank):
            in_block = True
            cmd = re.sub(r"\s{2,}#.*$", "", l).strip()     # the comment after a command
            if cmd and not cmd.startswith("#"):
                cmds.append(("README.md", cmd))
        elif l.strip():
            in_block = False
        prev_blank = not l.strip()
    return cmds


def adapt(cmd, scratch):
    """The command with the documentation's paths mapped to fixtures and outputs to scratch."""
    for doc, real in PATHS.items():
        cmd = re.sub(rf"(?<!\S){re.escape(doc)}(?!\S)", real, cmd)
    cmd = re.sub(r" \[[A-Z]+\]", "", cmd)         # an optional operand, left out
    cmd = re.sub(r" -o (\S*/)?(\S+)", rf" -o {scratch}/\2", cmd)
    cmd = re.sub(r" --write \S+", f" --write {scratch}/plan", cmd)
    m = re.match(r"^netpath (doctor|plan)\b", cmd)
    if m and " --root " not in cmd:
        extra = f" --root {tree}/after" + (f" --before {tree}/before" if m.group(1) == "doctor" else "")
        cmd = cmd[:m.end()] + extra + cmd[m.end():]
    return cmd


def run(where, cmd, scratch, bindir):
    """Run one adapted example; return a problem or None."""
    sub = cmd.split()[1]
    # doctor and diff exit with the verdict (0-2 on the fixtures); the others with 0.
    ok_rc = {0, 1, 2} if sub in ("doctor", "diff") else {0}
    script = cmd + '\nprintf "%s\\n" "${PIPESTATUS[*]}" > "$NP_STATUS"'
    env = dict(os.environ, PATH=f"{bindir}:{os.environ['PATH']}", NP_STATUS=f"{scratch}/status",
               HOME=scratch, NO_COLOR="1")
    if os.path.exists(f"{scratch}/status"):
        os.unlink(f"{scratch}/status")
    p = subprocess.run(["bash", "-c", script], cwd=scratch, env=env, capture_output=True,
                       text=True, timeout=120)
    if not os.path.exists(f"{scratch}/status"):
        return f"{where}: `{cmd}` is not a shell command: {p.stderr.strip()[-300:]}"
    status = open(f"{scratch}/status").read().split()
    if int(status[0]) not in ok_rc:
        return f"{where}: `{cmd}` exited {status[0]}: {p.stderr.strip()[-300:]}"
    if len(status) > 1:
        if status[-1] != "0":
            return f"{where}: jq failed ({status[-1]}) in `{cmd}`: {p.stderr.strip()[-300:]}"
        if not p.stdout.strip():
            return f"{where}: jq printed nothing in `{cmd}`"
    return None


def main():
    scratch = tempfile.mkdtemp(prefix="np-examples.")
    try:
        bindir = f"{scratch}/bin"
        os.mkdir(bindir)
        os.symlink(os.path.abspath(netpath), f"{bindir}/netpath")
        work = f"{scratch}/work"
        os.mkdir(work)
        # git keeps no directory mode, and netpath refuses a recording others can write to: a
        # private copy, as the recorder makes them.
        rec = f"{scratch}/record"
        shutil.copytree(PATHS["/var/lib/netpath/record"], rec)
        os.chmod(rec, 0o700)
        PATHS["/var/lib/netpath/record"] = rec
        c8, conf8 = man8_examples()
        c7, conf7 = man7_examples()
        examples = c8 + c7 + readme_examples()
        assert len(c8) >= 10 and len(c7) >= 20 and len(conf7) >= 20 and conf8, \
            (len(c8), len(c7), len(conf7), conf8)
        problems, used, skipped, ran = [], set(), [], 0
        # A textfile written for node_exporter goes where the units write it (meson_options.txt:
        # Debian's directory; upstream's node_exporter has none of its own to name here).
        opts = open(f"{os.path.dirname(readme)}/meson_options.txt").read()
        textfile_dir = re.search(r"option\('textfile_dir'.*?value : '([^']+)'", opts, re.S).group(1)
        for where, cmd in examples:
            for path in re.findall(r" -o (\S+\.prom)\b", cmd):
                if os.path.dirname(path) != textfile_dir:
                    problems.append(f"{where}: `{cmd}` writes its textfile to {os.path.dirname(path)},"
                                    f" not the units' {textfile_dir}")
        for where, cmd in examples:
            rule = next((r for r in SKIP if re.search(r[0], cmd)), None)
            if rule:
                used.add(rule[0])
                skipped.append(f"  {cmd}\n      ({where}) {rule[1]}")
                continue
            if not RUNNABLE.match(cmd):
                problems.append(f"{where}: `{cmd}` is neither runnable here nor on the skip list")
                continue
            problem = run(where, adapt(cmd, work), work, bindir)
            if problem:
                problems.append(problem)
            ran += 1
        for pattern, why in SKIP:
            if pattern not in used:
                problems.append(f"skip rule {pattern!r} ({why}) matches no example any more")
        # The settings files as the pages show them, read by doctor.
        for name, lines in (("netpath(8) FILES", conf8), ("netpath-checks(7) thresholds", conf7)):
            conf = f"{work}/netpath.conf"
            with open(conf, "w") as f:
                f.write("\n".join(lines) + "\n")
            os.chmod(conf, 0o600)
            problem = run(name, f"netpath doctor --config {conf} --root {tree}/after "
                          f"--before {tree}/before", work, bindir)
            if problem:
                problems.append(f"{problem}\n  the file:\n    " + "\n    ".join(lines))
            ran += 1
        print(f"{len(skipped)} examples not runnable here:")
        print("\n".join(skipped))
        for msg in problems:
            print("FAIL:", msg)
        if problems:
            return 1
        print(f"PASS: {ran} examples ran against fixtures, {len(skipped)} skipped with a reason")
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


sys.exit(main())
