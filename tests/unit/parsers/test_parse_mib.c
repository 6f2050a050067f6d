// SPDX-License-Identifier: GPL-2.0-only
/* np_parse_mib: snmp/netstat pairs, snmp6 lines, one shared table, and broken pairs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "fixture.h"
#include "parse.h"
#include "parse_util.h"

static int parse_fixture(const char *name, struct np_counters *c)
{
	size_t len;
	char *buf = load_fixture(name, &len);
	char *p;
	int err;

	assert_non_null(buf);
	p = exact_copy(buf, len);
	err = np_parse_mib(p, len, c);
	free(p);
	free(buf);
	return err;
}

static int parse_str(const char *s, struct np_counters *c)
{
	size_t len = strlen(s);
	char *p = exact_copy(s, len);
	int err = np_parse_mib(p, len, c);

	free(p);
	return err;
}

static uint64_t get(const struct np_counters *c, const char *name)
{
	return np_counters_get(c, name);
}

/* snmp + netstat + snmp6 into one table, as the collector does. */
static void test_real_captures(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_fixture("snmp.real.txt", &c), 0);
	assert_int_equal(c.n, 83);
	assert_true(c.sorted);
	assert_int_equal(get(&c, "IpForwarding"), 2);
	assert_int_equal(get(&c, "IpDefaultTTL"), 64);
	assert_int_equal(get(&c, "IpInReceives"), 904);
	assert_int_equal(get(&c, "TcpRtoMin"), 200);
	assert_int_equal(get(&c, "TcpInSegs"), 877);
	assert_int_equal(get(&c, "IcmpMsgInType3"), 1);
	assert_int_equal(get(&c, "UdpRcvbufErrors"), 0);
	/* MaxConn -1 means "no limit", not a count. */
	assert_true(get(&c, "TcpMaxConn") == NP_NA);

	assert_int_equal(parse_fixture("netstat.real.txt", &c), 0);
	assert_int_equal(c.n, 83 + 229);
	assert_int_equal(get(&c, "TcpExtListenOverflows"), 0);
	assert_int_equal(get(&c, "TcpExtTCPHPHits"), 8);
	assert_int_equal(get(&c, "IpExtInOctets"), 42335351);
	/* The first file's counters are still there and still found. */
	assert_int_equal(get(&c, "TcpInSegs"), 877);

	assert_int_equal(parse_fixture("snmp6.real.txt", &c), 0);
	assert_int_equal(c.n, 83 + 229 + 90);
	assert_int_equal(get(&c, "Ip6InReceives"), 1);
	assert_int_equal(get(&c, "UdpLite6MemErrors"), 0);
	assert_true(get(&c, "NoSuchCounter") == NP_NA);
	/* Sorted: every lookup is a bsearch, so order must be strict. */
	for (size_t i = 1; i < c.n; i++)
		assert_true(strcmp(c.e[i - 1].name, c.e[i].name) < 0);
	np_counters_free(&c);
}

/* The same three files left in their order and indexed (doctor's table) hold the same entries
 * as the sorted table, in the files' order, and every lookup answers alike. */
static void test_unsorted_indexed(void **state)
{
	static const char *const files[] = { "snmp.real.txt", "netstat.real.txt",
					     "snmp6.real.txt" };
	struct np_counters sorted = { 0 }, indexed = { 0 };

	(void)state;
	for (size_t f = 0; f < 3; f++) {
		size_t len;
		char *buf = load_fixture(files[f], &len);

		assert_non_null(buf);
		assert_int_equal(np_parse_mib(buf, len, &sorted), 0);
		assert_int_equal(np_parse_mib_unsorted(buf, len, &indexed), 0);
		free(buf);
	}
	np_counters_index(&indexed);
	assert_false(indexed.sorted);
	assert_int_equal(indexed.n, sorted.n);
	/* The files' order: snmp's first header line is Ip's. */
	assert_string_equal(indexed.e[0].name, "IpForwarding");
	for (size_t i = 0; i < sorted.n; i++)
		assert_int_equal(get(&indexed, sorted.e[i].name), sorted.e[i].value);
	assert_true(get(&indexed, "NoSuchCounter") == NP_NA);
	/* Parsed in place: a file with nothing, or a broken pair, leaves no trace. */
	{
		static const char none[] = "no counters here\n", broken[] = "Tcp: A B\nTcp: 1 x\n";
		size_t n = indexed.n;

		assert_int_equal(np_parse_mib_unsorted(none, sizeof(none) - 1, &indexed), -EINVAL);
		assert_int_equal(np_parse_mib_unsorted(broken, sizeof(broken) - 1, &indexed),
				 -EINVAL);
		assert_int_equal(indexed.n, n);
		assert_int_equal(get(&indexed, "TcpInSegs"), 877);
	}
	np_counters_free(&indexed);
	np_counters_free(&sorted);
}

static void test_no_trailing_newline(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("Udp: InDatagrams RcvbufErrors\n"
				   "Udp: 5 18446744073709551614", &c), 0);
	assert_int_equal(get(&c, "UdpInDatagrams"), 5);
	assert_true(get(&c, "UdpRcvbufErrors") == UINT64_MAX - 1);
	np_counters_free(&c);
}

