// SPDX-License-Identifier: GPL-2.0-only
/* The netfilter drop-rule parsers fed recorded replies (tests/fixtures/netfilter: iptables-nft
 * and iptables-legacy rules of a scratch namespace) and hand-built nftables rules. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture_load.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter_ipv4/ip_tables.h>

#include "nfrules.h"

/* tests/fixtures/netfilter/NAME (fixture_load.h). */
static unsigned char *load(const char *name, size_t *len)
{
	return fixture_load("netfilter", name, len);
}

static uint32_t first_seq(const void *buf)
{
	return ((const struct nlmsghdr *)buf)->nlmsg_seq;
}

static void assert_rule(const struct np_nfrule *r, enum np_nfrule_source src, uint8_t fam,
			const char *chain, uint64_t handle, uint32_t pos,
			enum np_nfrule_verdict v, uint64_t packets, const char *match)
{
	assert_int_equal(r->source, src);
	assert_int_equal(r->family, fam);
	assert_string_equal(r->table, "filter");
	assert_string_equal(r->chain, chain);
	assert_int_equal(r->handle, handle);
	assert_int_equal(r->position, pos);
	assert_int_equal(r->verdict, v);
	assert_true(r->has_counter);
	assert_int_equal(r->packets, packets);
	assert_string_equal(r->match, match);
}

/* iptables-nft's rules as nftables shows them: 5 rules, 4 of which drop or reject; the port
 * 9001 rule counted the 7 datagrams of 29 bytes the recorder sent. */
static void test_nft_recorded(void **state)
{
	struct np_nfrules r = { 0 };
	unsigned char *buf;
	size_t len;

	(void)state;
	buf = load("nft_rules.bin", &len);
	assert_int_equal(np_nft_rules_parse(buf, len, first_seq(buf), &r), 0);
	assert_int_equal(r.nft_rules, 5);
	assert_int_equal(r.n, 4);
	assert_rule(&r.r[0], NP_NFRULE_NFT, NFPROTO_IPV4, "INPUT", 2, 1, NP_NFRULE_DROP, 7,
		    "meta l4proto udp udp dport 9001");
	assert_int_equal(r.r[0].bytes, 203);
	assert_rule(&r.r[1], NP_NFRULE_NFT, NFPROTO_IPV4, "INPUT", 3, 2, NP_NFRULE_REJECT, 0,
		    "meta l4proto tcp ip saddr 192.0.2.0/24 tcp dport 20-22");
	assert_rule(&r.r[2], NP_NFRULE_NFT, NFPROTO_IPV4, "BLOCK", 6, 1, NP_NFRULE_DROP, 0,
		    "iifname != \"lo*\" -m comment");
	assert_rule(&r.r[3], NP_NFRULE_NFT, NFPROTO_IPV6, "INPUT", 2, 1, NP_NFRULE_DROP, 0,
		    "meta l4proto udp ip6 saddr 2001:db8::/32 udp dport 9004");
	np_nfrules_free(&r);

	/* Another request's replies are not ours: nothing taken, no end seen. */
	assert_int_equal(np_nft_rules_parse(buf, len, first_seq(buf) + 1, &r), 1);
	assert_int_equal(r.n, 0);
	/* Cut short: what is whole parses, the rest is waited for (1), never over-read. */
	assert_int_equal(np_nft_rules_parse(buf, 400, first_seq(buf), &r), 1);
	assert_int_equal(r.n, 1);
	np_nfrules_free(&r);
	assert_int_equal(np_nft_rules_parse(buf, 10, first_seq(buf), &r), -EBADMSG);
	free(buf);
}

/* A message buffer being built by hand. */
static char msgbuf[8192];

static struct nlmsghdr *rule_start(uint8_t family, const char *table, const char *chain,
				   uint64_t handle)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(msgbuf);
	struct nfgenmsg *g;

	nlh->nlmsg_type = NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWRULE;
	nlh->nlmsg_seq = 9;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->nfgen_family = family;
	mnl_attr_put_strz(nlh, NFTA_RULE_TABLE, table);
	mnl_attr_put_strz(nlh, NFTA_RULE_CHAIN, chain);
	mnl_attr_put_u64(nlh, NFTA_RULE_HANDLE, htobe64(handle));
	return nlh;
}

/* The expression being built: its list element and its data nest (built one at a time). */
static struct nlattr *cur_data;

static struct nlattr *expr_start(struct nlmsghdr *nlh, const char *name)
{
	struct nlattr *e = mnl_attr_nest_start(nlh, NFTA_LIST_ELEM);

