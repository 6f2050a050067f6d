// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz every ethtool netlink reply parser (link modes, rings, channels, coalescing, features,
 * pause, standard statistics, RSS) behind the reply walker that frames them in the collector.
 * Every message goes to every parser: each must refuse the others' replies on its own.
 */
#include "fuzz.h"
#include "ethtool_nl.h"
#include "nic.h"

static int all_cb(const struct nlmsghdr *nlh, void *data)
{
	struct np_ethtool *e = data;
	uint32_t *indir = NULL;
	size_t n = 0, before = e->std_stats.n;
	int err;

	np_ethtool_parse_linkmodes(nlh, &e->link);
	np_ethtool_parse_rings(nlh, &e->rings);
	np_ethtool_parse_channels(nlh, &e->channels);
	np_ethtool_parse_coalesce(nlh, &e->coalesce);
	err = np_ethtool_parse_features(nlh, &e->features);
	FUZZ_CHECK(err <= 0);
	np_ethtool_parse_pause(nlh, &e->pause);
	err = np_ethtool_parse_stats(nlh, &e->std_stats, &n);
	FUZZ_CHECK(err <= 0);
	/* n counts the statistics in the reply (a repeated one replaces its value): every new
	 * entry was counted, and none appears without one. */
	FUZZ_CHECK(e->std_stats.n - before <= n);
	n = 0;
	err = np_ethtool_parse_rss(nlh, &indir, &n);
	FUZZ_CHECK(err <= 0);
	FUZZ_CHECK((indir == NULL) == (n == 0) || err < 0);
	for (size_t i = 0; i < n && indir; i++)
		(void)indir[i];
	free(indir);
	FUZZ_CHECK(e->link.duplex >= -1 && e->link.duplex <= 1);
	FUZZ_CHECK(e->link.autoneg >= -1 && e->link.autoneg <= 1);
	return MNL_CB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	char errmsg[NP_NL_ERRMSG];
	struct np_ethtool e;
	uint32_t seq = 0;

	if (size >= sizeof(struct nlmsghdr))
		seq = ((const struct nlmsghdr *)(const void *)buf)->nlmsg_seq;
	np_ethtool_init(&e);
	FUZZ_CHECK(np_nl_run(buf, size, seq, all_cb, &e, errmsg, sizeof(errmsg)) <= 1);
	for (size_t i = 0; i < e.std_stats.n; i++)
		FUZZ_CHECK(strnlen(e.std_stats.e[i].name, NP_COUNTER_NAME_MAX) <
			   NP_COUNTER_NAME_MAX);
	for (unsigned g = 0; g < 8; g++)
		for (unsigned id = 0; id < 40; id++)
			if (np_ethtool_std_group_name(g))
				np_ethtool_std_stat_name(g, id);
	np_ethtool_free(&e);
	free(buf);
	return 0;
}
