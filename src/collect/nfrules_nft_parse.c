// SPDX-License-Identifier: GPL-2.0-only
/*
 * nftables rule dumps (NFT_MSG_NEWRULE messages): the rules that drop or reject, with their
 * counters and a short rendering of their match. Pure: the bytes come from a socket or a file.
 *
 * The rendering follows the expressions in order, as nft's own does, with one simplification:
 * it does not track registers, so a load is paired with the comparison after it. That is how
 * nft and iptables-nft emit the common matches (addresses, ports, protocols, interfaces).
 */
#include "nfrules.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nf_tables_compat.h>

#define VALUE_MAX 64	/* longest compared value rendered (interface names are 16) */

enum load_kind { LOAD_NONE, LOAD_META, LOAD_PAYLOAD, LOAD_CT };

/* The expressions walked so far of one rule. */
struct walk {
	uint8_t l3;		/* NFPROTO_IPV4/IPV6 once known, else 0 */
	uint8_t l4;		/* IPPROTO_* once matched, else 0 (names "udp dport") */
	enum load_kind load;
	uint32_t key, base, offset, len;
	int prefix;		/* a bitwise mask's prefix length before the compare, or -1 */
	bool counter, drops, rejects;
	uint64_t packets, bytes;
	char *match;
	size_t used;
};

static void add(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct walk *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->used + 2 >= NP_NFRULE_MATCH)
		return;
	if (w->used)
		w->match[w->used++] = ' ';
	va_start(ap, fmt);
	n = vsnprintf(w->match + w->used, NP_NFRULE_MATCH - w->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->used += (size_t)n < NP_NFRULE_MATCH - w->used ? (size_t)n
							      : NP_NFRULE_MATCH - w->used - 1;
	w->match[w->used] = '\0';
}

/* Every attribute of a nest by type, the last one winning; types beyond max are ignored. */
struct table {
	const struct nlattr *a[16];
};

static int table_cb(const struct nlattr *a, void *data)
{
	struct table *t = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type < 16)
		t->a[type] = a;
	return MNL_CB_OK;
}

static void nested(const struct nlattr *a, struct table *t)
{
	memset(t, 0, sizeof(*t));
	if (a)
		mnl_attr_parse_nested(a, table_cb, t);
}

static bool be32(const struct nlattr *a, uint32_t *v)
{
	if (!a || mnl_attr_get_payload_len(a) < 4)
		return false;
	memcpy(v, mnl_attr_get_payload(a), 4);
	*v = ntohl(*v);
	return true;
}

static bool be64(const struct nlattr *a, uint64_t *v)
{
	const uint8_t *p;

	if (!a || mnl_attr_get_payload_len(a) < 8)
		return false;
	p = mnl_attr_get_payload(a);
	*v = 0;
	for (int i = 0; i < 8; i++)
		*v = *v << 8 | p[i];
	return true;
}

/* A string attribute, cut to size; "" when absent. Not trusted to be NUL-terminated. */
static void str(const struct nlattr *a, char *dst, size_t size)
{
	size_t n = 0;

	if (a) {
		n = mnl_attr_get_payload_len(a);
		n = strnlen(mnl_attr_get_payload(a), n);
		if (n >= size)
			n = size - 1;
		memcpy(dst, mnl_attr_get_payload(a), n);
	}
	dst[n] = '\0';
}

/* NFTA_DATA_VALUE of an nft_data nest: its bytes, or NULL. */
static const uint8_t *data_value(const struct nlattr *a, size_t *len)
{
	struct table t;

	nested(a, &t);
	if (!t.a[NFTA_DATA_VALUE])
		return NULL;
	*len = mnl_attr_get_payload_len(t.a[NFTA_DATA_VALUE]);
	return mnl_attr_get_payload(t.a[NFTA_DATA_VALUE]);
}

static const char *proto_name(unsigned p)
{
	switch (p) {
	case 1: return "icmp";
	case 6: return "tcp";
	case 17: return "udp";
	case 58: return "icmpv6";
	case 132: return "sctp";
	case 136: return "udplite";
	}
	return NULL;
}

static const char *meta_name(uint32_t key)
{
	switch (key) {
	case NFT_META_LEN: return "meta length";
	case NFT_META_PROTOCOL: return "meta protocol";
	case NFT_META_MARK: return "meta mark";
	case NFT_META_IIF: return "iif";
	case NFT_META_OIF: return "oif";
	case NFT_META_IIFNAME: return "iifname";
	case NFT_META_OIFNAME: return "oifname";
	case NFT_META_NFPROTO: return "meta nfproto";
	case NFT_META_L4PROTO: return "meta l4proto";
	case NFT_META_PKTTYPE: return "meta pkttype";
	case NFT_META_SKUID: return "meta skuid";
	case NFT_META_CPU: return "meta cpu";
	}
	return NULL;
}