	mnl_attr_put_strz(nlh, NFTA_EXPR_NAME, name);
	cur_data = mnl_attr_nest_start(nlh, NFTA_EXPR_DATA);
	return e;
}

static void expr_end(struct nlmsghdr *nlh, struct nlattr *e)
{
	mnl_attr_nest_end(nlh, cur_data);
	mnl_attr_nest_end(nlh, e);
}

static void put_data(struct nlmsghdr *nlh, uint16_t type, const void *v, size_t len)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, type);

	mnl_attr_put(nlh, NFTA_DATA_VALUE, len, v);
	mnl_attr_nest_end(nlh, n);
}

static void meta(struct nlmsghdr *nlh, uint32_t key)
{
	struct nlattr *e = expr_start(nlh, "meta");

	mnl_attr_put_u32(nlh, NFTA_META_DREG, htonl(1));
	mnl_attr_put_u32(nlh, NFTA_META_KEY, htonl(key));
	expr_end(nlh, e);
}

static void payload(struct nlmsghdr *nlh, uint32_t base, uint32_t off, uint32_t len)
{
	struct nlattr *e = expr_start(nlh, "payload");

	mnl_attr_put_u32(nlh, NFTA_PAYLOAD_DREG, htonl(1));
	mnl_attr_put_u32(nlh, NFTA_PAYLOAD_BASE, htonl(base));
	mnl_attr_put_u32(nlh, NFTA_PAYLOAD_OFFSET, htonl(off));
	mnl_attr_put_u32(nlh, NFTA_PAYLOAD_LEN, htonl(len));
	expr_end(nlh, e);
}

static void cmp(struct nlmsghdr *nlh, uint32_t op, const void *v, size_t len)
{
	struct nlattr *e = expr_start(nlh, "cmp");

	mnl_attr_put_u32(nlh, NFTA_CMP_SREG, htonl(1));
	mnl_attr_put_u32(nlh, NFTA_CMP_OP, htonl(op));
	put_data(nlh, NFTA_CMP_DATA, v, len);
	expr_end(nlh, e);
}

static void verdict(struct nlmsghdr *nlh, int code)
{
	struct nlattr *e = expr_start(nlh, "immediate"), *d, *v;

	mnl_attr_put_u32(nlh, NFTA_IMMEDIATE_DREG, htonl(NFT_REG_VERDICT));
	d = mnl_attr_nest_start(nlh, NFTA_IMMEDIATE_DATA);
	v = mnl_attr_nest_start(nlh, NFTA_DATA_VERDICT);
	mnl_attr_put_u32(nlh, NFTA_VERDICT_CODE, htonl((uint32_t)code));
	mnl_attr_nest_end(nlh, v);
	mnl_attr_nest_end(nlh, d);
	expr_end(nlh, e);
}

static void counter(struct nlmsghdr *nlh, uint64_t packets, uint64_t bytes)
{
	struct nlattr *e = expr_start(nlh, "counter");

	mnl_attr_put_u64(nlh, NFTA_COUNTER_BYTES, htobe64(bytes));
	mnl_attr_put_u64(nlh, NFTA_COUNTER_PACKETS, htobe64(packets));
	expr_end(nlh, e);
}

/* nft's own rules (nft is not installed here to record them): an inet rule without a counter
 * that drops a port range from a /24 via a set, a reject with a counter, an accept (not kept),
 * then NLMSG_DONE. */
