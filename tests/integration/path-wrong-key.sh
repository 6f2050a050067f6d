#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# netpath path, issue #34 scenario (e): a key the server does not hold is refused: exit 3 and
# exactly one line, "netpath: PEER refused the key (authentication failed)"; and a key file
# others can read is refused before anything is sent (exit 3, one line naming chmod 600).
# Topology: lib_delay.sh (namespaces S and R joined by npdelay, 30 ms each way); tcp_rmem and
# tcp_wmem are set inside those namespaces only. Skips (77) without root, or while this build has
# no `netpath path` command.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_delay.sh"
np_require_root
np_path_require
np_delay_line --delay-ms 30
key=$(np_path_key k)
wrong=$(np_path_key wrong)
np_path_serve "$key"
np_path_run "$wrong" --duration 2
[ "$NP_PATH_RC" -eq 3 ] || np_fail "wrong key: exit $NP_PATH_RC, want 3: $(cat "$NP_TMP/path.err")"
[ "$(wc -l < "$NP_TMP/path.err")" -eq 1 ] || np_fail "wrong key: not one line: $(cat "$NP_TMP/path.err")"
grep -qx "netpath: $NP_R_ADDR refused the key (authentication failed)" "$NP_TMP/path.err" ||
	np_fail "wrong key: message: $(cat "$NP_TMP/path.err")"
# --json: no verdict, the netpath/error document every command prints on failure.
np_validate "$NP_TMP/path.json"
np_assert_json "$NP_TMP/path.json" \
	"d['schema'] == 'netpath/error' and d['exit_code'] == 3 and 'refused the key' in d['error']"
chmod 644 "$wrong"
np_path_run "$wrong" --duration 2
[ "$NP_PATH_RC" -eq 3 ] || np_fail "key mode 0644: exit $NP_PATH_RC, want 3"
grep -q "readable by others (mode 0644): chmod 600" "$NP_TMP/path.err" ||
	np_fail "key mode 0644: message: $(cat "$NP_TMP/path.err")"
echo ok
