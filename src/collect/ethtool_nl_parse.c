// SPDX-License-Identifier: GPL-2.0-only
/* ethtool netlink reply parsers: pure functions from one reply message to snapshot fields. */
#include "ethtool_nl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct u32_field {
	unsigned attr;
	size_t off;
};

/* The reply command must match: a RINGS reply fed to the channels parser is not data. */
static int reply_attrs(const struct nlmsghdr *nlh, uint8_t cmd, const struct nlattr **tb,
		       unsigned maxtype)
{
	const struct genlmsghdr *gh;

	memset(tb, 0, (maxtype + 1) * sizeof(*tb));
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;
	gh = mnl_nlmsg_get_payload(nlh);
	if (gh->cmd != cmd)
		return -EINVAL;
	return np_genl_attrs(nlh, tb, maxtype);
}

/* Present u32 attributes into uint64_t fields of base; absent ones keep NP_NA. */
static int put_u32s(const struct nlattr **tb, const struct u32_field *f, size_t n, void *base)
{
	int err = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t v;

		if (!tb[f[i].attr])
			continue;
		if (np_attr_u32(tb[f[i].attr], &v) < 0) {
			err = -EBADMSG;
			continue;
		}
		*(uint64_t *)((char *)base + f[i].off) = v;
	}
	return err;
}

/* A u8 boolean-ish attribute into a tri-state int (-1 stays when absent). */
static int put_u8(const struct nlattr *a, int *out, unsigned max)
{
	uint8_t v;

	if (!a)
		return 0;
	if (np_attr_u8(a, &v) < 0)
		return -EBADMSG;
	*out = v <= max ? v : -1;
	return 0;
}

static inline int first_err(int a, int b)
{
	return a ? a : b;
}

static void set_bit64(uint64_t *w, size_t nwords, unsigned idx)
{
	if (w && idx / 64 < nwords)
		w[idx / 64] |= 1ULL << (idx % 64);
}

static int bitset_compact(const struct nlattr **tb, struct np_bitset *bs)
{
	const char *val, *mask = NULL;
	uint32_t size, vw, mw;
	size_t words;
	int err = 0;

	if (!tb[ETHTOOL_A_BITSET_SIZE] || np_attr_u32(tb[ETHTOOL_A_BITSET_SIZE], &size) < 0)
		return -EBADMSG;
	words = (size + 31) / 32;
	val = mnl_attr_get_payload(tb[ETHTOOL_A_BITSET_VALUE]);
	if (mnl_attr_get_payload_len(tb[ETHTOOL_A_BITSET_VALUE]) < words * 4) {
		err = -EBADMSG;
		words = mnl_attr_get_payload_len(tb[ETHTOOL_A_BITSET_VALUE]) / 4;
	}
	if (!bs->nomask && tb[ETHTOOL_A_BITSET_MASK]) {
		mask = mnl_attr_get_payload(tb[ETHTOOL_A_BITSET_MASK]);
		if (mnl_attr_get_payload_len(tb[ETHTOOL_A_BITSET_MASK]) < words * 4) {
			err = -EBADMSG;
			words = mnl_attr_get_payload_len(tb[ETHTOOL_A_BITSET_MASK]) / 4;
		}
	}
	for (unsigned i = 0; i < words * 32 && i < size; i++) {
		bool set, listed;

		memcpy(&vw, val + (i / 32) * 4, 4);
		set = vw & (1u << (i % 32));
		listed = set;
		if (mask) {
			memcpy(&mw, mask + (i / 32) * 4, 4);
			listed = mw & (1u << (i % 32));
			if (listed)
				set_bit64(bs->mask, bs->nwords, i);
		}
		if (set)
			set_bit64(bs->value, bs->nwords, i);
		if (listed && bs->bit)
			bs->bit(bs->arg, i, NULL, set);
	}
	return err;
}

