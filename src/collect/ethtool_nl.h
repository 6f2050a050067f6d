/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ethtool generic netlink: pure reply parsers (ethtool_nl_parse.c) and the collector over a
 * given transport (ethtool_nl.c), so unit tests can replay recorded kernel replies.
 */
#ifndef NP_ETHTOOL_NL_H
#define NP_ETHTOOL_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/ethtool_netlink.h>

#include "genl.h"
#include "snapshot.h"

/* uapi values newer than the build host's 6.1 headers (include/uapi/linux/ethtool_netlink.h;
 * the enums are append-only, so these numbers hold on every kernel that has them). */
#define NP_ETHTOOL_MSG_RSS_GET		38	/* 6.2 */
#define NP_ETHTOOL_MSG_RSS_GET_REPLY	38
#define NP_ETHTOOL_A_RSS_HEADER		1
#define NP_ETHTOOL_A_RSS_CONTEXT	2
#define NP_ETHTOOL_A_RSS_HFUNC		3
#define NP_ETHTOOL_A_RSS_INDIR		4	/* binary: u32 array */

/* The standard statistics groups we ask for: eth-phy, eth-mac, eth-ctrl, rmon. */
#define NP_ETHTOOL_STATS_GROUPS 4

/*
 * A bitset nest, compact (SIZE + VALUE [+ MASK] arrays) or not (BITS of BIT nests with INDEX,
 * NAME and a VALUE flag). value/mask, when not NULL, receive nwords 64-bit words (bits past them
 * are dropped); bit, when set, is called for each listed bit (compact: each bit of the mask, or
 * of the value when there is no mask) with its name (NULL in compact form) and whether it is set.
 */
struct np_bitset {
	uint64_t *value, *mask;
	size_t nwords;
	void (*bit)(void *arg, unsigned idx, const char *name, bool set);
	void *arg;
	bool nomask;		/* out: the set carries no mask (a plain list of set bits) */
	bool compact;		/* out: compact form, so no names */
};
int np_ethtool_parse_bitset(const struct nlattr *nest, struct np_bitset *bs);

/*
 * Reply parsers: one genl message in, fields of the snapshot out. Attributes the kernel did not
 * send stay NP_NA / -1. Return 0; -EINVAL when the message is not that command's reply;
 * -EBADMSG when it is truncated or an attribute has the wrong size (what parsed is kept);
 * -ENODATA (features) when the names needed are missing; -ENOMEM.
 */
int np_ethtool_parse_linkmodes(const struct nlmsghdr *nlh, struct np_linkmodes *out);
int np_ethtool_parse_rings(const struct nlmsghdr *nlh, struct np_rings *out);
int np_ethtool_parse_channels(const struct nlmsghdr *nlh, struct np_channels *out);
int np_ethtool_parse_coalesce(const struct nlmsghdr *nlh, struct np_coalesce *out);
int np_ethtool_parse_features(const struct nlmsghdr *nlh, struct np_features *out);
int np_ethtool_parse_pause(const struct nlmsghdr *nlh, struct np_pause *out);
/* Adds "<group>.<stat>" counters ("eth-mac.FrameCheckSequenceErrors"); *n counts them. */
int np_ethtool_parse_stats(const struct nlmsghdr *nlh, struct np_counters *out, size_t *n);
/* *indir is malloc'd (NULL, *n = 0 when the reply has no table). */
int np_ethtool_parse_rss(const struct nlmsghdr *nlh, uint32_t **indir, size_t *n);

/* The kernel's name of a standard statistic (stats_*_names[] in net/ethtool/stats.c):
 * group ETHTOOL_STATS_* and stat index; NULL when unknown to this table. */
const char *np_ethtool_std_group_name(unsigned group);
const char *np_ethtool_std_stat_name(unsigned group, unsigned id);

/* The collector over an open transport (np_collect_ethtool_nl opens a real socket). */
void np_ethtool_nl_collect(struct np_nl *g, struct np_snapshot *s);

#endif
