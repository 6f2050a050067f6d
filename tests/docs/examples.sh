#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The documentation's example commands run (tests/docs/examples.py says how, and lists those
# that cannot run here with the reason): netpath(8) and netpath-checks(7) as rendered, and
# README.md's code blocks.
set -u
: "${NETPATH:?}" "${NP_MANPAGE:?}" "${NP_MANPAGE7:?}" "${NP_SRCDIR:?}"
# The distribution's python3, as in tests/integration/lib.sh.
NP_PY=${NP_PYTHON:-/usr/bin/python3}
for tool in mandoc jq; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed (tools/install-deps.sh)"; exit 77; }
done
exec "$NP_PY" "$NP_SRCDIR/tests/docs/examples.py" "$NETPATH" "$NP_MANPAGE" "$NP_MANPAGE7" \
	"$NP_SRCDIR/README.md" "$NP_SRCDIR/tests/fixtures"
