#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The generated bash completion, driven as bash drives it (COMP_WORDS/COMP_CWORD, then the
# function registered with `complete`): commands, every option of every command's --help,
# option arguments, interfaces, check ids, comma lists and ID:LEVEL= for --threshold, also
# with COMP_WORDS split at '=' and ':' the way readline splits them. Expected candidates come
# from the binary (`--help`, `checks --json`) and the system, not from the completion file.
set -u
# The distribution's python3, as in tests/integration/lib.sh: a python3 first on PATH (a pyenv
# shim) may be slow to start.
NP_PY=${NP_PYTHON:-/usr/bin/python3}
: "${NETPATH:?}" "${NP_COMPLETION:?}" "${NP_BUILDDIR:?}"
tmp=$(mktemp -d /tmp/np-comp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

bash -n "$NP_COMPLETION" || fail "syntax error in $NP_COMPLETION"

# comp CWORD WORD...: the candidates for WORD[CWORD], sorted, one per line.
comp() {
	bash -c '
		source "$1" || exit 1
		[[ $(complete -p netpath) == "complete -F _netpath netpath" ]] || exit 2
		cword=$2
		shift 2
		COMP_WORDS=("$@")
		COMP_CWORD=$cword
		COMP_LINE="${COMP_WORDS[*]}"
		COMP_POINT=${#COMP_LINE}
		_netpath
		for c in "${COMPREPLY[@]}"; do printf "%s\n" "$c"; done' \
		_ "$NP_COMPLETION" "$@" | sort
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "completion function failed for: $*"
}
# expect WHAT GOT WANT: the two sorted lists are equal.
expect() {
	[ "$2" = "$3" ] || fail "$1:
got:  $(echo $2)
want: $(echo $3)"
}
# has WHAT GOT WORD: WORD is one of the candidates.
has() { grep -qxF -- "$3" <<< "$2" || fail "$1: '$3' not among: $(echo $2)"; }

"$NETPATH" checks --json > "$tmp/checks.json" || fail "checks --json"
# ids_where COND: the ids of the checks c (thresholds t) for which the Python COND holds.
ids_where() {
	"$NP_PY" -c 'import json, sys
for c in json.load(open(sys.argv[1]))["checks"]:
    t = c["thresholds"]
    if eval(sys.argv[2]):
        print(c["id"])' "$tmp/checks.json" "$1" || fail "checks --json"
}
ids=$(ids_where True)
thr_ids=$(ids_where 't["warning"] is not None or t["critical"] is not None')
stages="link pcie nic irq softnet ingress ip transport socket congestion"
cmds=$("$NETPATH" --help | sed -n '/^Commands:/,/^$/{s/^  \([a-z]*\) .*/\1/p}' | sort)
[ -n "$cmds" ] || fail "no commands in netpath --help"

# netpath <TAB>: exactly the commands --help lists; a prefix narrows them.
expect "netpath <TAB>" "$(comp 1 netpath '')" "$cmds"
expect "netpath ex<TAB>" "$(comp 1 netpath ex)" "explain"

# Every option each command's --help mentions is offered after the command (and for doctor,
# also without one: `netpath --json` runs doctor).
for c in $cmds; do
	got=$(comp 2 netpath "$c" -)
	help=$("$NETPATH" "$c" --help)
	for o in $(grep -oE -- '(^|[ [])--?[a-zA-Z][a-z0-9-]*' <<< "$help" | tr -d ' ['); do
		has "netpath $c -<TAB>" "$got" "$o"
	done
done
has "netpath -<TAB>" "$(comp 1 netpath -)" "--interval"
has "netpath -<TAB>" "$(comp 1 netpath -)" "--version"
expect "netpath doctor --sk<TAB>" "$(comp 2 netpath doctor --sk)" "--skip"
# netpath help COMMAND: the commands, once.
expect "netpath help <TAB>" "$(comp 2 netpath help '')" "$cmds"
expect "netpath help d<TAB>" "$(comp 2 netpath help d)" "$(grep '^d' <<< "$cmds")"
expect "netpath help doctor <TAB>" "$(comp 3 netpath help doctor '')" ""
has "netpath doctor --b<TAB>" "$(comp 2 netpath doctor --b)" "--brief"

# explain soft<TAB>: the softnet ids, nothing else.
expect "netpath explain soft<TAB>" "$(comp 2 netpath explain soft)" \
	"$(grep '^softnet\.' <<< "$ids" | sort)"
expect "netpath explain --json so<TAB>" "$(comp 3 netpath explain --json so)" \
	"$(grep '^so' <<< "$ids" | sort)"
expect "netpath explain ID <TAB>" "$(comp 3 netpath explain softnet.flow-limit '')" ""

# Option arguments: the choices each option's help names.
expect "doctor --color <TAB>" "$(comp 3 netpath doctor --color '')" \
	"$(printf '%s\n' always auto never)"
expect "doctor --format <TAB>" "$(comp 3 netpath doctor --format '')" \
	"$(printf '%s\n' json prometheus text)"
# --color=al as readline splits it (--color, =, al): the candidate replaces 'al' only.
expect "doctor --color=al<TAB>" "$(comp 4 netpath doctor --color = al)" "always"
expect "doctor --interval <TAB>" "$(comp 3 netpath doctor --interval '')" ""

# --skip/--check: comma lists of ids and stages; the part after the last comma is completed,
# items already in the list are not offered again.
want=$(for w in $stages $ids; do [[ $w == sock* ]] && echo "softnet.backlog-drops,$w"; done | sort)
got=$(comp 3 netpath doctor --skip softnet.backlog-drops,sock)
expect "doctor --skip softnet.backlog-drops,sock<TAB>" "$got" "$want"
has "doctor --skip ...,sock<TAB>" "$got" "softnet.backlog-drops,socket.udp-rcvbuf"
got=$(comp 3 netpath doctor --check softnet.flow-limit,softnet.f)
expect "doctor --check softnet.flow-limit,softnet.f<TAB>" "$got" ""

# --threshold: only checks that have thresholds, then the levels each has.
want=$(grep '^softnet\.' <<< "$thr_ids" | sed 's/$/:/' | sort)
expect "doctor --threshold softnet.<TAB>" "$(comp 3 netpath doctor --threshold softnet.)" "$want"
expect "doctor --threshold link.dup<TAB> (no thresholds)" \
	"$(comp 3 netpath doctor --threshold link.dup)" ""
# softnet.backlog-drops:<TAB>, split at ':' as readline does.
expect "--threshold softnet.backlog-drops:<TAB>" \
	"$(comp 5 netpath doctor --threshold softnet.backlog-drops : '')" "$(printf '%s\n' crit= warn=)"
expect "--threshold softnet.backlog-drops:warn=1,<TAB>" \
	"$(comp 7 netpath doctor --threshold softnet.backlog-drops : warn = 1,)" "1,crit="
warn_only=$(ids_where 't["warning"] is not None and t["critical"] is None' | sed -n 1p)
[ -n "$warn_only" ] || fail "no check with only a warning level"
expect "--threshold $warn_only:<TAB>" \
	"$(comp 5 netpath doctor --threshold "$warn_only" : '')" "warn="

# IFACE: the interfaces of /sys/class/net, or of the tree given with --root.
got=$(comp 2 netpath doctor l)
has "netpath doctor l<TAB>" "$got" "lo"
for w in $got; do [[ $w == l* && -e /sys/class/net/$w ]] || fail "doctor l<TAB> offered $w"; done
has "netpath --json l<TAB>" "$(comp 2 netpath --json l)" "lo"
has "netpath doctor -i 2 l<TAB>" "$(comp 4 netpath doctor -i 2 l)" "lo"
expect "netpath doctor lo <TAB>" "$(comp 3 netpath doctor lo '')" ""
mkdir -p "$tmp/tree/sys/class/net/fake0" "$tmp/tree/sys/class/net/fake1" "$tmp/tree/proc"
expect "doctor --root TREE f<TAB>" "$(comp 4 netpath doctor --root "$tmp/tree" f)" \
	"$(printf '%s\n' fake0 fake1)"

# diff: BEFORE and AFTER are files or directories; IFACE the interfaces of the AFTER tree.
expect "diff TREE/<TAB>" "$(comp 2 netpath diff "$tmp/tr")" "$tmp/tree"
expect "diff A TREE/<TAB>" "$(comp 3 netpath diff "$tmp/tree" "$tmp/tr")" "$tmp/tree"
expect "diff A TREE f<TAB>" "$(comp 4 netpath diff "$tmp/x" "$tmp/tree" f)" \
	"$(printf '%s\n' fake0 fake1)"
expect "diff A B IFACE <TAB>" "$(comp 5 netpath diff "$tmp/x" "$tmp/tree" fake0 '')" ""

# Files and directories.
mkdir "$tmp/dir.d" && touch "$tmp/file.conf"
got=$(comp 3 netpath doctor --config "$tmp/")
has "doctor --config DIR/<TAB>" "$got" "$tmp/file.conf"
has "doctor --config DIR/<TAB>" "$got" "$tmp/dir.d"
# --root takes a tree (a directory) or an archive (a capture, a sosreport's .tar.xz): both.
got=$(comp 3 netpath doctor --root "$tmp/")
has "doctor --root DIR/<TAB>" "$got" "$tmp/dir.d"
has "doctor --root DIR/<TAB>" "$got" "$tmp/tree"
has "doctor --root DIR/<TAB>" "$got" "$tmp/file.conf"
has "doctor -o DIR/<TAB>" "$(comp 3 netpath doctor -o "$tmp/f")" "$tmp/file.conf"
# --netns: the names under /run/netns (those there before and after: other tests come and go).
before=$(ls /run/netns 2>/dev/null)
got=$(comp 3 netpath doctor --netns '')
for ns in $(ls /run/netns 2>/dev/null); do
	grep -qxF -- "$ns" <<< "$before" && has "doctor --netns <TAB>" "$got" "$ns"
done

# Installed where bash-completion finds it on demand.
"$NP_PY" - "$NP_BUILDDIR/meson-info/intro-installed.json" <<'PY' || fail "completion not installed"
import json, sys
sys.exit(0 if any(d.endswith("/bash-completion/completions/netpath")
                  for d in json.load(open(sys.argv[1])).values()) else 1)
PY
echo "PASS: bash completion for $(echo $cmds) and $(echo "$ids" | wc -l) check ids"
