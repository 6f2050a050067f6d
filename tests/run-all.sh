#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The whole test suite: unit and integration tests (root, network namespaces) on the plain build
# and again under ASan+UBSan, then a bounded run of every fuzz target (clang). This is what
# README.md and .ci/run invoke.
set -eu
cd "$(dirname "$0")/.."
# Wall time of each phase, printed at the end: what dominates CI time.
t_start=$(date +%s)
t_last=$t_start
times=""
phase_done() {
	now=$(date +%s)
	times="$times$(printf '  %-44s %5s s' "$1" $((now - t_last)))
"
	t_last=$now
}

# README's second command installs what the suite needs itself (tools/install-test-deps.sh: the
# build's packages, Prometheus, lintian, valgrind...), as root where apt-get is. With everything
# installed it runs no apt-get and takes a fraction of a second. NETPATH_NO_INSTALL=1 (offline,
# or a machine that must not change) runs with what is installed: tests skip what they lack.
if [ "${NETPATH_NO_INSTALL:-0}" != 1 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null &&
	command -v dpkg-query >/dev/null; then
	sh tools/install-test-deps.sh || {
		echo "run-all: installing the test dependencies failed (tools/install-test-deps.sh);" \
			"NETPATH_NO_INSTALL=1 runs with what is installed" >&2
		exit 1
	}
	phase_done "test dependencies"
fi

[ -d build/meson-private ] || meson setup build >/dev/null
# Warnings are errors here (CI), not in a user's build (meson.build's default_options).
meson configure build -Dwerror=true >/dev/null
meson compile -C build >/dev/null
phase_done "build (plain)"

[ -d build-asan/meson-private ] || \
	meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
meson configure build-asan -Dwerror=true >/dev/null
meson compile -C build-asan >/dev/null
phase_done "build (ASan+UBSan)"

status=0
echo "== unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --suite unit --print-errorlogs || status=1
phase_done "unit tests, ASan+UBSan"
# The unit suite ran above under the sanitizers (same -O2 build type): not again here.
echo "== docs, integration and scenario tests (integration and live scenarios need root)"
meson test -C build --no-suite unit --print-errorlogs || status=1
phase_done "docs, integration, scenarios, plain build"
echo "== integration tests under AddressSanitizer + UndefinedBehaviorSanitizer (leaks included)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	meson test -C build-asan --suite integration --print-errorlogs || status=1
phase_done "integration tests, ASan+UBSan"
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
phase_done "fuzzing"
# The Debian package: dpkg-buildpackage from the committed tree, lintian, the packaged unit's
# ExecStart on a fixture (about 3 minutes on the development VM, most of it the build and the
# unit tests run again inside it). NETPATH_SKIP_DEB=1 leaves it out.
if [ "${NETPATH_SKIP_DEB:-0}" != 1 ] && command -v dpkg-buildpackage >/dev/null; then
	echo "== Debian package (tools/build-deb.sh)"
	sh tools/build-deb.sh || status=1
else
	echo "== Debian package skipped (NETPATH_SKIP_DEB=1, or no dpkg-buildpackage)"
fi
phase_done "Debian package"
echo "== wall time per phase"
printf '%s' "$times"
echo "  total $(( $(date +%s) - t_start )) s"
exit $status
