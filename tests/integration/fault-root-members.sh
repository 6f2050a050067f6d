#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A capture or tree that points the reader elsewhere: a sample that is a symlink (s2 -> /,
# s1 -> /), a sample's proc -> /proc, as a directory and as a .tar.gz, through doctor --root,
# --before and diff. Each is refused with exit 3 and one line naming the member; none is judged
# as the live system under the capture's name. The path the user names may itself be a link.
# An archive with no proc/ or sys/ is named, not a path inside it that does not exist.
. "$(dirname "$0")/lib.sh"
CAP="$NP_SRCDIR/tests/fixtures/capture/veth-tbf.cap"
[ -f "$CAP" ] || np_skip "no fixture capture"
mkdir "$NP_TMP/good"
tar -xzf "$CAP" -C "$NP_TMP/good" || np_fail "cannot unpack $CAP"
[ -d "$NP_TMP/good/s2" ] || np_fail "the fixture capture has no s2/"

# variant NAME: a copy of the good capture, its path on stdout.
variant() {
	rm -rf "${NP_TMP:?}/$1"
	cp -a "$NP_TMP/good" "$NP_TMP/$1"
	echo "$NP_TMP/$1"
}

# refused NAME WHY CMD...: CMD (bounded) exits 3 with one line on stderr that says WHY.
refused() {
	local name=$1 why=$2 rc
	shift 2
	timeout -s KILL 60 "$@" > "$NP_TMP/$name.out" 2> "$NP_TMP/$name.err"
	rc=$?
	[ "$rc" -eq 3 ] || np_fail "$name: exit $rc, not 3 (stderr: $(head -3 "$NP_TMP/$name.err"))"
	[ "$(wc -l < "$NP_TMP/$name.err")" -eq 1 ] ||
		np_fail "$name: not one line on stderr: $(head -5 "$NP_TMP/$name.err")"
	grep -qF -- "$why" "$NP_TMP/$name.err" ||
		np_fail "$name: stderr does not say '$why': $(cat "$NP_TMP/$name.err")"
	grep -q 'of host' "$NP_TMP/$name.out" && np_fail "$name: a report was printed"
	return 0
}

# doctor and diff on a directory and on its .tar.gz, the bad one as --root, --before and either
# side of diff.
every_way() {
	local name=$1 dir=$2 why=$3
	tar -czf "$dir.tar.gz" -C "$dir" . || np_fail "tar $name"
	refused "$name-root" "$why" "$NETPATH" doctor --root "$dir" --interval 0
	refused "$name-json" "$why" "$NETPATH" doctor --root "$dir" --interval 0 --json
	refused "$name-tgz" "$why" "$NETPATH" doctor --root "$dir.tar.gz" --interval 0
	refused "$name-before" "$why" "$NETPATH" doctor --root "$NP_TMP/good" --before "$dir" \
		--interval 0
	refused "$name-diff-b" "$why" "$NETPATH" diff "$dir" "$NP_TMP/good"
	refused "$name-diff-a" "$why" "$NETPATH" diff "$NP_TMP/good.tar.gz" "$dir.tar.gz"
	refused "$name-plan" "$why" "$NETPATH" plan --profile lan --root "$dir"
}
tar -czf "$NP_TMP/good.tar.gz" -C "$NP_TMP/good" . || np_fail "tar good"

# The good capture, and a link to it (the user's choice), are read.
ln -s good "$NP_TMP/link"
for root in "$NP_TMP/good" "$NP_TMP/link" "$NP_TMP/good.tar.gz"; do
	timeout -s KILL 60 "$NETPATH" doctor --root "$root" --interval 0 > "$NP_TMP/ok.out" \
		2> "$NP_TMP/ok.err"
	rc=$?
	[ "$rc" -le 2 ] || np_fail "$root: exit $rc: $(cat "$NP_TMP/ok.err")"
	grep -q "capture (netpath" "$NP_TMP/ok.out" || np_fail "$root: no capture header"
done

t=$(variant s2-root)
rm -rf "$t/s2" && ln -s / "$t/s2"
every_way s2-root "$t" "s2 is a symbolic link"

t=$(variant s1-root)
rm -rf "$t/s1" && ln -s / "$t/s1"
every_way s1-root "$t" "s1 is a symbolic link"

t=$(variant s2-s1)
rm -rf "$t/s2" && ln -s s1 "$t/s2"
every_way s2-s1 "$t" "s2 is a symbolic link"

t=$(variant proc-live)
rm -rf "$t/s2/proc" && ln -s /proc "$t/s2/proc"
every_way proc-live "$t" "s2/proc leads outside the tree"

t=$(variant sys-up)
rm -rf "$t/s1/sys" && ln -s ../s2/sys "$t/s1/sys"
every_way sys-up "$t" "s1/sys leads outside the tree"

# A plain tree (no META): its proc -> /proc, its sys a real directory.
mkdir -p "$NP_TMP/tree/sys"
cp -a "$NP_TMP/good/s2/sys/." "$NP_TMP/tree/sys/"
ln -s /proc "$NP_TMP/tree/proc"
refused tree-proc "tree: proc leads outside the tree" "$NETPATH" doctor --root "$NP_TMP/tree" \
	--interval 0

# An archive (and a directory) with no tree in it: named, with what it lacks.
mkdir -p "$NP_TMP/notree/etc"
echo x > "$NP_TMP/notree/etc/hostname"
tar -czf "$NP_TMP/notree.tar.gz" -C "$NP_TMP/notree" . || np_fail "tar notree"
for root in "$NP_TMP/notree.tar.gz" "$NP_TMP/notree"; do
	refused notree "$root: not a capture, sosreport or tree of /proc and /sys: no proc/ or sys/ inside" \
		"$NETPATH" doctor --root "$root" --interval 0
	grep -q "$root/proc" "$NP_TMP/notree.err" && np_fail "names a path that does not exist"
	refused notree-diff "$root: not a capture" "$NETPATH" diff "$root" "$NP_TMP/good"
done
exit 0