static int bitset_list(const struct nlattr *bits, struct np_bitset *bs)
{
	const struct nlattr *a, *bt[ETHTOOL_A_BITSET_BIT_MAX + 1];
	int err = np_nest_check(bits);

	mnl_attr_for_each_nested(a, bits) {
		const char *name = NULL;
		uint32_t idx;
		bool set;

		if ((a->nla_type & NLA_TYPE_MASK) != ETHTOOL_A_BITSET_BITS_BIT)
			continue;
		if (np_nest_attrs(a, bt, ETHTOOL_A_BITSET_BIT_MAX) < 0)
			err = -EBADMSG;
		if (!bt[ETHTOOL_A_BITSET_BIT_INDEX] ||
		    np_attr_u32(bt[ETHTOOL_A_BITSET_BIT_INDEX], &idx) < 0) {
			err = -EBADMSG;
			continue;
		}
		if (bt[ETHTOOL_A_BITSET_BIT_NAME]) {
			name = np_attr_str(bt[ETHTOOL_A_BITSET_BIT_NAME]);
			if (!name)
				err = -EBADMSG;
		}
		/* Without a mask the list holds the set bits; with one, the mask's bits, each
		 * flagged VALUE when set. */
		set = bs->nomask || bt[ETHTOOL_A_BITSET_BIT_VALUE];
		if (set)
			set_bit64(bs->value, bs->nwords, idx);
		if (!bs->nomask)
			set_bit64(bs->mask, bs->nwords, idx);
		if (bs->bit)
			bs->bit(bs->arg, idx, name, set);
	}
	return err;
}

int np_ethtool_parse_bitset(const struct nlattr *nest, struct np_bitset *bs)
{
	const struct nlattr *tb[ETHTOOL_A_BITSET_MAX + 1];
	int err = np_nest_attrs(nest, tb, ETHTOOL_A_BITSET_MAX);

	if (bs->value)
		memset(bs->value, 0, bs->nwords * sizeof(uint64_t));
	if (bs->mask)
		memset(bs->mask, 0, bs->nwords * sizeof(uint64_t));
	bs->nomask = tb[ETHTOOL_A_BITSET_NOMASK] != NULL;
	bs->compact = !tb[ETHTOOL_A_BITSET_BITS] && tb[ETHTOOL_A_BITSET_VALUE];
	if (tb[ETHTOOL_A_BITSET_BITS])
		return first_err(err, bitset_list(tb[ETHTOOL_A_BITSET_BITS], bs));
	if (tb[ETHTOOL_A_BITSET_VALUE])
		return first_err(err, bitset_compact(tb, bs));
	return err;	/* an empty set: no BITS nest at all */
}

int np_ethtool_parse_linkmodes(const struct nlmsghdr *nlh, struct np_linkmodes *out)
{
	const struct nlattr *tb[ETHTOOL_A_LINKMODES_DUPLEX + 1];
	struct np_bitset bs;
	uint32_t speed;
	int err = reply_attrs(nlh, ETHTOOL_MSG_LINKMODES_GET_REPLY, tb, ETHTOOL_A_LINKMODES_DUPLEX);

	if (err == -EINVAL)
		return err;
	if (tb[ETHTOOL_A_LINKMODES_SPEED]) {
		if (np_attr_u32(tb[ETHTOOL_A_LINKMODES_SPEED], &speed) < 0)
			err = -EBADMSG;
		/* SPEED_UNKNOWN is -1; drivers without carrier also report 0. */
		else if (speed != 0 && speed != UINT32_MAX)
			out->speed_mbps = speed;
	}
	err = first_err(err, put_u8(tb[ETHTOOL_A_LINKMODES_DUPLEX], &out->duplex, 1));
	err = first_err(err, put_u8(tb[ETHTOOL_A_LINKMODES_AUTONEG], &out->autoneg, 1));
	if (tb[ETHTOOL_A_LINKMODES_OURS]) {
		/* Our modes come with a mask: the mask is what the port supports, the value
		 * what it advertises. */
		bs = (struct np_bitset){ .value = out->advertised, .mask = out->supported,
					 .nwords = NP_LINKMODE_WORDS };
		err = first_err(err, np_ethtool_parse_bitset(tb[ETHTOOL_A_LINKMODES_OURS], &bs));
		out->has_advertised = true;
		out->has_supported = !bs.nomask;
	}
	if (tb[ETHTOOL_A_LINKMODES_PEER]) {
		bs = (struct np_bitset){ .value = out->peer, .nwords = NP_LINKMODE_WORDS };
		err = first_err(err, np_ethtool_parse_bitset(tb[ETHTOOL_A_LINKMODES_PEER], &bs));
		out->has_peer = true;
	}
	return err;
}

#define F(s, a, m) { a, offsetof(struct s, m) }

