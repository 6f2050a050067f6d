# SPDX-License-Identifier: GPL-2.0-only
# Shared by the bench/*.sh scripts: where netpath is, the machine description, markdown helpers.
# Sourced, not run.

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo_dir=$(cd "$bench_dir/.." && pwd)
results_dir="$bench_dir/results"
measure="/usr/bin/python3 $bench_dir/lib/measure.py"
# The binary under test: $NETPATH, else a release build in build-bench (meson setup
# build-bench --buildtype=release && meson compile -C build-bench netpath:executable).
NETPATH=${NETPATH:-$repo_dir/build-bench/src/netpath}

bench_need_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "$(basename "$0"): needs root (namespaces, ethtool, PCI config space)" >&2
		exit 77
	fi
}

bench_need() {	# bench_need CMD...: every command must exist
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || { echo "$(basename "$0"): needs $c" >&2; exit 77; }
	done
	[ -x "$NETPATH" ] || { echo "$(basename "$0"): no netpath at $NETPATH (set NETPATH)" >&2; exit 77; }
}

# The machine section of a results file.
bench_machine() {
	local model mem
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
	echo "## Machine"
	echo
	echo "| | |"
	echo "|---|---|"
	echo "| CPUs (nproc) | $(nproc) |"
	echo "| CPU model | ${model:-unknown} |"
	echo "| kernel | $(uname -r) |"
	echo "| memory | $mem |"
	echo "| load average at start | $(cut -d' ' -f1-3 /proc/loadavg) |"
	echo "| netpath | \`$NETPATH\` ($("$NETPATH" --version 2>/dev/null), $(bench_buildtype)) |"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
	echo
}

bench_buildtype() {
	local d
	d=$(dirname "$(dirname "$NETPATH")")
	if [ -f "$d/meson-info/intro-buildoptions.json" ]; then
		/usr/bin/python3 -c 'import json,sys
o={x["name"]:x["value"] for x in json.load(open(sys.argv[1]))}
print("buildtype %s, b_sanitize %s" % (o.get("buildtype"), o.get("b_sanitize")))' \
			"$d/meson-info/intro-buildoptions.json"
	else
		echo "build options unknown"
	fi
}

# The traffic helper the socket benchmarks start (tests/helpers/nptraffic): $helper.
bench_need_nptraffic() {
	helper=${NPTRAFFIC:-$(dirname "$NETPATH")/../tests/helpers/nptraffic}
	[ -x "$helper" ] || { echo "no $helper (meson compile, or set NPTRAFFIC)" >&2; exit 77; }
}

# bench_connections NS N DIR [MAX_SECONDS]: N loopback TCP connections (2N sockets) inside
# namespace NS, made by nptraffic "pairs" helpers of at most 9,000 connections each, listening
# on ports 2000 and up, below the ephemeral range the namespace is given (10000-65535, with
# somaxconn 8192 for the bursts; both sysctls are the namespace's own). The helpers' pids are
# added to $pids, for the caller's cleanup to kill; their ready files go to DIR (created).
# Returns once every helper is ready, with their number in $bench_helpers; exits 1 when one
# dies or after 5 minutes.
bench_per_helper=9000	# connections per helper: 18,000 descriptors, under a 20,000 limit
bench_connections() {
	local ns=$1 n=$2 dir=$3 max=${4:-900} left port=2000 c ready=0
	mkdir -p "$dir"
	ip netns exec "$ns" sysctl -q -w net.ipv4.ip_local_port_range="10000 65535"
	ip netns exec "$ns" sysctl -q -w net.core.somaxconn=8192
	bench_helpers=0
	left=$n
	while [ "$left" -gt 0 ]; do
		c=$((left < bench_per_helper ? left : bench_per_helper))
		ip netns exec "$ns" "$helper" pairs 127.0.0.1 "$port" "$c" --max-seconds "$max" \
			--ready "$dir/ready.$port" &
		pids="$pids $!"
		bench_helpers=$((bench_helpers + 1))
		left=$((left - c))
		port=$((port + 1))
	done
	for _ in $(seq 600); do
		ready=$(ls "$dir" | grep -c '^ready\.[0-9]*$' || true)
		[ "$ready" -ge "$bench_helpers" ] && return 0
		for p in $pids; do kill -0 "$p" 2>/dev/null || { echo "helper $p died" >&2; exit 1; }; done
		sleep 0.5
	done
	echo "helpers not ready: $ready of $bench_helpers" >&2
	exit 1
}
