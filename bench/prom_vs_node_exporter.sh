#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Benchmark 7: `netpath doctor --format prometheus` against the peer a fleet would otherwise
# run: one scrape of Debian's prometheus-node-exporter with the netdev, netstat, softnet,
# sockstat and ethtool collectors. The exporter runs on loopback on a free port for the
# length of the benchmark (killed on every exit path); its CPU per scrape is the change of its
# own utime + stime over many scrapes (the scraping client is this benchmark's Python, not
# charged to it); netpath's is the whole process per run (wait4). Scrape batches and netpath
# runs alternate in rounds, so that a change of load touches both. An empty C program is
# measured beside them: the cost of any process start on this machine, which netpath pays per
# run and a long-running exporter does not. And netpath as a long-running writer too
# (`doctor --every 0.1 -o FILE`): charged per report like the exporter per scrape, and
# stopped (SIGSTOP) outside its own batches.
# Usage: sudo bench/prom_vs_node_exporter.sh [IFACE] [ROUNDS] [SCRAPES]   (eth0, 10, 50)
# NETPATH_BEFORE=BINARY adds a row for another build (NETPATH_BEFORE_LABEL names it).
# Installs prometheus-node-exporter with apt-get when it is missing.
# Writes bench/results/prom_vs_node_exporter.md (and .json).
set -eu
. "$(dirname "$0")/lib/common.sh"
ifc=${1:-eth0}
rounds=${2:-10}
scrapes=${3:-50}
bench_need_root
exporter=/usr/bin/prometheus-node-exporter
if [ ! -x "$exporter" ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus-node-exporter >&2
fi
bench_need "$exporter" cc curl
[ -e "/sys/class/net/$ifc" ] || { echo "no interface $ifc" >&2; exit 1; }

tmp=$(mktemp -d /tmp/np-bench.XXXXXX)
epid=
lpid=
cleanup() {
	if [ -n "$lpid" ]; then
		kill -CONT "$lpid" 2>/dev/null || true
		kill "$lpid" 2>/dev/null || true
		wait "$lpid" 2>/dev/null || true
	fi
	if [ -n "$epid" ]; then
		kill "$epid" 2>/dev/null || true
		wait "$epid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

printf 'int main(void) { return 0; }\n' > "$tmp/true.c"
cc -O2 -o "$tmp/true" "$tmp/true.c"

# A free port on loopback: bound by the kernel's choice, released, then given to the exporter
# (if another process takes it meanwhile, the exporter fails to start and we stop).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# node_exporter 1.5 (Debian 12): the five collectors, nothing else; their other settings are
# the package's defaults (netdev: every device but lo; ethtool: every device; netstat: its
# default field list).
ecmd="$exporter --web.listen-address=127.0.0.1:$port --collector.disable-defaults
 --collector.netdev --collector.netstat --collector.softnet --collector.sockstat
 --collector.ethtool"
$ecmd > "$tmp/exporter.log" 2>&1 &
epid=$!
url="http://127.0.0.1:$port/metrics"
for _ in $(seq 100); do
	curl -sf -o /dev/null "$url" && break
	kill -0 "$epid" 2>/dev/null || { cat "$tmp/exporter.log" >&2; exit 1; }
	sleep 0.1
done
curl -sf -o "$tmp/scrape.txt" "$url" || { echo "exporter does not answer on $url" >&2; exit 1; }
"$NETPATH" doctor --interval 0 --format prometheus "$ifc" > "$tmp/netpath.prom" || true
# The long-running writer, a report every 0.1 s into a directory of its own (on the file system
# of /tmp; each report is fsynced and renamed as in production), stopped until its batches.
mkdir "$tmp/textfile"
lcmd="$NETPATH doctor --interval 0 --format prometheus -o $tmp/textfile/netpath.prom --every 0.1 $ifc"
$lcmd 2> "$tmp/every.err" &
lpid=$!
for _ in $(seq 100); do
	[ -e "$tmp/textfile/netpath.prom" ] && break
	sleep 0.1
done
[ -e "$tmp/textfile/netpath.prom" ] || { cat "$tmp/every.err" >&2; exit 1; }
kill -STOP "$lpid"

tcp_alloc=$(awk '/^TCP:/ { print $9 }' /proc/net/sockstat)
nproc_start=$(ls -d /proc/[0-9]* | wc -l)
out="$results_dir/prom_vs_node_exporter"
python3 "$bench_dir/lib/scrape_vs_runs.py" --pid "$epid" --url "$url" \
	--rounds "$rounds" --scrapes "$scrapes" --runs "$scrapes" --runs-of "doctor (1 s interval)=2" \
	--json "$out.json" --markdown "$tmp/table.md" \
	--loop "netpath --every 0.1, per report=$lpid:$tmp/textfile/netpath.prom" \
	"netpath --interval 0=$NETPATH doctor --interval 0 --format prometheus $ifc" \
	"netpath --interval 0 -o FILE=$NETPATH doctor --interval 0 --format prometheus -o $tmp/x.prom $ifc" \
	"doctor (1 s interval)=$NETPATH doctor --format prometheus $ifc" \
	${NETPATH_BEFORE:+"${NETPATH_BEFORE_LABEL:-before} --interval 0=$NETPATH_BEFORE doctor --interval 0 --format prometheus $ifc"} \
	"empty C program=$tmp/true"

nseries() { grep -vc '^#' "$1"; }
{
	echo "# Benchmark 7: \`doctor --format prometheus\` vs a node_exporter scrape"
	echo
	echo "Produced by \`sudo ${NETPATH_BEFORE:+NETPATH_BEFORE=$NETPATH_BEFORE NETPATH_BEFORE_LABEL='${NETPATH_BEFORE_LABEL:-before}' }bench/prom_vs_node_exporter.sh $ifc $rounds $scrapes\`."
	echo
	bench_machine
	# doctor's TCP dump walks the established hash, which all namespaces share: sockets of
	# other namespaces cost it time (node_exporter reads /proc/net/sockstat only).
	echo "TCP sockets on the host, all namespaces (/proc/net/sockstat alloc): $tcp_alloc at start,"
	echo "$(awk '/^TCP:/ { print $9 }' /proc/net/sockstat) at the end; processes: $nproc_start."
	echo
	echo "node_exporter: \`$($exporter --version 2>&1 | head -1)\`, run by the benchmark as"
	echo
	echo "    $(echo $ecmd | sed "s/:$port /:PORT /")"
	echo
	echo "(PORT: a free loopback port chosen at start), scraped at \`$url\` with Prometheus's"
	echo "Accept header over one kept-alive connection."
	echo
	echo "## Results"
	echo
	cat "$tmp/table.md"
	echo
	echo "- netpath --every 0.1, per report: \`$(echo "$lcmd" | sed "s|$tmp|TMP|g")\` (TMP: a"
	echo "  directory under /tmp, on $(df -T /tmp | awk 'NR == 2 { print $2 }'); each report fsynced and renamed)"
	echo
	echo "One scrape: $(nseries "$tmp/scrape.txt") series, $(wc -c < "$tmp/scrape.txt") bytes."
	echo "One \`netpath doctor --interval 0 --format prometheus $ifc\`: $(nseries "$tmp/netpath.prom")"
	echo "series, $(wc -c < "$tmp/netpath.prom") bytes."
} > "$out.md"
cat "$out.md"
