#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 17: instruction counts (callgrind), which do not move with the load of a shared VM
# (issue #35). Three measurements, each the median of RUNS callgrind runs:
#   1. `doctor --interval 0 IFACE` (output to /dev/null): user-space instructions, and the share
#      of the dynamic loader (ld.so: start-up relocation and lazy binding) apart;
#   2. per TCP socket in a dump: `doctor --interval 0 lo` inside a namespace this script
#      creates, with 0 and N loopback connections (2N sockets, tests/helpers/nptraffic pairs,
#      as bench/sockets_scale.sh), the slope (I(2N) - I(0)) / 2N; every extra count in
#      COUNTS gives its own slope against 0;
#   3. `capture IFACE -i 0.1 -o FILE`: instructions and the archive's size.
# NETPATH_BEFORE=OTHER/netpath adds the same rows for another build, measured in the same run.
# Usage: sudo bench/instructions.sh [IFACE] [RUNS] [COUNTS]   (default eth0 3 "4000")
# Writes bench/results/instructions.md.
set -eu
. "$(dirname "$0")/lib/common.sh"
iface=${1:-eth0}
runs=${2:-3}
counts=${3:-4000}
bench_need_root
bench_need valgrind callgrind_annotate ip
bench_need_nptraffic

ns="npbench-insn-$$"
tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	ip netns del "$ns" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# insn OUT CMD...: one callgrind run (inside $nspfx, "ip netns exec NS" or empty); prints
# "total loader parsed": the process's instructions; those of the dynamic loader (ld.so):
# _dl_start inclusive (mapping and relocating before main), _dl_runtime_resolve* inclusive
# (lazy binding of each library function at its first call) and _dl_fini (exit); and the
# sockets the dump parsed (calls of np_sock_diag_parse).
insn() {
	local out=$1
	shift
	$nspfx valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$out.log"
	callgrind_annotate --inclusive=yes --tree=calling --threshold=100 "$out" 2>/dev/null | awk '
		/PROGRAM TOTALS/ { v = $1; gsub(",", "", v); total = v }
		/\*  .*:(_dl_start|_dl_runtime_resolve[a-z_]*|_dl_fini) \[/ {
			v = $1; gsub(",", "", v); ld += v }
		/>   .*:np_sock_diag_parse \(/ {
			v = $0; sub(/.*np_sock_diag_parse \(/, "", v); sub(/x\).*/, "", v)
			gsub(",", "", v); parsed += v }
		END { printf "%d %d %d\n", total, ld, parsed }'
}

# median of the lines of numbers on stdin (first field), with the matching line whole.
median_line() {
	sort -n | awk '{ l[NR] = $0 } END { print l[int((NR + 1) / 2)] }'
}

fmt() { echo "$1" | sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta'; }	# 1234567 -> 1,234,567

builds="after=$NETPATH"
[ -n "${NETPATH_BEFORE:-}" ] && builds="before=$NETPATH_BEFORE $builds"

rows_doctor="" rows_sock="" rows_cap="" nspfx=""
for b in $builds; do
	label=${b%%=*}
	bin=${b#*=}
	# 1. doctor on IFACE
	for r in $(seq "$runs"); do insn "$tmp/d.$label.$r" "$bin" doctor --interval 0 "$iface"; done \
		> "$tmp/d.$label"
	read -r dt dl _ < <(median_line < "$tmp/d.$label")
	rows_doctor+="| $label | \`$(basename "$bin") doctor --interval 0 $iface\` | $(fmt "$dt") | $(fmt "$dl") ($(awk -v a="$dl" -v b="$dt" 'BEGIN { printf "%.1f", 100 * a / b }')%) | $(fmt $((dt - dl))) | $(tr '\n' ' ' < "$tmp/d.$label" | awk '{ for (i = 1; i <= NF; i += 3) printf "%s%s", (i > 1 ? ", " : ""), $i }') |"$'\n'
	# 3. capture
	for r in $(seq "$runs"); do
		rm -f "$tmp/cap.tgz"
		set -- $(insn "$tmp/c.$label.$r" "$bin" capture "$iface" -i 0.1 -o "$tmp/cap.tgz")
		echo "$1 $(stat -c %s "$tmp/cap.tgz")"
	done > "$tmp/c.$label"
	read -r ct cs < <(median_line < "$tmp/c.$label")
	rows_cap+="| $label | \`$(basename "$bin") capture $iface -i 0.1 -o FILE\` | $(fmt "$ct") | $(fmt "$cs") B |"$'\n'
done

# The same capture's tar compressed at gzip levels 6 (before) and 3 (after): the size cost
# on identical content (the two runs above read counters that moved between them).
gzip -dc < "$tmp/cap.tgz" 2>/dev/null > "$tmp/cap.tar" || true
levels=$(/usr/bin/python3 - "$tmp/cap.tar" <<'EOF'
import sys, zlib
d = open(sys.argv[1], 'rb').read()
out = []
for lv in (6, 3, 1):
    c = zlib.compressobj(lv, zlib.DEFLATED, 31, 8)
    out.append("%d:%d" % (lv, len(c.compress(d) + c.flush())))
print(len(d), " ".join(out))
EOF
)

# 2. sockets in a namespace
for n in 0 $counts; do
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	pids=""
	[ "$n" -gt 0 ] && bench_connections "$ns" "$n" "$tmp/ready.$n"
	est=$(ip netns exec "$ns" ss -Htn | wc -l)
	for b in $builds; do
		label=${b%%=*}
		bin=${b#*=}
		for r in $(seq "$runs"); do
			nspfx="ip netns exec $ns" insn "$tmp/s.$label.$n.$r" "$bin" doctor --interval 0 lo
		done > "$tmp/s.$label.$n"
		read -r st _ sp < <(median_line < "$tmp/s.$label.$n")
		echo "$n $est $st $sp" >> "$tmp/s.$label"
	done
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	pids=""
	ip netns del "$ns"
done
for b in $builds; do
	label=${b%%=*}
	read -r _ e0 i0 p0 < "$tmp/s.$label"
	while read -r n est in pn; do
		[ "$n" -gt 0 ] || continue
		rows_sock+="| $label | $(fmt "$est") (0: $e0) | $(fmt "$pn") (0: $p0) | $(fmt "$i0") | $(fmt "$in") | **$(awk -v a="$i0" -v b="$in" -v e="$pn" -v z="$p0" 'BEGIN { printf "%.0f", (b - a) / (e - z) }')** |"$'\n'
	done < "$tmp/s.$label"
done

{
	echo "# Instruction counts (callgrind): doctor, per socket, capture"
	echo
	echo "Generated by \`bench/instructions.sh $iface $runs \"$counts\"\`. Instructions are user-space"
	echo "instructions of the whole process (valgrind --tool=callgrind), the median of $runs runs;"
	echo "they do not move with the load of the VM, unlike times. Output to /dev/null."
	echo
	bench_machine
	echo "## 1. \`doctor --interval 0 $iface\`"
	echo
	echo "The loader column counts instructions executed in ld.so's own code (relocations at start,"
	echo "lazy binding of library calls)."
	echo
	echo "| build | command | instructions (median) | of which ld.so | without ld.so | runs |"
	echo "|---|---|---|---|---|---|"
	printf "%s" "$rows_doctor"
	echo
	echo "## 2. Per TCP socket in a dump"
	echo
	echo "\`ip netns exec NS netpath doctor --interval 0 lo\` (doctor's socket summary walks every"
	echo "TCP socket of the namespace) with 0 and N loopback connections; TCP sockets as \`ss -Htn\`"
	echo "counts them, sockets parsed as callgrind counts calls of np_sock_diag_parse. A dump has"
	echo "5 s (NP_SOCK_DIAG_DEADLINE_S): under callgrind's slowdown it stops before 200,000"
	echo "sockets and doctor says so; the slope is per socket parsed, which is what a dump costs"
	echo "per socket."
	echo
	echo "| build | TCP sockets | sockets parsed | instructions at 0 | instructions at N | per socket: (I(N) - I(0)) / parsed |"
	echo "|---|---|---|---|---|---|"
	printf "%s" "$rows_sock"
	echo
	echo "## 3. \`capture $iface -i 0.1 -o FILE\`"
	echo
	echo "| build | command | instructions (median) | archive size (median run) |"
	echo "|---|---|---|---|"
	printf "%s" "$rows_cap"
	echo
	read -r tarlen l6 l3 l1 <<< "$levels"
	echo "The last archive's tar ($(fmt "$tarlen") B) compressed again by Python's zlib with the"
	echo "same settings (gzip wrapper, window 15, memLevel 8): level 6 (before) ${l6#6:} B, level 3"
	echo "(now) ${l3#3:} B (+$(awk -v a="${l6#6:}" -v b="${l3#3:}" 'BEGIN { printf "%.1f", 100 * (b - a) / a }')%), level 1 ${l1#1:} B."
} > "$results_dir/instructions.md"
cat "$results_dir/instructions.md"