int np_ethtool_parse_rings(const struct nlmsghdr *nlh, struct np_rings *out)
{
	static const struct u32_field f[] = {
		F(np_rings, ETHTOOL_A_RINGS_RX_MAX, rx_max),
		F(np_rings, ETHTOOL_A_RINGS_RX_MINI_MAX, rx_mini_max),
		F(np_rings, ETHTOOL_A_RINGS_RX_JUMBO_MAX, rx_jumbo_max),
		F(np_rings, ETHTOOL_A_RINGS_TX_MAX, tx_max),
		F(np_rings, ETHTOOL_A_RINGS_RX, rx),
		F(np_rings, ETHTOOL_A_RINGS_RX_MINI, rx_mini),
		F(np_rings, ETHTOOL_A_RINGS_RX_JUMBO, rx_jumbo),
		F(np_rings, ETHTOOL_A_RINGS_TX, tx),
		F(np_rings, ETHTOOL_A_RINGS_RX_BUF_LEN, rx_buf_len),
	};
	const struct nlattr *tb[ETHTOOL_A_RINGS_RX_BUF_LEN + 1];
	int err = reply_attrs(nlh, ETHTOOL_MSG_RINGS_GET_REPLY, tb, ETHTOOL_A_RINGS_RX_BUF_LEN);

	if (err == -EINVAL)
		return err;
	return first_err(err, put_u32s(tb, f, sizeof(f) / sizeof(f[0]), out));
}

int np_ethtool_parse_channels(const struct nlmsghdr *nlh, struct np_channels *out)
{
	static const struct u32_field f[] = {
		F(np_channels, ETHTOOL_A_CHANNELS_RX_MAX, rx_max),
		F(np_channels, ETHTOOL_A_CHANNELS_TX_MAX, tx_max),
		F(np_channels, ETHTOOL_A_CHANNELS_OTHER_MAX, other_max),
		F(np_channels, ETHTOOL_A_CHANNELS_COMBINED_MAX, combined_max),
		F(np_channels, ETHTOOL_A_CHANNELS_RX_COUNT, rx),
		F(np_channels, ETHTOOL_A_CHANNELS_TX_COUNT, tx),
		F(np_channels, ETHTOOL_A_CHANNELS_OTHER_COUNT, other),
		F(np_channels, ETHTOOL_A_CHANNELS_COMBINED_COUNT, combined),
	};
	const struct nlattr *tb[ETHTOOL_A_CHANNELS_COMBINED_COUNT + 1];
	int err = reply_attrs(nlh, ETHTOOL_MSG_CHANNELS_GET_REPLY, tb,
			      ETHTOOL_A_CHANNELS_COMBINED_COUNT);

	if (err == -EINVAL)
		return err;
	return first_err(err, put_u32s(tb, f, sizeof(f) / sizeof(f[0]), out));
}

int np_ethtool_parse_coalesce(const struct nlmsghdr *nlh, struct np_coalesce *out)
{
	static const struct u32_field f[] = {
		F(np_coalesce, ETHTOOL_A_COALESCE_RX_USECS, rx_usecs),
		F(np_coalesce, ETHTOOL_A_COALESCE_RX_MAX_FRAMES, rx_max_frames),
		F(np_coalesce, ETHTOOL_A_COALESCE_TX_USECS, tx_usecs),
		F(np_coalesce, ETHTOOL_A_COALESCE_TX_MAX_FRAMES, tx_max_frames),
	};
	const struct nlattr *tb[ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX + 1];
	int err = reply_attrs(nlh, ETHTOOL_MSG_COALESCE_GET_REPLY, tb,
			      ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX);

	if (err == -EINVAL)
		return err;
	err = first_err(err, put_u32s(tb, f, sizeof(f) / sizeof(f[0]), out));
	err = first_err(err, put_u8(tb[ETHTOOL_A_COALESCE_USE_ADAPTIVE_RX], &out->adaptive_rx, 1));
	return first_err(err, put_u8(tb[ETHTOOL_A_COALESCE_USE_ADAPTIVE_TX], &out->adaptive_tx, 1));
}

static const struct {
	const char *name;	/* netdev_features_strings[] */
	size_t off;
} feature_names[] = {
	{ "rx-gro", offsetof(struct np_features, gro) },
	{ "rx-lro", offsetof(struct np_features, lro) },
	{ "rx-gro-hw", offsetof(struct np_features, gro_hw) },
	{ "rx-checksum", offsetof(struct np_features, rx_checksum) },
	{ "rx-hashing", offsetof(struct np_features, rxhash) },
	{ "rx-ntuple-filter", offsetof(struct np_features, ntuple) },
};

static void feature_bit(void *arg, unsigned idx, const char *name, bool set)
{
	(void)idx;
	if (!name)
		return;
	for (size_t i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++)
		if (!strcmp(name, feature_names[i].name))
			*(int *)((char *)arg + feature_names[i].off) = set;
}

