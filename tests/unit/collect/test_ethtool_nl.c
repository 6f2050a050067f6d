// SPDX-License-Identifier: GPL-2.0-only
/* ethtool netlink reply parsers on recorded (virtio eth0, veth, lo) and hand-built replies. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ethtool_nl.h"
#include "genl_fixture.h"
#include "linkmode.h"

static void test_eth0_recorded(void **state)
{
	struct stream st;
	struct np_ethtool e;
	char msg[NP_NL_ERRMSG];
	size_t n;

	(void)state;
	np_ethtool_init(&e);
	st = load_stream("genl_eth0_rings.bin");
	assert_int_equal(np_ethtool_parse_rings(first_msg(&st), &e.rings), 0);
	assert_int_equal(e.rings.rx, 256);
	assert_int_equal(e.rings.rx_max, 256);
	assert_int_equal(e.rings.tx, 256);
	assert_int_equal(e.rings.tx_max, 256);
	assert_true(e.rings.rx_mini == NP_NA && e.rings.rx_jumbo_max == NP_NA);
	assert_true(e.rings.rx_buf_len == NP_NA);
	free_stream(&st);

	st = load_stream("genl_eth0_channels.bin");
	assert_int_equal(np_ethtool_parse_channels(first_msg(&st), &e.channels), 0);
	assert_int_equal(e.channels.combined, 1);
	assert_int_equal(e.channels.combined_max, 1);
	assert_true(e.channels.rx == NP_NA && e.channels.rx_max == NP_NA);
	free_stream(&st);

	st = load_stream("genl_eth0_coalesce.bin");
	assert_int_equal(np_ethtool_parse_coalesce(first_msg(&st), &e.coalesce), 0);
	assert_int_equal(e.coalesce.rx_usecs, 0);
	assert_int_equal(e.coalesce.rx_max_frames, 1);
	assert_int_equal(e.coalesce.adaptive_rx, 0);
	assert_int_equal(e.coalesce.adaptive_tx, -1);	/* virtio: not supported, not sent */
	free_stream(&st);

	st = load_stream("genl_eth0_features.bin");
	assert_int_equal(np_ethtool_parse_features(first_msg(&st), &e.features), 0);
	assert_int_equal(e.features.gro, 1);
	assert_int_equal(e.features.gro_hw, 1);
	assert_int_equal(e.features.lro, 0);
	assert_int_equal(e.features.rx_checksum, 1);
	assert_int_equal(e.features.rxhash, 0);
	assert_int_equal(e.features.ntuple, 0);
	free_stream(&st);

	/* Compact bitsets (as requested): virtio has no modes; speed SPEED_UNKNOWN, duplex 0xff. */
	st = load_stream("genl_eth0_linkmodes.bin");
	assert_int_equal(np_ethtool_parse_linkmodes(first_msg(&st), &e.link), 0);
	assert_true(e.link.speed_mbps == NP_NA);
	assert_int_equal(e.link.duplex, -1);
	assert_int_equal(e.link.autoneg, 0);
	assert_true(e.link.has_supported && e.link.has_advertised && !e.link.has_peer);
	assert_int_equal(np_linkmodes_best(e.link.supported), 0);
	free_stream(&st);

	/* The kernel always sends the groups; virtio fills none of them. */
	st = load_stream("genl_eth0_stats.bin");
	assert_int_equal(np_ethtool_parse_stats(first_msg(&st), &e.std_stats, &n), 0);
	assert_int_equal(n, 0);
	free_stream(&st);

	/* RSS: hash function and flow hash fields, but no indirection table. */
	st = load_stream("genl_eth0_rss.bin");
	assert_int_equal(np_ethtool_parse_rss(first_msg(&st), &e.rss_indir, &e.rss_size), 0);
	assert_int_equal(e.rss_size, 0);
	assert_null(e.rss_indir);
	free_stream(&st);

	st = load_stream("genl_eth0_pause.bin");
	assert_int_equal(np_nl_run(st.buf, st.len, first_msg(&st)->nlmsg_seq, NULL, NULL, msg,
				     sizeof(msg)), -EOPNOTSUPP);
	free_stream(&st);
	np_ethtool_free(&e);
}

