#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the Debian package from the committed tree (git archive HEAD; the work tree with
# --worktree; a tree without git, such as CI's clean room, as it is) in a temporary directory,
# as debian/rules says (the unit tests run inside), then lintian it: no error, no warning
# (pedantic and info tags are printed for review). Then, without installing anything, unpacks
# the .deb into a scratch root and runs the packaged timer's service ExecStart line, pointed at
# that root's binary and a fixture tree, as the unit would (tests/docs/systemd-units.sh does the
# same from the build directory): it must write one textfile that promtool accepts. In CI's
# clean room only (NETPATH_CLEANROOM=1, a throwaway root) it then installs the package for real
# with apt-get, runs the installed unit's ExecStart and purges it. Prints the .deb's path and
# the build's time; the directory is kept for inspection.
# Usage: tools/build-deb.sh [--worktree] [OUTDIR]   (needs dpkg-dev, debhelper, lintian and the
# build dependencies of debian/control: tools/install-test-deps.sh installs them all)
set -eu
cd "$(dirname "$0")/.."
worktree=0
[ "${1:-}" = --worktree ] && { worktree=1; shift; }
out=${1:-$(mktemp -d "${TMPDIR:-/tmp}/netpath-deb.XXXXXX")}
for tool in dpkg-buildpackage dh lintian; do
	command -v "$tool" >/dev/null || { echo "build-deb: $tool not installed (tools/install-test-deps.sh)"; exit 3; }
done
mkdir -p "$out/netpath"
if [ "$worktree" = 1 ]; then
	git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$out/netpath"
elif command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git archive HEAD | tar -xf - -C "$out/netpath"
else
	# An exported tree without git (CI's clean room): the files as they are, no build dirs.
	tar --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$out/netpath"
