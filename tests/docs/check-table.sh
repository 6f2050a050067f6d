#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The check table is generated from the check files (src/checks/gen_check_list.py): every
# `const struct np_check np_check_<name>` defined under src/checks is in `netpath checks --json`
# exactly once, in stage order; the generator refuses an entry without a stage and a check
# defined twice, so a broken table fails the build rather than losing a check.
set -u
NP_PY=${NP_PYTHON:-/usr/bin/python3}
: "${NETPATH:?}" "${NP_SRCDIR:?}"
tmp=$(mktemp -d /tmp/np-table.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$NETPATH" checks --json > "$tmp/checks.json" || fail "netpath checks --json"
grep -ho '^const struct np_check np_check_[a-z0-9_]*' "$NP_SRCDIR"/src/checks/*.c |
	sed 's/^const struct np_check np_check_//' | sort > "$tmp/defined"
[ -s "$tmp/defined" ] || fail "no check definitions found under src/checks"
"$NP_PY" - "$tmp/checks.json" "$tmp/defined" "$NP_SRCDIR/src/checks/finding.h" <<'PY' || exit 1
import json, re, sys
checks = json.load(open(sys.argv[1]))['checks']
defined = open(sys.argv[2]).read().split()
stages = re.findall(r'NP_STAGE_(\w+),', open(sys.argv[3]).read())
order = {s.lower(): i for i, s in enumerate(stages)}
names = [re.sub(r'[.-]', '_', c['id']) for c in checks]
if sorted(names) != sorted(defined):
    print('FAIL: table and definitions differ: missing %s, extra %s' % (
        sorted(set(defined) - set(names)), sorted(set(names) - set(defined))))
    sys.exit(1)
if len(set(names)) != len(names):
    print('FAIL: a check is listed twice')
    sys.exit(1)
ranks = [order[c['stage']] for c in checks]
if ranks != sorted(ranks):
    print('FAIL: the table is not in stage order')
    sys.exit(1)
PY
gen=$NP_SRCDIR/src/checks/gen_check_list.py
fin=$NP_SRCDIR/src/checks/finding.h
printf 'const struct np_check np_check_a_b = {\n\t.stage = NP_STAGE_IP,\n};\n' > "$tmp/one.c"
printf 'const struct np_check np_check_c_d = {\n\t.stage = NP_STAGE_LINK,\n};\n' > "$tmp/two.c"
"$NP_PY" "$gen" "$fin" "$tmp/one.c" "$tmp/two.c" "$tmp/list.h" || fail "generator refused good input"
grep -q 'X(c_d).*X(a_b)' <(tr -d '\n' < "$tmp/list.h") || fail "generator did not order by stage"
printf 'const struct np_check np_check_e_f = {\n\t.title = "x",\n};\n' > "$tmp/bad.c"
"$NP_PY" "$gen" "$fin" "$tmp/bad.c" "$tmp/list.h" 2>/dev/null && fail "an entry without .stage was accepted"
"$NP_PY" "$gen" "$fin" "$tmp/one.c" "$tmp/one.c" "$tmp/list.h" 2>/dev/null && fail "a check defined twice was accepted"
echo "ok: $(wc -l < "$tmp/defined") checks, table generated from their files"