/* What the current load names, e.g. "ip saddr", "udp dport", "iifname". */
static void field_name(const struct walk *w, char *buf, size_t size)
{
	const char *n = NULL;

	if (w->load == LOAD_META) {
		n = meta_name(w->key);
		if (!n)
			snprintf(buf, size, "meta key %u", w->key);
	} else if (w->load == LOAD_CT) {
		n = w->key == NFT_CT_STATE ? "ct state" : w->key == NFT_CT_MARK ? "ct mark" : NULL;
		if (!n)
			snprintf(buf, size, "ct key %u", w->key);
	} else if (w->base == NFT_PAYLOAD_NETWORK_HEADER && w->l3 == NFPROTO_IPV4) {
		n = w->offset == 9 && w->len == 1 ? "ip protocol" :
		    w->offset == 12 && w->len <= 4 ? "ip saddr" :
		    w->offset == 16 && w->len <= 4 ? "ip daddr" : NULL;
	} else if (w->base == NFT_PAYLOAD_NETWORK_HEADER && w->l3 == NFPROTO_IPV6) {
		n = w->offset == 6 && w->len == 1 ? "ip6 nexthdr" :
		    w->offset == 8 && w->len <= 16 ? "ip6 saddr" :
		    w->offset == 24 && w->len <= 16 ? "ip6 daddr" : NULL;
	} else if (w->base == NFT_PAYLOAD_TRANSPORT_HEADER && w->len == 2 &&
		   (w->offset == 0 || w->offset == 2)) {
		const char *l4 = w->l4 == 6 || w->l4 == 17 || w->l4 == 132 || w->l4 == 136 ?
				 proto_name(w->l4) : "th";

		snprintf(buf, size, "%s %s", l4, w->offset ? "dport" : "sport");
		return;
	}
	if (n) {
		snprintf(buf, size, "%s", n);
	} else if (w->load == LOAD_PAYLOAD) {
		static const char *const base[] = { "ll", "nh", "th", "ih" };

		snprintf(buf, size, "@%s,%u,%u", w->base < 4 ? base[w->base] : "?", w->offset * 8,
			 w->len * 8);
	}
}

/* A compared value in the field's own terms: address, port, protocol, interface name. */
static void value_text(struct walk *w, const char *field, const uint8_t *v, size_t len,
		       char *buf, size_t size)
{
	uint8_t a[16] = { 0 };
	uint64_t n = 0;

	/* iptables-nft loads only a prefix's bytes: "-s 192.0.2.0/24" compares 3 of them. */
	if ((!strcmp(field, "ip saddr") || !strcmp(field, "ip daddr")) && len && len <= 4) {
		memcpy(a, v, len);
		inet_ntop(AF_INET, a, buf, (socklen_t)size);
		if (len < 4 && w->prefix < 0)
			w->prefix = (int)len * 8;
	} else if ((!strcmp(field, "ip6 saddr") || !strcmp(field, "ip6 daddr")) && len &&
		   len <= 16) {
		memcpy(a, v, len);
		inet_ntop(AF_INET6, a, buf, (socklen_t)size);
		if (len < 16 && w->prefix < 0)
			w->prefix = (int)len * 8;
	} else if (strstr(field, "port") && len == 2) {
		snprintf(buf, size, "%u", (unsigned)(v[0] << 8 | v[1]));
	} else if ((!strcmp(field, "meta l4proto") || !strcmp(field, "ip protocol") ||
		    !strcmp(field, "ip6 nexthdr")) && len == 1) {
		w->l4 = v[0];
		if (proto_name(v[0]))
			snprintf(buf, size, "%s", proto_name(v[0]));
		else
			snprintf(buf, size, "%u", v[0]);
	} else if (!strcmp(field, "meta nfproto") && len == 1) {
		w->l3 = v[0] == NFPROTO_IPV4 || v[0] == NFPROTO_IPV6 ? v[0] : w->l3;
		snprintf(buf, size, "%s", v[0] == NFPROTO_IPV4 ? "ipv4" :
			 v[0] == NFPROTO_IPV6 ? "ipv6" : "?");
	} else if (!strcmp(field, "iifname") || !strcmp(field, "oifname")) {
		size_t k = strnlen((const char *)v, len);

		/* No NUL within the compared bytes: a prefix match, nft's "eth*". */
		snprintf(buf, size, "\"%.*s%s\"", (int)(k < 16 ? k : 16), (const char *)v,
			 k == len && len < 16 ? "*" : "");
	} else if (len <= 8) {
		for (size_t i = 0; i < len; i++)	/* host order for meta, as nft shows */
			n = w->load == LOAD_PAYLOAD ? n << 8 | v[i] : n | (uint64_t)v[i] << (8 * i);
		snprintf(buf, size, "0x%llx", (unsigned long long)n);
	} else {
		snprintf(buf, size, "(%zu bytes)", len);
	}
}

