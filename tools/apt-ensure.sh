# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tools/install-deps.sh and tools/install-test-deps.sh (POSIX sh): install the Debian
# packages that are missing, and only those, so that a second run is quick and needs no network.
#
#   np_apt_ensure "REQUIRED..." "OPTIONAL..."
#
# REQUIRED packages that are not installed are installed (apt-get update first, once); an
# OPTIONAL one only where this release has it (libclang-rt-dev: not every release has the name),
# and its failure is no error. Nothing installed, no apt-get run, when all are there.
# NETPATH_DEPS_DRY_RUN=1: say what would be installed ("would install: ...") and install nothing.
# Not root: through sudo.

# The packages of the list that dpkg does not have installed, one a line.
np_apt_missing() {
	# One dpkg-query for them all; unknown names print nothing (and an error we drop).
	installed=$(dpkg-query -W -f='${Package} ${Status}\n' "$@" 2>/dev/null |
		awk '$NF == "installed" && $(NF-1) == "ok" {print $1}')
	for p in "$@"; do
		printf '%s\n' "$installed" | grep -qx -- "$p" || printf '%s\n' "$p"
	done
}

# Does apt know a version of the package to install?
np_apt_has() {
	apt-cache policy "$1" 2>/dev/null | grep -q '^ *Candidate: [0-9]'
}

np_apt_ensure() {
	# shellcheck disable=SC2086 # word lists
	missing=$(np_apt_missing $1 | tr '\n' ' ')
	# shellcheck disable=SC2086
	opt_missing=$([ -z "$2" ] || np_apt_missing $2 | tr '\n' ' ')
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	if [ "${NETPATH_DEPS_DRY_RUN:-0}" = 1 ]; then
		if [ -z "$missing$opt_missing" ]; then
			echo "all installed"
		else
			echo "would install: $missing${opt_missing:+(if available: $opt_missing)}"
		fi
		return 0
	fi
	export DEBIAN_FRONTEND=noninteractive
	if [ -n "$missing" ]; then
		echo "installing: $missing"
		$sudo apt-get update -qq || return 1
		# shellcheck disable=SC2086
		$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null || return 1
	fi
	for p in $opt_missing; do
		if np_apt_has "$p"; then
			$sudo apt-get install -y -qq --no-install-recommends "$p" >/dev/null 2>&1 ||
				echo "note: optional $p not installed"
		fi
	done
	return 0
}
