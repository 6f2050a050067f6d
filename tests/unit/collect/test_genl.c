// SPDX-License-Identifier: GPL-2.0-only
/* The generic netlink transport's pure parts: reply walking, errors with extack, framing. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/ethtool_netlink.h>

#include "genl_fixture.h"

struct seen {
	unsigned n;
	uint32_t seq[8];
	int ret;		/* what the callback returns */
};

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	struct seen *s = data;

	if (s->n < 8)
		s->seq[s->n] = nlh->nlmsg_seq;
	s->n++;
	return s->ret;
}

static int run(const struct stream *st, uint32_t seq, struct seen *s, char *msg, size_t mlen)
{
	return np_nl_run(st->buf, st->len, seq, count_cb, s, msg, mlen);
}

/* A recorded doit: one reply, then the (capped) ACK ends the request. */
static void test_recorded_doit(void **state)
{
	struct stream st = load_stream("genl_eth0_rings.bin");
	struct seen s = { .ret = MNL_CB_OK };
	char msg[64] = "stale";

	(void)state;
	assert_non_null(st.buf);
	assert_int_equal(run(&st, first_msg(&st)->nlmsg_seq, &s, msg, sizeof(msg)), 0);
	assert_int_equal(s.n, 1);
	/* Another request's sequence number: nothing is ours, more is expected. */
	s.n = 0;
	assert_int_equal(run(&st, first_msg(&st)->nlmsg_seq + 1, &s, msg, sizeof(msg)), 1);
	assert_int_equal(s.n, 0);
	free_stream(&st);
}

/* A late reply to an earlier request (it timed out) sits before ours: skipped, not an error. */
static void test_other_seq(void **state)
{
	struct builder b = { .len = 0 };
	struct seen s = { .ret = MNL_CB_OK };
	struct stream st;
	char msg[64];

	(void)state;
	b_end(&b, b_msg(&b, 0x15, 7, ETHTOOL_MSG_RINGS_GET_REPLY));
	b_error(&b, 7, 0, NULL);
	b_end(&b, b_msg(&b, 0x15, 8, ETHTOOL_MSG_RINGS_GET_REPLY));
	b_error(&b, 8, 0, NULL);
	st = b_stream(&b);
	assert_int_equal(run(&st, 8, &s, msg, sizeof(msg)), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.seq[0], 8);
	free_stream(&st);
}

/* The kernel's extack message survives into errmsg; the errno is returned as is. */
static void test_error_extack(void **state)
{
	struct stream st = load_stream("genl_lo_linkmodes.bin");
	struct builder b = { .len = 0 };
	struct seen s = { .ret = MNL_CB_OK };
	char msg[NP_NL_ERRMSG] = "";

	(void)state;
	assert_non_null(st.buf);
	/* lo has no get_link_ksettings: recorded from the live kernel. */
	assert_int_equal(run(&st, first_msg(&st)->nlmsg_seq, &s, msg, sizeof(msg)), -EOPNOTSUPP);
	assert_string_equal(msg, "failed to retrieve link settings");
	assert_int_equal(s.n, 0);
	free_stream(&st);

	b_error(&b, 3, -EINVAL, "no stats requested");
	st = b_stream(&b);
	assert_int_equal(run(&st, 3, &s, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(msg, "no stats requested");
	/* A message longer than the buffer is cut, not overrun. */
	assert_int_equal(run(&st, 3, &s, msg, 6), -EINVAL);
	assert_string_equal(msg, "no st");
	free_stream(&st);
}

/* Without NETLINK_CAP_ACK the kernel echoes the whole request before the TLVs. */
static void test_error_uncapped(void **state)
{
	char buf[512] = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf), *req;
	struct seen s = { .ret = MNL_CB_OK };
	struct nlmsgerr *e;
	char msg[64] = "";

	(void)state;
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = 5;
	nlh->nlmsg_flags = NLM_F_ACK_TLVS;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -ENODEV;
	/* The echoed request: header, genl header and a 12-byte attribute. */
	req = &e->msg;
	req->nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + 12;
	nlh->nlmsg_len += GENL_HDRLEN + 12;
	memset((char *)nlh + nlh->nlmsg_len - 12, 0xee, 12);
	mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, "no device matches name");
	mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 20);
	assert_int_equal(np_nl_run(buf, nlh->nlmsg_len, 5, count_cb, &s, msg, sizeof(msg)),
			 -ENODEV);
	assert_string_equal(msg, "no device matches name");
}

