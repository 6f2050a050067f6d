#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what building and running netpath needs on Debian/Ubuntu (README's first command; as
# root, or through sudo). Only that: the test suite's own tools (Prometheus, lintian, valgrind,
# ...) are tools/install-test-deps.sh's, which tests/run-all.sh runs itself.
# Packages already installed are left alone: with nothing missing it runs no apt-get.
#   --list   print the packages, one a line, and install nothing
#   NETPATH_DEPS_DRY_RUN=1   say what would be installed, install nothing
set -eu
# The compiler and meson; the libraries netpath links (cmocka: meson's default build has the
# unit tests, -Dtests=false drops it); clang, llvm and bpftool build the BPF programs of
# `netpath trace` (without them netpath still builds and trace says which one is missing).
# debian/control's Build-Depends are these (and debhelper, the package build's: test deps).
BUILD_PKGS="gcc libc6-dev meson ninja-build pkg-config
	libnl-3-dev libnl-route-3-dev libmnl-dev libbpf-dev libcmocka-dev
	zlib1g-dev liblzma-dev libncurses-dev
	clang llvm bpftool"
if [ "${1:-}" = --list ]; then
	# shellcheck disable=SC2086 # the words of the list
	printf '%s\n' $BUILD_PKGS
	exit 0
fi
# shellcheck source=tools/apt-ensure.sh
. "$(dirname "$0")/apt-ensure.sh"
np_apt_ensure "$BUILD_PKGS" ""
