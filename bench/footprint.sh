#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 5: footprint. Binary size (as built and stripped), shared-library dependencies,
# peak RSS of a doctor run, and start-up time (`netpath --version`, `netpath checks`) beside a
# trivial dynamically linked C program (the floor any process pays on this machine).
# Usage: sudo bench/footprint.sh [IFACE] [RUNS]   (default eth0, 100 runs)
# Writes bench/results/footprint.md (and .json).
set -eu
. "$(dirname "$0")/lib/common.sh"
ifc=${1:-eth0}
runs=${2:-100}
bench_need_root
bench_need cc strip size ldd /usr/bin/time

tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
printf 'int main(void) { return 0; }\n' > "$tmp/true.c"
cc -O2 -o "$tmp/true" "$tmp/true.c"
cp "$NETPATH" "$tmp/netpath.stripped"
strip "$tmp/netpath.stripped"

out="$results_dir/footprint"
$measure --runs "$runs" --warmup 5 --rss-runs 10 --json "$out.json" --markdown "$tmp/table.md" \
	"empty C program=$tmp/true" \
	"netpath --version=$NETPATH --version" \
	"netpath checks=$NETPATH checks" \
	"netpath doctor=$NETPATH doctor --interval 0 $ifc" \
	"netpath doctor --json=$NETPATH doctor --interval 0 --json $ifc"

libs=$(ldd "$NETPATH" | awk '$2 == "=>" { print $1 }')
nlibs=$(echo "$libs" | wc -l)
{
	echo "# Benchmark 5: footprint"
	echo
	echo "Produced by \`sudo bench/footprint.sh $ifc $runs\`."
	echo
	bench_machine
	echo "## Binary"
	echo
	echo "| | bytes |"
	echo "|---|---|"
	echo "| as built (\`$(bench_buildtype)\`) | $(stat -c %s "$NETPATH") |"
	echo "| stripped | $(stat -c %s "$tmp/netpath.stripped") |"
	size "$tmp/netpath.stripped" | awk 'NR == 2 { printf "| text / data / bss | %s / %s / %s |\n", $1, $2, $3 }'
	echo
	echo "## Shared libraries ($nlibs, from \`ldd\`)"
	echo
	echo '```'
	ldd "$NETPATH" | sed 's/ (0x[0-9a-f]*)//'
	echo '```'
	echo
	echo "Needed by the command itself: libnl-3, libnl-route-3 (rtnetlink links, stats,"
	echo "qdiscs), libmnl (ethtool netlink, sock_diag), libm, libc. Pulled in only for"
	echo "\`watch\` (libncursesw, libtinfo) and \`trace\` (libbpf and its libelf, libz), but"
	echo "loaded by every run."
	echo
	echo "## Start-up, peak RSS"
	echo
	cat "$tmp/table.md"
} > "$out.md"
cat "$out.md"
