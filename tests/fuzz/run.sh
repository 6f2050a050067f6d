#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the libFuzzer targets (clang, -Dfuzzing=true) and run each for a bounded time. Fails when
# any target crashes, breaks an invariant, leaks, runs out of memory or takes longer than
# FUZZ_TIMEOUT seconds on one input; the input is left in BUILD/fuzz-artifacts/ (copy it to
# tests/fuzz/regressions/<target>/ with the fix, so the unit suite replays it).
#
# Usage: tests/fuzz/run.sh [SECONDS-PER-TARGET] [TARGET...]     (default 15 s, every target)
# Environment: FUZZ_BUILD (build dir, default build-fuzz), FUZZ_JOBS (targets run at once,
# default 1), FUZZ_TIMEOUT (per input, default 10 s). Needs clang with libFuzzer.
set -eu
cd "$(dirname "$0")/../.."
# The list in meson.build, its comments left out (a word in a comment is not a target: a
# comment once made this script ask ninja for tests/fuzz/fuzz_netpath). --list prints it, one
# per line, for tests/docs/fuzz-list.sh.
all_targets() {
	sed -n "/^fuzz_targets = \[/,/^]/{s/#.*//;p}" tests/fuzz/meson.build | tr -c 'a-z_\n' ' ' |
		tr ' ' '\n' | grep -v -e '^fuzz_targets$' -e '^$'
}
if [ "${1:-}" = --list ]; then
	all_targets
	exit 0
fi
secs=${1:-15}
[ $# -gt 0 ] && shift
build=${FUZZ_BUILD:-build-fuzz}
jobs=${FUZZ_JOBS:-1}
per_input=${FUZZ_TIMEOUT:-10}
case $secs in *[!0-9]*|'') echo "run.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 2;; esac

command -v clang >/dev/null || { echo "run.sh: clang not found (fuzzing needs clang's libFuzzer)" >&2; exit 77; }
# clang without its libFuzzer runtime (libclang-rt-dev) cannot link a target: skip, saying so.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
	> "$probe/p.c"
clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>/dev/null ||
	{ echo "run.sh: clang cannot link libFuzzer targets (install libclang-rt-dev)" >&2; exit 77; }
targets=${*:-$(all_targets)}

if [ ! -d "$build/meson-private" ]; then
	CC=clang meson setup "$build" -Dfuzzing=true -Db_sanitize=address,undefined \
		-Db_lundef=false >/dev/null
else
	meson configure "$build" -Dfuzzing=true >/dev/null
fi
# shellcheck disable=SC2046 # target names are plain words
ninja -C "$build" $(for t in $targets; do printf 'tests/fuzz/fuzz_%s ' "$t"; done) >/dev/null

corpus=$build/fuzz-corpus
art=$build/fuzz-artifacts
logs=$build/fuzz-logs
tests/fuzz/corpus.sh "$corpus"
mkdir -p "$art" "$logs"

# run_one TARGET: libFuzzer for $secs seconds over the seeds (new units go to the first dir)
# and the regression inputs; its exit status is the verdict.
run_one() {
	t=$1
	reg=tests/fuzz/regressions/$t
	[ -d "$reg" ] || reg=
	mkdir -p "$corpus/$t"
	# shellcheck disable=SC2086 # $reg is empty or one path
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		"$build/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout="$per_input" \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$art/$t-" \
		"$corpus/$t" $reg >"$logs/$t.log" 2>&1
}

summary() {
	t=$1 rc=$2
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$t.log")
	cov=$(grep -E '^#[0-9]+' "$logs/$t.log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	if [ "$rc" -eq 0 ]; then verdict=ok; else verdict="FAILED (exit $rc, see $logs/$t.log)"; fi
	printf '%-14s %10s execs %8s/s  cov %5s  %s\n' "$t" "${execs:-?}" "${rate:-?}" \
		"${cov:-?}" "$verdict"
}

status=0
echo "== fuzzing: $secs s per target, $jobs at a time ($build)"
set -- $targets
while [ $# -gt 0 ]; do
	batch=
	i=0
	while [ $# -gt 0 ] && [ "$i" -lt "$jobs" ]; do
		batch="$batch $1"
		shift
		i=$((i + 1))
	done
	for t in $batch; do
		( rc=0; run_one "$t" || rc=$?; echo "$rc" >"$logs/$t.rc" ) &
	done
	wait
	for t in $batch; do
		rc=$(cat "$logs/$t.rc")
		summary "$t" "$rc"
		if [ "$rc" -ne 0 ]; then
			status=1
			grep -E 'ERROR|runtime error|invariant failed|Test unit written' \
				"$logs/$t.log" | head -n 5 | sed 's/^/    /'
		fi
	done
done
exit $status