/* Decision: a bad pair is dropped alone and reported as -EBADMSG; good pairs are kept. */
static void test_mismatched_pair(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("Ip: Forwarding DefaultTTL\nIp: 1 64\n"
				   "Tcp: RtoAlgorithm RtoMin RtoMax\nTcp: 1 200\n"
				   "Udp: InDatagrams\nUdp: 7\n", &c), -EBADMSG);
	assert_int_equal(c.n, 3);
	assert_int_equal(get(&c, "IpDefaultTTL"), 64);
	assert_int_equal(get(&c, "UdpInDatagrams"), 7);
	assert_true(get(&c, "TcpRtoAlgorithm") == NP_NA);
	assert_true(get(&c, "TcpRtoMin") == NP_NA);
	np_counters_free(&c);
}

static void test_broken_pairs(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	/* Value line missing: the next header still pairs with its own values. */
	assert_int_equal(parse_str("Ip: A B\nTcp: C\nTcp: 3\n", &c), -EBADMSG);
	assert_int_equal(c.n, 1);
	assert_int_equal(get(&c, "TcpC"), 3);
	np_counters_free(&c);
	/* Value line first (a file cut at the start): resync on the next header. */
	assert_int_equal(parse_str("Ip: 1 2\nTcp: C\nTcp: 3\n", &c), -EBADMSG);
	assert_int_equal(get(&c, "TcpC"), 3);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
	/* Non-numeric value: the whole pair is dropped. */
	assert_int_equal(parse_str("Ip: A B\nIp: 1 x\nTcp: C\nTcp: 3\n", &c), -EBADMSG);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
	/* Header at EOF. */
	assert_int_equal(parse_str("Tcp: C\nTcp: 3\nUdp: D", &c), -EBADMSG);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
	/* Overflowing value. */
	assert_int_equal(parse_str("Tcp: C\nTcp: 3\nUdp: D\nUdp: 18446744073709551616\n", &c),
			 -EBADMSG);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
}

static void test_snmp6_lines(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("Ip6InReceives  \t 12\nIcmp6InMsgs 3\n", &c), 0);
	assert_int_equal(get(&c, "Ip6InReceives"), 12);
	assert_int_equal(get(&c, "Icmp6InMsgs"), 3);
	np_counters_free(&c);
	/* A three-token line or a non-number is not an snmp6 line. */
	assert_int_equal(parse_str("Ip6InReceives 12\nIp6Foo 1 2\nIp6Bar x\n", &c), -EBADMSG);
	assert_int_equal(c.n, 1);
	np_counters_free(&c);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "\n\n", "garbage\n", "hello world\n", "Tcp:\nTcp:\n", "Tcp: A B\nTcp: 1\n",
		"12 34\n", ": :\n",
	};
	struct np_counters c = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_str(bad[i], &c), -EINVAL);
		assert_int_equal(c.n, 0);
		assert_null(c.e);
	}
	assert_int_equal(np_parse_mib(NULL, 0, &c), -EINVAL);
}

/* A failed parse leaves a table that already holds counters unchanged. */
static void test_failure_keeps_existing(void **state)
{
	struct np_counters c = { 0 };

	(void)state;
	assert_int_equal(parse_str("Tcp: A\nTcp: 1\n", &c), 0);
	assert_int_equal(parse_str("garbage\n", &c), -EINVAL);
	assert_int_equal(c.n, 1);
	assert_int_equal(get(&c, "TcpA"), 1);
	np_counters_free(&c);
}

/* The parse as it was with the general tokenizer (np_tok_next, np_tok_u64 and
 * np_counters_push_join): the in-place pair loop must give the same table, entry for entry. */
static bool ref_value(const char *t, size_t tl, uint64_t *v)
{
	bool neg = tl && t[0] == '-';
	uint64_t x;

	if (!np_tok_u64(t + neg, tl - neg, &x))
		return false;
	*v = neg ? NP_NA : x;
	return true;
}