int np_ethtool_parse_features(const struct nlmsghdr *nlh, struct np_features *out)
{
	const struct nlattr *tb[ETHTOOL_A_FEATURES_ACTIVE + 1];
	struct np_features f = { 0, 0, 0, 0, 0, 0 };
	struct np_bitset bs = { .bit = feature_bit, .arg = &f };
	int err = reply_attrs(nlh, ETHTOOL_MSG_FEATURES_GET_REPLY, tb, ETHTOOL_A_FEATURES_ACTIVE);

	if (err == -EINVAL)
		return err;
	if (!tb[ETHTOOL_A_FEATURES_ACTIVE])
		return err ? err : -ENODATA;
	/* The active set lists what is on: a name not listed is off. */
	err = first_err(err, np_ethtool_parse_bitset(tb[ETHTOOL_A_FEATURES_ACTIVE], &bs));
	if (bs.compact)
		return -ENODATA;	/* bit numbers without names move between kernels */
	*out = f;
	return err;
}

int np_ethtool_parse_pause(const struct nlmsghdr *nlh, struct np_pause *out)
{
	const struct nlattr *tb[ETHTOOL_A_PAUSE_STATS + 1];
	const struct nlattr *st[ETHTOOL_A_PAUSE_STAT_RX_FRAMES + 1];
	int err = reply_attrs(nlh, ETHTOOL_MSG_PAUSE_GET_REPLY, tb, ETHTOOL_A_PAUSE_STATS);

	if (err == -EINVAL)
		return err;
	err = first_err(err, put_u8(tb[ETHTOOL_A_PAUSE_AUTONEG], &out->autoneg, 1));
	err = first_err(err, put_u8(tb[ETHTOOL_A_PAUSE_RX], &out->rx, 1));
	err = first_err(err, put_u8(tb[ETHTOOL_A_PAUSE_TX], &out->tx, 1));
	if (!tb[ETHTOOL_A_PAUSE_STATS])
		return err;
	/* The nest is there whenever stats were asked for; its members only when the driver
	 * counts them. */
	if (np_nest_attrs(tb[ETHTOOL_A_PAUSE_STATS], st, ETHTOOL_A_PAUSE_STAT_RX_FRAMES) < 0)
		err = first_err(err, -EBADMSG);
	if (st[ETHTOOL_A_PAUSE_STAT_TX_FRAMES] &&
	    np_attr_u64(st[ETHTOOL_A_PAUSE_STAT_TX_FRAMES], &out->tx_frames) < 0)
		err = first_err(err, -EBADMSG);
	if (st[ETHTOOL_A_PAUSE_STAT_RX_FRAMES] &&
	    np_attr_u64(st[ETHTOOL_A_PAUSE_STAT_RX_FRAMES], &out->rx_frames) < 0)
		err = first_err(err, -EBADMSG);
	return err;
}

