#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A finding says what only this machine shows; its check's .why and .fix are joined to it by the
# renderers (np_finding_why, np_finding_fix). So no np_detail()/np_remedy() text in a check file
# may repeat a sentence (40 characters or more) of a .why or .fix of that file: two copies
# drift. Run once on the tree and once on a made-up file that repeats one, to prove it can fail.
set -u
NP_PY=${NP_PYTHON:-/usr/bin/python3}
: "${NP_SRCDIR:?}"
check() {
	"$NP_PY" - "$@" <<'PY'
import re, sys
LIT = r'((?:"(?:[^"\\]|\\.)*"\s*)+)'
def text(lits):
    return ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', lits))
bad = 0
for path in sys.argv[1:]:
    src = open(path, encoding='utf-8').read()
    static = [text(m.group(1)) for m in re.finditer(r'\.(?:why|fix)\s*=\s*' + LIT, src)]
    for m in re.finditer(r'np_(?:detail|remedy)\(\w+,\s*' + LIT, src):
        for sentence in re.split(r'(?<=[.:;])\s+', text(m.group(1))):
            if len(sentence) >= 40 and any(sentence in s for s in static):
                line = src.count('\n', 0, m.start()) + 1
                print(f'FAIL: {path}:{line} repeats its entry\'s text: "{sentence[:70]}..."')
                bad = 1
sys.exit(bad)
PY
}
check "$NP_SRCDIR"/src/checks/*.c || exit 1
probe=$(mktemp /tmp/np-finding-text.XXXXXX.c)
trap 'rm -f "$probe"' EXIT
cat > "$probe" <<'C'
static void run(struct np_finding *f) { np_detail(f, "The queue overflows when the sender is faster than the reader."); }
const struct np_check np_check_x = { .why = "The queue overflows when the sender is faster than the reader.", };
C
check "$probe" > /dev/null && { echo "FAIL: a repeated sentence was not caught"; exit 1; }
echo "ok: findings add to their entry's text, never repeat it"
