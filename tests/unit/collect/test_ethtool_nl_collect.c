// SPDX-License-Identifier: GPL-2.0-only
/* The ethtool netlink collector over a replay transport: which request each source gets, and
 * how each outcome (ok, driver unsupported, kernel lacks the command, no family, timeout,
 * truncated reply, refused stats flag) becomes the source's status. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ethtool_nl.h"
#include "genl_fixture.h"

struct dev {
	const char *prefix;		/* "genl_eth0": recorded streams */
	struct stream ctrl;
	struct stream by_cmd[64];
	struct stream pause_flags;	/* answer to a PAUSE_GET carrying ETHTOOL_FLAG_STATS */
	bool pause_flags_set;
	unsigned pause_requests;
};

static uint32_t req_header_flags(const struct nlmsghdr *req)
{
	const struct nlattr *a, *h;

	mnl_attr_for_each(a, req, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == ETHTOOL_A_PAUSE_HEADER)
			mnl_attr_for_each_nested(h, a)
				if (mnl_attr_get_type(h) == ETHTOOL_A_HEADER_FLAGS)
					return mnl_attr_get_u32(h);
	return 0;
}

static const struct stream *pick_dev(struct replay *r, const struct nlmsghdr *req)
{
	struct dev *d = r->arg;
	uint8_t cmd = req_cmd(req);

	if (req->nlmsg_type == GENL_ID_CTRL)
		return &d->ctrl;
	if (cmd == ETHTOOL_MSG_PAUSE_GET) {
		d->pause_requests++;
		if (d->pause_flags_set && (req_header_flags(req) & ETHTOOL_FLAG_STATS))
			return &d->pause_flags;
	}
	return cmd < 64 ? &d->by_cmd[cmd] : NULL;
}

static void load_dev(struct dev *d, const char *prefix)
{
	static const struct { uint8_t cmd; const char *name; } files[] = {
		{ ETHTOOL_MSG_LINKMODES_GET, "linkmodes" }, { ETHTOOL_MSG_RINGS_GET, "rings" },
		{ ETHTOOL_MSG_CHANNELS_GET, "channels" }, { ETHTOOL_MSG_COALESCE_GET, "coalesce" },
		{ ETHTOOL_MSG_FEATURES_GET, "features" }, { ETHTOOL_MSG_PAUSE_GET, "pause" },
		{ ETHTOOL_MSG_STATS_GET, "stats" }, { NP_ETHTOOL_MSG_RSS_GET, "rss" },
	};
	char name[128];

	memset(d, 0, sizeof(*d));
	d->prefix = prefix;
	d->ctrl = load_stream("genl_ctrl_ethtool.bin");
	assert_non_null(d->ctrl.buf);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(name, sizeof(name), "%s_%s.bin", prefix, files[i].name);
		d->by_cmd[files[i].cmd] = load_stream(name);
		assert_non_null(d->by_cmd[files[i].cmd].buf);
	}
}

static void free_dev(struct dev *d)
{
	free_stream(&d->ctrl);
	free_stream(&d->pause_flags);
	for (size_t i = 0; i < 64; i++)
		free_stream(&d->by_cmd[i]);
}

static void collect(struct dev *d, struct np_snapshot *s, struct replay *r)
{
	struct np_nl g;

	*r = (struct replay){ .pick = pick_dev, .arg = d };
	np_snapshot_init(s);
	snprintf(s->ifname, sizeof(s->ifname), "eth9");
	assert_int_equal(np_genl_open_replay(&g, replay_fn, r), 0);
	np_ethtool_nl_collect(&g, s);
	np_nl_close(&g);
}

