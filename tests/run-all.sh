#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The whole test suite: unit tests (plain and under ASan+UBSan) and the integration tests
# (root, network namespaces). This is what README.md and .ci/run invoke.
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
exit $status
