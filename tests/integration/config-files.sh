#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The settings files a run reads without --config (netpath.conf(5)): /etc/netpath.conf, then
# /etc/netpath.conf.d/*.conf by name, then the build's sysconfdir's when it is not /etc; -v says
# which were read, one line each in that order, or that none was; a drop-in's threshold wins
# over the main file's; editor backups and hidden files are not read; a bad drop-in is exit 3
# with one line naming its file and line; --config FILE reads FILE alone.
# /etc and sysconfdir are never touched: the test runs in a private mount namespace where an
# overlay (its upper layer on a tmpfs of its own) covers them, gone when the namespace ends.
. "$(dirname "$0")/lib.sh"
np_require_root
command -v unshare >/dev/null || np_skip "no unshare(1)"
: "${NP_SYSCONFDIR:?NP_SYSCONFDIR must be the sysconfdir of the build}"

if [ "${1:-}" != --inner ]; then
	chmod 755 "$NP_TMP"
	rc=0
	# The inner run's own NP_TMP is made and removed by lib.sh; its verdict is its exit.
	unshare --mount --propagation private bash "$0" --inner || rc=$?
	exit "$rc"
fi

TREE="$NP_SRCDIR/tests/fixtures/trees/x710-server"
ovl=$NP_TMP/ovl
mkdir -p "$ovl"
chmod 755 "$NP_TMP"
SYSCONF=""
# Unmount before lib.sh's cleanup removes NP_TMP (all of it is this namespace's alone anyway).
trap 'umount -l /etc 2>/dev/null; [ -z "$SYSCONF" ] || umount -l "$SYSCONF"; umount -l "$ovl" 2>/dev/null; np_cleanup' EXIT
mount -t tmpfs -o mode=755 np-config-files-$$ "$ovl" || np_skip "cannot mount a tmpfs"

# cover DIR: an overlay over DIR whose changes go to the tmpfs; any netpath file of the host's
# hidden in it, so the test sees only its own.
cover() {
	local dir=$1 tag=$2
	mkdir -p "$ovl/$tag/upper" "$ovl/$tag/work"
	chmod 755 "$ovl/$tag/upper"
	mount -t overlay "np-$tag-$$" -o "lowerdir=$dir,upperdir=$ovl/$tag/upper,workdir=$ovl/$tag/work" \
		"$dir" || np_skip "no overlayfs here (cannot cover $dir)"
	rm -rf "$dir/netpath.conf" "$dir/netpath.conf.d"
}
cover /etc etc
if [ "$NP_SYSCONFDIR" != /etc ]; then
	if [ -d "$NP_SYSCONFDIR" ]; then
		cover "$NP_SYSCONFDIR" sysconf
		SYSCONF=$NP_SYSCONFDIR
	else
		echo "note: $NP_SYSCONFDIR does not exist here: its files are not tested"
	fi
fi

put() {	# put FILE LINE...: root's file, mode 644
	printf '%s\n' "${@:2}" > "$1"
	chmod 644 "$1"
}
doc() {	# doc ARGS...: doctor -v over the fixture pair; $rc, stderr in err, JSON in out.json
	"$NETPATH" doctor eth0 --root "$TREE/after" --before "$TREE/before" --json -v "$@" \
		> "$NP_TMP/out.json" 2> "$NP_TMP/err"
	rc=$?
}
sev() {	# sev ID SEVERITY: the check's finding has that severity
	np_assert_json "$NP_TMP/out.json" \
		'any(f["id"] == "'"$1"'" and f["severity"] == "'"$2"'" for f in d["findings"])'
}
# read_lines: the "settings read from" lines of the last run, one file each.
read_lines() {
	sed -n 's/^netpath: settings read from //p' "$NP_TMP/err"
}

