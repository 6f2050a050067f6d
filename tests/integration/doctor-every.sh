#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# doctor --every on live veth namespaces: one process rewrites the -o file on a cadence, each
# report with rates over the time since the one before; a device deleted and created again is
# found again (the file says UNKNOWN while it is gone, never a stale OK), and so is a bridge
# that gains a port; a directory that
# vanishes is said and retried; SIGTERM ends it without leaving a temporary file.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair a b

dir=$NP_TMP/textfile
out=$dir/netpath.prom
mkdir -p "$dir"

# metric FILE NAME: the first sample of NAME (no labels, or the first labelled one).
metric() {
	awk -v m="$2" '$1 == m || index($1, m "{") == 1 { print $2; exit }' "$1"
}

# The reports a run writes, seen from outside: poll the file (every 20 ms, well inside the
# 0.4 s cadence) and keep each distinct version (inode and mtime) with its interval, status
# and link packet rate, until the run ends.
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --drain
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000 --burst 32 --gap-ms 5
np_wait_moving "$NP_WAIT" "vb rx_packets" np_link_stat "$NS_B" vb rx_packets
start=$(np_ms)
ip netns exec "$NS_B" "$NETPATH" doctor vb --format prometheus --interval 0.4 --every 0.4 \
	--count 4 -o "$out" 2> "$NP_TMP/err" &
pid=$!
"$NP_PY" - "$out" "$pid" > "$NP_TMP/versions" <<'PY' || np_fail "polling $out failed"
import os, re, sys, time
path, pid = sys.argv[1], int(sys.argv[2])
seen = {}
def alive():
    try:
        return open(f"/proc/{pid}/stat").read().split()[2] != "Z"
    except OSError:
        return False
while True:
    running = alive()
    try:
        st = os.stat(path)
        key = (st.st_ino, st.st_mtime_ns)
        if key not in seen:
            text = open(path).read()
            get = lambda pat: (re.search(pat, text, re.M) or [None, "-"])[1]
            seen[key] = (get(r"^netpath_interval_seconds (\S+)"), get(r"^netpath_status (\S+)"),
                         get(r'^netpath_stage_packets_per_second\{interface="vb",stage="link"[^}]*\} (\S+)'))
    except FileNotFoundError:
        pass
    if not running:
        break
    time.sleep(0.02)
for v in seen.values():
    print(*v)
PY
wait "$pid"
rc=$?
elapsed=$(($(np_ms) - start))
[ "$rc" -le 2 ] || np_fail "--every --count 4 exited $rc: $(cat "$NP_TMP/err")"
[ ! -s "$NP_TMP/err" ] || np_fail "a healthy --every run wrote to stderr: $(cat "$NP_TMP/err")"
# Four reports: the first after --interval, three more on the 0.4 s cadence.
[ "$elapsed" -ge 1500 ] || np_fail "four reports 0.4 s apart took only $elapsed ms"
[ "$(wc -l < "$NP_TMP/versions")" -eq 4 ] ||
	np_fail "expected 4 versions of $out, saw: $(cat "$NP_TMP/versions")"
# Every report judged rates over about the cadence, and saw the flood arrive.
while read -r interval status rate; do
	awk -v i="$interval" 'BEGIN { exit !(i >= 0.35 && i < 1.5) }' ||
		np_fail "a report's interval is $interval s, not the 0.4 s cadence"
	[ "$status" -le 2 ] || np_fail "a report's status is $status"
	awk -v r="$rate" 'BEGIN { exit !(r > 0) }' ||
		np_fail "a report saw no packets per second at vb's link while flooding ($rate)"
done < "$NP_TMP/versions"
ls -A "$dir" | grep -q '^\.' && np_fail "a temporary file was left in $dir: $(ls -A "$dir")"

# A device that goes away and comes back: the same process keeps the file true.
rm -f "$out"
ip netns exec "$NS_B" "$NETPATH" doctor vb --format prometheus --interval 0 --every 0.3 \
	-o "$out" 2> "$NP_TMP/err2" &
pid=$!
NP_PIDS="$NP_PIDS $pid"
np_wait_file "$out" "the first report"
ip -n "$NS_A" link del va || np_fail "cannot delete the veth pair"
np_wait_until "$NP_WAIT" "the report to say UNKNOWN (3) once vb is gone" \
	grep -qx 'netpath_status 3' "$out"
grep -q "changed: found again" "$NP_TMP/err2" ||
	np_fail "no word on stderr that the devices changed: $(cat "$NP_TMP/err2")"
ip link add va netns "$NS_A" type veth peer name vb netns "$NS_B" || np_fail "veth again"
ip -n "$NS_B" link set vb up
ip -n "$NS_A" link set va up
np_wait_until "$NP_WAIT" "a judged report of the new vb" \
	grep -qE '^netpath_status [0-2]$' "$out"
# Rates return on the report after the one that found it again.
np_wait_until "$NP_WAIT" "a report with rates again" \
	awk '$1 == "netpath_interval_seconds" && $2 > 0 { f = 1 } END { exit !f }' "$out"
kill -0 "$pid" 2> /dev/null || np_fail "--every died when its device went away"

# The directory vanishes: said on stderr, retried, and the file is back once it exists. The
# writer may create its temporary file between rm's emptying and its rmdir (a busy host): again.
np_wait_until "$NP_WAIT" "$dir to be removed" sh -c 'rm -rf "$1" 2> /dev/null; [ ! -e "$1" ]' sh "$dir"
np_wait_until "$NP_WAIT" "a word on stderr that $out cannot be written" \
	grep -q "cannot write $out.*tried again" "$NP_TMP/err2"