/* Dumps end with NLMSG_DONE, which may carry an error; NLMSG_OVERRUN is lost data. */
static void test_done_and_overrun(void **state)
{
	struct builder b = { .len = 0 };
	struct seen s = { .ret = MNL_CB_OK };
	struct stream st;
	struct nlmsghdr *nlh;
	char msg[64] = "";

	(void)state;
	b_end(&b, b_msg(&b, 0x14, 9, 12));
	b_end(&b, b_msg(&b, 0x14, 9, 12));
	b_done(&b, 9, 0);
	st = b_stream(&b);
	assert_int_equal(run(&st, 9, &s, msg, sizeof(msg)), 0);
	assert_int_equal(s.n, 2);
	free_stream(&st);

	b.len = 0;
	b_done(&b, 9, -EMSGSIZE);
	st = b_stream(&b);
	assert_int_equal(run(&st, 9, &s, msg, sizeof(msg)), -EMSGSIZE);
	free_stream(&st);

	b.len = 0;
	nlh = mnl_nlmsg_put_header(b.buf);
	nlh->nlmsg_type = NLMSG_OVERRUN;
	nlh->nlmsg_seq = 9;
	b.len = nlh->nlmsg_len;
	st = b_stream(&b);
	assert_int_equal(run(&st, 9, &s, msg, sizeof(msg)), -ENOBUFS);
	free_stream(&st);
}

/* A message cut short by the buffer, or stray bytes after the last one: -EBADMSG. */
static void test_truncated_stream(void **state)
{
	struct stream st = load_stream("genl_eth0_features.bin"), cut;
	struct seen s = { .ret = MNL_CB_OK };
	char msg[64];

	(void)state;
	assert_non_null(st.buf);
	cut.len = first_msg(&st)->nlmsg_len - 40;
	cut.buf = malloc(cut.len);
	memcpy(cut.buf, st.buf, cut.len);
	assert_int_equal(run(&cut, first_msg(&st)->nlmsg_seq, &s, msg, sizeof(msg)), -EBADMSG);
	assert_int_equal(s.n, 0);
	free(cut.buf);

	cut.len = first_msg(&st)->nlmsg_len + 6;	/* whole reply + 6 bytes of the ACK */
	cut.buf = malloc(cut.len);
	memcpy(cut.buf, st.buf, cut.len);
	assert_int_equal(run(&cut, first_msg(&st)->nlmsg_seq, &s, msg, sizeof(msg)), -EBADMSG);
	assert_int_equal(s.n, 1);
	free(cut.buf);
	free_stream(&st);
}

/* The callback decides: stop early (0) or fail with its errno. */
static void test_callback_result(void **state)
{
	struct stream st = load_stream("genl_eth0_qstats.bin");
	struct seen s = { .ret = MNL_CB_STOP };
	char msg[64];

	(void)state;
	assert_non_null(st.buf);
	assert_int_equal(run(&st, first_msg(&st)->nlmsg_seq, &s, msg, sizeof(msg)), 0);
	assert_int_equal(s.n, 1);
	s.n = 0;
	s.ret = -ENOMEM;
	assert_int_equal(run(&st, first_msg(&st)->nlmsg_seq, &s, msg, sizeof(msg)), -ENOMEM);
	s.n = 0;
	s.ret = MNL_CB_OK;
	assert_int_equal(run(&st, first_msg(&st)->nlmsg_seq, &s, msg, sizeof(msg)), 0);
	assert_int_equal(s.n, 2);	/* rx queue 0 and tx queue 0, then DONE */
	free_stream(&st);
}

