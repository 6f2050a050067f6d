#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The generated man page is lint-clean and documents every check of the table.
set -u
: "${NETPATH:?}" "${NP_MANPAGE:?}"
command -v mandoc >/dev/null || { echo "SKIP: mandoc not installed"; exit 77; }

lint=$(mandoc -Tlint "$NP_MANPAGE" 2>&1)
[ -z "$lint" ] || { echo "FAIL: mandoc -Tlint:"; echo "$lint"; exit 1; }

ids=$("$NETPATH" checks --json | python3 -c 'import json,sys; print("\n".join(c["id"] for c in json.load(sys.stdin)["checks"]))')
[ "$(echo "$ids" | wc -l)" -gt 20 ] || { echo "FAIL: too few checks listed"; exit 1; }
missing=0
for id in $ids; do
	grep -qx ".B $id" "$NP_MANPAGE" || { echo "FAIL: $id missing from $NP_MANPAGE"; missing=1; }
done
[ "$missing" -eq 0 ] || exit 1
# The rendered page must read as text (no troff errors).
mandoc -Thtml "$NP_MANPAGE" | grep -q "id=\"EXIT_STATUS\"" || { echo "FAIL: render"; exit 1; }
echo "PASS: $(echo "$ids" | wc -l) checks documented"
