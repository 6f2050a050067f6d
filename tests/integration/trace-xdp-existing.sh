#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Somebody else's XDP program is never replaced: with a program attached by the test (generic,
# then native mode), trace --xdp refuses with exit 3, names the program's id, and the same
# program is still attached afterwards, whatever mode or acknowledgement was asked for.
# A driver netpath does not know (a bridge) is refused without --xdp-accept-reset, with
# nothing attached; with it, the counter falls back to generic mode and leaves nothing behind.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/xdp_lib.sh"
np_require_root
xdp_require_bpf
np_pair a b

# The other program: the smallest XDP_PASS, built here; or netpath's own counter object.
obj="$NP_TMP/pass.o"
cat > "$NP_TMP/pass.c" <<'C'
__attribute__((section("xdp"), used)) int np_test_pass(void *ctx)
{
	return 2;	/* XDP_PASS */
}
char _license[] __attribute__((section("license"), used)) = "GPL";
C
clang -O2 -target bpf -c "$NP_TMP/pass.c" -o "$obj" 2> /dev/null || obj="$XDP_OBJ"

for how in xdpgeneric xdpdrv; do
	ip -n "$NS_A" link set dev va "$how" obj "$obj" sec xdp || np_fail "ip link set $how"
	before=$(xdp_state "$NS_A" va)
	id=${before#* }
	[ "$before" != none ] || np_fail "the test's program did not attach ($how)"
	for args in "" "--xdp-mode native" "--xdp-mode generic" "--xdp-accept-reset"; do
		# shellcheck disable=SC2086
		ip netns exec "$NS_A" "$NETPATH" trace va --xdp $args --duration 2 \
			> "$NP_TMP/out.txt" 2> "$NP_TMP/err.txt"
		rc=$?
		[ "$rc" -eq 3 ] || np_fail "$how, '$args': exit $rc, expected 3"
		grep -q "program id $id" "$NP_TMP/err.txt" ||
			np_fail "$how, '$args': no program $id in: $(cat "$NP_TMP/err.txt")"
		after=$(xdp_state "$NS_A" va)
		[ "$after" = "$before" ] ||
			np_fail "$how, '$args': the program changed: $before -> $after"
	done
	# In JSON mode the refusal is a JSON error object, still exit 3.
	ip netns exec "$NS_A" "$NETPATH" trace va --xdp --duration 2 --json > "$NP_TMP/err.json"
	[ $? -eq 3 ] || np_fail "$how --json: expected exit 3"
	np_validate "$NP_TMP/err.json"
	grep -q "program id $id" "$NP_TMP/err.json" || np_fail "$how --json: id not named"
	[ "$(xdp_state "$NS_A" va)" = "$before" ] || np_fail "$how --json: the program changed"
	ip -n "$NS_A" link set dev va "$how" off
done

# An unknown driver: refused, nothing attached, the acknowledgement named.
ip -n "$NS_A" link add name npbr0 type bridge 2> /dev/null || np_skip "no bridge support"
ip -n "$NS_A" link set npbr0 up
ip netns exec "$NS_A" "$NETPATH" trace npbr0 --xdp --duration 1 > /dev/null 2> "$NP_TMP/br.err"
rc=$?
[ "$rc" -eq 3 ] || np_fail "bridge without --xdp-accept-reset: exit $rc, expected 3"
grep -q -- "--xdp-accept-reset" "$NP_TMP/br.err" || np_fail "the refusal names no way out"
grep -q "driver bridge" "$NP_TMP/br.err" || np_fail "the refusal names no driver"
[ "$(xdp_state "$NS_A" npbr0)" = none ] || np_fail "something attached to the bridge"
ip netns exec "$NS_A" "$NETPATH" trace npbr0 --xdp --xdp-accept-reset --duration 1 --json \
	> "$NP_TMP/br.json" 2> "$NP_TMP/br.err"
rc=$?
[ "$rc" -le 2 ] || np_fail "bridge with --xdp-accept-reset: exit $rc: $(cat "$NP_TMP/br.err")"
np_assert_json "$NP_TMP/br.json" "d['xdp']['mode'] == 'generic'"
np_assert_json "$NP_TMP/br.json" "d['xdp']['acknowledged']"
id=$("$NP_PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["xdp"]["program_id"])' \
	"$NP_TMP/br.json")
xdp_assert_clean "$NS_A" npbr0 "$id"
echo "PASS"
