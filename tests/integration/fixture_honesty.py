#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Keep the fixture generators honest: every file a hand-made fixture tree holds must be one that
netpath really reads — a path `netpath capture` recorded on a real machine — so a generator
cannot feed the checks a file name the kernel never had, or one the collectors never open.

Usage: fixture_honesty.py --capture CAP [--capture CAP ...] --sources SRCDIR TREE...

Paths are compared in a normal form: interface names, PCI addresses, IRQ, CPU, queue and process
numbers become placeholders, and sysfs's class/net/IF and devices/.../net/IF are one place.
Device files this machine does not have (PCIe link attributes and AER counters of real NICs,
the xps_cpus of a multi-queue device, a bond's slaves, the sysfs statistics/ that only the
fallback reads when rtnetlink fails) cannot be captured here; a file beneath the interface's or
its PCI device's directory is accepted when a collector in SRCDIR/src/collect names it, so this
allowance cannot drift from the code either. Prints each unknown file and exits 1 if there is one.
"""
import os
import re
import sys
import tarfile

BDF = r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]"


def norm(path, ifnames):
    p = re.sub(r"^s[12]/", "", path)
    # sysfs: the interface directory, wherever the tree keeps it.
    p = re.sub(r"^sys/devices/.*/net/([^/]+)/", r"sys/class/net/\1/", p)
    p = re.sub(r"^sys/class/net/([^/]+)/device/", "sys/PCIDEV/", p)
    p = re.sub(r"^sys/devices/(?:[^/]+/)*" + BDF + r"/", "sys/PCIDEV/", p)
    for name in sorted(ifnames, key=len, reverse=True):
        p = p.replace("/net/%s/" % name, "/net/IF/").replace("/conf/%s/" % name, "/conf/IF/")
    p = re.sub(r"/net/[^/]+/", "/net/IF/", p) if p.startswith("sys/class/net/") else p
    p = re.sub(r"/conf/(?!all/|default/)[^/]+/", "/conf/IF/", p)
    p = re.sub(r"\b(rx|tx)-\d+", r"\1-N", p)
    p = re.sub(r"cpu\d+", "cpuN", p)
    p = re.sub(r"/\d+(?=/|$)", "/N", p)
    # /proc/net is /proc/self/net, which a capture keeps under the reading process's number.
    return re.sub(r"^proc/N/net/", "proc/net/", p)


def capture_paths(cap):
    """The files a capture holds, and those whose read failed (its errors lists)."""
    with tarfile.open(cap) as t:
        members = [m for m in t.getmembers() if m.isfile()]
        meta = t.extractfile("META").read().decode()
        failed = []
        for s in ("s1", "s2"):
            for line in t.extractfile(s + "/errors").read().decode().splitlines():
                tree, path, _ = line.split("\t")
                failed.append("%s/%s" % (tree, path))
    ifs = re.search(r"^interfaces: (.*)$", meta, re.M).group(1).split()
    return {norm(m.name, ifs) for m in members if m.name.startswith(("s1/proc", "s1/sys",
                                                                        "s2/proc", "s2/sys"))} | \
        {norm(p, ifs) for p in failed}


def tree_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        for f in filenames:
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, root)
            if os.path.islink(full) or f == ".gitkeep" or not rel.startswith(("proc/", "sys/")):
                continue
            yield rel


def tree_roots(top):
    """A fixture directory holds one tree, or before/ and after/ ones."""
    if os.path.isdir(os.path.join(top, "proc")) or os.path.isdir(os.path.join(top, "sys")):
        return [top]
    return [os.path.join(top, d) for d in sorted(os.listdir(top))
            if os.path.isdir(os.path.join(top, d, "proc")) or os.path.isdir(os.path.join(top, d, "sys"))]


def named_in_collectors(srcdir):
    names = set()
    cdir = os.path.join(srcdir, "src", "collect")
    for f in os.listdir(cdir):
        if f.endswith(".c"):
            with open(os.path.join(cdir, f)) as fh:
                text = fh.read()
                names |= set(re.findall(r'"[^"\n]*?([a-z_][a-z0-9_]+)"', text))
    # The interface statistics the sysfs reader walks by name (model/link_stats.h's table).
    with open(os.path.join(srcdir, "src", "model", "link_stats.h")) as fh:
        names |= set(re.findall(r'\bX\((\w+)\)', fh.read()))
    # The sysctls the collector reads (model/sysctl_registry.h's rows).
    with open(os.path.join(srcdir, "src", "model", "sysctl_registry.h")) as fh:
        names |= {k.rsplit(".", 1)[-1] for k in re.findall(r'X\(\w+, "([a-z0-9_.]+)"', fh.read())}
    return names


def main():
    args = sys.argv[1:]
    caps, trees, srcdir = [], [], "."
    while args:
        a = args.pop(0)
        if a == "--capture":
            caps.append(args.pop(0))
        elif a == "--sources":
            srcdir = args.pop(0)
        else:
            trees.append(a)
    known = set()
    for c in caps:
        known |= capture_paths(c)
    hw_only = named_in_collectors(srcdir)
    bad = 0
    for top in trees:
        for root in tree_roots(top):
            ifs = [d for d in os.listdir(os.path.join(root, "sys/class/net"))] \
                if os.path.isdir(os.path.join(root, "sys/class/net")) else []
            for rel in tree_files(root):
                n = norm(rel, ifs)
                if n in known:
                    continue
                if n.startswith(("sys/class/net/IF/", "sys/PCIDEV/")) and \
                        os.path.basename(n) in hw_only:
                    continue  # a device file this machine lacks, read where it exists

                print("%s: %s (as %s) is no file netpath reads" % (root, rel, n))
                bad += 1
    print("%d unknown files in %d trees (%d known paths from %d captures)" %
          (bad, len(trees), len(known), len(caps)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