static void test_veth_lo_recorded(void **state)
{
	struct np_ethtool e;
	struct stream st;
	char msg[NP_NL_ERRMSG] = "";

	(void)state;
	np_ethtool_init(&e);
	st = load_stream("genl_veth_linkmodes.bin");
	assert_int_equal(np_ethtool_parse_linkmodes(first_msg(&st), &e.link), 0);
	assert_int_equal(e.link.speed_mbps, 10000);
	assert_int_equal(e.link.duplex, 1);
	assert_int_equal(e.link.autoneg, 0);
	free_stream(&st);

	st = load_stream("genl_veth_channels.bin");
	assert_int_equal(np_ethtool_parse_channels(first_msg(&st), &e.channels), 0);
	assert_int_equal(e.channels.rx, 4);
	assert_int_equal(e.channels.rx_max, 4);
	assert_int_equal(e.channels.tx, 4);
	assert_int_equal(e.channels.tx_max, 4);
	assert_true(e.channels.combined == NP_NA && e.channels.combined_max == NP_NA);
	free_stream(&st);

	st = load_stream("genl_veth_features.bin");
	assert_int_equal(np_ethtool_parse_features(first_msg(&st), &e.features), 0);
	assert_int_equal(e.features.gro, 0);
	assert_int_equal(e.features.rx_checksum, 1);
	free_stream(&st);

	st = load_stream("genl_veth_rings.bin");
	assert_int_equal(np_nl_run(st.buf, st.len, first_msg(&st)->nlmsg_seq, NULL, NULL, msg,
				     sizeof(msg)), -EOPNOTSUPP);
	free_stream(&st);

	np_ethtool_init(&e);
	st = load_stream("genl_lo_features.bin");
	assert_int_equal(np_ethtool_parse_features(first_msg(&st), &e.features), 0);
	assert_int_equal(e.features.gro, 1);
	assert_int_equal(e.features.gro_hw, 0);
	free_stream(&st);
	st = load_stream("genl_lo_rings.bin");
	assert_int_equal(np_nl_run(st.buf, st.len, first_msg(&st)->nlmsg_seq, NULL, NULL, msg,
				     sizeof(msg)), -EOPNOTSUPP);
	free_stream(&st);
	np_ethtool_free(&e);
}

/* What this machine cannot produce: a 512 ring of max 4096, 4 of 16 combined channels. */
static void test_rings_channels_built(void **state)
{
	struct builder b = { .len = 0 };
	struct np_ethtool e;
	struct nlmsghdr *nlh;

	(void)state;
	np_ethtool_init(&e);
	nlh = reply(&b, ETHTOOL_MSG_RINGS_GET_REPLY, ETHTOOL_A_RINGS_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_MAX, 4096);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_TX_MAX, 4096);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX, 512);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_TX, 1024);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_BUF_LEN, 2048);
	mnl_attr_put_u8(nlh, ETHTOOL_A_RINGS_TCP_DATA_SPLIT, 1);	/* past our maxtype */
	assert_int_equal(np_ethtool_parse_rings(nlh, &e.rings), 0);
	assert_int_equal(e.rings.rx, 512);
	assert_int_equal(e.rings.rx_max, 4096);
	assert_int_equal(e.rings.tx, 1024);
	assert_int_equal(e.rings.rx_buf_len, 2048);
	assert_true(e.rings.rx_mini_max == NP_NA);

	b.len = 0;
	nlh = reply(&b, ETHTOOL_MSG_CHANNELS_GET_REPLY, ETHTOOL_A_CHANNELS_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_MAX, 16);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_OTHER_MAX, 1);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_COMBINED_COUNT, 4);
	mnl_attr_put_u32(nlh, ETHTOOL_A_CHANNELS_OTHER_COUNT, 1);
	assert_int_equal(np_ethtool_parse_channels(nlh, &e.channels), 0);
	assert_int_equal(e.channels.combined, 4);
	assert_int_equal(e.channels.combined_max, 16);
	assert_int_equal(e.channels.other, 1);
	assert_true(e.channels.rx == NP_NA && e.channels.tx_max == NP_NA);
	/* The wrong parser for this reply: not data. */
	assert_int_equal(np_ethtool_parse_rings(nlh, &e.rings), -EINVAL);
	assert_int_equal(e.rings.rx, 512);
}

