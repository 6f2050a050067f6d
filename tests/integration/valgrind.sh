#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# doctor, watch and trace under valgrind memcheck on the plain (non-sanitizer) build: no invalid
# access, no use of uninitialised memory, no definite or indirect leak. valgrind.supp holds
# memcheck's own false positives (libbpf's bpf() attributes, a propagation-only mount()).
. "$(dirname "$0")/lib.sh"
np_require_root
command -v valgrind > /dev/null || np_skip "no valgrind"
if readelf -Ws "$NETPATH" 2> /dev/null | grep -q '__asan_init\|__ubsan_handle'; then
	np_skip "$NETPATH is a sanitizer build: valgrind runs on the plain build"
fi
SUPP="$(dirname "$0")/valgrind.supp"
np_pair a b
dev=$(ip -4 route show default | awk '{for (i = 1; i < NF; i++) if ($i == "dev") print $(i + 1); exit}')
[ -n "$dev" ] || dev=lo

vg() {
	local name=$1
	shift
	timeout -s KILL 300 valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		--track-origins=yes --suppressions="$SUPP" --log-file="$NP_TMP/$name.vg" \
		"$@" > "$NP_TMP/$name.out" 2> "$NP_TMP/$name.err"
	local rc=$?
	[ "$rc" -ne 99 ] || np_fail "$name: memcheck errors: $(head -40 "$NP_TMP/$name.vg")"
	[ "$rc" -ne 137 ] || np_fail "$name: still running after 300 s"
	[ "$rc" -le 2 ] || np_fail "$name: exit $rc: $(head -5 "$NP_TMP/$name.err") $(head -20 "$NP_TMP/$name.vg")"
	[ -s "${VG_FILE:-$NP_TMP/$name.out}" ] || np_fail "$name: no output"
}

vg doctor-live "$NETPATH" doctor "$dev" --interval 0.2
vg doctor-json "$NETPATH" doctor "$dev" --interval 0.2 --json --sockets 5
vg doctor-prom "$NETPATH" doctor "$dev" --interval 0 --format prometheus --all-counters
vg doctor-veth ip netns exec "$NS_A" "$NETPATH" doctor va --interval 0.2
vg doctor-netns "$NETPATH" doctor vb --netns "$NS_B" --interval 0.2 --json
vg doctor-root "$NETPATH" doctor eth0 --root "$NP_SRCDIR/tests/fixtures/trees/x710-server/after" \
	--before "$NP_SRCDIR/tests/fixtures/trees/x710-server/before"
# --every frees each report and moves each device's snapshot along: a leak per report shows
# as definitely lost at exit.
VG_FILE="$NP_TMP/every.prom" vg doctor-every "$NETPATH" doctor "$dev" --interval 0 --every 0.3 \
	--count 4 --format prometheus -o "$NP_TMP/every.prom"
vg watch "$NETPATH" watch lo --count 2 --interval 0.2
vg watch-json "$NETPATH" watch "$dev" --count 2 --interval 0.2 --json
vg checks "$NETPATH" checks --json
vg explain "$NETPATH" explain softnet.backlog-drops
if "$NETPATH" trace --help > /dev/null 2>&1; then
	vg trace "$NETPATH" trace lo --duration 1
	vg trace-json "$NETPATH" trace va --netns "$NS_A" --duration 1 --json
fi
echo "PASS"
