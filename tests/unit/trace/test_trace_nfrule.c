// SPDX-License-Identifier: GPL-2.0-only
/* The rules behind NETFILTER_DROP: drop-rule counters at both ends of the window compared,
 * and how the text and JSON show them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netfilter.h>

#include "trace_nfrule.h"

static struct np_nfrule nft(const char *chain, uint64_t handle, uint64_t packets, bool counter,
			    const char *match)
{
	struct np_nfrule r = { .source = NP_NFRULE_NFT, .family = NFPROTO_INET,
			       .verdict = NP_NFRULE_DROP, .handle = handle,
			       .position = (uint32_t)handle, .has_counter = counter,
			       .packets = packets, .bytes = packets * 100 };

	snprintf(r.table, sizeof(r.table), "filter");
	snprintf(r.chain, sizeof(r.chain), "%s", chain);
	snprintf(r.match, sizeof(r.match), "%s", match);
	return r;
}

static struct np_nfrule legacy(uint32_t pos, uint64_t packets, const char *match)
{
	struct np_nfrule r = { .source = NP_NFRULE_LEGACY, .family = NFPROTO_IPV4,
			       .verdict = NP_NFRULE_DROP, .position = pos, .has_counter = true,
			       .packets = packets, .bytes = packets * 29 };

	snprintf(r.table, sizeof(r.table), "filter");
	snprintf(r.chain, sizeof(r.chain), "INPUT");
	snprintf(r.match, sizeof(r.match), "%s", match);
	return r;
}

static void fill(struct np_nfrules *s, const struct np_nfrule *r, size_t n)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(np_nfrules_add(s, &r[i]), 0);
}

static char *render_text(const struct np_nfrule_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	np_nfrule_render_text(f, rep, "  ");
	fclose(f);
	return buf;
}

/* Growth per rule: by handle for nftables even when rules moved, by place and match for
 * legacy; unchanged rules left out; a new rule counts from 0, a reset one from its reset. */
static void test_compare(void **state)
{
	struct np_nfrule a[] = {
		nft("input", 4, 100, true, "udp dport 9001"),
		nft("input", 5, 50, true, "tcp dport 22"),
		legacy(1, 1000, "-p udp --dport 9001"),
		legacy(2, 7, "-p udp --dport 9003"),
	};
	struct np_nfrule b[] = {
		nft("input", 9, 30, true, "udp dport 9009"),	/* new during the window */
		nft("input", 5, 50, true, "tcp dport 22"),	/* idle */
		nft("input", 4, 1100, true, "udp dport 9001"),	/* moved: still handle 4 */
		legacy(1, 1400, "-p udp --dport 9001"),
		legacy(2, 3, "-p udp --dport 9003"),		/* reset: went back to 3 */
		nft("input", 12, 0, false, "ip saddr 10.0.0.0/8"),
	};
	struct np_nfrules s, e;
	struct np_nfrule_report rep;

	(void)state;
	fill(&s, a, 4);
	fill(&e, b, 6);
	np_nfrule_compare(&s, &e, &rep);
	assert_int_equal(rep.n, 4);
	assert_int_equal(rep.hits[0].rule.handle, 4);
	assert_int_equal(rep.hits[0].packets, 1000);
	assert_int_equal(rep.hits[0].bytes, 100000);
	assert_int_equal(rep.hits[1].rule.source, NP_NFRULE_LEGACY);
	assert_int_equal(rep.hits[1].packets, 400);
	assert_int_equal(rep.hits[2].rule.handle, 9);
	assert_int_equal(rep.hits[2].packets, 30);
	assert_int_equal(rep.hits[3].packets, 3);
	assert_int_equal(rep.packets, 1433);
	assert_int_equal(rep.drop_rules, 6);
	assert_int_equal(rep.uncounted, 1);
	assert_int_equal(rep.uncounted_example.handle, 12);
	np_nfrules_free(&s);
	np_nfrules_free(&e);
}

