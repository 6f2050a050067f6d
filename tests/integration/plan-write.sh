#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath plan --write DIR keeps to DIR, and writes a plan whole or not at all:
# - DIR named through a symbolic link (link, link/, link/., link//./) is refused, and the file
#   the link's target holds under a plan file's name is left as it was;
# - a DIR (or a directory beneath it) writable by group or others, or owned by another user, is
#   refused with nothing written;
# - a plan that cannot be written whole (a target that is a directory, a symbolic link where a
#   file goes, a file where a directory goes) leaves DIR exactly as it was: the files of an
#   earlier plan untouched, no temporary file, no directory of the failed run left behind.
# The races (DIR swapped for a link while the plan is written) are plan-write-race.sh.
. "$(dirname "$0")/lib.sh"
np_require_root
umask 022
tree=$NP_SRCDIR/tests/fixtures/trees/arm-board/after
base=$NP_TMP/pw-$$
mkdir -m 0755 "$base" || np_fail "mkdir $base"
files="etc/sysctl.d/90-netpath.conf etc/systemd/network/10-netpath-enp1s0.link
etc/udev/rules.d/70-netpath-enp1s0.rules netpath-apply-now.sh"

# plan DIR: the arm-board tree's plan written to DIR; stdout, stderr and status in $base/run.*.
plan() {
	timeout 30 "$NETPATH" plan enp1s0 --root "$tree" --profile lan --write "$1" \
		> "$base/run.out" 2> "$base/run.err"
	echo $? > "$base/run.rc"
}

# refused DIR WHY: plan DIR exited 3 with one line on stderr that contains WHY.
refused() {
	plan "$1"
	[ "$(cat "$base/run.rc")" = 3 ] ||
		np_fail "--write $1 exited $(cat "$base/run.rc"), not 3: $(cat "$base/run.out" "$base/run.err")"
	[ "$(wc -l < "$base/run.err")" = 1 ] || np_fail "--write $1: not one line: $(cat "$base/run.err")"
	grep -q -- "$2" "$base/run.err" || np_fail "--write $1: '$(cat "$base/run.err")' lacks '$2'"
}

# listing DIR: every name beneath DIR with its type, mode, owner, size and content digest.
listing() {
	(cd "$1" && find . -printf '%p %y %m %u %s\n' -type f -exec md5sum {} + | sort)
}

# The plan written where nothing stands in its way: the reference for the rest.
ref=$base/ref
plan "$ref"
[ "$(cat "$base/run.rc")" = 0 ] || np_fail "plan --write $ref failed: $(cat "$base/run.err")"
for f in $files; do
	[ -f "$ref/$f" ] || np_fail "no $f in the plan written to $ref"
done

# 1. DIR through a symbolic link, however spelled: refused, the target untouched. The old code
#    judged "link/" by lstat() of "link/", which follows the link, and replaced the file.
other=$base/other
mkdir -p "$other/etc/sysctl.d"
echo "the admin's own file" > "$other/netpath-apply-now.sh"
echo "# the admin's own sysctls" > "$other/etc/sysctl.d/90-netpath.conf"
ln -s "$other" "$base/link"
before=$(listing "$other")
for spelling in "$base/link" "$base/link/" "$base/link/." "$base/link//./" "$base/link/./."; do
	refused "$spelling" "symbolic link"
	[ "$(listing "$other")" = "$before" ] ||
		np_fail "--write $spelling changed the link's target: $(listing "$other")"
done

# 2. Directories others may write to, or another user's: refused, nothing written in them.
for mode in 0775 0757 1777; do
	d=$base/mode-$mode
	mkdir "$d" && chmod "$mode" "$d"
	refused "$d" "writable by"
	[ -z "$(ls -A "$d")" ] || np_fail "--write into a $mode directory wrote $(ls -A "$d")"