fi
t0=$(date +%s)
(cd "$out/netpath" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log"; echo "build-deb: dpkg-buildpackage failed (log: $out/build.log)"; exit 1; }
t1=$(date +%s)
deb=$(ls "$out"/netpath_*.deb | grep -v dbgsym)
# --fail-on warning: errors and warnings fail; pedantic and info tags are shown for review.
lintian --fail-on error,warning -I --pedantic "$out"/netpath_*.changes > "$out/lintian.log" 2>&1 ||
	{ cat "$out/lintian.log"; echo "build-deb: lintian complains (log: $out/lintian.log)"; exit 1; }
[ ! -s "$out/lintian.log" ] || sed 's/^/lintian: /' "$out/lintian.log" | grep -v "root privileges" || true
root=$out/root
mkdir -p "$root/textfile"
dpkg-deb -x "$deb" "$root"
unit=$root/lib/systemd/system/netpath-textfile.service
line=$(sed -n 's/^ExecStart=//p' "$unit")
dir=$(sed -n 's/^ReadWritePaths=//p' "$unit")
line=$(echo "$line" | sed -e "s|^/usr/sbin/netpath |$root/usr/sbin/netpath |" -e "s|$dir|$root/textfile|")
tree=$PWD/tests/fixtures/trees/x710-server
rc=0
# shellcheck disable=SC2086 # split as systemd splits it
(umask 022; exec nice -n 19 timeout 45 $line --root "$tree/after" --before "$tree/before") || rc=$?
[ "$rc" -le 2 ] || { echo "build-deb: the packaged ExecStart exited $rc"; exit 1; }
[ "$(ls -A "$root/textfile")" = netpath.prom ] || { echo "build-deb: no textfile written"; exit 1; }
if command -v promtool >/dev/null; then
	promtool check metrics < "$root/textfile/netpath.prom" ||
		{ echo "build-deb: promtool rejects the packaged run's textfile"; exit 1; }
fi
# The maintainer scripts debhelper assembled: postrm removes the textfile where the unit writes it
# (tests/docs/debian-maintscripts.sh runs the source's postrm), prerm stops the units on remove,
# and an upgrade restarts what ran instead of stopping it for good.
mkdir -p "$out/control"
dpkg-deb -e "$deb" "$out/control"
grep -qF "\${DPKG_ROOT:-}$dir\"" "$out/control/postrm" && grep -q 'netpath\.prom' "$out/control/postrm" ||
	{ echo "build-deb: the package's postrm does not remove $dir/netpath.prom"; exit 1; }
grep -q 'deb-systemd-invoke stop netpath-textfile.timer' "$out/control/prerm" ||
	{ echo "build-deb: the package's prerm does not stop the units on remove"; exit 1; }
! grep -qs 'deb-systemd-invoke stop' "$out/control/preinst" && grep -q 'try-restart' "$out/control/postinst" ||
	{ echo "build-deb: an upgrade would stop the units without starting them again"; exit 1; }
echo "build-deb: $deb built in $((t1 - t0)) s, lintian clean, its service's ExecStart wrote a valid textfile"

# In CI's clean room (a throwaway Debian root: NETPATH_CLEANROOM=1, as root) the package is
# installed for real, as an admin would: apt-get resolves its dependencies, the files land where
# the unit expects them, the units stay disabled, and the installed unit's ExecStart, unchanged
# but for the fixture it reads, writes a valid textfile into the real textfile directory. A
# reinstall (postrm upgrade) keeps that file; removing the package removes it (nothing would
# rewrite it: a frozen report and NetpathStale for as long as it stayed), and purging the removed
# package removes one written since. Never on a developer's machine.
[ "${NETPATH_CLEANROOM:-0}" = 1 ] && [ "$(id -u)" -eq 0 ] || exit 0
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$deb" > "$out/install.log" 2>&1 ||
	{ tail -20 "$out/install.log"; echo "build-deb: the package does not install"; exit 1; }
purge() { DEBIAN_FRONTEND=noninteractive apt-get purge -y netpath > "$out/purge.log" 2>&1; }
fail() { echo "build-deb: installed package: $*"; purge; exit 1; }
for f in /usr/sbin/netpath /usr/share/man/man8/netpath.8.gz /lib/systemd/system/netpath-textfile.timer \
	 /lib/systemd/system/netpath-textfile-every.service /usr/share/netpath/netpath.schema.json \
	 /usr/share/netpath/netpath-plan.schema.json; do
	[ -e "$f" ] || fail "$f missing"
done
/usr/sbin/netpath --version > /dev/null || fail "netpath --version fails"
[ ! -e /etc/systemd/system/timers.target.wants/netpath-textfile.timer ] || fail "its timer is enabled"
[ ! -e /etc/systemd/system/multi-user.target.wants/netpath-textfile-every.service ] ||
	fail "its long-running service is enabled"
unit=/lib/systemd/system/netpath-textfile.service
line=$(sed -n 's/^ExecStart=//p' "$unit")
dir=$(sed -n 's/^ReadWritePaths=//p' "$unit")
mkdir -p "$dir"
rm -f "$dir/netpath.prom"
rc=0
# shellcheck disable=SC2086 # split as systemd splits it
(umask 022; exec nice -n 19 timeout 45 $line --root "$tree/after" --before "$tree/before") || rc=$?
[ "$rc" -le 2 ] || fail "its ExecStart exited $rc"
[ -s "$dir/netpath.prom" ] || fail "no textfile in $dir"
if command -v promtool >/dev/null; then
	promtool check metrics < "$dir/netpath.prom" || fail "promtool rejects its textfile"
fi
DEBIAN_FRONTEND=noninteractive apt-get install -y --reinstall "$deb" > "$out/reinstall.log" 2>&1 ||
	fail "does not reinstall"
[ -s "$dir/netpath.prom" ] || fail "a reinstall (an upgrade's postrm) removed the textfile"
cp "$dir/netpath.prom" "$out/netpath.prom"
: > "$dir/.netpath.prom.Ab3xYz"      # what a run killed mid-write leaves
DEBIAN_FRONTEND=noninteractive apt-get remove -y netpath > "$out/remove.log" 2>&1 || fail "apt-get remove failed"
[ ! -e "$dir/netpath.prom" ] && [ ! -e "$dir/.netpath.prom.Ab3xYz" ] ||
	fail "apt-get remove left its textfile in $dir: $(ls -A "$dir" | tr '\n' ' ')"
cp "$out/netpath.prom" "$dir/netpath.prom"
purge || { echo "build-deb: apt-get purge netpath failed"; exit 1; }
[ ! -e /usr/sbin/netpath ] || { echo "build-deb: purge left /usr/sbin/netpath"; exit 1; }
[ ! -e "$dir/netpath.prom" ] || { echo "build-deb: purge left $dir/netpath.prom"; rm -f "$dir/netpath.prom"; exit 1; }
echo "build-deb: installed with apt-get in the clean room, its unit's ExecStart wrote a valid textfile, reinstalled (kept), removed and purged (gone)"