static int ref_parse(const char *buf, size_t len, struct np_counters *t)
{
	const char *l, *hl = NULL, *hp = NULL;
	size_t ll, pos = 0, hll = 0, hi = 0, hpl = 0;
	bool pending = false;
	int ret = 0;

	while (np_line_next(buf, len, &pos, &l, &ll)) {
		const char *p, *a, *b;
		size_t i = 0, pl, al, bl;

		if (!np_tok_count(l, ll, 0))
			continue;
		if (!np_line_label(l, ll, &p, &pl, &i)) {
			const char *x;
			size_t xl, k = 0;
			uint64_t v;

			if (pending)
				ret = -EBADMSG;
			pending = false;
			np_tok_next(l, ll, &k, &a, &al);
			if (!np_tok_next(l, ll, &k, &b, &bl) || np_tok_next(l, ll, &k, &x, &xl) ||
			    !ref_value(b, bl, &v) ||
			    !((a[0] >= 'A' && a[0] <= 'Z') || (a[0] >= 'a' && a[0] <= 'z')))
				ret = -EBADMSG;
			else
				assert_int_equal(np_counters_push_join(t, a, al, "", 0, v), 0);
			continue;
		}
		if (pending && pl == hpl && !memcmp(p, hp, pl)) {
			size_t n0 = t->n, k = hi;

			pending = false;
			for (;;) {
				bool ha = np_tok_next(hl, hll, &k, &a, &al);
				bool hb = np_tok_next(l, ll, &i, &b, &bl);
				uint64_t v;

				if (!ha && !hb)
					break;
				if (!ha || !hb || !ref_value(b, bl, &v)) {
					np_counters_truncate(t, n0, 0);
					ret = -EBADMSG;
					break;
				}
				assert_int_equal(np_counters_push_join(t, hp, hpl, a, al, v), 0);
			}
			continue;
		}
		if (pending)
			ret = -EBADMSG;
		{
			size_t k = i;

			pending = !np_tok_next(l, ll, &k, &a, &al) ||
				  !(a[0] == '-' || (a[0] >= '0' && a[0] <= '9'));
		}
		if (!pending)
			ret = -EBADMSG;
		hl = l;
		hll = ll;
		hi = i;
		hp = p;
		hpl = pl;
	}
	if (pending)
		ret = -EBADMSG;
	return ret;
}

static void assert_same_as_ref(const char *buf, size_t len)
{
	struct np_counters fast = { 0 }, ref = { 0 };
	int err = np_parse_mib_unsorted(buf, len, &fast), rerr = ref_parse(buf, len, &ref);

	if (!ref.n)
		rerr = -EINVAL;
	assert_int_equal(err, rerr);
	assert_int_equal(fast.n, ref.n);
	for (size_t i = 0; i < ref.n; i++) {
		assert_string_equal(fast.e[i].name, ref.e[i].name);
		assert_true(fast.e[i].value == ref.e[i].value);
	}
	np_counters_free(&fast);
	np_counters_free(&ref);
}

/* The three real files as they are, then each with thousands of single-byte edits drawn from
 * the bytes that matter (blanks, control bytes, NUL, signs, digits, colons, newlines). */
static void test_same_as_tokenizer(void **state)
{
	static const char *const files[] = { "snmp.real.txt", "netstat.real.txt",
					     "snmp6.real.txt" };
	static const char edits[] = { ' ', '\t', '\v', '\r', '\n', '\0', '\1', '-', '0', '9', ':',
				      'A', 'z', '\x80', '\xff' };
	uint64_t seed = 42;

	(void)state;
	for (size_t f = 0; f < 3; f++) {
		size_t len;
		char *buf = load_fixture(files[f], &len);

		assert_non_null(buf);
		assert_same_as_ref(buf, len);
		for (int r = 0; r < 3000; r++) {
			char *p = exact_copy(buf, len);

			for (int k = 0; k < 1 + r % 4; k++) {
				seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
				p[(seed >> 33) % len] = edits[(seed >> 20) % sizeof(edits)];
			}
			/* Now and then a prefix, cut anywhere. */
			assert_same_as_ref(p, r % 7 ? len : (size_t)(seed >> 40) % len);
			free(p);
		}
		free(buf);
	}
	/* Long names and values: the cut at the table's size, 20+ digit values. */
	{
		static const char s[] =
			"Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: Bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb C\n"
			"Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: 000000000000000000000000001 18446744073709551615\n"
			"X: Y\nX: 18446744073709551616\n"
			"Ip6Looooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooong 7\n"
			"Ab\x01" "cd 5\nIp6X -0\nIp6Y 1 2\n"
			/* snmp6's padding, eight spaces at a time then mixed blanks; a name copied
			 * in words where the line has them past it, bytewise at the buffer's end */
			"Ip6InReceives                   \t123\n"
			"Ip6Abcdefghijklm        \t        \v 9\n"
			"Ip6Abcdefgh        \t\t\t\t\t\t\t\t        1 \n"
			"Ip6Abcdefghijklmnop 1";

		assert_same_as_ref(s, sizeof(s) - 1);
	}
}

static void test_long_names_and_lines(void **state)
{
	struct np_counters c = { 0 };
	static char p[100000 + 64];
	size_t len = 0;

	(void)state;
	/* A 100 KB field name is truncated to the table's name size. */
	memcpy(p, "Tcp: ", 5);
	len += 5;
	memset(p + len, 'N', 100000);
	len += 100000;
	memcpy(p + len, "\nTcp: 1\n", 8);
	len += 8;
	assert_int_equal(np_parse_mib(p, len, &c), 0);
	assert_int_equal(c.n, 1);
	assert_int_equal(strlen(c.e[0].name), NP_COUNTER_NAME_MAX - 1);
	assert_memory_equal(c.e[0].name, "TcpNNN", 6);
	np_counters_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_captures),
		cmocka_unit_test(test_unsorted_indexed),
		cmocka_unit_test(test_no_trailing_newline),
		cmocka_unit_test(test_mismatched_pair),
		cmocka_unit_test(test_broken_pairs),
		cmocka_unit_test(test_snmp6_lines),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_failure_keeps_existing),
		cmocka_unit_test(test_long_names_and_lines),
		cmocka_unit_test(test_same_as_tokenizer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