static void test_coalesce_built(void **state)
{
	struct builder b = { .len = 0 };
	struct np_coalesce c = { NP_NA, NP_NA, NP_NA, NP_NA, -1, -1 };
	struct nlmsghdr *nlh;

	(void)state;
	nlh = reply(&b, ETHTOOL_MSG_COALESCE_GET_REPLY, ETHTOOL_A_COALESCE_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_USECS, 0);
	mnl_attr_put_u32(nlh, ETHTOOL_A_COALESCE_RX_MAX_FRAMES, 128);
	mnl_attr_put_u8(nlh, ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX, 0);
	mnl_attr_put_u8(nlh, ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX, 1);
	assert_int_equal(np_ethtool_parse_coalesce(nlh, &c), 0);
	assert_int_equal(c.rx_usecs, 0);	/* 0 is a value, not "not reported" */
	assert_int_equal(c.rx_max_frames, 128);
	assert_int_equal(c.adaptive_rx, 0);
	assert_int_equal(c.adaptive_tx, 1);
	assert_true(c.tx_usecs == NP_NA && c.tx_max_frames == NP_NA);
}

static void test_pause_built(void **state)
{
	struct builder b = { .len = 0 };
	struct np_pause p = { -1, -1, -1, NP_NA, NP_NA };
	struct nlmsghdr *nlh;
	struct nlattr *st;

	(void)state;
	nlh = reply(&b, ETHTOOL_MSG_PAUSE_GET_REPLY, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_AUTONEG, 0);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_RX, 1);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_TX, 1);
	st = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_STATS);
	mnl_attr_put(nlh, ETHTOOL_A_PAUSE_STAT_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, ETHTOOL_A_PAUSE_STAT_TX_FRAMES, 123456789012ULL);
	mnl_attr_put_u64(nlh, ETHTOOL_A_PAUSE_STAT_RX_FRAMES, 678);
	mnl_attr_nest_end(nlh, st);
	assert_int_equal(np_ethtool_parse_pause(nlh, &p), 0);
	assert_int_equal(p.autoneg, 0);
	assert_int_equal(p.rx, 1);
	assert_int_equal(p.tx, 1);
	assert_true(p.tx_frames == 123456789012ULL);
	assert_int_equal(p.rx_frames, 678);

	/* Stats asked for but the driver counts none: an empty nest, values stay NP_NA. */
	b.len = 0;
	p = (struct np_pause){ -1, -1, -1, NP_NA, NP_NA };
	nlh = reply(&b, ETHTOOL_MSG_PAUSE_GET_REPLY, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_RX, 0);
	st = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_STATS);
	mnl_attr_nest_end(nlh, st);
	assert_int_equal(np_ethtool_parse_pause(nlh, &p), 0);
	assert_int_equal(p.rx, 0);
	assert_int_equal(p.tx, -1);
	assert_true(p.tx_frames == NP_NA && p.rx_frames == NP_NA);
}

static void put_stat(struct nlmsghdr *nlh, uint16_t id, uint64_t v)
{
	struct nlattr *st = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GRP_STAT);

	mnl_attr_put_u64(nlh, id, v);
	mnl_attr_nest_end(nlh, st);
}

static struct nlattr *grp(struct nlmsghdr *nlh, uint32_t id, uint32_t ss)
{
	struct nlattr *g = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GRP);

	mnl_attr_put_u32(nlh, ETHTOOL_A_STATS_GRP_ID, id);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STATS_GRP_SS_ID, ss);
	return g;
}

