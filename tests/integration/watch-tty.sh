#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# `netpath watch` on a real terminal: a detached tmux session shows the frame, follows a resize,
# quits on `q` within a second with exit 0, and leaves the terminal as it found it (normal screen,
# cursor on, cooked mode, no stray escape codes), also when stopped by SIGTERM or ^C.
. "$(dirname "$0")/lib.sh"
command -v tmux > /dev/null || np_skip "tmux is not installed"
"$NETPATH" watch --help > "$NP_TMP/help" 2>&1 ||
	np_fail "'netpath watch' is not a command of this binary: $(head -1 "$NP_TMP/help")"

# A private tmux server: nothing of the user's sessions is touched.
T=(tmux -L "np-watch-$$" -f /dev/null)
"${T[@]}" new-session -d -s w -x 100 -y 30 sh || np_fail "cannot start tmux"
NP_PIDS="$NP_PIDS $("${T[@]}" display -p '#{pid}')"
pane() { "${T[@]}" capture-pane -p -t w; }
fmt() { "${T[@]}" display -p -t w "$1"; }
# wait_for REGEX [TENTHS]: until the pane shows a line matching REGEX.
wait_for() {
	for _ in $(seq "${2:-100}"); do
		pane | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	pane >&2
	np_fail "the pane never showed /$1/"
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

start_watch() {
	"${T[@]}" send-keys -t w "clear; $NETPATH watch lo --interval 0.5; echo EXIT=\$?" Enter
	wait_for '^netpath watch lo  frame [0-9]+ '
}

# After netpath exits: the shell's normal screen, cursor visible, no escape codes as text.
check_restored() {
	wait_for '^EXIT=' 20
	pane | grep -q '^EXIT=0$' || np_fail "$1: exit code $(pane | grep '^EXIT=')"
	[ "$(fmt '#{alternate_on}')" = 0 ] || np_fail "$1: still on the alternate screen"
	[ "$(fmt '#{cursor_flag}')" = 1 ] || np_fail "$1: cursor left hidden"
	pane > "$NP_TMP/after.txt"
	if grep -q 'stage      scope' "$NP_TMP/after.txt"; then
		np_fail "$1: the frame is still on the normal screen"
	fi
	if grep -Eq $'\033|\\[\\?[0-9]+[hl]|\\[[0-9;]*m' "$NP_TMP/after.txt"; then
		np_fail "$1: stray escape codes: $(cat "$NP_TMP/after.txt")"
	fi
	# The tty is back in cooked mode with echo on.
	modes="stty -a | tr ' ;' '\\n\\n' | grep -Ex -- '-?(icanon|echo)' | sort | tr '\\n' ' '"
	"${T[@]}" send-keys -t w "clear; $modes; echo" Enter
	wait_for '^-?echo -?icanon ?$' 30
	pane | grep -Eq '^echo icanon ?$' || np_fail "$1: terminal modes not restored: $(pane)"
}

# The frame on screen, with its tables and the key help on the last line.
start_watch
pane > "$NP_TMP/frame.txt"
for want in '^stage      scope ' '^cpu  processed/s' '^queue ' '^findings: ' 'q: quit'; do
	grep -Eq -- "$want" "$NP_TMP/frame.txt" ||
		np_fail "frame lacks /$want/: $(cat "$NP_TMP/frame.txt")"
done
[ "$(fmt '#{alternate_on}')" = 1 ] || np_fail "watch did not take the alternate screen"
[ "$(fmt '#{cursor_flag}')" = 0 ] || np_fail "cursor visible while drawing"

# A resize redraws at the new size: the key help moves to the new last line, nothing wider.
"${T[@]}" resize-window -t w -x 72 -y 20
for _ in $(seq 30); do pane | sed -n 20p | grep -q 'q: quit' && break; sleep 0.1; done
pane | sed -n 20p | grep -q 'q: quit' || np_fail "no redraw after resize: $(pane)"
pane | awk 'length > 72 { exit 1 }' || np_fail "lines wider than the window after resize"
"${T[@]}" resize-window -t w -x 100 -y 30

# q quits within a second, exit 0, terminal restored.
t0=$(now_ms)
"${T[@]}" send-keys -t w q
wait_for '^EXIT=' 20
took=$(( $(now_ms) - t0 ))
[ "$took" -lt 1000 ] || np_fail "q took $took ms to quit"
check_restored "q"

# SIGTERM from outside: same clean exit.
start_watch
pid=$(pgrep -P "$(fmt '#{pane_pid}')")
[ -n "$pid" ] || np_fail "cannot find the watch process"
kill -TERM "$pid"
check_restored "SIGTERM"

# ^C on the terminal (SIGINT): same.
start_watch
"${T[@]}" send-keys -t w C-c
check_restored "^C"
echo "PASS"
