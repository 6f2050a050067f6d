#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The whole test suite: unit and integration tests (root, network namespaces) on the plain build
# and again under ASan+UBSan, then a bounded run of every fuzz target (clang). This is what
# README.md and .ci/run invoke.
set -eu
cd "$(dirname "$0")/.."

[ -d build/meson-private ] || meson setup build >/dev/null
meson compile -C build >/dev/null

[ -d build-asan/meson-private ] || \
	meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
meson compile -C build-asan >/dev/null

status=0
echo "== unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --suite unit --print-errorlogs || status=1
echo "== all tests (unit + integration; integration needs root, else skipped)"
meson test -C build --print-errorlogs || status=1
echo "== integration tests under AddressSanitizer + UndefinedBehaviorSanitizer (leaks included)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --suite integration --print-errorlogs || status=1
# Every parser under libFuzzer for a few seconds each (about 3 minutes with the build); a crash
# fails the run and leaves its input in build-fuzz/fuzz-artifacts/. tests/fuzz/REPORT.md.
if command -v clang >/dev/null; then
	echo "== fuzzing (tests/fuzz/run.sh)"
	jobs=$(nproc 2>/dev/null || echo 1)
	[ "$jobs" -le 4 ] || jobs=4
	rc=0
	FUZZ_JOBS=$jobs sh tests/fuzz/run.sh "${NP_FUZZ_SECONDS:-8}" || rc=$?
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || status=1
else
	echo "== fuzzing skipped: no clang (tools/install-deps.sh installs it)"
fi
exit $status