static void test_nft_native(void **state)
{
	static const uint8_t tcp = 6, v4 = NFPROTO_IPV4, mask[4] = { 255, 255, 255, 0 };
	static const uint8_t net[4] = { 10, 1, 2, 0 };
	uint16_t from = htons(1000), to = htons(2000);
	static char all[16384];
	struct np_nfrules r = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *e, *exprs;
	size_t used = 0;

	(void)state;
	nlh = rule_start(NFPROTO_INET, "filter", "input", 7);
	exprs = mnl_attr_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	meta(nlh, NFT_META_NFPROTO);
	cmp(nlh, NFT_CMP_EQ, &v4, 1);
	meta(nlh, NFT_META_L4PROTO);
	cmp(nlh, NFT_CMP_EQ, &tcp, 1);
	payload(nlh, NFT_PAYLOAD_TRANSPORT_HEADER, 2, 2);
	e = expr_start(nlh, "range");
	mnl_attr_put_u32(nlh, NFTA_RANGE_SREG, htonl(1));
	mnl_attr_put_u32(nlh, NFTA_RANGE_OP, htonl(NFT_RANGE_EQ));
	put_data(nlh, NFTA_RANGE_FROM_DATA, &from, 2);
	put_data(nlh, NFTA_RANGE_TO_DATA, &to, 2);
	expr_end(nlh, e);
	payload(nlh, NFT_PAYLOAD_NETWORK_HEADER, 12, 4);
	e = expr_start(nlh, "bitwise");
	mnl_attr_put_u32(nlh, NFTA_BITWISE_SREG, htonl(1));
	mnl_attr_put_u32(nlh, NFTA_BITWISE_DREG, htonl(1));
	mnl_attr_put_u32(nlh, NFTA_BITWISE_LEN, htonl(4));
	put_data(nlh, NFTA_BITWISE_MASK, mask, 4);
	expr_end(nlh, e);
	cmp(nlh, NFT_CMP_EQ, net, 4);
	payload(nlh, NFT_PAYLOAD_NETWORK_HEADER, 16, 4);
	e = expr_start(nlh, "lookup");
	mnl_attr_put_strz(nlh, NFTA_LOOKUP_SET, "blocked");
	mnl_attr_put_u32(nlh, NFTA_LOOKUP_SREG, htonl(1));
	mnl_attr_put_u32(nlh, NFTA_LOOKUP_FLAGS, htonl(NFT_LOOKUP_F_INV));
	expr_end(nlh, e);
	verdict(nlh, NF_DROP);
	mnl_attr_nest_end(nlh, exprs);
	memcpy(all + used, nlh, nlh->nlmsg_len);
	used += MNL_ALIGN(nlh->nlmsg_len);

	nlh = rule_start(NFPROTO_INET, "filter", "input", 8);
	exprs = mnl_attr_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	meta(nlh, NFT_META_IIFNAME);
	cmp(nlh, NFT_CMP_NEQ, "eth", 3);
	counter(nlh, 42, 4200);
	e = expr_start(nlh, "reject");
	expr_end(nlh, e);
	mnl_attr_nest_end(nlh, exprs);
	memcpy(all + used, nlh, nlh->nlmsg_len);
	used += MNL_ALIGN(nlh->nlmsg_len);

	nlh = rule_start(NFPROTO_INET, "filter", "input", 9);
	exprs = mnl_attr_nest_start(nlh, NFTA_RULE_EXPRESSIONS);
	counter(nlh, 1, 1);
	verdict(nlh, NF_ACCEPT);
	mnl_attr_nest_end(nlh, exprs);
	memcpy(all + used, nlh, nlh->nlmsg_len);
	used += MNL_ALIGN(nlh->nlmsg_len);

	nlh = mnl_nlmsg_put_header(all + used);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_seq = 9;
	mnl_nlmsg_put_extra_header(nlh, 4);
	used += nlh->nlmsg_len;

	assert_int_equal(np_nft_rules_parse(all, used, 9, &r), 0);
	assert_int_equal(r.nft_rules, 3);
	assert_int_equal(r.n, 2);
	assert_int_equal(r.r[0].family, NFPROTO_INET);
	assert_int_equal(r.r[0].handle, 7);
	assert_int_equal(r.r[0].position, 1);
	assert_false(r.r[0].has_counter);
	assert_int_equal(r.r[0].verdict, NP_NFRULE_DROP);
	assert_string_equal(r.r[0].match, "meta nfproto ipv4 meta l4proto tcp tcp dport 1000-2000 "
			    "ip saddr 10.1.2.0/24 ip daddr != @blocked");
	assert_int_equal(r.r[1].position, 2);
	assert_true(r.r[1].has_counter);
	assert_int_equal(r.r[1].packets, 42);
	assert_int_equal(r.r[1].bytes, 4200);
	assert_int_equal(r.r[1].verdict, NP_NFRULE_REJECT);
	assert_string_equal(r.r[1].match, "iifname != \"eth*\"");
	np_nfrules_free(&r);
}

/* The kernel refusing the dump (no CAP_NET_ADMIN): its errno. */
static void test_nft_error(void **state)
{
	char buf[64] = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *err;
	struct np_nfrules r = { 0 };

	(void)state;
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = 3;
	err = mnl_nlmsg_put_extra_header(nlh, sizeof(*err));
	err->error = -EPERM;
	assert_int_equal(np_nft_rules_parse(buf, nlh->nlmsg_len, 3, &r), -EPERM);
	assert_int_equal(r.n, 0);
}