static void test_collect_eth0(void **state)
{
	struct np_snapshot s;
	struct replay r;
	struct dev d;

	(void)state;
	load_dev(&d, "genl_eth0");
	collect(&d, &s, &r);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_LINKMODES)->status, NP_SRC_OK);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->status, NP_SRC_OK);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_CHANNELS)->status, NP_SRC_OK);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_COALESCE)->status, NP_SRC_OK);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_FEATURES)->status, NP_SRC_OK);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_PAUSE)->status, NP_SRC_UNSUPPORTED);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_PAUSE)->err, EOPNOTSUPP);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_PAUSE)->detail,
			    "driver does not report pause settings");
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_STATS)->status, NP_SRC_UNSUPPORTED);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_RSS)->status, NP_SRC_UNSUPPORTED);
	assert_int_equal(s.eth.rings.rx, 256);
	assert_int_equal(s.eth.channels.combined, 1);
	assert_int_equal(s.eth.features.gro, 1);
	assert_int_equal(r.requests, 9);	/* the family, then one per source */
	np_snapshot_free(&s);
	free_dev(&d);
}

static void test_collect_lo(void **state)
{
	struct builder b = { .len = 0 };
	struct np_snapshot s;
	struct replay r;
	struct dev d;

	(void)state;
	load_dev(&d, "genl_lo");
	/* The interface disappears between two requests: the ethtool core, not the driver. */
	free_stream(&d.by_cmd[ETHTOOL_MSG_COALESCE_GET]);
	b_error(&b, 1, -ENODEV, "no device matches name");
	d.by_cmd[ETHTOOL_MSG_COALESCE_GET] = b_stream(&b);
	collect(&d, &s, &r);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_COALESCE)->status, NP_SRC_ABSENT);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_COALESCE)->err, ENODEV);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_COALESCE)->detail,
			    "interface vanished: no device matches name");
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_LINKMODES)->status, NP_SRC_UNSUPPORTED);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_LINKMODES)->detail,
			    "driver does not report link modes: failed to retrieve link settings");
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->status, NP_SRC_UNSUPPORTED);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->detail, "driver does not report rings");
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_FEATURES)->status, NP_SRC_OK);
	/* Unsupported is not zero. */
	assert_true(s.eth.rings.rx == NP_NA && s.eth.channels.combined == NP_NA);
	assert_true(s.eth.link.speed_mbps == NP_NA);
	np_snapshot_free(&s);
	free_dev(&d);
}

/* A 5.7-5.9 kernel: no STATS_GET or RSS_GET in the ops list, and ETHTOOL_FLAG_STATS refused. */
static void test_collect_old_kernel(void **state)
{
	static const uint32_t ops[] = {
		ETHTOOL_MSG_STRSET_GET, ETHTOOL_MSG_LINKMODES_GET, ETHTOOL_MSG_FEATURES_GET,
		ETHTOOL_MSG_RINGS_GET, ETHTOOL_MSG_CHANNELS_GET, ETHTOOL_MSG_COALESCE_GET,
		ETHTOOL_MSG_PAUSE_GET,
	};
	struct builder b = { .len = 0 };
	struct np_snapshot s;
	struct nlmsghdr *nlh;
	struct replay r;
	struct dev d;

	(void)state;
	load_dev(&d, "genl_eth0");
	free_stream(&d.ctrl);
	b_family(&b, 1, "ethtool", ETHTOOL_FAM, ops, sizeof(ops) / sizeof(ops[0]));
	d.ctrl = b_stream(&b);
	b.len = 0;
	b_error(&b, 1, -EOPNOTSUPP, "unrecognized request flags");
	d.pause_flags = b_stream(&b);
	d.pause_flags_set = true;
	b.len = 0;
	nlh = reply(&b, ETHTOOL_MSG_PAUSE_GET_REPLY, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_AUTONEG, 1);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_RX, 1);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_TX, 0);
	b_end(&b, nlh);
	b_error(&b, 1, 0, NULL);
	free_stream(&d.by_cmd[ETHTOOL_MSG_PAUSE_GET]);
	d.by_cmd[ETHTOOL_MSG_PAUSE_GET] = b_stream(&b);

	collect(&d, &s, &r);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_STATS)->status, NP_SRC_ABSENT);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_STATS)->detail,
			    "kernel lacks ETHTOOL_MSG_STATS_GET (pre-5.13?)");
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_RSS)->status, NP_SRC_ABSENT);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_RSS)->detail,
			    "kernel lacks ETHTOOL_MSG_RSS_GET (pre-6.2?)");
	/* Pause asked twice: with stats (refused), then without. */
	assert_int_equal(d.pause_requests, 2);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_PAUSE)->status, NP_SRC_OK);
	assert_int_equal(s.eth.pause.autoneg, 1);
	assert_int_equal(s.eth.pause.rx, 1);
	assert_int_equal(s.eth.pause.tx, 0);
	assert_true(s.eth.pause.tx_frames == NP_NA);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->status, NP_SRC_OK);
	assert_int_equal(r.requests, 1 + 6 + 1);	/* family + 6 sources + the pause retry */
	np_snapshot_free(&s);
	free_dev(&d);
}