static void test_std_stats_built(void **state)
{
	struct builder b = { .len = 0 };
	struct np_counters c = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *g, *h;
	size_t n;

	(void)state;
	/* Header attribute 2 in STATS (1 is PAD). */
	nlh = reply(&b, ETHTOOL_MSG_STATS_GET_REPLY, ETHTOOL_A_STATS_HEADER);
	g = grp(nlh, ETHTOOL_STATS_ETH_PHY, ETH_SS_STATS_ETH_PHY);
	put_stat(nlh, 0, 5);	/* SymbolErrorDuringCarrier: attribute type 0 */
	mnl_attr_nest_end(nlh, g);
	g = grp(nlh, ETHTOOL_STATS_ETH_MAC, ETH_SS_STATS_ETH_MAC);
	mnl_attr_put(nlh, ETHTOOL_A_STATS_GRP_PAD, 0, NULL);
	put_stat(nlh, 0, 1000);
	put_stat(nlh, 4, 17);	/* FrameCheckSequenceErrors */
	put_stat(nlh, 5, 2);
	put_stat(nlh, 21, 3);	/* FrameTooLongErrors: the last one we know */
	put_stat(nlh, 40, 9);	/* a newer kernel's addition */
	mnl_attr_nest_end(nlh, g);
	g = grp(nlh, ETHTOOL_STATS_ETH_CTRL, ETH_SS_STATS_ETH_CTRL);
	mnl_attr_nest_end(nlh, g);	/* the driver fills nothing here */
	g = grp(nlh, ETHTOOL_STATS_RMON, ETH_SS_STATS_RMON);
	h = mnl_attr_nest_start(nlh, ETHTOOL_A_STATS_GRP_HIST_RX);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STATS_GRP_HIST_BKT_LOW, 64);
	mnl_attr_put_u32(nlh, ETHTOOL_A_STATS_GRP_HIST_BKT_HI, 64);
	mnl_attr_put_u64(nlh, ETHTOOL_A_STATS_GRP_HIST_VAL, 99);
	mnl_attr_nest_end(nlh, h);
	put_stat(nlh, 1, 7);	/* etherStatsOversizePkts */
	mnl_attr_nest_end(nlh, g);
	g = grp(nlh, 9, 99);
	put_stat(nlh, 1, 4);
	mnl_attr_nest_end(nlh, g);
	assert_int_equal(np_ethtool_parse_stats(nlh, &c, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(np_counters_get(&c, "eth-phy.SymbolErrorDuringCarrier"), 5);
	assert_int_equal(np_counters_get(&c, "eth-mac.FramesTransmittedOK"), 1000);
	assert_int_equal(np_counters_get(&c, "eth-mac.FrameCheckSequenceErrors"), 17);
	assert_int_equal(np_counters_get(&c, "eth-mac.AlignmentErrors"), 2);
	assert_int_equal(np_counters_get(&c, "eth-mac.FrameTooLongErrors"), 3);
	assert_int_equal(np_counters_get(&c, "eth-mac.stat40"), 9);
	assert_int_equal(np_counters_get(&c, "rmon.etherStatsOversizePkts"), 7);
	assert_int_equal(np_counters_get(&c, "grp9.stat1"), 4);
	assert_true(np_counters_get(&c, "eth-ctrl.MACControlFramesReceived") == NP_NA);
	np_counters_free(&c);

	assert_string_equal(np_ethtool_std_stat_name(ETHTOOL_STATS_ETH_CTRL, 1),
			    "MACControlFramesReceived");
	assert_null(np_ethtool_std_stat_name(ETHTOOL_STATS_RMON, 4));
	assert_null(np_ethtool_std_group_name(4));
}

/* 1000baseT_Full, 10000baseT_Full, 100000baseCR4_Full (38); and 800000baseCR4_Full (115). */
static const uint32_t words_a[4] = { 1u << 5 | 1u << 12, 1u << 6, 0, 0 };
static const uint32_t words_s[4] = { 1u << 5 | 1u << 12, 1u << 6, 0, 1u << 19 };

static void test_linkmodes_compact(void **state)
{
	struct builder b = { .len = 0 };
	struct np_linkmodes lm = { .speed_mbps = NP_NA, .duplex = -1, .autoneg = -1 };
	struct nlmsghdr *nlh;
	struct nlattr *bs;

	(void)state;
	nlh = reply(&b, ETHTOOL_MSG_LINKMODES_GET_REPLY, ETHTOOL_A_LINKMODES_HEADER);
	mnl_attr_put_u8(nlh, ETHTOOL_A_LINKMODES_AUTONEG, 1);
	bs = mnl_attr_nest_start(nlh, ETHTOOL_A_LINKMODES_OURS);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 125);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof(words_a), words_a);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_MASK, sizeof(words_s), words_s);
	mnl_attr_nest_end(nlh, bs);
	bs = mnl_attr_nest_start(nlh, ETHTOOL_A_LINKMODES_PEER);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 125);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof(words_a), words_a);
	mnl_attr_nest_end(nlh, bs);
	mnl_attr_put_u32(nlh, ETHTOOL_A_LINKMODES_SPEED, 10000);
	mnl_attr_put_u8(nlh, ETHTOOL_A_LINKMODES_DUPLEX, 1);
	assert_int_equal(np_ethtool_parse_linkmodes(nlh, &lm), 0);
	assert_int_equal(lm.speed_mbps, 10000);
	assert_int_equal(lm.duplex, 1);
	assert_int_equal(lm.autoneg, 1);
	assert_true(lm.has_supported && lm.has_advertised && lm.has_peer);
	/* MASK is supported, VALUE advertised; u32 words fold into u64 words. */
	assert_true(lm.advertised[0] == (1ULL << 5 | 1ULL << 12 | 1ULL << 38));
	assert_true(lm.supported[0] == lm.advertised[0]);
	assert_true(lm.supported[1] == 1ULL << (115 - 64));
	assert_true(lm.peer[0] == lm.advertised[0] && lm.peer[1] == 0);
	assert_int_equal(np_linkmodes_best(lm.supported), 800000);
	assert_int_equal(np_linkmodes_best_common(lm.supported, lm.peer), 100000);
}

