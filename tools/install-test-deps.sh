#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what the test suite needs on Debian/Ubuntu, the build's packages (tools/install-deps.sh)
# included. tests/run-all.sh runs it first when it runs as root where apt-get is
# (NETPATH_NO_INSTALL=1: not, for offline use). Packages already installed are left alone: with
# nothing missing it runs no apt-get and takes a fraction of a second.
#   --list   print the packages, one a line (optional ones marked "?"), and install nothing
#   NETPATH_DEPS_DRY_RUN=1   say what would be installed, install nothing
set -eu
here=$(dirname "$0")
# bsdextrautils has col(1) (tests/docs/man-check.sh; util-linux had it before Debian 11 and
# Ubuntu 22.04), time is GNU /usr/bin/time (tests/integration/sockets-scale.sh's peak RSS): a
# stock root has neither, and the tests fail or skip without them.
# prometheus is for promtool (tests/docs/prometheus.sh, the mixin's rule tests), systemd for
# systemd-analyze verify of the textfile-collector units (tests/docs/systemd-units.sh);
# build-essential, dpkg-dev, debhelper and lintian build and check the Debian package
# (tools/build-deb.sh; dpkg-buildpackage refuses to start without build-essential);
# udev's udevadm parses `netpath plan`'s .link files as udevd would (tests/integration/plan.sh);
# tmux drives `netpath watch` on a terminal (tests/integration/watch-tty.sh); valgrind and strace
# are the hardening tests' (tests/integration/valgrind.sh, security-readonly.sh); jq runs the man
# page's and README's jq examples (tests/docs/examples.sh); zsh and fish parse and run the
# generated completions (tests/docs/completion.sh).
TEST_PKGS="iproute2 ethtool iptables procps util-linux
	python3 python3-jsonschema python3-prometheus-client
	mandoc bsdextrautils time tmux valgrind strace jq zsh fish
	prometheus systemd udev
	build-essential dpkg-dev debhelper lintian"
# libFuzzer's runtime for tests/fuzz (clang -fsanitize=fuzzer). Not every release has this
# package name; without it tests/fuzz/run.sh skips the fuzz step and says why.
OPTIONAL_PKGS="libclang-rt-dev"
build=$(sh "$here/install-deps.sh" --list | tr '\n' ' ')
if [ "${1:-}" = --list ]; then
	# shellcheck disable=SC2086 # the words of the lists
	printf '%s\n' $build $TEST_PKGS
	# shellcheck disable=SC2086
	printf '%s?\n' $OPTIONAL_PKGS
	exit 0
fi
# shellcheck source=tools/apt-ensure.sh
. "$here/apt-ensure.sh"
np_apt_ensure "$build $TEST_PKGS" "$OPTIONAL_PKGS"
