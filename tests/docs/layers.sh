#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The layering of design.md, held by the includes (and by the build: src/meson.build): core and model at the bottom (core knows
# neither model nor checks); collect and checks side by side above them, neither including the
# other; plan (pure, like checks) above checks; render above them and never collect; cmd and
# trace on top. Every src/ directory puts
# its headers on one include path, so a quoted include is matched to the directory that has it.
# Run once on the tree, and once on a made-up tree that breaks the rule, to prove it can fail.
set -u
NP_PY=${NP_PYTHON:-/usr/bin/python3}
: "${NP_SRCDIR:?}"
check() {
	"$NP_PY" - "$1" <<'PY'
import os, re, sys
src = sys.argv[1]
may = {'core': 'core', 'model': 'model', 'collect': 'core model collect',
       'checks': 'core model checks', 'plan': 'core model checks plan',
       'render': 'core model checks plan render',
       'trace': 'core model collect checks render trace',
       'cmd': 'core model collect checks plan render cmd trace'}
home = {}
for d in may:
    for n in os.listdir(os.path.join(src, d)) if os.path.isdir(os.path.join(src, d)) else []:
        if n.endswith('.h'):
            home.setdefault(n, d)
bad = 0
for layer, allowed in may.items():
    top = os.path.join(src, layer)
    if not os.path.isdir(top):
        continue
    for n in sorted(os.listdir(top)):
        if not n.endswith(('.c', '.h')):
            continue
        for h in re.findall(r'^#include "([^"]+)"', open(os.path.join(top, n)).read(), re.M):
            d = home.get(os.path.basename(h))
            if os.path.exists(os.path.join(top, h)) or d is None:
                continue
            if d not in allowed.split():
                print(f'FAIL: {layer}/{n} includes {d}/{h}')
                bad = 1
sys.exit(bad)
PY
}
check "$NP_SRCDIR/src" || exit 1
# The build holds the same rules: src/meson.build compiles each layer as its own library with
# only the include directories below (np_layers), so a leak does not build. Its table and this
# one must agree, or one of them is wrong.
"$NP_PY" - "$NP_SRCDIR/src/meson.build" <<'PY' || exit 1
import re, sys
text = open(sys.argv[1]).read()
may = {'core': 'core', 'model': 'model', 'collect': 'core model collect',
       'checks': 'core model checks', 'plan': 'core model checks plan',
       'render': 'core model checks plan render'}
rows = dict((m.group(1), m.group(2)) for m in
            re.finditer(r"\['(\w+)', np_\w+_src, \[([^\]]*)\]\]", text))
bad = 0
for layer, allowed in may.items():
    got = sorted(re.findall(r"'(\w+)'", rows.get(layer, '')))
    if got != sorted(allowed.split()):
        print(f'FAIL: src/meson.build builds {layer} with {got}, the rule is {sorted(allowed.split())}')
        bad = 1
sys.exit(bad)
PY
probe=$(mktemp -d /tmp/np-layers.XXXXXX)
trap 'rm -rf "$probe"' EXIT
mkdir -p "$probe/checks" "$probe/collect"
: > "$probe/collect/sock_diag.h"
printf '#include "sock_diag.h"\n' > "$probe/checks/x.c"
check "$probe" > /dev/null && { echo "FAIL: a check including a collector was not caught"; exit 1; }
echo "ok: includes follow the layers"