static void put_bit(struct nlmsghdr *nlh, uint32_t idx, const char *name, bool value)
{
	struct nlattr *bit = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS_BIT);

	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_BIT_INDEX, idx);
	mnl_attr_put_strz(nlh, ETHTOOL_A_BITSET_BIT_NAME, name);
	if (value)
		mnl_attr_put(nlh, ETHTOOL_A_BITSET_BIT_VALUE, 0, NULL);
	mnl_attr_nest_end(nlh, bit);
}

static void test_linkmodes_list(void **state)
{
	struct builder b = { .len = 0 };
	struct np_linkmodes lm = { .speed_mbps = NP_NA, .duplex = -1, .autoneg = -1 };
	struct nlmsghdr *nlh;
	struct nlattr *bs, *bits;

	(void)state;
	nlh = reply(&b, ETHTOOL_MSG_LINKMODES_GET_REPLY, ETHTOOL_A_LINKMODES_HEADER);
	bs = mnl_attr_nest_start(nlh, ETHTOOL_A_LINKMODES_OURS);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 125);
	bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
	put_bit(nlh, 5, "1000baseT/Full", true);
	put_bit(nlh, 12, "10000baseT/Full", false);
	mnl_attr_nest_end(nlh, bits);
	mnl_attr_nest_end(nlh, bs);
	bs = mnl_attr_nest_start(nlh, ETHTOOL_A_LINKMODES_PEER);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
	bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
	put_bit(nlh, 5, "1000baseT/Full", false);	/* listed without a mask = set */
	mnl_attr_nest_end(nlh, bits);
	mnl_attr_nest_end(nlh, bs);
	mnl_attr_put_u32(nlh, ETHTOOL_A_LINKMODES_SPEED, 0);	/* no carrier */
	mnl_attr_put_u8(nlh, ETHTOOL_A_LINKMODES_DUPLEX, 0xff);
	assert_int_equal(np_ethtool_parse_linkmodes(nlh, &lm), 0);
	assert_true(lm.speed_mbps == NP_NA);
	assert_int_equal(lm.duplex, -1);
	assert_true(lm.supported[0] == (1ULL << 5 | 1ULL << 12));
	assert_true(lm.advertised[0] == 1ULL << 5);
	assert_true(lm.peer[0] == 1ULL << 5);
	assert_int_equal(np_linkmodes_best_common(lm.supported, lm.peer), 1000);
}

/* Feature names exist only in the verbose form: a compact ACTIVE set cannot be read. */
static void test_features_compact(void **state)
{
	static const uint32_t active[2] = { 0xffffffff, 0xffffffff };
	struct builder b = { .len = 0 };
	struct np_features f = { -1, -1, -1, -1, -1, -1 };
	struct nlmsghdr *nlh;
	struct nlattr *bs, *bits;

	(void)state;
	nlh = reply(&b, ETHTOOL_MSG_FEATURES_GET_REPLY, ETHTOOL_A_FEATURES_HEADER);
	bs = mnl_attr_nest_start(nlh, ETHTOOL_A_FEATURES_ACTIVE);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 64);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_VALUE, sizeof(active), active);
	mnl_attr_nest_end(nlh, bs);
	assert_int_equal(np_ethtool_parse_features(nlh, &f), -ENODATA);
	assert_int_equal(f.gro, -1);

	/* Verbose: listed = on, everything else we track = off. */
	b.len = 0;
	nlh = reply(&b, ETHTOOL_MSG_FEATURES_GET_REPLY, ETHTOOL_A_FEATURES_HEADER);
	bs = mnl_attr_nest_start(nlh, ETHTOOL_A_FEATURES_ACTIVE);
	mnl_attr_put(nlh, ETHTOOL_A_BITSET_NOMASK, 0, NULL);
	mnl_attr_put_u32(nlh, ETHTOOL_A_BITSET_SIZE, 64);
	bits = mnl_attr_nest_start(nlh, ETHTOOL_A_BITSET_BITS);
	put_bit(nlh, 15, "rx-lro", false);
	put_bit(nlh, 30, "rx-ntuple-filter", false);
	put_bit(nlh, 31, "rx-hashing", false);
	mnl_attr_nest_end(nlh, bits);
	mnl_attr_nest_end(nlh, bs);
	assert_int_equal(np_ethtool_parse_features(nlh, &f), 0);
	assert_int_equal(f.lro, 1);
	assert_int_equal(f.ntuple, 1);
	assert_int_equal(f.rxhash, 1);
	assert_int_equal(f.gro, 0);
	assert_int_equal(f.rx_checksum, 0);
}