static const char *op_text(uint32_t op)
{
	static const char *const ops[] = { "", "!= ", "< ", "<= ", "> ", ">= " };

	return op < 6 ? ops[op] : "? ";
}

static void expr_cmp(struct walk *w, const struct table *d)
{
	char field[48] = "", val[VALUE_MAX];
	const uint8_t *v;
	uint32_t op = 0;
	size_t len = 0;

	be32(d->a[NFTA_CMP_OP], &op);
	v = data_value(d->a[NFTA_CMP_DATA], &len);
	field_name(w, field, sizeof(field));
	if (!v || !field[0]) {
		add(w, "cmp");
	} else {
		value_text(w, field, v, len, val, sizeof(val));
		if (w->prefix >= 0)
			add(w, "%s %s%s/%d", field, op_text(op), val, w->prefix);
		else
			add(w, "%s %s%s", field, op_text(op), val);
	}
	w->load = LOAD_NONE;
	w->prefix = -1;
}

static void expr_range(struct walk *w, const struct table *d)
{
	char field[48] = "", a[VALUE_MAX], b[VALUE_MAX];
	const uint8_t *from, *to;
	size_t la = 0, lb = 0;
	uint32_t op = 0;

	be32(d->a[NFTA_RANGE_OP], &op);
	from = data_value(d->a[NFTA_RANGE_FROM_DATA], &la);
	to = data_value(d->a[NFTA_RANGE_TO_DATA], &lb);
	field_name(w, field, sizeof(field));
	if (!from || !to || !field[0]) {
		add(w, "range");
	} else {
		value_text(w, field, from, la, a, sizeof(a));
		value_text(w, field, to, lb, b, sizeof(b));
		add(w, "%s %s%s-%s", field, op == NFT_RANGE_NEQ ? "!= " : "", a, b);
	}
	w->load = LOAD_NONE;
	w->prefix = -1;
}

/* A mask of leading ones is a prefix ("ip saddr 10.0.0.0/8"); anything else is not shown. */
static void expr_bitwise(struct walk *w, const struct table *d)
{
	const uint8_t *m;
	size_t len = 0;
	int ones = 0;
	bool tail = false;

	m = data_value(d->a[NFTA_BITWISE_MASK], &len);
	w->prefix = -1;
	if (!m || w->load != LOAD_PAYLOAD)
		return;
	for (size_t i = 0; i < len; i++)
		for (int b = 7; b >= 0; b--) {
			bool one = m[i] >> b & 1;

			if (one && tail)
				return;
			tail |= !one;
			ones += one;
		}
	w->prefix = ones;
}

static void expr_verdict(struct walk *w, const struct table *d)
{
	struct table data, verdict;
	uint32_t code;

	nested(d->a[NFTA_IMMEDIATE_DATA], &data);
	nested(data.a[NFTA_DATA_VERDICT], &verdict);
	if (be32(verdict.a[NFTA_VERDICT_CODE], &code) && code == NF_DROP)
		w->drops = true;
}

static void expr_lookup(struct walk *w, const struct table *d)
{
	char field[48] = "", set[NP_NFRULE_NAME];
	uint32_t flags = 0;

	be32(d->a[NFTA_LOOKUP_FLAGS], &flags);
	str(d->a[NFTA_LOOKUP_SET], set, sizeof(set));
	field_name(w, field, sizeof(field));
	add(w, "%s%s%s@%s", field, field[0] ? " " : "", flags & NFT_LOOKUP_F_INV ? "!= " : "",
	    set);
	w->load = LOAD_NONE;
}

static void expr(struct walk *w, const struct nlattr *elem)
{
	struct table e, d;
	char name[32];

	nested(elem, &e);
	str(e.a[NFTA_EXPR_NAME], name, sizeof(name));
	nested(e.a[NFTA_EXPR_DATA], &d);
	if (!strcmp(name, "counter")) {
		w->counter = true;
		be64(d.a[NFTA_COUNTER_PACKETS], &w->packets);
		be64(d.a[NFTA_COUNTER_BYTES], &w->bytes);
	} else if (!strcmp(name, "immediate")) {
		expr_verdict(w, &d);
	} else if (!strcmp(name, "reject")) {
		w->rejects = true;
	} else if (!strcmp(name, "target")) {	/* iptables-nft's xt targets */
		char t[32];

		str(d.a[NFTA_TARGET_NAME], t, sizeof(t));
		w->rejects |= !strcmp(t, "REJECT");
	} else if (!strcmp(name, "meta") && d.a[NFTA_META_DREG]) {
		w->load = LOAD_META;
		be32(d.a[NFTA_META_KEY], &w->key);
	} else if (!strcmp(name, "ct") && d.a[NFTA_CT_DREG]) {
		w->load = LOAD_CT;
		be32(d.a[NFTA_CT_KEY], &w->key);
	} else if (!strcmp(name, "payload") && d.a[NFTA_PAYLOAD_DREG]) {
		w->load = LOAD_PAYLOAD;
		w->base = w->offset = w->len = 0;
		be32(d.a[NFTA_PAYLOAD_BASE], &w->base);
		be32(d.a[NFTA_PAYLOAD_OFFSET], &w->offset);
		be32(d.a[NFTA_PAYLOAD_LEN], &w->len);
	} else if (!strcmp(name, "bitwise")) {
		expr_bitwise(w, &d);
	} else if (!strcmp(name, "cmp")) {
		expr_cmp(w, &d);
	} else if (!strcmp(name, "range")) {
		expr_range(w, &d);
	} else if (!strcmp(name, "lookup")) {
		expr_lookup(w, &d);
	} else if (!strcmp(name, "match")) {	/* iptables-nft's xt matches: by name */
		char m[32];

		str(d.a[NFTA_MATCH_NAME], m, sizeof(m));
		add(w, "-m %s", m);
	} else if (strcmp(name, "log") && strcmp(name, "notrack")) {
		add(w, "%s", name[0] ? name : "?");
	}
}

