#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what netpath needs to build and test on Debian/Ubuntu (run as root).
set -eu
export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
# bsdextrautils has col(1) (tests/docs/man-check.sh; util-linux had it before Debian 11 and
# Ubuntu 22.04), time is GNU /usr/bin/time (tests/integration/sockets-scale.sh's peak RSS): a
# stock root has neither, and the tests fail or skip without them.
# prometheus is for promtool (tests/docs/prometheus.sh, the mixin's rule tests), systemd for
# systemd-analyze verify of the textfile-collector units (tests/docs/systemd-units.sh);
# build-essential, dpkg-dev, debhelper and lintian build and check the Debian package
# (tools/build-deb.sh; dpkg-buildpackage refuses to start without build-essential);
# udev's udevadm parses `netpath plan`'s .link files as udevd would (tests/integration/plan.sh).
# clang, llvm and bpftool build the BPF programs of `netpath trace`; without them netpath still
# builds and trace says which one is missing.
# zsh and fish (test only) parse and run the generated completions (tests/docs/completion.sh).
$SUDO apt-get install -y -qq --no-install-recommends \
	gcc libc6-dev meson ninja-build pkg-config \
	libnl-3-dev libnl-route-3-dev libmnl-dev libbpf-dev libcmocka-dev \
	zlib1g-dev liblzma-dev \
	clang llvm bpftool \
	iproute2 ethtool iptables procps python3 python3-jsonschema python3-prometheus-client mandoc util-linux \
	bsdextrautils time \
	libncurses-dev tmux \
	valgrind strace \
	prometheus systemd udev \
	zsh fish \
	build-essential dpkg-dev debhelper lintian \
	>/dev/null
# libFuzzer's runtime for tests/fuzz (clang -fsanitize=fuzzer). Not every release has this
# package name; without it tests/fuzz/run.sh skips the fuzz step and says why.
$SUDO apt-get install -y -qq --no-install-recommends libclang-rt-dev >/dev/null 2>&1 || true
