#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# debian/netpath.postrm removes the textfile the units wrote (and a run's hidden temporary) on
# remove and on purge, and only netpath's: on upgrade it stays. It runs here beneath a scratch
# DPKG_ROOT, touching nothing of this machine. Its directory is the one debian/rules builds the
# units for. (tools/build-deb.sh installs, removes and purges the real package in CI's clean
# room.)
set -u
: "${NP_SRCDIR:?}"
. "$NP_SRCDIR/tests/integration/lib.sh"
postrm=$NP_SRCDIR/debian/netpath.postrm
[ -x "$postrm" ] || np_fail "no executable debian/netpath.postrm"
for s in "$postrm" "$NP_SRCDIR/debian/netpath.prerm"; do
	sh -n "$s" || np_fail "$s: not valid sh"
	grep -qx '#DEBHELPER#' "$s" || np_fail "$s: no #DEBHELPER# line for debhelper's snippets"
done
rules_dir=$(sed -n 's/.*-Dtextfile_dir=\([^ ]*\).*/\1/p' "$NP_SRCDIR/debian/rules")
[ -n "$rules_dir" ] || np_fail "debian/rules sets no -Dtextfile_dir"
grep -q "textfile_dir=\"\${DPKG_ROOT:-}$rules_dir\"" "$postrm" ||
	np_fail "postrm does not clean $rules_dir, where debian/rules puts the textfile"

for action in remove purge upgrade failed-upgrade abort-install abort-upgrade; do
	root=$NP_TMP/$action
	dir=$root$rules_dir
	mkdir -p "$dir"
	echo 'netpath_status 0' > "$dir/netpath.prom"
	echo 'netpath_status 0' > "$dir/.netpath.prom.Ab3xYz"
	echo 'other_metric 1' > "$dir/other.prom"
	DPKG_ROOT=$root sh "$postrm" "$action" || np_fail "postrm $action exited $?"
	left=$(cd "$dir" && ls -A | tr '\n' ' ')
	case $action in
	remove|purge) want="other.prom " ;;
	*) want=".netpath.prom.Ab3xYz netpath.prom other.prom " ;;
	esac
	[ "$left" = "$want" ] || np_fail "postrm $action left '$left' in the textfile directory, want '$want'"
done
# Nothing to remove is no error (a host where the units never ran).
mkdir -p "$NP_TMP/empty"
DPKG_ROOT=$NP_TMP/empty sh "$postrm" purge || np_fail "postrm purge without a textfile directory exited $?"
echo "PASS: postrm removes netpath's textfile on remove and purge only, in $rules_dir"
