#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# 10,000 established loopback TCP connections (20,000 sockets) in a namespace, held by four
# processes (one process may not hold 20,000 descriptors here): doctor's socket summary must
# match ss as the oracle, and its memory must not grow with the socket count.
. "$(dirname "$0")/lib.sh"
np_require_root
[ -x /usr/bin/time ] || np_skip "needs /usr/bin/time (GNU time) for the peak RSS"
here=$(dirname "$0")
npsock=${NPSOCK:-$(dirname "$NETPATH")/../tools/npsock}
ns="np-$$-scale"
procs=4
per=2500
ip netns add "$ns" || np_fail "netns add"
NP_NETNS="$NP_NETNS $ns"
ip -n "$ns" link set lo up

# Peak RSS (KiB) of doctor in the namespace, from wait4() via time(1).
doctor_rss() {
	ip netns exec "$ns" /usr/bin/time -v "$NETPATH" doctor lo --interval 1 --json \
		>"$NP_TMP/$1.json" 2>"$NP_TMP/$1.time"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "doctor exit code $rc: $(tail -3 "$NP_TMP/$1.time")"
	awk -F: '/Maximum resident set size/ {print $2 + 0}' "$NP_TMP/$1.time"
}

base=$(doctor_rss empty) || exit 1
np_validate "$NP_TMP/empty.json"
for i in $(seq $procs); do
	np_traffic "$ns" "pairs$i" pairs 127.0.0.1 $((8000 + i)) $per
done

est=$(ip netns exec "$ns" ss -Htn state established | wc -l)
all=$(ip netns exec "$ns" ss -Htan | wc -l)
lis=$(ip netns exec "$ns" ss -Htln | wc -l)
[ "$est" -eq $((2 * procs * per)) ] || np_fail "ss sees $est established sockets"
rss=$(doctor_rss full) || exit 1
np_validate "$NP_TMP/full.json"
ip netns exec "$ns" "$npsock" > "$NP_TMP/socks.json" || np_fail "npsock failed"
"$NP_PY" "$here/sock_helper.py" validate "$here/sockets.schema.json" "$NP_TMP/socks.json" ||
	np_fail "npsock output does not match sockets.schema.json"
# npsock runs the same collector; doctor --json is checked too once it carries "sockets".
sel='(d["sockets"] if "sockets" in d else d)'
files="$NP_TMP/socks.json"
grep -q '"sockets"' "$NP_TMP/full.json" && files="$files $NP_TMP/full.json"
for f in $files; do
	np_assert_json "$f" "abs($sel['tcp']['states']['established'] - $est) <= 4"
	np_assert_json "$f" "abs($sel['tcp']['total'] - $all) <= 4"
	np_assert_json "$f" "$sel['tcp']['states']['listen'] == $lis == $procs"
	np_assert_json "$f" "$sel['tcp']['ipv4'] == $sel['tcp']['total'] and $sel['udp']['total'] == 0"
	# All loopback: no RTT sample may leak into the measured-RTT distribution.
	np_assert_json "$f" "$sel['rtt']['min_rtt_samples'] == 0"
done
# Loopback flows give no measured RTT, so the analysis must not claim one.
np_assert_json "$NP_TMP/full.json" '"measured" not in d["rtt"]["source"]'

# Memory is bounded whatever the socket count: the sockets section is fixed-size and the dump
# is folded as it streams. Allow 4 MiB of noise over the empty namespace, and 32 MiB in all
# (sanitizer builds map far more shadow memory: only the growth is judged there).
echo "peak RSS: empty namespace ${base} KiB, with $est sockets ${rss} KiB"
[ $((rss - base)) -lt 4096 ] || np_fail "RSS grew by $((rss - base)) KiB with $est sockets"
if ! ldd "$NETPATH" 2>/dev/null | grep -qE 'libasan|libtsan|libubsan'; then
	[ "$rss" -lt 32768 ] || np_fail "peak RSS ${rss} KiB >= 32 MiB"
fi
echo "PASS"