/* Cut inside the last attribute: what came before is kept, the error says partial. */
static void test_truncated_reply(void **state)
{
	struct builder b = { .len = 0 };
	struct np_rings r;
	struct nlmsghdr *nlh;
	char *cut;

	(void)state;
	r = (struct np_rings){ NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA };
	nlh = reply(&b, ETHTOOL_MSG_RINGS_GET_REPLY, ETHTOOL_A_RINGS_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX_MAX, 4096);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_RX, 512);
	nlh->nlmsg_len -= 2;	/* the kernel never does this; a damaged capture might */
	cut = malloc(nlh->nlmsg_len);
	memcpy(cut, nlh, nlh->nlmsg_len);
	assert_int_equal(np_ethtool_parse_rings((struct nlmsghdr *)cut, &r), -EBADMSG);
	assert_int_equal(r.rx_max, 4096);
	assert_true(r.rx == NP_NA);
	free(cut);

	/* A u32 that arrives as two bytes is not trusted either. */
	b.len = 0;
	nlh = reply(&b, ETHTOOL_MSG_RINGS_GET_REPLY, ETHTOOL_A_RINGS_HEADER);
	mnl_attr_put_u16(nlh, ETHTOOL_A_RINGS_TX, 512);
	mnl_attr_put_u32(nlh, ETHTOOL_A_RINGS_TX_MAX, 1024);
	assert_int_equal(np_ethtool_parse_rings(nlh, &r), -EBADMSG);
	assert_true(r.tx == NP_NA);
	assert_int_equal(r.tx_max, 1024);
}

static void test_rss_built(void **state)
{
	static const uint32_t table[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	struct builder b = { .len = 0 };
	struct nlmsghdr *nlh;
	uint32_t *indir;
	size_t n;

	(void)state;
	nlh = reply(&b, NP_ETHTOOL_MSG_RSS_GET_REPLY, NP_ETHTOOL_A_RSS_HEADER);
	mnl_attr_put_u32(nlh, NP_ETHTOOL_A_RSS_HFUNC, 1);
	mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_INDIR, sizeof(table), table);
	assert_int_equal(np_ethtool_parse_rss(nlh, &indir, &n), 0);
	assert_int_equal(n, 8);
	assert_memory_equal(indir, table, sizeof(table));
	free(indir);

	b.len = 0;
	nlh = reply(&b, NP_ETHTOOL_MSG_RSS_GET_REPLY, NP_ETHTOOL_A_RSS_HEADER);
	mnl_attr_put(nlh, NP_ETHTOOL_A_RSS_INDIR, 7, table);
	assert_int_equal(np_ethtool_parse_rss(nlh, &indir, &n), -EBADMSG);
	assert_null(indir);
	assert_int_equal(n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eth0_recorded),
		cmocka_unit_test(test_veth_lo_recorded),
		cmocka_unit_test(test_rings_channels_built),
		cmocka_unit_test(test_coalesce_built),
		cmocka_unit_test(test_pause_built),
		cmocka_unit_test(test_std_stats_built),
		cmocka_unit_test(test_linkmodes_compact),
		cmocka_unit_test(test_linkmodes_list),
		cmocka_unit_test(test_features_compact),
		cmocka_unit_test(test_truncated_reply),
		cmocka_unit_test(test_rss_built),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
