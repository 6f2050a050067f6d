#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The generated bash completion, driven as bash drives it (COMP_WORDS/COMP_CWORD, then the
# function registered with `complete`), and the zsh and fish ones on the same lines: commands, every option of every command's --help,
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
# The declared conflicts (netpath(8)'s "Not with"): an option on the line takes the ones it
# excludes off the list, whichever row declares the rule; the others stay.
got=$(comp 4 netpath doctor --root /x -)
for o in --every; do	# --netns goes with --root: a sosreport's namespace
	grep -qxF -- "$o" <<< "$got" && fail "netpath doctor --root /x -<TAB> offers $o"
done
has "netpath doctor --root /x -<TAB>" "$got" "--before"
got=$(comp 3 netpath doctor --nagios -)
grep -qxF -- "-o" <<< "$got" && fail "netpath doctor --nagios -<TAB> offers -o"
has "netpath doctor --nagios -<TAB>" "$got" "--json"
expect "netpath doctor --timeout=5 --e<TAB>" "$(comp 3 netpath doctor --timeout=5 --e)" ""

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

# zsh and fish: generated from the same tables, each with its own logic; run for real on the
# same command lines, the expected candidates again from the binary and the system. zsh's
# completion system needs a terminal, so its builtins (compadd, compset, _files) are stood in
# for by functions that print what they were given; fish runs its own (`complete -C LINE`).
: "${NP_COMPLETION_ZSH:?}" "${NP_COMPLETION_FISH:?}"
[ -s "$NP_COMPLETION_ZSH" ] || fail "no zsh completion generated"
[ -s "$NP_COMPLETION_FISH" ] || fail "no fish completion generated"
cat > "$tmp/zcomp.zsh" <<'EOF'
source $1 || exit 1
compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@" }
compset() { [[ $1 == -P && $words[CURRENT] == *=* ]] && print -r -- "compset ${words[CURRENT]%%=*}=" }
_files() { print -r -- "_files $*" }
words=(${(s: :)2})
[[ $2 == *" " ]] && words+=("")
CURRENT=${#words}
_netpath
EOF
# zc LINE / fc LINE: the candidates zsh / fish offer at the end of LINE, sorted.
zc() { zsh -f "$tmp/zcomp.zsh" "$NP_COMPLETION_ZSH" "$1" | sort; }
fc() {
	fish --no-config -c 'source $argv[1]; or exit 1; complete -C $argv[2]' \
		"$NP_COMPLETION_FISH" "$1" | cut -f1 | sort
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "fish: completing '$1' failed"
}
shells=
if command -v zsh > /dev/null; then
	zsh -n "$NP_COMPLETION_ZSH" || fail "syntax error in $NP_COMPLETION_ZSH"
	shells+=" zc"
else
	echo "SKIP: zsh not installed (tools/install-deps.sh): its completion is not run"
fi
if command -v fish > /dev/null; then
	fish --no-config -n "$NP_COMPLETION_FISH" || fail "syntax error in $NP_COMPLETION_FISH"
	shells+=" fc"
else
	echo "SKIP: fish not installed (tools/install-deps.sh): its completion is not run"
fi
for sh in $shells; do
	expect "$sh: netpath <TAB>" "$($sh 'netpath ')" "$cmds"
	expect "$sh: netpath ex<TAB>" "$($sh 'netpath ex')" "explain"
	for c in $cmds; do
		got=$($sh "netpath $c -")
		for o in $(grep -oE -- '(^|[ [])--?[a-zA-Z][a-z0-9-]*' <<< "$("$NETPATH" "$c" --help)" |
			   tr -d ' ['); do
			has "$sh: netpath $c -<TAB>" "$got" "$o"
		done
	done
	has "$sh: netpath -<TAB>" "$($sh 'netpath -')" "--version"
	expect "$sh: explain soft<TAB>" "$($sh 'netpath explain soft')" \
		"$(grep '^softnet\.' <<< "$ids" | sort)"
	expect "$sh: explain ID <TAB>" "$($sh 'netpath explain softnet.flow-limit ')" ""
	expect "$sh: doctor --color <TAB>" "$($sh 'netpath doctor --color ')" \
		"$(printf '%s\n' always auto never)"
	want=$(for w in $stages $ids; do [[ $w == sock* ]] && echo "softnet.backlog-drops,$w"; done |
	       sort)
	expect "$sh: doctor --skip softnet.backlog-drops,sock<TAB>" \
		"$($sh 'netpath doctor --skip softnet.backlog-drops,sock')" "$want"
	expect "$sh: doctor --threshold softnet.<TAB>" "$($sh 'netpath doctor --threshold softnet.')" \
		"$(grep '^softnet\.' <<< "$thr_ids" | sed 's/$/:/' | sort)"
	expect "$sh: --threshold softnet.backlog-drops:<TAB>" \
		"$($sh 'netpath doctor --threshold softnet.backlog-drops:')" \
		"$(printf '%s\n' softnet.backlog-drops:crit= softnet.backlog-drops:warn=)"
	expect "$sh: --threshold softnet.backlog-drops:warn=1,<TAB>" \
		"$($sh 'netpath doctor --threshold softnet.backlog-drops:warn=1,')" \
		"softnet.backlog-drops:warn=1,crit="
	expect "$sh: --threshold $warn_only:<TAB>" "$($sh "netpath doctor --threshold $warn_only:")" \
		"$warn_only:warn="
	got=$($sh 'netpath doctor l')
	has "$sh: netpath doctor l<TAB>" "$got" "lo"
	for w in $got; do
		[[ $w == l* && -e /sys/class/net/$w ]] || fail "$sh: doctor l<TAB> offered $w"
	done
	has "$sh: netpath -i 2 l<TAB>" "$($sh 'netpath -i 2 l')" "lo"
	# the declared conflicts, as in bash
	got=$($sh 'netpath doctor --root /x -')
	for o in --every; do
		grep -qxF -- "$o" <<< "$got" && fail "$sh: doctor --root /x -<TAB> offers $o"
	done
	has "$sh: doctor --root /x -<TAB>" "$got" "--before"
	expect "$sh: doctor --timeout=5 --e<TAB>" "$($sh 'netpath doctor --timeout=5 --e')" ""
	expect "$sh: doctor --root TREE f<TAB>" "$($sh "netpath doctor --root $tmp/tree f")" \
		"$(printf '%s\n' fake0 fake1)"
	expect "$sh: diff A TREE f<TAB>" "$($sh "netpath diff $tmp/x $tmp/tree f")" \
		"$(printf '%s\n' fake0 fake1)"
done
# Where they differ: zsh hands files to _files and moves "--opt=" aside with compset; fish
# lists the files itself and keeps "--opt=" on each candidate.
if [[ $shells == *zc* ]]; then
	expect "zsh: doctor --color=al<TAB>" "$(zc 'netpath doctor --color=al')" \
		"$(printf '%s\n' always 'compset --color=')"
	expect "zsh: doctor --config DIR/<TAB>" "$(zc "netpath doctor --config $tmp/")" "_files "
	expect "zsh: doctor --root DIR/<TAB>" "$(zc "netpath doctor --root $tmp/")" "_files "
	expect "zsh: plan --write DIR/<TAB>" "$(zc "netpath plan --write $tmp/")" "_files -/"
	# And once through zsh's own completion system (compinit, the file found on $fpath,
	# autoloaded), in a pseudo-terminal: what compadd is given for LINE<TAB>.
	cat > "$tmp/zreal.zsh" <<'EOF'
# zsh -f THIS FPATHDIR LINE: the candidates zsh's real completion system offers for LINE<TAB>
zmodload zsh/zpty || exit 1
local out
zpty z zsh -f -i
zpty -w z "PROMPT=; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () { local -a h; builtin compadd -O h "$@"; print -r -- "HITS:${(j: :)h}:END"; builtin compadd "$@" }'
zpty -w z "PROMPT=__PR''OMPT__; echo __RE''ADY__"
zpty -r z out '*__READY__*' || exit 2
# Type only at the prompt, and end the line only once completion has answered: on a loaded
# machine, keys sent ahead of the line editor were lost (an empty answer, seen under load).
zpty -r z out '*__PROMPT__*' || exit 2
zpty -n -w z "$2"$'\t'
zpty -r z out '*:END*' || exit 2
local rest
zpty -n -w z $'\x15'"echo __DO''NE__"$'\n'
zpty -r z rest '*__DONE__*' || exit 2
zpty -d z
print -r -- "$out$rest" | grep -a -o 'HITS:.*:END' | grep -v 'j:' | sed 's/^HITS://;s/:END$//' | tr ' ' '\n' | grep -v '^$'
EOF
	zr() { timeout 30 zsh -f "$tmp/zreal.zsh" "$(dirname "$NP_COMPLETION_ZSH")" "$1" | sort; }
	expect "zsh (real): netpath doc<TAB>" "$(zr 'netpath doc')" "doctor"
	expect "zsh (real): doctor --color=al<TAB>" "$(zr 'netpath doctor --color=al')" "always"
	expect "zsh (real): explain softnet.f<TAB>" "$(zr 'netpath explain softnet.f')" \
		"softnet.flow-limit"
	expect "zsh (real): --threshold softnet.backlog-drops:<TAB>" \
		"$(zr 'netpath doctor --threshold softnet.backlog-drops:')" \
		"$(printf '%s\n' softnet.backlog-drops:crit= softnet.backlog-drops:warn=)"
fi
if [[ $shells == *fc* ]]; then
	expect "fish: doctor --color=al<TAB>" "$(fc 'netpath doctor --color=al')" "--color=always"
	has "fish: doctor --config DIR/<TAB>" "$(fc "netpath doctor --config $tmp/")" \
		"$tmp/file.conf"
	has "fish: netpath doc<TAB>" "$(fc 'netpath doc')" "doctor"
	got=$(fc "netpath plan --write $tmp/")
	has "fish: plan --write DIR/<TAB>" "$got" "$tmp/dir.d/"
	grep -qF "file.conf" <<< "$got" && fail "fish: plan --write DIR/<TAB> offered a file"
fi

# Installed where each shell finds it on demand.
"$NP_PY" - "$NP_BUILDDIR/meson-info/intro-installed.json" <<'PY' || fail "completion not installed"
import json, sys
dests = json.load(open(sys.argv[1])).values()
for want in ("/bash-completion/completions/netpath", "/zsh/vendor-completions/_netpath",
             "/fish/vendor_completions.d/netpath.fish"):
    if not any(d.endswith(want) for d in dests):
        sys.exit(f"nothing installed as ...{want}")
PY
shells=${shells//zc/zsh}
shells=${shells//fc/fish}
echo "PASS: bash${shells// /, } completion for $(echo $cmds) and $(echo "$ids" | wc -l) check ids"
