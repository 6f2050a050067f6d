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
