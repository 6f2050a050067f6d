#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The locale's effect on output, over fixture trees (no root needed): under LC_ALL=C and any
# codeset that is not UTF-8 the text is pure ASCII ("->", "x") and carries no digit groups;
# C.UTF-8 keeps the glyphs; a grouping locale (en_US.UTF-8, built with localedef when the
# sources are there) groups in text only; JSON and Prometheus are byte-identical across all of
# them; the Nagios line's rates take one form. Parsing is not touched by the locale (the same
# verdicts everywhere).
. "$(dirname "$0")/lib.sh"
T=$NP_SRCDIR/tests/fixtures/trees/x710-server
D=$NP_SRCDIR/tests/fixtures/diff/field-bbr
# netpath under a locale: the built ones through LOCPATH. glibc's newlocale() leaks its copy of
# LOCPATH (not netpath's to free), so an ASan build checks leaks in the C and C.UTF-8 runs only.
in_locale() {
	local loc=$1
	shift
	case $loc in
	C | C.UTF-8) LANG='' LC_ALL=$loc "$@" ;;
	*) LANG='' LC_ALL=$loc LOCPATH=$NP_TMP/loc \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$@" ;;
	esac
}
run() {	# run LOCALE NAME ARGS...: netpath's stdout into $NP_TMP/NAME.LOCALE
	local loc=$1 name=$2
	shift 2
	in_locale "$loc" "$NETPATH" "$@" > "$NP_TMP/$name.$loc" 2>/dev/null
	echo $? >> "$NP_TMP/codes.$loc"
}
ascii() { ! LC_ALL=C grep -qP '[^\x00-\x7f]' "$1"; }
locales="C C.UTF-8"
mkdir -p "$NP_TMP/loc"
if [ -d /usr/share/i18n/locales ] && command -v localedef > /dev/null; then
	timeout 120 localedef -i en_US -f UTF-8 "$NP_TMP/loc/en_US.UTF-8" 2>/dev/null &&
		locales="$locales en_US.UTF-8"
	timeout 120 localedef -i de_DE -f ISO-8859-1 "$NP_TMP/loc/de_DE.ISO-8859-1" 2>/dev/null &&
		locales="$locales de_DE.ISO-8859-1"
fi
echo "locales: $locales"
# explain for the checks whose reference text holds a non-ASCII character (as UTF-8 prints it).
ids=
for id in $("$NETPATH" checks --json | "$NP_PY" -c 'import json, sys
print("\n".join(c["id"] for c in json.load(sys.stdin)["checks"]))'); do
	LC_ALL=C.UTF-8 "$NETPATH" explain "$id" | LC_ALL=C grep -qP '[^\x00-\x7f]' && ids="$ids $id"
done
[ -n "$ids" ] || np_fail "no check's reference text has a non-ASCII character to test with"
for l in $locales; do
	run "$l" text doctor eth0 --root "$T/after" --before "$T/before" -v
	run "$l" json doctor eth0 --root "$T/after" --before "$T/before" --json
	run "$l" prom doctor eth0 --root "$T/after" --before "$T/before" --format prometheus
	run "$l" nagios doctor eth0 --root "$T/after" --before "$T/before" --nagios
	run "$l" diff diff "$D/before" "$D/after"
	run "$l" diffjson diff "$D/before" "$D/after" --json
	run "$l" checks checks
	: > "$NP_TMP/explain.$l"
	for id in $ids; do
		in_locale "$l" "$NETPATH" explain "$id" >> "$NP_TMP/explain.$l"
	done
done
for l in $locales; do
	cmp -s "$NP_TMP/codes.C" "$NP_TMP/codes.$l" || np_fail "exit codes differ under $l"
	# (but for the time of the run, which the Prometheus output states)
	for f in json prom diffjson; do
		cmp -s <(grep -v '^netpath_last_run_timestamp_seconds ' "$NP_TMP/$f.C") \
			<(grep -v '^netpath_last_run_timestamp_seconds ' "$NP_TMP/$f.$l") ||
			np_fail "$f output differs between C and $l"
	done
	# The Nagios line: every rate "123/s", "123 packets/s" or "0.5/s", never grouped.
	grep -oE '[0-9][0-9.,]*( [a-z]+)?/s' "$NP_TMP/nagios.$l" > "$NP_TMP/rates.$l"
	[ -s "$NP_TMP/rates.$l" ] || np_fail "no rates in the Nagios output under $l"
	if grep -vE '^([0-9]+|[0-9]\.[0-9])( [a-z]+)?/s$' "$NP_TMP/rates.$l"; then
		np_fail "Nagios rates of another form under $l (above)"
	fi
done
for l in $locales; do
	case $l in *UTF-8) continue ;; esac
	for f in text nagios diff checks explain; do
		ascii "$NP_TMP/$f.$l" || {
			LC_ALL=C grep -nP '[^\x00-\x7f]' "$NP_TMP/$f.$l" | head -3
			np_fail "$f under $l is not ASCII (above)"
		}
		# Every glyph has its ASCII form: no "?" that UTF-8 output does not have.
		[ "$(tr -cd '?' < "$NP_TMP/$f.$l" | wc -c)" = \
		  "$(tr -cd '?' < "$NP_TMP/$f.C.UTF-8" | wc -c)" ] ||
			np_fail "$f under $l has a glyph without an ASCII form ('?')"
	done
	grep -q ' x BDP' "$NP_TMP/explain.$l" || np_fail "no 'x' for the multiplication sign under $l"
	grep -q 'WARNING -> INFO' "$NP_TMP/diff.$l" || np_fail "no '->' in diff under $l"
done
# No digit groups in C, C.UTF-8 (no separator) or de_DE (its "." is netpath's decimal point).
for l in C C.UTF-8 de_DE.ISO-8859-1; do
	[ -e "$NP_TMP/text.$l" ] || continue
	if grep -nE '[0-9],[0-9]{3}' "$NP_TMP/text.$l" | head -3 | grep .; then
		np_fail "digit groups in text under $l (above)"
	fi
	grep -q '9000 packets/s' "$NP_TMP/text.$l" || np_fail "rate not as expected under $l"
done
grep -q '×' "$NP_TMP/explain.C.UTF-8" || np_fail "C.UTF-8 lost the multiplication sign"
grep -q 'WARNING → INFO' "$NP_TMP/diff.C.UTF-8" || np_fail "C.UTF-8 lost the arrow"
if [ -e "$NP_TMP/text.en_US.UTF-8" ]; then
	grep -q '9,000 packets/s' "$NP_TMP/text.en_US.UTF-8" ||
		np_fail "en_US.UTF-8 text does not group digits"
	grep -q '12,000' "$NP_TMP/nagios.en_US.UTF-8" && np_fail "en_US.UTF-8 groups in the Nagios line"
else
	echo "skipped: no grouping locale could be built (no locale sources or localedef)"
fi
echo "ok: locales $locales"
