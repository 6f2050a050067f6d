#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The hand-made fixture trees hold only files netpath reads: each file of each generated tree
# must be a path `netpath capture` recorded here (this machine's default interface, read-only,
# and a veth in a namespace), or a device file a collector names (fixture_honesty.py). A
# generator that writes a misnamed or never-read file fails this test.
. "$(dirname "$0")/lib.sh"
np_require_root
np_pair snd rcv
"$NETPATH" capture -o "$NP_TMP/host.cap" --interval 0.2 2>/dev/null ||
	np_skip "no default route to capture on this machine"
"$NETPATH" capture --netns "$NS_B" vb -o "$NP_TMP/veth.cap" --interval 0.2 2>/dev/null ||
	np_fail "capture of the veth failed"
trees=$(ls -d "$NP_SRCDIR"/tests/fixtures/trees/*/ "$NP_SRCDIR"/tests/fixtures/diff/*/)
# shellcheck disable=SC2086
"$NP_PY" "$NP_SRCDIR/tests/integration/fixture_honesty.py" --capture "$NP_TMP/host.cap" \
	--capture "$NP_TMP/veth.cap" --sources "$NP_SRCDIR" $trees ||
	np_fail "a fixture generator writes files netpath does not read (above)"
# The check can fail: a file with a name no kernel gives is caught.
mkdir -p "$NP_TMP/bad/proc/net" && echo 1 > "$NP_TMP/bad/proc/net/softnet_stats"
"$NP_PY" "$NP_SRCDIR/tests/integration/fixture_honesty.py" --capture "$NP_TMP/host.cap" \
	--sources "$NP_SRCDIR" "$NP_TMP/bad" > /dev/null &&
	np_fail "a misnamed file (softnet_stats) was not caught"
echo "PASS"