/* iptables-legacy: the same rules, the DROP policy of FORWARD, a user chain. */
static void test_ipt_recorded(void **state)
{
	struct np_nfrules r = { 0 };
	unsigned char *buf;
	size_t len;

	(void)state;
	buf = load("ipt_filter4.bin", &len);
	assert_int_equal(np_ipt_rules_parse(NFPROTO_IPV4, buf, len, &r), 0);
	assert_int_equal(r.n, 4);
	assert_rule(&r.r[0], NP_NFRULE_LEGACY, NFPROTO_IPV4, "INPUT", 0, 1, NP_NFRULE_DROP, 7,
		    "-p udp --dport 9001");
	assert_int_equal(r.r[0].bytes, 203);
	assert_rule(&r.r[1], NP_NFRULE_LEGACY, NFPROTO_IPV4, "INPUT", 0, 2, NP_NFRULE_REJECT, 0,
		    "-s 192.0.2.0/24 -p tcp --dport 20:22");
	assert_rule(&r.r[2], NP_NFRULE_LEGACY, NFPROTO_IPV4, "FORWARD", 0, 1,
		    NP_NFRULE_POLICY_DROP, 0, "");
	assert_rule(&r.r[3], NP_NFRULE_LEGACY, NFPROTO_IPV4, "BLOCK", 0, 1, NP_NFRULE_DROP, 0,
		    "! -i lo+ -m comment");
	np_nfrules_free(&r);
	free(buf);

	buf = load("ipt_filter6.bin", &len);
	assert_int_equal(np_ipt_rules_parse(NFPROTO_IPV6, buf, len, &r), 0);
	assert_int_equal(r.n, 1);
	assert_rule(&r.r[0], NP_NFRULE_LEGACY, NFPROTO_IPV6, "INPUT", 0, 1, NP_NFRULE_DROP, 0,
		    "-s 2001:db8::/32 -p udp --dport 9004");
	np_nfrules_free(&r);
	/* The IPv6 layout is not the IPv4 one: read as IPv4 it must not pass for rules. */
	assert_int_equal(np_ipt_rules_parse(NFPROTO_IPV4, buf, len, &r), -EBADMSG);
	np_nfrules_free(&r);
	free(buf);
}

/* Damage: every offset is checked before it is followed. */
static void test_ipt_damaged(void **state)
{
	const size_t head = NP_IPT_INFO_LEN + offsetof(struct ipt_get_entries, entrytable);
	struct np_nfrules r = { 0 };
	unsigned char *buf, *copy;
	struct ipt_entry e;
	size_t len;

	(void)state;
	buf = load("ipt_filter4.bin", &len);
	assert_int_equal(np_ipt_rules_parse(NFPROTO_IPV4, buf, head - 1, &r), -EBADMSG);
	/* The blob shorter than its declared size. */
	assert_int_equal(np_ipt_rules_parse(NFPROTO_IPV4, buf, len - 8, &r), -EBADMSG);
	assert_int_equal(np_ipt_rules_parse(NFPROTO_ARP, buf, len, &r), -EBADMSG);
	/* The first entry's next_offset 0 would loop forever; past the end would over-read. */
	copy = malloc(len);
	assert_non_null(copy);
	for (int i = 0; i < 3; i++) {
		memcpy(copy, buf, len);
		memcpy(&e, copy + head, sizeof(e));
		if (i == 0)
			e.next_offset = 0;
		else if (i == 1)
			e.next_offset = (uint16_t)(len + 8);
		else
			e.target_offset = (uint16_t)(e.next_offset - 2);
		memcpy(copy + head, &e, sizeof(e));
		assert_int_equal(np_ipt_rules_parse(NFPROTO_IPV4, copy, len, &r), -EBADMSG);
		assert_int_equal(r.n, 0);
	}
	free(copy);
	free(buf);
	np_nfrules_free(&r);
}

static void test_cap(void **state)
{
	struct np_nfrules r = { 0 };
	struct np_nfrule x = { .source = NP_NFRULE_NFT };

	(void)state;
	for (size_t i = 0; i < NP_NFRULES_MAX + 3; i++)
		assert_int_equal(np_nfrules_add(&r, &x), 0);
	assert_int_equal(r.n, NP_NFRULES_MAX);
	assert_int_equal(r.over_cap, 3);
	np_nfrules_free(&r);
	assert_string_equal(np_nfrule_family_name(NFPROTO_INET), "inet");
	assert_string_equal(np_nfrule_verdict_name(NP_NFRULE_POLICY_DROP), "policy drop");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nft_recorded),
		cmocka_unit_test(test_nft_native),
		cmocka_unit_test(test_nft_error),
		cmocka_unit_test(test_ipt_recorded),
		cmocka_unit_test(test_ipt_damaged),
		cmocka_unit_test(test_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