# Nothing there: one line says so, naming where it looked.
doc
[ "$rc" -le 2 ] || np_fail "no settings: exit $rc ($(cat "$NP_TMP/err"))"
[ -z "$(read_lines)" ] || np_fail "files read where there are none: $(read_lines)"
grep -q "^netpath: no settings file read (looked for /etc/netpath.conf" "$NP_TMP/err" ||
	np_fail "-v does not say that no file was read: $(cat "$NP_TMP/err")"
sev softnet.backlog-drops critical	# 12,000 drops/s at the default crit=100

# The main file and two drop-ins, written out of order, beside names that are not drop-ins.
mkdir -m 755 /etc/netpath.conf.d
put /etc/netpath.conf "threshold softnet.backlog-drops warn=50000 crit=60000"
put /etc/netpath.conf.d/20-late.conf "threshold softnet.backlog-drops warn=100000 crit=200000"
put /etc/netpath.conf.d/10-early.conf "rtt 30"
for f in 20-late.conf~ .10-early.conf.swp 30-x.conf.dpkg-old README; do
	put "/etc/netpath.conf.d/$f" "bogus"
done
want="/etc/netpath.conf
/etc/netpath.conf.d/10-early.conf
/etc/netpath.conf.d/20-late.conf"
if [ -n "$SYSCONF" ]; then
	mkdir -p -m 755 "$SYSCONF/netpath.conf.d"
	put "$SYSCONF/netpath.conf" "bandwidth 10G"
	put "$SYSCONF/netpath.conf.d/50-local.conf" "rtt 40"
	want="$want
$SYSCONF/netpath.conf
$SYSCONF/netpath.conf.d/50-local.conf"
fi
doc
[ "$rc" -le 2 ] || np_fail "with drop-ins: exit $rc ($(cat "$NP_TMP/err"))"
[ "$(read_lines)" = "$want" ] || np_fail "-v lists
$(read_lines)
not
$want"
grep -q "no settings file read" "$NP_TMP/err" && np_fail "files read and 'none read' both said"
# The later drop-in's levels, not the main file's.
sev softnet.backlog-drops info

# Without -v: not a word about it.
"$NETPATH" doctor eth0 --root "$TREE/after" --before "$TREE/before" --json \
	> "$NP_TMP/out.json" 2> "$NP_TMP/err"
grep -q "settings read" "$NP_TMP/err" && np_fail "files listed without -v: $(cat "$NP_TMP/err")"

# --config FILE: that file alone, even beside drop-ins, and -v says so.
put "$NP_TMP/only.conf" "# nothing"
doc --config "$NP_TMP/only.conf"
[ "$(read_lines)" = "$NP_TMP/only.conf" ] || np_fail "--config -v lists: $(read_lines)"
sev softnet.backlog-drops critical

# A bad drop-in: exit 3, one line naming it and its line; nothing runs.
put /etc/netpath.conf.d/15-bad.conf "# a comment" "rtt"
doc
[ "$rc" -eq 3 ] || np_fail "bad drop-in: exit $rc, expected 3"
grep -v '^netpath: settings read from' "$NP_TMP/err" > "$NP_TMP/err.rest"
[ "$(wc -l < "$NP_TMP/err.rest")" -eq 1 ] || np_fail "bad drop-in: stderr: $(cat "$NP_TMP/err")"
grep -q "/etc/netpath.conf.d/15-bad.conf:2: 'rtt' takes one value" "$NP_TMP/err.rest" ||
	np_fail "bad drop-in: $(cat "$NP_TMP/err.rest")"
# ... and one others could change: refused, named.
put /etc/netpath.conf.d/15-bad.conf "rtt 5"
chmod 664 /etc/netpath.conf.d/15-bad.conf
doc
[ "$rc" -eq 3 ] || np_fail "group-writable drop-in: exit $rc, expected 3"
grep -q "config file /etc/netpath.conf.d/15-bad.conf not used: it is group-writable" "$NP_TMP/err" ||
	np_fail "group-writable drop-in: $(cat "$NP_TMP/err")"
echo "PASS: settings files read in order and listed by -v"