/* More rules grew than are shown: the biggest five, the rest summed. */
static void test_top(void **state)
{
	struct np_nfrule b[8];
	struct np_nfrules s = { 0 }, e;
	struct np_nfrule_report rep;

	(void)state;
	for (int i = 0; i < 8; i++)
		b[i] = nft("input", (uint64_t)i + 1, (uint64_t)(i % 2 ? 10 * i : i), true, "");
	fill(&e, b, 8);
	np_nfrule_compare(&s, &e, &rep);
	assert_int_equal(rep.n, NP_NFRULE_SHOW);
	assert_int_equal(rep.hits[0].packets, 70);
	assert_int_equal(rep.hits[1].packets, 50);
	assert_int_equal(rep.hits[2].packets, 30);
	assert_int_equal(rep.hits[3].packets, 10);
	assert_int_equal(rep.hits[4].packets, 6);
	assert_int_equal(rep.others, 2);	/* 4 and 2; the 0 did not grow */
	assert_int_equal(rep.others_packets, 6);
	assert_int_equal(rep.packets, 172);
	np_nfrules_free(&e);
}

static void test_text(void **state)
{
	struct np_nfrule b[] = {
		nft("input", 4, 1100, true, "udp dport 9001"),
		legacy(3, 5, ""),
		nft("input", 12, 0, false, "tcp dport 22"),
	};
	struct np_nfrules s = { 0 }, e;
	struct np_nfrule_report rep;
	char *out;

	(void)state;
	b[1].verdict = NP_NFRULE_POLICY_DROP;
	fill(&e, b, 3);
	np_nfrule_compare(&s, &e, &rep);
	out = render_text(&rep);
	if (getenv("NP_SHOW"))
		fputs(out, stderr);
	assert_non_null(strstr(out, "  rule nftables inet filter input rule 4 (handle 4): udp "
				    "dport 9001 drop"));
	assert_non_null(strstr(out, "1,100\n"));
	assert_non_null(strstr(out, "  rule iptables-legacy ip filter INPUT policy DROP"));
	assert_non_null(strstr(out, "1 nftables drop rule without a counter, e.g. inet filter "
				    "input handle 12 (tcp dport 22): counting it takes 'nft replace "
				    "rule inet filter input handle 12 tcp dport 22 counter drop'"));
	assert_null(strstr(out, "no drop rule's counter grew"));
	free(out);

	/* Nothing grew, nftables unreadable: said, not silent. */
	np_nfrules_free(&e);
	fill(&e, b, 0);
	e.nft_status = -EPERM;
	np_nfrule_compare(&s, &e, &rep);
	out = render_text(&rep);
	assert_non_null(strstr(out, "(no drop rule's counter grew during the window: 0 drop "
				    "rules read;"));
	assert_non_null(strstr(out, "(nftables rules not read: Operation not permitted)"));
	free(out);
	np_nfrules_free(&e);
}

static void test_json(void **state)
{
	struct np_nfrule b[] = { legacy(1, 400, "-p udp --dport 9001") };
	struct np_nfrules s = { 0 }, e;
	struct np_nfrule_report rep;
	struct np_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	fill(&e, b, 1);
	np_nfrule_compare(&s, &e, &rep);
	np_json_init(&j, f, false);
	np_json_obj_open(&j);
	np_nfrule_render_json(&j, &rep);
	np_json_obj_close(&j);
	np_json_end(&j);
	fclose(f);
	if (getenv("NP_SHOW"))
		fputs(buf, stderr);
	assert_non_null(strstr(buf, "\"rule\":[{\"source\":\"iptables-legacy\",\"family\":\"ip\","
				    "\"table\":\"filter\",\"chain\":\"INPUT\",\"handle\":null,"
				    "\"position\":1,\"verdict\":\"drop\",\"match\":\"-p udp "
				    "--dport 9001\",\"packets\":400,\"bytes\":11600}]"));
	assert_non_null(strstr(buf, "\"uncounted_drop_rules\":0,\"advice\":null,"
				    "\"nftables\":\"read\",\"iptables_legacy\":\"read\""));
	free(buf);
	np_nfrules_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_top),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
