#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Kept for old habits: `netpath capture` now records exactly what doctor reads (files and the
# kernel's netlink/ioctl answers). This unpacks a capture of IFACE into DIR, which
# `netpath doctor --root DIR` reads like the archive (two samples, SECONDS apart).
# Usage: tools/capture-tree.sh IFACE DIR [SECONDS]
set -eu
ifc=${1:?usage: capture-tree.sh IFACE DIR [SECONDS]}
out=${2:?usage: capture-tree.sh IFACE DIR [SECONDS]}
netpath=${NETPATH:-$(command -v netpath || echo "$(dirname "$0")/../build/src/netpath")}
mkdir -p "$out"
tmp=$(mktemp "${TMPDIR:-/tmp}/capture-tree.XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$netpath" capture "$ifc" --interval "${3:-1}" -o "$tmp"
tar -xzf "$tmp" -C "$out"
