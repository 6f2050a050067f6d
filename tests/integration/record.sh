#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The flight recorder end to end (netpath-record(8)): a recorder samples a veth every second
# while a UDP receiver that never reads is flooded during known seconds; the recorder is then
# killed with SIGKILL; --capture-on leaves a capture of the moment the check fired.
# `doctor --at` on the drop window must name stage socket and the rcvbuf
# evidence with its rate, a quiet window before it must be clean, `history --json` must put
# the drops in those seconds, a window in the gap after the kill (then a restart) must be
# UNKNOWN, never OK; a second recorder on the directory and a directory others can write are
# refused.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv
dir="$NP_TMP/rec"
now() { date +%s.%N; }
np_bg ip netns exec "$NS_B" "$NETPATH" record vb --dir "$dir" --every 1 \
	--capture-on socket.udp-rcvbuf --capture-every 60
rec=$NP_LAST_PID
np_wait_until "$NP_WAIT" "the recorder's first segment" sh -c "ls '$dir'/*.nprec"
[ "$(stat -c %a "$dir")" = 700 ] || np_fail "recording directory mode $(stat -c %a "$dir"), want 700"
for f in "$dir"/*.nprec; do
	[ "$(stat -c %a "$f")" = 600 ] || np_fail "segment $f mode $(stat -c %a "$f"), want 600"
done

# A second recorder on the same directory is refused at once.
out=$(ip netns exec "$NS_B" "$NETPATH" record vb --dir "$dir" --count 1 2>&1)
rc=$?
[ "$rc" -eq 3 ] || np_fail "second recorder: exit $rc, want 3 ($out)"
grep -q "in use" <<< "$out" || np_fail "second recorder: '$out' does not say the directory is in use"

# A quiet stretch, then the flood.
quiet_from=$(now)
sleep 4
quiet_to=$(now)
# A setting changed between the two windows: diff --root names it and when.
ip -n "$NS_B" link set vb mtu 1400
mtu_at=$(now)
np_traffic "$NS_B" sink udp-sink 198.18.0.2 9000 --rcvbuf 4096
np_traffic "$NS_A" flood udp-flood 198.18.0.2 9000
flood=$NP_LAST_PID
np_wait_counter "$NS_B" UdpRcvbufErrors
drop_from=$(now)
sleep 5
drop_to=$(now)
np_stop "$flood"
after=$(now)
# --capture-on: the check fired during the flood and left one whole capture of that moment
# beside the recording, which doctor judges like any capture (the same finding).
np_wait_until "$NP_WAIT" "a capture beside the recording" sh -c "ls '$dir'/capture-*.tar.gz"
caps=$(ls "$dir"/capture-*.tar.gz)
[ "$(wc -w <<< "$caps")" -eq 1 ] || np_fail "--capture-every 60 let more than one capture through: $caps"
[ "$(stat -c %a "$caps")" = 600 ] || np_fail "capture mode $(stat -c %a "$caps"), want 600"
"$NETPATH" doctor --root "$caps" --json > "$NP_TMP/cap.json"
np_validate "$NP_TMP/cap.json"
np_assert_json "$NP_TMP/cap.json" 'any(f["id"] == "socket.udp-rcvbuf" for f in d["findings"]) and d["interface"] == "vb"'
# Everything up to the flood's end is on disk before the kill.
np_rec_wait "$dir" "${after%.*}"
kill -KILL "$rec"
wait "$rec" 2>/dev/null

# doctor --at the drop window: stage socket, rcvbuf evidence with a rate, WARNING or CRITICAL.
mid=$("$NP_PY" -c "print(($drop_from + $drop_to) / 2 - 1)")
"$NETPATH" doctor --root "$dir" --at "@$mid" --window 2 --json > "$NP_TMP/drop.json"
rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || np_fail "doctor --at the drop window: exit $rc, want 1 or 2"
np_validate "$NP_TMP/drop.json"
np_assert_json "$NP_TMP/drop.json" 'any(f["stage"] == "socket" and f["severity"] in ("warning", "critical") and any("rcvbuf" in e["key"].lower() and (e.get("per_second") or 0) > 0 for e in f["evidence"]) for f in d["findings"])'
np_assert_json "$NP_TMP/drop.json" 'd["origin"]["kind"] == "recording"'
np_assert_json "$NP_TMP/drop.json" 'any(r["stage"] == "socket" and (r["drops"]["per_second"] or 0) > 0 for r in d["funnel"])'
# The same window in text and as a Nagios line.
"$NETPATH" doctor --root "$dir" --at "@$mid" --window 2 --color=never > "$NP_TMP/drop.txt"
grep -q "== socket ==" "$NP_TMP/drop.txt" || np_fail "text output of the drop window has no socket stage"
grep -q "recording" "$NP_TMP/drop.txt" || np_fail "text output does not say it judges a recording"
line=$("$NETPATH" doctor --root "$dir" --at "@$mid" --window 2 --nagios | head -n 1)
grep -qE "^NETPATH (WARNING|CRITICAL)" <<< "$line" || np_fail "nagios line of the drop window: '$line'"

# The quiet window before it: no socket drops.
qmid=$("$NP_PY" -c "print(($quiet_from + $quiet_to) / 2 - 1)")
"$NETPATH" doctor --root "$dir" --at "@$qmid" --window 2 --json > "$NP_TMP/quiet.json"
np_validate "$NP_TMP/quiet.json"
np_assert_json "$NP_TMP/quiet.json" 'not any(f["stage"] == "socket" and f["severity"] in ("warning", "critical") for f in d["findings"])'
np_assert_json "$NP_TMP/quiet.json" 'all((r["drops"]["per_second"] or 0) == 0 for r in d["funnel"] if r["stage"] == "socket")'

# diff between the quiet window and the drop window of the recording: the MTU change with its
# moment, the rcvbuf finding new.
"$NETPATH" diff --root "$dir" --at "@$qmid" --to "@$mid" --window 2 --json > "$NP_TMP/diff.json"
rc=$?
[ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || np_fail "diff --root: exit $rc, want the drop window's verdict"
np_validate "$NP_TMP/diff.json"
np_assert_json "$NP_TMP/diff.json" 'any(s["setting"] == "mtu" and s["before"] == "1500" and s["after"] == "1400" for s in d["settings"])'
np_assert_json "$NP_TMP/diff.json" "len(d['config_changes']) >= 1 and any(abs(t - $mtu_at) < 3 for t in d['config_changes'])"
np_assert_json "$NP_TMP/diff.json" 'any(f["id"] == "socket.udp-rcvbuf" and f["change"] == "new" for f in d["findings"])'
"$NETPATH" diff --root "$dir" --at "@$qmid" --to "@$mid" --window 2 > "$NP_TMP/diff.txt"
grep -q "configuration changed at" "$NP_TMP/diff.txt" || np_fail "diff text does not say when the configuration changed"

# history --json: drops at stage socket in the drop seconds, none in the quiet ones.
"$NETPATH" history --root "$dir" --json > "$NP_TMP/hist.json" || np_fail "history --json failed"
np_validate "$NP_TMP/hist.json"
np_assert_json "$NP_TMP/hist.json" "sum(1 for s in d['seconds'] if $drop_from + 1 <= s['time'] <= $drop_to and (s['drops'].get('socket') or 0) > 0) >= 3"
np_assert_json "$NP_TMP/hist.json" "all((s['drops'].get('socket') or 0) == 0 for s in d['seconds'] if $quiet_from + 1 <= s['time'] <= $quiet_to)"
np_assert_json "$NP_TMP/hist.json" "d['worst_seconds'] and d['worst_seconds'][0]['stage'] == 'socket' and $drop_from <= d['worst_seconds'][0]['time'] <= $drop_to + 2"
np_assert_json "$NP_TMP/hist.json" "d['worst_seconds'][0]['check'] is not None and d['worst_seconds'][0]['severity'] in ('warning', 'critical')"
"$NETPATH" history --root "$dir" > "$NP_TMP/hist.txt" || np_fail "history (text) failed"
grep -qE "^  socket +[^ ]" "$NP_TMP/hist.txt" || np_fail "history text has no socket row: $(cat "$NP_TMP/hist.txt")"
"$NP_PY" -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1], encoding="utf-8")))' "$NP_TMP/hist.txt" ||
	np_fail "history text is wider than 80 columns: $(cat "$NP_TMP/hist.txt")"

# A restart after the kill: the time between is a gap, judged UNKNOWN (exit 3), never OK.
killed=$(now)
sleep 3
np_bg ip netns exec "$NS_B" "$NETPATH" record vb --dir "$dir" --every 1
rec=$NP_LAST_PID
restart=$(now)
np_rec_wait "$dir" "$(("${restart%.*}" + 2))"
np_stop "$rec"
gapmid=$("$NP_PY" -c "print(($killed + $restart) / 2)")
out=$("$NETPATH" doctor --root "$dir" --at "@$gapmid" --window 1 2>&1)
rc=$?
[ "$rc" -eq 3 ] || np_fail "doctor --at a gap: exit $rc, want 3 (UNKNOWN): $out"
grep -q "gap\|no sample" <<< "$out" || np_fail "doctor --at a gap does not say so: $out"
line=$("$NETPATH" doctor --root "$dir" --at "@$gapmid" --nagios | head -n 1)
grep -q "^NETPATH UNKNOWN" <<< "$line" || np_fail "nagios line of a gap: '$line'"
"$NETPATH" history --root "$dir" --json > "$NP_TMP/hist2.json" || np_fail "history after the restart failed"
np_assert_json "$NP_TMP/hist2.json" "any(g['from'] <= $gapmid <= g['to'] for g in d['gaps'])"

# A directory others can write is refused, by the recorder and by the readers.
chmod 0777 "$dir"
out=$(ip netns exec "$NS_B" "$NETPATH" record vb --dir "$dir" --count 1 2>&1)
[ $? -eq 3 ] || np_fail "a world-writable directory was not refused by record: $out"
out=$("$NETPATH" history --root "$dir" 2>&1)
[ $? -eq 3 ] || np_fail "a world-writable directory was not refused by history: $out"
chmod 0700 "$dir"
echo "PASS"
