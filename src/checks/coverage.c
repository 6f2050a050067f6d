// SPDX-License-Identifier: GPL-2.0-only
/*
 * Coverage: which stages a run judged. Two views meet here: the checks' outcomes (ran, skipped
 * for want of evidence, not applicable) and, per stage, the evidence a verdict needs at all.
 * A check that "passes" because a counter it reads is missing must not make a stage look
 * judged, so a stage without its evidence is not judged however its checks ended.
 */
#include "coverage.h"
#include "check_util.h"
#include "strjoin.h"

#include <stdio.h>
#include <string.h>

/* The sources a stage's verdict stands on: any one of them read is evidence. */
static const enum np_source stage_sources[NP_STAGE__COUNT][6] = {
	[NP_STAGE_LINK] = { NP_SRC_NETDEV, NP_SRC_RTNL_LINK },
	[NP_STAGE_PCIE] = { NP_SRC_PCIE_LINK, NP_SRC_PCIE_CONFIG },
	[NP_STAGE_NIC] = { NP_SRC_NETDEV, NP_SRC_RTNL_LINK, NP_SRC_ETHTOOL_RINGS,
			   NP_SRC_DRIVER_STATS, NP_SRC_ETHTOOL_STATS, NP_SRC_QSTATS },
	[NP_STAGE_IRQ] = { NP_SRC_INTERRUPTS, NP_SRC_ETHTOOL_CHANNELS },
	[NP_STAGE_SOFTNET] = { NP_SRC_SOFTNET },
	[NP_STAGE_INGRESS] = { NP_SRC_SNMP, NP_SRC_CONNTRACK, NP_SRC_RTNL_LINK },
	[NP_STAGE_IP] = { NP_SRC_SNMP },
	[NP_STAGE_TRANSPORT] = { NP_SRC_SNMP },
	[NP_STAGE_SOCKET] = { NP_SRC_SNMP, NP_SRC_SOCKSTAT },
	[NP_STAGE_CONGESTION] = { NP_SRC_SYSCTL, NP_SRC_RTNL_QDISC },
};

static const char *const source_file[NP_SRC__COUNT] = {
	[NP_SRC_NETDEV] = "/sys/class/net/IF",
	[NP_SRC_PCIE_LINK] = "PCIe link attributes",
	[NP_SRC_INTERRUPTS] = "/proc/interrupts",
	[NP_SRC_SOFTNET] = "/proc/net/softnet_stat",
	[NP_SRC_SNMP] = "/proc/net/snmp",
	[NP_SRC_SYSCTL] = "/proc/sys/net",
};

/* Is the stage's evidence there? If not, why (from its first source). */
static bool stage_evidence(const struct np_snapshot *s, enum np_stage st, char *why, size_t size)
{
	const enum np_source *src = stage_sources[st];
	char tmp[160];

	for (size_t k = 0; k < 6 && (k == 0 || src[k]); k++) {
		if (!np_src_ok(s, src[k]))
			continue;
		/* /proc/interrupts read, but none of its rows is the device's. */
		if (src[k] == NP_SRC_INTERRUPTS && !s->irqs.n)
			continue;
		return true;
	}
	if (st == NP_STAGE_IRQ && np_src_ok(s, NP_SRC_INTERRUPTS))
		np_strjoin(why, size, "no IRQ of ", s->dev.name, " found");
	else
		np_strjoin(why, size, source_file[src[0]] ? source_file[src[0]] :
			   np_source_name(src[0]), " ", np_src_why(s, src[0], tmp, sizeof(tmp)));
	return false;
}

void np_coverage_build(const struct np_analysis *a, const struct np_report *r,
		       struct np_coverage *c)
{
	unsigned flagged[NP_STAGE__COUNT] = { 0 };

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < r->nres; i++) {
		const struct np_check_result *res = &r->res[i];
		struct np_stage_cov *sc;

		if (!res->check || res->check->stage >= NP_STAGE__COUNT)
			continue;
		sc = &c->st[res->check->stage];
		switch (res->state) {
		case NP_CHECK_PASSED:
			sc->ran++;
			break;
		case NP_CHECK_FLAGGED:
			sc->ran++;
			flagged[res->check->stage]++;
			break;
		case NP_CHECK_SKIPPED:
			if (res->not_applicable) {
				sc->na++;
				break;
			}
			if (!sc->missing++)
				np_strjoin(sc->reason, sizeof(sc->reason), res->check->id, ": ",
					   res->skip_reason);
			break;
		case NP_CHECK_NOT_RUN:
			sc->na++;
			break;
		}
	}
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		struct np_stage_cov *sc = &c->st[st];
		char why[200];
		bool evidence = stage_evidence(a->cur, (enum np_stage)st, why, sizeof(why));

		if (sc->ran && !evidence && !flagged[st] && !sc->missing) {
			/* Passed on nothing: the checks found no counter to judge. */
			sc->status = NP_COV_NOT_JUDGED;
			np_strjoin(sc->reason, sizeof(sc->reason), why);
		} else if (sc->ran && !evidence && !flagged[st]) {
			sc->status = NP_COV_NOT_JUDGED;
		} else if (sc->ran) {
			sc->status = sc->missing ? NP_COV_PARTIAL : NP_COV_JUDGED;
		} else if (sc->missing) {
			sc->status = NP_COV_NOT_JUDGED;
		} else {
			sc->status = NP_COV_NOT_APPLICABLE;
		}
		c->judged += sc->status == NP_COV_JUDGED || sc->status == NP_COV_PARTIAL;
		c->applicable += sc->status != NP_COV_NOT_APPLICABLE;
	}
}

bool np_coverage_unknown(const struct np_coverage *c)
{
	return c->judged == 0;
}

const char *np_cov_status_name(enum np_cov_status st)
{
	switch (st) {
	case NP_COV_JUDGED:
		return "judged";
	case NP_COV_PARTIAL:
		return "partial";
	case NP_COV_NOT_JUDGED:
		return "not_judged";
	case NP_COV_NOT_APPLICABLE:
		return "not_applicable";
	}
	return "?";
}
