#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# No circles between source files: a file that calls into another is never called back by it,
# directly or round a longer loop. An orchestrator calls its parts and the parts share helpers
# of their own (plan.c -> plan_sysctl.c -> plan_line.c, render_prom.c -> render_prom_nic.c ->
# prom_writer.c), so each file can be read, tested and moved knowing only what lies below it.
# Read from the build itself: every object's defined functions and undefined symbols (nm), an edge from
# the file that uses a symbol to the file that defines it, and any strongly connected set of
# more than one file is a circle. Run once on the build, once on two made-up objects that call
# each other, to prove it can fail.
set -u
NP_PY=${NP_PYTHON:-/usr/bin/python3}
: "${NP_BUILDDIR:?}"
command -v nm > /dev/null || { echo "SKIP: no nm"; exit 77; }
find_cycles() {
	"$NP_PY" - "$@" <<'PY'
import collections, os, subprocess, sys
defs, uses = {}, collections.defaultdict(set)
# One nm for all objects (-A: each line starts "OBJECT:"): one process per object took 30 s
# on a busy host.
objs = sys.argv[1:]
for i in range(0, len(objs), 200):
    out = subprocess.run(['nm', '-A'] + objs[i:i + 200], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        o, _, rest = line.partition(':')
        f = rest.split()
        if len(f) == 3 and f[1] in 'TW':	# functions: a table of data (the check list) is no call
            defs[f[2]] = o
        elif len(f) == 2 and f[0] == 'U':
            uses[o].add(f[1])
edges = {o: {defs[u] for u in us if u in defs and defs[u] != o} for o, us in uses.items()}
# Tarjan's strongly connected components, iteratively (no recursion limit on big trees).
index, low, on, stack, sccs, n = {}, {}, set(), [], [], 0
for root in list(edges):
    if root in index:
        continue
    work = [(root, iter(edges.get(root, ())))]
    index[root] = low[root] = n; n += 1; stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = n; n += 1; stack.append(w); on.add(w)
                work.append((w, iter(edges.get(w, ()))))
                break
            if w in on:
                low[v] = min(low[v], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    sccs.append(comp)
name = lambda o: os.path.basename(o).replace('.c.o', '').replace('.o', '')
for c in sccs:
    print('FAIL: files call each other: ' + ' <-> '.join(sorted(name(o) for o in c)))
sys.exit(1 if sccs else 0)
PY
}
objs=$(find "$NP_BUILDDIR/src" -name '*.c.o' -path '*.p/*' | sort)
[ -n "$objs" ] || { echo "FAIL: no objects under $NP_BUILDDIR/src"; exit 1; }
# shellcheck disable=SC2086
find_cycles $objs || exit 1
probe=$(mktemp -d /tmp/np-cycles.XXXXXX)
trap 'rm -rf "$probe"' EXIT
printf 'int b(void);\nint a(void) { return b(); }\n' > "$probe/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' > "$probe/b.c"
${CC:-cc} -c -o "$probe/a.c.o" "$probe/a.c" && ${CC:-cc} -c -o "$probe/b.c.o" "$probe/b.c" ||
	{ echo "SKIP: no C compiler for the probe"; exit 77; }
find_cycles "$probe/a.c.o" "$probe/b.c.o" > /dev/null &&
	{ echo "FAIL: two files calling each other were not caught"; exit 1; }
echo "ok: no circles between source files ($(echo "$objs" | wc -l) objects)"