done
d=$base/theirs
mkdir -m 0755 "$d" && chown nobody "$d"
refused "$d" "owned by"
[ -z "$(ls -A "$d")" ] || np_fail "--write into nobody's directory wrote $(ls -A "$d")"
# The same for a directory beneath DIR that the plan writes into.
d=$base/sub-loose
mkdir -p "$d/etc" && chmod 0777 "$d/etc"
refused "$d" "writable by"
[ -z "$(ls -A "$d/etc")" ] || np_fail "--write wrote into a world-writable $d/etc"
d=$base/sub-theirs
mkdir -p "$d/etc/sysctl.d" && chown nobody "$d/etc/sysctl.d"
refused "$d" "owned by"
[ -z "$(ls -A "$d/etc/sysctl.d")" ] || np_fail "--write wrote into nobody's $d/etc/sysctl.d"
[ "$(ls -A "$d/etc")" = sysctl.d ] || np_fail "a refused plan left $(ls -A "$d/etc") in $d/etc"

# 3. All or nothing. An earlier plan's files (edited by the admin since) stand in DIR; each
#    fault below comes after some of the new plan's files could have been written, and DIR must
#    be exactly as it was after the failed run: no file replaced, no temporary file left, no
#    directory of the failed run left behind.
outside=$base/outside
mkdir -m 0755 "$outside"
echo "not netpath's" > "$outside/target"
# changes: how DIR ($d) differs from $was, a line each.
changes() {
	echo
	diff <(echo "$was") <(listing "$d") | sed 's/^/  /'
}
fault() { # fault NAME SETUP WHY: SETUP (run in DIR) makes the plan fail with WHY.
	local d=$base/fault-$1
	cp -a "$ref" "$d" && chmod -R go-w "$d"
	for f in $files; do echo "edited by the admin: $f" > "$d/$f"; done
	(cd "$d" && eval "$2") || np_fail "setup of $1"
	local was
	was=$(listing "$d")
	refused "$d" "$3"
	[ "$(listing "$d")" = "$was" ] || np_fail "a failed plan ($1) changed DIR:$(changes)"
	[ "$(cat "$outside/target")" = "not netpath's" ] || np_fail "$1: a file outside DIR was written"
	# The same fault in a DIR that holds only what is in the way: nothing else appears.
	d=$base/fresh-$1
	mkdir -m 0755 "$d"
	(cd "$d" && eval "$2") || np_fail "setup of $1 (fresh)"
	was=$(listing "$d")
	refused "$d" "$3"
	[ "$(listing "$d")" = "$was" ] || np_fail "a failed plan ($1) left in a fresh DIR:$(changes)"
}
# The last file the plan writes, a directory: renaming over it fails.
fault last-is-dir 'rm -f netpath-apply-now.sh && mkdir netpath-apply-now.sh' "is a directory"
# A symbolic link where the last file goes: never followed, never replaced.
fault last-is-link "rm -f netpath-apply-now.sh && ln -s '$outside/target' netpath-apply-now.sh" \
	"symbolic link"
# A file where a directory of the plan goes, after etc/sysctl.d and etc/systemd/network.
fault udev-is-file 'mkdir -p etc && rm -rf etc/udev && echo x > etc/udev' "not a directory"
# A symbolic link where a directory of the plan goes.
fault udev-is-link "mkdir -p etc && rm -rf etc/udev && ln -s '$outside' etc/udev" "symbolic link"
[ "$(ls -A "$outside")" = target ] || np_fail "written outside DIR: $(ls -A "$outside")"

# 4. A plan over an earlier one replaces its files, all of them, and only them.
d=$base/again
cp -a "$ref" "$d" && chmod -R go-w "$d"
for f in $files; do echo "edited by the admin: $f" > "$d/$f"; done
echo "the admin's note" > "$d/etc/sysctl.d/10-mine.conf"
plan "$d"
[ "$(cat "$base/run.rc")" = 0 ] ||
	np_fail "plan over an earlier plan failed: $(cat "$base/run.err")"
for f in $files; do
	cmp -s "$ref/$f" "$d/$f" || np_fail "$f was not replaced by the new plan"
	grep -qx "wrote $d/$f" "$base/run.out" || np_fail "'wrote $d/$f' not said"
done
[ "$(cat "$d/etc/sysctl.d/10-mine.conf")" = "the admin's note" ] || np_fail "another file changed"
[ -z "$(find "$d" -name '.*')" ] || np_fail "temporary files left: $(find "$d" -name '.*')"
[ "$(stat -c %a "$d/netpath-apply-now.sh")" = 755 ] || np_fail "netpath-apply-now.sh not 0755"
echo "PASS"