/* The position of the rule in its chain: a dump lists each chain's rules in order. */
static uint32_t next_position(struct np_nfrules *out, const struct np_nfrule *r)
{
	struct np_nft_cursor *c = &out->nft_cursor;

	if (c->family != r->family || strcmp(c->table, r->table) || strcmp(c->chain, r->chain)) {
		c->family = r->family;
		memcpy(c->table, r->table, sizeof(c->table));
		memcpy(c->chain, r->chain, sizeof(c->chain));
		c->pos = 0;
	}
	return ++c->pos;
}

static int parse_rule(const struct nlmsghdr *nlh, struct np_nfrules *out)
{
	const struct nfgenmsg *g;
	struct np_nfrule r = { .source = NP_NFRULE_NFT };
	struct walk w = { .prefix = -1, .match = r.match };
	const struct nlattr *a, *exprs = NULL, *handle = NULL;
	const struct nlattr *table = NULL, *chain = NULL;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*g))
		return -EBADMSG;
	g = mnl_nlmsg_get_payload(nlh);
	r.family = g->nfgen_family;
	mnl_attr_for_each(a, nlh, sizeof(*g)) {
		switch (mnl_attr_get_type(a)) {
		case NFTA_RULE_TABLE: table = a; break;
		case NFTA_RULE_CHAIN: chain = a; break;
		case NFTA_RULE_HANDLE: handle = a; break;
		case NFTA_RULE_EXPRESSIONS: exprs = a; break;
		}
	}
	if (!table || !chain)
		return -EBADMSG;
	str(table, r.table, sizeof(r.table));
	str(chain, r.chain, sizeof(r.chain));
	be64(handle, &r.handle);
	r.position = next_position(out, &r);
	out->nft_rules++;
	w.l3 = r.family == NFPROTO_IPV4 || r.family == NFPROTO_IPV6 ? r.family : 0;
	if (exprs)
		mnl_attr_for_each_nested(a, exprs)
			if (mnl_attr_get_type(a) == NFTA_LIST_ELEM)
				expr(&w, a);
	if (!w.drops && !w.rejects)
		return 0;
	r.verdict = w.rejects ? NP_NFRULE_REJECT : NP_NFRULE_DROP;
	r.has_counter = w.counter;
	r.packets = w.packets;
	r.bytes = w.bytes;
	return np_nfrules_add(out, &r);
}

/* mnl_nlmsg_ok() compares (int)nlmsg_len with the bytes left: a length past 2 GiB turns
 * negative and passes. Lengths are checked unsigned here. */
static bool msg_ok(const struct nlmsghdr *nlh, int rem)
{
	return rem >= (int)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= (uint32_t)rem;
}

int np_nft_rules_parse(const void *buf, size_t len, uint32_t seq, struct np_nfrules *out)
{
	const struct nlmsghdr *nlh = buf;
	int rem = len > (size_t)INT32_MAX ? INT32_MAX : (int)len;
	bool any = false;

	for (; msg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
		any = true;
		if (nlh->nlmsg_seq != seq)
			continue;
		if (nlh->nlmsg_type == NLMSG_DONE)
			return 0;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
				return -EBADMSG;
			if (e->error == 0)
				return 0;	/* an ACK ends the exchange too */
			return e->error < 0 && e->error > -4096 ? e->error : -EBADMSG;
		}
		if (nlh->nlmsg_type == (NFNL_SUBSYS_NFTABLES << 8 | NFT_MSG_NEWRULE) &&
		    parse_rule(nlh, out) == -ENOMEM)
			return -ENOMEM;
	}
	return any ? 1 : -EBADMSG;
}