kill -0 "$pid" 2> /dev/null || np_fail "--every died when it could not write"
mkdir -p "$dir"
np_wait_file "$out" "the report once the directory is back"

# SIGTERM ends it promptly (a sleeping run, or one mid-report) with no temporary file left.
kill -TERM "$pid"
end=$(($(np_ms) + 5000))
while kill -0 "$pid" 2> /dev/null; do
	[ "$(np_ms)" -lt "$end" ] || np_fail "--every still running 5 s after SIGTERM"
	sleep 0.05
done
ls -A "$dir" | grep -q '^\.' && np_fail "a temporary file was left after SIGTERM: $(ls -A "$dir")"
tail -c 1 "$out" | od -An -c | grep -q '\\n' || np_fail "$out is not a whole report"

# --all with no interface busy any more: UNKNOWN, said once, until one is.
ip netns exec "$NS_B" "$NETPATH" doctor --all --format prometheus --interval 0 --every 0.3 \
	-o "$NP_TMP/all.prom" 2> "$NP_TMP/err4" &
pid=$!
NP_PIDS="$NP_PIDS $pid"
np_wait_file "$NP_TMP/all.prom" "the first --all report"
grep -q 'interface="vb"' "$NP_TMP/all.prom" || np_fail "--all does not judge vb"
ip -n "$NS_B" link set vb down
np_wait_until "$NP_WAIT" "--all to say UNKNOWN with vb down" grep -qx 'netpath_status 3' "$NP_TMP/all.prom"
ip -n "$NS_B" link set vb up
np_wait_until "$NP_WAIT" "--all to judge vb again" grep -qE '^netpath_status [0-2]$' "$NP_TMP/all.prom"
np_stop "$pid"
[ "$(grep -c "no interface is up and carrying traffic" "$NP_TMP/err4")" -eq 1 ] ||
	np_fail "the reason of the UNKNOWN reports is not said once: $(cat "$NP_TMP/err4")"

# No interface named: the default route's, followed when it moves to another interface.
ip -n "$NS_B" route add default dev vb
ip -n "$NS_B" link add q1 type veth peer name q2
ip -n "$NS_B" link set q1 up
ip -n "$NS_B" link set q2 up
ip netns exec "$NS_B" "$NETPATH" doctor --json --interval 0 --every 0.3 -o "$NP_TMP/route.json" \
	2> "$NP_TMP/err5" &
pid=$!
NP_PIDS="$NP_PIDS $pid"
np_wait_file "$NP_TMP/route.json" "the default route's first report"
np_assert_json "$NP_TMP/route.json" 'd["stack"][0]["name"] == "vb"'
ip -n "$NS_B" route replace default dev q1
np_wait_until "$NP_WAIT" "the report to follow the default route to q1" \
	"$NP_PY" -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["stack"][0]["name"] != "q1")' \
	"$NP_TMP/route.json"
np_stop "$pid"

# A bridge that gains a port: the stack beneath it is found again, and the next report judges
# the new port too.
if ip -n "$NS_B" link add brx type bridge 2> /dev/null; then
	ip -n "$NS_B" link add p1 type veth peer name p2
	ip -n "$NS_B" link add p3 type veth peer name p4
	for d in brx p1 p2 p3 p4; do ip -n "$NS_B" link set "$d" up; done
	ip -n "$NS_B" link set p1 master brx
	ip netns exec "$NS_B" "$NETPATH" doctor brx --json --interval 0 --every 0.3 \
		-o "$NP_TMP/br.json" 2> "$NP_TMP/err3" &
	pid=$!
	NP_PIDS="$NP_PIDS $pid"
	np_wait_file "$NP_TMP/br.json" "the bridge's first report"
	np_assert_json "$NP_TMP/br.json" '[s["name"] for s in d["stack"]] == ["brx", "p1"]'
	ip -n "$NS_B" link set p3 master brx
	np_wait_until "$NP_WAIT" "the report to judge the new port p3" \
		grep -q '"name": *"p3"' "$NP_TMP/br.json"
	grep -q "changed: found again" "$NP_TMP/err3" ||
		np_fail "no word that the bridge's ports changed: $(cat "$NP_TMP/err3")"
	np_stop "$pid"
else
	echo "no bridge support: the port change is not tested here"
fi

# --all repeats too, and the option rules hold.
ip netns exec "$NS_B" "$NETPATH" doctor --all --json --interval 0 --every 0.2 --count 2 \
	-o "$NP_TMP/all.json" || [ $? -le 2 ] || np_fail "--all --every failed"
np_validate "$NP_TMP/all.json"
np_assert_json "$NP_TMP/all.json" 'any(s["name"] == "vb" for s in d["stack"])'
for bad in "--every 1" "--count 2" "--every 1 -o $out --root /" "--every 1 -o $out -t 5" \
	"--every 0.01 -o $out"; do
	# shellcheck disable=SC2086
	"$NETPATH" doctor $bad lo > /dev/null 2> "$NP_TMP/bad"
	# One line with the reason; a usage error adds the "Try 'netpath doctor --help'." hint.
	[ $? -eq 3 ] && [ "$(grep -vxc "Try 'netpath doctor --help'." "$NP_TMP/bad")" -eq 1 ] ||
		np_fail "doctor $bad: expected exit 3 with one line, got: $(cat "$NP_TMP/bad")"
done
echo "PASS: doctor --every"