/* No ethtool family (kernel < 5.6, or CONFIG_ETHTOOL_NETLINK off): every source absent. */
static void test_collect_no_family(void **state)
{
	static const enum np_source srcs[] = {
		NP_SRC_ETHTOOL_LINKMODES, NP_SRC_ETHTOOL_RINGS, NP_SRC_ETHTOOL_CHANNELS,
		NP_SRC_ETHTOOL_COALESCE, NP_SRC_ETHTOOL_FEATURES, NP_SRC_ETHTOOL_PAUSE,
		NP_SRC_ETHTOOL_STATS, NP_SRC_ETHTOOL_RSS,
	};
	struct builder b = { .len = 0 };
	struct np_snapshot s;
	struct replay r;
	struct dev d;

	(void)state;
	load_dev(&d, "genl_eth0");
	free_stream(&d.ctrl);
	b_error(&b, 1, -ENOENT, NULL);
	d.ctrl = b_stream(&b);
	collect(&d, &s, &r);
	for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		assert_int_equal(np_srcp(&s, srcs[i])->status, NP_SRC_ABSENT);
		assert_string_equal(np_srcp(&s, srcs[i])->detail,
				    "no ethtool netlink family (kernel < 5.6)");
	}
	assert_int_equal(r.requests, 1);
	np_snapshot_free(&s);
	free_dev(&d);
}

/* One request never answered, one truncated: bounded, and reported per source. */
static void test_collect_timeout_truncated(void **state)
{
	struct np_snapshot s;
	struct replay r;
	struct dev d;
	struct stream *ch;

	(void)state;
	load_dev(&d, "genl_eth0");
	free_stream(&d.by_cmd[ETHTOOL_MSG_RINGS_GET]);
	ch = &d.by_cmd[ETHTOOL_MSG_CHANNELS_GET];
	/* The reply's last attribute (COMBINED_COUNT) ends past the message; the ACK follows. */
	((struct nlmsghdr *)ch->buf)->nlmsg_len -= 2;
	collect(&d, &s, &r);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->status, NP_SRC_ABSENT);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->err, ETIMEDOUT);
	assert_string_equal(np_srcp(&s, NP_SRC_ETHTOOL_RINGS)->detail,
			    "ETHTOOL_MSG_RINGS_GET: no reply within 2000 ms");
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_CHANNELS)->status, NP_SRC_PARTIAL);
	assert_int_equal(s.eth.channels.combined_max, 1);
	assert_true(s.eth.channels.combined == NP_NA);
	/* Later requests are not disturbed by either. */
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_COALESCE)->status, NP_SRC_OK);
	assert_int_equal(np_srcp(&s, NP_SRC_ETHTOOL_FEATURES)->status, NP_SRC_OK);
	np_snapshot_free(&s);
	free_dev(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect_eth0),
		cmocka_unit_test(test_collect_lo),
		cmocka_unit_test(test_collect_old_kernel),
		cmocka_unit_test(test_collect_no_family),
		cmocka_unit_test(test_collect_timeout_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
