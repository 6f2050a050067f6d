#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `netpath doctor --format prometheus` over every fixture (the generated trees with and without
# rates and with --all, the real trees, the sosreports, the capture) passes `promtool check
# metrics` (Debian package prometheus) with nothing to say, --all-counters included; and the
# scope rules hold in what it writes: host-wide families carry neither interface nor netns and
# appear once, device families carry interface; nothing node_exporter's default collectors
# already export is repeated. No root: every input is a fixture.
set -u
: "${NETPATH:?}" "${NP_SRCDIR:?}"
# lib.sh: np_fail, $NP_PY, $NP_TMP removed on exit.
. "$NP_SRCDIR/tests/integration/lib.sh"
command -v promtool > /dev/null || { echo "SKIP: promtool not installed (Debian: prometheus)"; exit 77; }
fix=$NP_SRCDIR/tests/fixtures
n=0

# One doctor run: its exposition through promtool, whose every complaint fails the test.
check() {
	local name=$1 out rc
	shift
	out=$NP_TMP/$name.prom
	"$NETPATH" doctor "$@" --format prometheus > "$out" 2> "$NP_TMP/err"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "doctor $* exited $rc: $(cat "$NP_TMP/err")"
	[ -s "$out" ] || np_fail "doctor $* wrote nothing"
	promtool check metrics < "$out" > "$NP_TMP/lint" 2>&1 ||
		np_fail "promtool check metrics on doctor $*: $(cat "$NP_TMP/lint")"
	[ ! -s "$NP_TMP/lint" ] || np_fail "promtool on doctor $*: $(cat "$NP_TMP/lint")"
	n=$((n + 1))
}

for tree in "$fix"/trees/*/; do
	[ -d "$tree/after/sys/class/net" ] || continue
	name=$(basename "$tree")
	check "$name" --all --root "$tree/after" --before "$tree/before" --all-counters
	check "$name-0" --all --root "$tree/after"
done
# The real trees have no interface list that --all could read: name each one's.
while read -r tree dev; do
	check "real-$tree" "$dev" --root "$fix/real/$tree" --all-counters
done <<'EOF'
e1000e-single-msi-8cpu enp0s25
ena-3nics-x86-4cpu eth1
mlx5-12cpu-pinned enp1s0f0np0
sysstat-cpu6-offline enp6s0
virtio-kvm-4cpu eth0
xen-netfront-eth0-8cpu eth0
EOF
# sosreports and the capture carry driver counters: --all-counters writes the raw family.
for tree in "$fix"/sos/*/; do
	[ -d "$tree/sos_commands" ] || continue
	check "sos-$(basename "$tree")" eth0 --root "$tree" --all-counters
done
check capture va --root "$fix/capture/veth-tbf.cap" --all-counters
grep -q '^netpath_nic_driver_stat_total{interface="eth0",name=' "$NP_TMP"/sos-*.prom ||
	np_fail "--all-counters wrote no raw driver counters for any sosreport"

# The scope rules on every file written above.
"$NP_PY" - "$NP_TMP"/*.prom <<'PY' || np_fail "scope labels are wrong"
import re, sys
host = re.compile(r"netpath_(netdev_|rmem_max|wmem_max|tcp_mem_|udp_mem_|page_size)")
dev = re.compile(r"netpath_(nic_|queue_|qdisc_|stack_device_info|device_check_severity)")
# What node_exporter's default collectors export is not repeated (contrib/prometheus/README.md).
node = re.compile(r"netpath_(softnet_|link_speed|link_mtu|conntrack_max|tcp_mem_used|udp_mem_used)")
for path in sys.argv[1:]:
    seen = set()
    for line in open(path):
        if line.startswith("#"):
            continue
        m = re.match(r"([a-z_]+)(\{[^}]*\})? ", line)
        assert m, f"{path}: {line!r}"
        name, labels = m.group(1), m.group(2) or ""
        assert not node.match(name), f"{path}: node_exporter's already: {line!r}"
        # The host's conntrack count is node_nf_conntrack_entries; only a --netns run's is ours.
        assert name != "netpath_conntrack_entries" or "netns=" in labels, f"{path}: {line!r}"
        if host.match(name):
            assert "interface=" not in labels and "netns=" not in labels, f"{path}: {line!r}"
            assert line not in seen, f"{path}: twice: {line!r}"
            seen.add(line)
        elif dev.match(name):
            assert labels.startswith('{interface="') and not labels.startswith('{interface=""'), \
                f"{path}: {line!r}"
        elif not name.startswith("netpath_stage_"):
            assert "interface=" not in labels, f"{path}: run-wide with interface: {line!r}"
PY
echo "promtool check metrics: $n doctor runs clean"