static void test_attrs(void **state)
{
	char buf[64] __attribute__((aligned(4))) = { 0 };
	const struct nlattr *tb[4];
	struct nlattr *a = (struct nlattr *)buf;
	uint64_t v;

	(void)state;
	/* type 0 (ethtool STATS nests use it), then type 3 whose length runs past the end. */
	a->nla_type = 0;
	a->nla_len = 8;
	memcpy(buf + 4, "\x2a\0\0\0", 4);
	a = (struct nlattr *)(buf + 8);
	a->nla_type = 3;
	a->nla_len = 40;
	assert_int_equal(np_nl_attrs(buf, 16, tb, 3), -EBADMSG);
	assert_non_null(tb[0]);
	assert_null(tb[3]);
	assert_int_equal(np_attr_uint(tb[0], &v), 0);
	assert_int_equal(v, 42);
	/* An attribute shorter than its own header. */
	a->nla_len = 2;
	assert_int_equal(np_nl_attrs(buf, 16, tb, 3), -EBADMSG);
	/* A well-formed pair; types above maxtype are ignored. */
	a->nla_len = 8;
	a->nla_type = 9 | NLA_F_NESTED;
	assert_int_equal(np_nl_attrs(buf, 16, tb, 3), 0);
	assert_non_null(tb[0]);
	/* uint: 1, 2, 4 or 8 bytes; nothing else. */
	a = (struct nlattr *)buf;
	a->nla_len = 4 + 3;
	assert_int_equal(np_attr_uint(a, &v), -EBADMSG);
	a->nla_len = 4 + 8;
	memcpy(buf + 4, "\x01\0\0\0\x01\0\0\0", 8);
	assert_int_equal(np_attr_uint(a, &v), 0);
	assert_true(v == 0x100000001ULL);
	assert_int_equal(np_attr_u32(a, (uint32_t *)&v), -EBADMSG);
}

static void test_family(void **state)
{
	struct stream st = load_stream("genl_ctrl_ethtool.bin");
	struct stream nd = load_stream("genl_ctrl_netdev.bin");
	struct np_genl_family fam;

	(void)state;
	assert_non_null(st.buf);
	assert_int_equal(np_genl_parse_family(first_msg(&st), &fam), 0);
	assert_true(fam.id >= GENL_MIN_ID);
	assert_true(np_genl_has_op(&fam, ETHTOOL_MSG_LINKMODES_GET));
	assert_true(np_genl_has_op(&fam, ETHTOOL_MSG_RINGS_GET));
	assert_true(np_genl_has_op(&fam, ETHTOOL_MSG_STATS_GET));
	assert_true(np_genl_has_op(&fam, 38));	/* RSS_GET: 6.18 has it */
	assert_false(np_genl_has_op(&fam, 250));
	assert_non_null(nd.buf);
	assert_int_equal(np_genl_parse_family(first_msg(&nd), &fam), 0);
	assert_true(np_genl_has_op(&fam, 12));	/* NETDEV_CMD_QSTATS_GET */
	/* A controller message without a family id is not a family. */
	{
		struct builder b = { .len = 0 };

		b_end(&b, b_msg(&b, GENL_ID_CTRL, 1, CTRL_CMD_NEWFAMILY));
		assert_int_equal(np_genl_parse_family((struct nlmsghdr *)b.buf, &fam), -EBADMSG);
	}
	free_stream(&st);
	free_stream(&nd);
}

/* The family parser as it was: the ops walked with libmnl and a table per op. The faster walk
 * must agree with it on every input, malformed ones included. */
static int ref_parse_family(const struct nlmsghdr *nlh, struct np_genl_family *fam)
{
	const struct nlattr *tb[CTRL_ATTR_OPS + 1], *op[CTRL_ATTR_OP_ID + 1], *a;
	int err = np_genl_attrs(nlh, tb, CTRL_ATTR_OPS);

	memset(fam, 0, sizeof(*fam));
	if (!tb[CTRL_ATTR_FAMILY_ID] || mnl_attr_get_payload_len(tb[CTRL_ATTR_FAMILY_ID]) != 2)
		return -EBADMSG;
	fam->id = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION])
		np_attr_u32(tb[CTRL_ATTR_VERSION], &fam->version);
	if (tb[CTRL_ATTR_MAXATTR])
		np_attr_u32(tb[CTRL_ATTR_MAXATTR], &fam->maxattr);
	if (!tb[CTRL_ATTR_OPS])
		return err;
	mnl_attr_for_each_nested(a, tb[CTRL_ATTR_OPS]) {
		if (np_nest_attrs(a, op, CTRL_ATTR_OP_ID) < 0)
			err = -EBADMSG;
		if (op[CTRL_ATTR_OP_ID] && fam->nops < NP_GENL_MAX_OPS &&
		    np_attr_u32(op[CTRL_ATTR_OP_ID], &fam->ops[fam->nops]) == 0)
			fam->nops++;
	}
	return err;
}

