#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The fuzz targets tests/fuzz/run.sh runs are exactly the tests/fuzz/fuzz_*.c sources: a word
# the script reads as a target but has no source (a comment inside the list once did this)
# stops the build of every target, and a source left out of the list is never fuzzed. Cheap,
# needs no clang, so it runs with the docs suite on every build, not only when fuzzing runs.
set -u
: "${NP_SRCDIR:?}"
listed=$(sh "$NP_SRCDIR/tests/fuzz/run.sh" --list | sort) || { echo "FAIL: run.sh --list"; exit 1; }
sources=$(cd "$NP_SRCDIR/tests/fuzz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//' | sort)
[ -n "$listed" ] || { echo "FAIL: run.sh --list printed no target"; exit 1; }
fail=0
for t in $(comm -23 <(echo "$listed") <(echo "$sources")); do
	echo "FAIL: run.sh would build '$t', which has no tests/fuzz/fuzz_$t.c"
	fail=1
done
for t in $(comm -13 <(echo "$listed") <(echo "$sources")); do
	echo "FAIL: tests/fuzz/fuzz_$t.c is not in fuzz_targets (tests/fuzz/meson.build)"
	fail=1
done
[ $fail -eq 0 ] && echo "ok: $(echo "$listed" | wc -l) fuzz targets, each with its source"
exit $fail
