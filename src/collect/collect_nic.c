// SPDX-License-Identifier: GPL-2.0-only
/* The NIC-side collectors in order: who the driver is, what netlink says, ioctl fallbacks. */
#include "collect.h"
#include "sos.h"

#include <stdio.h>

static const enum np_source nic_sources[] = {
	NP_SRC_ETHTOOL_DRVINFO, NP_SRC_ETHTOOL_LINKMODES, NP_SRC_ETHTOOL_RINGS,
	NP_SRC_ETHTOOL_CHANNELS, NP_SRC_ETHTOOL_COALESCE, NP_SRC_ETHTOOL_FEATURES,
	NP_SRC_ETHTOOL_PAUSE, NP_SRC_ETHTOOL_STATS, NP_SRC_ETHTOOL_RSS, NP_SRC_DRIVER_STATS,
	NP_SRC_QSTATS, NP_SRC_RTNL_LINK, NP_SRC_RTNL_QDISC,
};

void np_collect_nic(const struct np_ctx *ctx, struct np_snapshot *s)
{
	/* A sosreport: the same answers, from the ethtool/ip/tc outputs it kept (sos_nic.c). */
	if (np_ctx_is_sos(ctx)) {
		np_collect_sos_nic(ctx, s);
		return;
	}

	if (!ctx->live && !ctx->tape) {
		/* A captured tree has no kernel to ask. */
		for (size_t i = 0; i < sizeof(nic_sources) / sizeof(nic_sources[0]); i++) {
			np_srcp(s, nic_sources[i])->status = NP_SRC_SKIPPED;
			snprintf(np_srcp(s, nic_sources[i])->detail, sizeof(np_srcp(s, 0)->detail),
				 "needs netlink/ioctl on a live system (--root)");
		}
		return;
	}
	np_collect_ethtool_drvinfo(ctx, s);
	np_collect_ethtool_nl(ctx, s);
	np_collect_ethtool_fallbacks(ctx, s);	/* rings/channels/coalescing on pre-5.7 kernels */
	np_collect_driver_stats(ctx, s);
	np_collect_rtnl(ctx, s);
	np_collect_qstats(ctx, s);
}