/* net/ethtool/stats.c: stats_std_names[] and stats_{eth_phy,eth_mac,eth_ctrl,rmon}_names[]. */
static const char *const std_groups[NP_ETHTOOL_STATS_GROUPS] = {
	[ETHTOOL_STATS_ETH_PHY] = "eth-phy",
	[ETHTOOL_STATS_ETH_MAC] = "eth-mac",
	[ETHTOOL_STATS_ETH_CTRL] = "eth-ctrl",
	[ETHTOOL_STATS_RMON] = "rmon",
};
static const char *const phy_names[] = { "SymbolErrorDuringCarrier" };
static const char *const mac_names[] = {
	"FramesTransmittedOK", "SingleCollisionFrames", "MultipleCollisionFrames",
	"FramesReceivedOK", "FrameCheckSequenceErrors", "AlignmentErrors",
	"OctetsTransmittedOK", "FramesWithDeferredXmissions", "LateCollisions",
	"FramesAbortedDueToXSColls", "FramesLostDueToIntMACXmitError", "CarrierSenseErrors",
	"OctetsReceivedOK", "FramesLostDueToIntMACRcvError", "MulticastFramesXmittedOK",
	"BroadcastFramesXmittedOK", "FramesWithExcessiveDeferral", "MulticastFramesReceivedOK",
	"BroadcastFramesReceivedOK", "InRangeLengthErrors", "OutOfRangeLengthField",
	"FrameTooLongErrors",
};
static const char *const ctrl_names[] = {
	"MACControlFramesTransmitted", "MACControlFramesReceived", "UnsupportedOpcodesReceived",
};
static const char *const rmon_names[] = {
	"etherStatsUndersizePkts", "etherStatsOversizePkts", "etherStatsFragments",
	"etherStatsJabbers",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

const char *np_ethtool_std_group_name(unsigned group)
{
	return group < NP_ETHTOOL_STATS_GROUPS ? std_groups[group] : NULL;
}

const char *np_ethtool_std_stat_name(unsigned group, unsigned id)
{
	switch (group) {
	case ETHTOOL_STATS_ETH_PHY: return id < N(phy_names) ? phy_names[id] : NULL;
	case ETHTOOL_STATS_ETH_MAC: return id < N(mac_names) ? mac_names[id] : NULL;
	case ETHTOOL_STATS_ETH_CTRL: return id < N(ctrl_names) ? ctrl_names[id] : NULL;
	case ETHTOOL_STATS_RMON: return id < N(rmon_names) ? rmon_names[id] : NULL;
	}
	return NULL;
}

static int stats_grp(const struct nlattr *grp, struct np_counters *out, size_t *n)
{
	const struct nlattr *tb[ETHTOOL_A_STATS_GRP_SS_ID + 1], *a;
	char gname[16], name[NP_COUNTER_NAME_MAX];
	const char *g, *sname;
	uint32_t id;
	int err = np_nest_attrs(grp, tb, ETHTOOL_A_STATS_GRP_SS_ID);

	if (!tb[ETHTOOL_A_STATS_GRP_ID] || np_attr_u32(tb[ETHTOOL_A_STATS_GRP_ID], &id) < 0)
		return -EBADMSG;
	g = np_ethtool_std_group_name(id);
	if (!g) {
		snprintf(gname, sizeof(gname), "grp%u", id);
		g = gname;
	}
	mnl_attr_for_each_nested(a, grp) {
		const struct nlattr *v = mnl_attr_get_payload(a);
		unsigned type;
		uint64_t val;

		if ((a->nla_type & NLA_TYPE_MASK) != ETHTOOL_A_STATS_GRP_STAT)
			continue;	/* ID, SS_ID, PAD, and the rmon histograms we skip */
		/* One u64 whose attribute type is the statistic's index, from 0. */
		if (mnl_attr_get_payload_len(a) < sizeof(*v) ||
		    v->nla_len > mnl_attr_get_payload_len(a) || np_attr_u64(v, &val) < 0) {
			err = -EBADMSG;
			continue;
		}
		type = v->nla_type & NLA_TYPE_MASK;
		sname = np_ethtool_std_stat_name(id, type);
		if (sname)
			snprintf(name, sizeof(name), "%s.%s", g, sname);
		else
			snprintf(name, sizeof(name), "%s.stat%u", g, type);
		if (np_counters_set(out, name, val) < 0)
			return -ENOMEM;
		(*n)++;
	}
	return first_err(err, np_nest_check(grp));
}

int np_ethtool_parse_stats(const struct nlmsghdr *nlh, struct np_counters *out, size_t *n)
{
	const struct nlattr *tb[1], *a;
	int err = reply_attrs(nlh, ETHTOOL_MSG_STATS_GET_REPLY, tb, 0);
	const char *end = (const char *)nlh + nlh->nlmsg_len;

	*n = 0;
	if (err == -EINVAL || nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return err;
	/* Not mnl_attr_for_each(): it ends the message at NLMSG_ALIGN(nlmsg_len), up to 3 bytes
	 * past what arrived when a damaged last message has an unaligned length (fuzzing). */
	for (a = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
	     mnl_attr_ok(a, (int)(end - (const char *)a)); a = mnl_attr_next(a)) {
		int e;

		if ((a->nla_type & NLA_TYPE_MASK) != ETHTOOL_A_STATS_GRP)
			continue;
		e = stats_grp(a, out, n);
		if (e == -ENOMEM)
			return e;
		err = first_err(err, e);
	}
	return err;
}

int np_ethtool_parse_rss(const struct nlmsghdr *nlh, uint32_t **indir, size_t *n)
{
	const struct nlattr *tb[NP_ETHTOOL_A_RSS_INDIR + 1];
	int err = reply_attrs(nlh, NP_ETHTOOL_MSG_RSS_GET_REPLY, tb, NP_ETHTOOL_A_RSS_INDIR);
	size_t len;

	*indir = NULL;
	*n = 0;
	if (err == -EINVAL || !tb[NP_ETHTOOL_A_RSS_INDIR])
		return err;
	len = mnl_attr_get_payload_len(tb[NP_ETHTOOL_A_RSS_INDIR]);
	if (len % sizeof(uint32_t))
		return -EBADMSG;
	if (!len)
		return err;
	*indir = malloc(len);
	if (!*indir)
		return -ENOMEM;
	memcpy(*indir, mnl_attr_get_payload(tb[NP_ETHTOOL_A_RSS_INDIR]), len);
	*n = len / sizeof(uint32_t);
	return err;
}
