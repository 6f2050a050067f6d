#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Text output follows the terminal width: every command's text, piped with COLUMNS=60, 80 and
# 120, over the fixture trees, the capture and the diff pair, has no line wider than COLUMNS.
# The only lines allowed past it are ones that cannot be broken without changing what they
# mean, and each is named: a single long word (a path, a command) after its indent or a short
# label, and a
# setting or command line of a file `plan` shows (only its comments are wrapped). There must
# be few of them. Without COLUMNS, a pipe gets 80.
set -u
: "${NETPATH:?}" "${NP_SRCDIR:?}"
NP_PY=${NP_PYTHON:-/usr/bin/python3}
T=$NP_SRCDIR/tests/fixtures
work=$(mktemp -d /tmp/np-width.$$.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# Every line of file $2 at most $1 columns (UTF-8 characters, colour escapes take none), save
# the unbreakable ones, which are listed; more than $3 of them fail too.
measure() {
	"$NP_PY" - "$@" <<'PY'
import re, sys
width, path, allowed, what = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(path, encoding='utf-8').read()
in_file = False
unbreakable, bad = [], []
for line in text.split('\n'):
    if line.startswith('==> ') and line.endswith(' <=='):
        in_file = True
    elif in_file and line.startswith('Plan for '):
        in_file = False
    shown = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', line)
    if len(shown) <= width:
        continue
    # One long word (a path, a command), alone or after a short label, or a plan file's
    # setting: breaking either would change what it says.
    head, _, word = shown.rstrip().rpartition(' ')
    if (len(word) > width // 2 and len(head) <= width // 2) or \
       (in_file and not shown.lstrip().startswith('#')):
        unbreakable.append(shown)
    else:
        bad.append(shown)
for l in bad:
    print(f'FAIL: {what} at {width}: {len(l)} columns: {l}')
for l in unbreakable:
    print(f'note: {what} at {width}: unbreakable, {len(l)} columns: {l}')
if len(unbreakable) > allowed:
    print(f'FAIL: {what} at {width}: {len(unbreakable)} unbreakable lines, at most {allowed}')
sys.exit(1 if bad or len(unbreakable) > allowed else 0)
PY
}

# run NAME ALLOWED ARGS...: the command's text at each width, through a pipe.
run() {
	local name=$1 allowed=$2 w
	shift 2
	for w in 60 80 120; do
		COLUMNS=$w "$NETPATH" "$@" < /dev/null > "$work/out" 2> "$work/err"
		if [ ! -s "$work/out" ]; then
			fail "$name printed nothing at $w: $(head -c 300 "$work/err")"
			continue
		fi
		measure "$w" "$work/out" "$allowed" "$name" || fails=$((fails + 1))
	done
}

run "netpath --help" 0 --help
for c in doctor checks explain trace capture watch diff plan; do
	run "$c --help" 0 "$c" --help
done
run checks 0 checks
# Paragraphs of --help are wrapped once: a line that ends while the next line's first word
# would still have fitted on it was broken by the source, not by the width ("...the
# interface" / "of" / "the default route..." when a description kept its own line breaks).
ragged() {
	"$NP_PY" - "$@" <<'PY'
import sys
width, path, what = int(sys.argv[1]), sys.argv[2], sys.argv[3]
lines = open(path, encoding='utf-8').read().split('\n')
bad = 0
for a, b in zip(lines, lines[1:]):
    if not a.strip() or not b.strip():
        continue
    # usage lines, option heads and sentences that end their line are laid out on purpose
    if a.startswith('Usage') or a.lstrip().startswith(('-', 'netpath ')) or \
       a.rstrip().endswith(('.', ':', ')')) or b.lstrip().startswith(('-', 'netpath ')):
        continue
    if len(a.rstrip()) + 1 + len(b.split()[0]) <= width:
        print(f'FAIL: {what} at {width}: broken early: {a.rstrip()!r} / {b!r}')
        bad = 1
sys.exit(bad)
PY
}
for c in doctor trace capture watch diff plan; do
	for w in 60 80 120; do
		COLUMNS=$w "$NETPATH" "$c" --help > "$work/out" 2>&1
		ragged "$w" "$work/out" "$c --help" || fails=$((fails + 1))
	done
done
for id in $("$NETPATH" checks --json | "$NP_PY" -c \
	'import json, sys; print(" ".join(c["id"] for c in json.load(sys.stdin)["checks"]))'); do
	run "explain $id" 1 explain "$id"
done
for tree in "$T"/trees/*/; do
	t=$(basename "$tree")
	run "doctor $t" 2 doctor -i 0 --all --root "$tree/after"
	run "doctor -v $t" 2 doctor -v -i 0 --all --root "$tree/after"
	run "doctor --before $t" 2 doctor --all --root "$tree/after" --before "$tree/before" \
		--interval-of 10
	run "doctor --all-counters $t" 2 doctor -i 0 --all --all-counters --root "$tree/after"
	for p in lan long-haul; do
		run "plan $p $t" 4 plan --profile "$p" --root "$tree/after"
	done
done
run "doctor capture" 2 doctor --root "$T/capture/veth-tbf.cap"
run "doctor --sockets capture" 2 doctor --sockets 8 --root "$T/capture/veth-tbf.cap"
run "plan capture" 4 plan --profile lan --root "$T/capture/veth-tbf.cap"
run "diff" 2 diff "$T/diff/field-bbr/before" "$T/diff/field-bbr/after"
run "diff -v" 2 diff -v "$T/diff/field-bbr/before" "$T/diff/field-bbr/after"

# A pipe without COLUMNS: 80. Colour escapes do not count, and never reach a dumb terminal.
env -u COLUMNS "$NETPATH" checks > "$work/out"
measure 80 "$work/out" 0 "checks without COLUMNS" || fails=$((fails + 1))
COLUMNS=60 "$NETPATH" doctor --color=always -i 0 --all --root "$T/trees/x710-server/after" \
	> "$work/out"
grep -q $'\033\\[' "$work/out" || fail "--color=always wrote no colour"
measure 60 "$work/out" 2 "doctor --color=always" || fails=$((fails + 1))

# On a real terminal (a tmux pane of 80x24): the window's width wins over COLUMNS, colour comes
# with --color=auto, and TERM=dumb gets none. capture-pane -J joins the lines the terminal
# itself wrapped, so an overlong line shows.
pane() {	# pane NAME TERM: the doctor report in a fresh 80x24 pane, as the screen holds it
	local sock=np-width-$$-$1 i
	tmux -L "$sock" -f /dev/null new-session -d -x 80 -y 24 \
		"env TERM=$2 COLUMNS=200 '$NETPATH' doctor --color=auto -i 0 --all \
		--root '$T/trees/x710-server/after'; echo __done__; sleep 60" || return 1
	for i in $(seq 100); do
		tmux -L "$sock" capture-pane -p -J -e -S - > "$work/$1" 2> /dev/null
		grep -q __done__ "$work/$1" && break
		sleep 0.1
	done
	tmux -L "$sock" kill-server 2> /dev/null
	grep -q __done__ "$work/$1"
}
if ! command -v tmux > /dev/null; then
	echo "note: no tmux, the terminal checks are skipped"
elif pane tty xterm-256color && pane dumb dumb; then
	sed -i '/__done__/,$d' "$work/tty" "$work/dumb"
	measure 80 "$work/tty" 2 "doctor in an 80-column tmux pane" || fails=$((fails + 1))
	grep -q 'result: ' "$work/tty" || fail "the tmux pane shows no report"
	# tmux writes the attributes its own way: bold and a foreground colour, each apart.
	grep -qE $'\033\\[(1|3[1-6])m' "$work/tty" || fail "no colour on a terminal with --color=auto"
	grep -qE $'\033\\[(1|3[1-6])m' "$work/dumb" && fail "colour on TERM=dumb with --color=auto"
	grep -q 'result: ' "$work/dumb" || fail "the TERM=dumb pane shows no report"
else
	fail "tmux did not run netpath"
fi

[ "$fails" = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok: text output fits 60, 80 and 120 columns"