static void same_family(const char *buf)
{
	struct np_genl_family a, b;
	int ra = np_genl_parse_family((const struct nlmsghdr *)buf, &a);
	int rb = ref_parse_family((const struct nlmsghdr *)buf, &b);

	assert_int_equal(ra, rb);
	assert_int_equal(a.id, b.id);
	assert_int_equal(a.version, b.version);
	assert_int_equal(a.maxattr, b.maxattr);
	assert_int_equal(a.nops, b.nops);
	assert_memory_equal(a.ops, b.ops, a.nops * sizeof(a.ops[0]));
}

/* Recorded families, then each with every 16-bit field past the netlink header overwritten by
 * lengths and types that break nests (short, long, odd, zero): same result either way. */
static void test_family_same_as_reference(void **state)
{
	static const char *const names[] = { "genl_ctrl_ethtool.bin", "genl_ctrl_netdev.bin" };
	static const uint16_t vals[] = { 0, 1, 3, 4, 5, 7, 8, 9, 12, 0x8001, 0xffff };

	(void)state;
	for (size_t n = 0; n < 2; n++) {
		struct stream st = load_stream(names[n]);
		size_t len;
		char *m;

		assert_non_null(st.buf);
		len = first_msg(&st)->nlmsg_len;
		assert_true(len <= st.len);
		m = malloc(len);
		assert_non_null(m);
		memcpy(m, st.buf, len);
		same_family(m);
		for (size_t off = sizeof(struct nlmsghdr); off + 2 <= len; off += 2) {
			for (size_t v = 0; v < sizeof(vals) / sizeof(vals[0]); v++) {
				memcpy(m, st.buf, len);
				memcpy(m + off, &vals[v], 2);
				same_family(m);
			}
		}
		free(m);
		free_stream(&st);
	}
}

static const struct stream *pick_stream(struct replay *r, const struct nlmsghdr *req)
{
	(void)req;
	return r->arg;
}

/* np_genl_call over the replay seam: the request's own sequence number is what counts. */
static void test_call_replay(void **state)
{
	struct stream ctrl = load_stream("genl_ctrl_ethtool.bin"), none = { NULL, 0 };
	struct builder b = { .len = 0 };
	struct replay r = { .pick = pick_stream, .arg = &ctrl };
	struct np_genl_family fam;
	struct np_nl g;
	struct stream stale;

	(void)state;
	assert_int_equal(np_genl_open_replay(&g, replay_fn, &r), 0);
	assert_int_equal(np_genl_family(&g, "ethtool", &fam), 0);
	assert_true(np_genl_has_op(&fam, ETHTOOL_MSG_PAUSE_GET));
	/* Silence: a bounded wait that ends in -ETIMEDOUT. */
	r.arg = &none;
	assert_int_equal(np_genl_family(&g, "ethtool", &fam), -ETIMEDOUT);
	/* ENOENT from the controller: no such family. */
	b_error(&b, 1, -ENOENT, NULL);
	stale = b_stream(&b);
	r.arg = &stale;
	assert_int_equal(np_genl_family(&g, "nosuch", &fam), -ENOENT);
	np_nl_close(&g);
	free_stream(&stale);
	free_stream(&ctrl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_doit),
		cmocka_unit_test(test_other_seq),
		cmocka_unit_test(test_error_extack),
		cmocka_unit_test(test_error_uncapped),
		cmocka_unit_test(test_done_and_overrun),
		cmocka_unit_test(test_truncated_stream),
		cmocka_unit_test(test_callback_result),
		cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_family_same_as_reference),
		cmocka_unit_test(test_call_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
