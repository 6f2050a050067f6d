// SPDX-License-Identifier: GPL-2.0-only
/* The plan's NIC settings, made persistent: systemd-networkd .link keys (and the udev rule's
 * ethtool commands) for MTU, RX ring, channels and coalescing; IRQ placement as advice. */
#include "plan_priv.h"
#include "raise.h"

#include <stdio.h>
#include <string.h>

#include "check_util.h"

static struct np_plan_line *link_line(struct np_plan *p, enum np_stage st, const char *key,
				      unsigned long long cur, unsigned long long want)
{
	struct np_plan_line *l = np_plan_add(p, NP_PLAN_LINK, st, key);

	if (!l)
		return NULL;
	if (np_has(cur))
		snprintf(l->current, sizeof(l->current), "%llu", cur);
	snprintf(l->planned, sizeof(l->planned), "%llu", want);
	return l;
}

static void mtu(struct np_plan *p, const struct np_snapshot *s, const struct np_report *rep)
{
	struct np_plan_line *l;

	if (!np_plan_flagged(rep, "link.mtu-jumbo", NP_SEV_INFO))
		return;
	if (p->profile != NP_PROFILE_LAN) {
		l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_LINK, "MTUBytes");
		if (l) {
			snprintf(l->current, sizeof(l->current), "%llu",
				 (unsigned long long)s->dev.mtu);
			PLAN_CAT(l->why, "Kept: MTU %llu. A %s path crosses hops that carry 1500 "
				 "bytes; jumbo frames help only when every hop does.",
				 (unsigned long long)s->dev.mtu, np_profile_name(p->profile));
		}
		return;
	}
	l = link_line(p, NP_STAGE_LINK, "MTUBytes", s->dev.mtu, 9000);
	if (!l)
		return;
	snprintf(l->command, sizeof(l->command), "/usr/sbin/ip link set dev $name mtu 9000");
	np_plan_checks(l, "link.mtu-jumbo", NULL, NULL);
	PLAN_CAT(l->why, "Jumbo frames cut per-packet work (interrupts, GRO, routing) about "
		 "six-fold at %llu Mbit/s.", (unsigned long long)s->dev.speed_mbps);
	PLAN_CAT(l->moot, "Traffic that leaves the LAN, which stays at 1500 anyway. Install it "
		 "only once every hop on the LAN (switch ports, routers, the peers) carries 9000: "
		 "one 1500 hop black-holes large frames.");
	PLAN_CAT(l->cost, "A link reset on many drivers; bigger buffers per packet; change both "
		 "ends together.");
}

static void ring(struct np_plan *p, const struct np_snapshot *s, const struct np_report *rep)
{
	const struct np_rings *rg = &s->eth.rings;
	bool crit = np_plan_flagged(rep, "nic.missed", NP_SEV_CRITICAL) ||
		    np_plan_flagged(rep, "nic.ring-size", NP_SEV_CRITICAL);
	bool loss = np_plan_flagged(rep, "nic.missed", NP_SEV_WARNING) ||
		    np_plan_flagged(rep, "nic.ring-size", NP_SEV_WARNING);
	bool known = np_src_ok(s, NP_SRC_ETHTOOL_RINGS) && np_has(rg->rx) && np_has(rg->rx_max);
	struct np_plan_line *l;
	uint64_t want;

	if (!known) {
		if (!loss)
			return;
		l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_NIC, "RxBufferSize");
		if (l)
			PLAN_CAT(l->why, "The NIC drops for lack of RX buffers, but this data has no "
				 "ring sizes (a tree holds no ethtool answers): run plan on the host, "
				 "or read `ethtool -g %s`, and plan RxBufferSize= up to the maximum.",
				 s->dev.name);
		return;
	}
	if (rg->rx >= rg->rx_max)
		return;
	if (p->profile == NP_PROFILE_LOW_LATENCY || (!loss && p->profile != NP_PROFILE_BUSY_SERVER))
		return;
	want = np_size_rx_ring(rg->rx, rg->rx_max, crit);
	if (np_raise_cmp(true, (int64_t)rg->rx, (int64_t)want) != NP_RAISE_UP)
		return;
	l = link_line(p, NP_STAGE_NIC, "RxBufferSize", rg->rx, want);
	if (!l)
		return;
	snprintf(l->command, sizeof(l->command), "/usr/sbin/ethtool -G $name rx %llu",
		 (unsigned long long)want);
	np_plan_checks(l, "nic.ring-size", "nic.missed", NULL);
	PLAN_CAT(l->why, "%s: %llu of %llu descriptors; a bigger ring absorbs bursts and gaps in "
		 "NAPI polling.", loss ? "The NIC ran out of RX buffers" : "Headroom for bursts "
		 "on a busy server", (unsigned long long)rg->rx, (unsigned long long)rg->rx_max);
	PLAN_CAT(l->moot, "A saturated CPU: the ring only delays the same drops.");
	PLAN_CAT(l->cost, "Ring memory on every queue, more cache misses, and packets wait longer "
		 "in a full ring; ethtool -G resets the queues on many drivers.");
}

static void channels(struct np_plan *p, const struct np_snapshot *s, const struct np_report *rep)
{
	const struct np_channels *ch = &s->eth.channels;
	unsigned ncpu = np_ncpu_online(s);
	bool starved = np_plan_flagged(rep, "irq.rss-channels", NP_SEV_INFO) ||
		       np_plan_flagged(rep, "irq.affinity", NP_SEV_WARNING) ||
		       np_plan_flagged(rep, "softnet.backlog-drops", NP_SEV_WARNING);
	bool known = np_src_ok(s, NP_SRC_ETHTOOL_CHANNELS) &&
		     (np_has(ch->combined) || np_has(ch->rx));
	uint64_t inuse, hwmax, want;
	bool combined;
	struct np_plan_line *l;

	if (ncpu < 4 || np_dev_is_virtual(s))
		return;
	if (known) {
		inuse = (np_has(ch->combined) ? ch->combined : 0) + (np_has(ch->rx) ? ch->rx : 0);
		hwmax = np_has(ch->combined_max) && (!np_has(ch->rx_max) ||
						     ch->combined_max > ch->rx_max) ?
			ch->combined_max : np_has(ch->rx_max) ? ch->rx_max : 0;
		combined = (np_has(ch->combined) && ch->combined > 0) ||
			   (np_has(ch->combined_max) && ch->combined_max > 0 &&
			    !(np_has(ch->rx) && ch->rx));
	} else {
		/* A tree: the kernel's RX queues in sysfs; the hardware maximum is unknown. */
		if (!s->dev.n_rxq || !starved)
			return;
		inuse = s->dev.n_rxq;
		hwmax = ncpu;
		combined = true;
	}
	want = np_size_rx_channels(s, hwmax, ncpu);
	if (hwmax <= 1 || np_raise_cmp(true, (int64_t)inuse, (int64_t)want) != NP_RAISE_UP)
		return;
	if (!starved && p->profile != NP_PROFILE_BUSY_SERVER)
		return;
	l = link_line(p, NP_STAGE_IRQ, combined ? "CombinedChannels" : "RxChannels", inuse, want);
	if (!l)
		return;
	snprintf(l->command, sizeof(l->command), "/usr/sbin/ethtool -L $name %s %llu",
		 combined ? "combined" : "rx", (unsigned long long)want);
	np_plan_checks(l, "irq.rss-channels", "irq.affinity", "softnet.backlog-drops");
	PLAN_CAT(l->why, "RSS spreads flows over %llu queues, one CPU each, on a host with %u "
		 "CPUs, %u of them on the NIC's NUMA node: one queue per NUMA-local CPU.",
		 (unsigned long long)inuse, ncpu, np_size_local_cpus(s, ncpu));
	if (!known)
		PLAN_CAT(l->why, " The hardware maximum is not in this data (ethtool -l): the "
			 "setting fails above it, so check it first.");
	PLAN_CAT(l->moot, "CPUs kept for the application on purpose.");
	PLAN_CAT(l->cost, "Many drivers reset the link or rebuild the rings (a second or more "
		 "without traffic); each queue adds an IRQ, a NAPI instance and ring memory.");
	/* The new queues' IRQs need CPUs of their own. */
	l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_IRQ, "IRQ affinity");
	if (!l)
		return;
	PLAN_CAT(l->why, "Each new queue brings its IRQ: ");
	if (s->hs->host.irqbalance == 1)
		PLAN_CAT(l->why, "irqbalance runs here and spreads them; pinning by hand "
			 "(/proc/irq/N/smp_affinity_list, one CPU per queue) needs those IRQs banned "
			 "from irqbalance (IRQBALANCE_BANNED_CPULIST, --banirq) or it moves them "
			 "back.");
	else
		PLAN_CAT(l->why, "%s; pin one CPU per queue at boot (/proc/irq/N/"
			 "smp_affinity_list from a unit after the device is up), and redo it "
			 "after every channel change.", s->hs->host.irqbalance == 0 ?
			 "irqbalance does not run here" : "whether irqbalance runs is unknown");
	np_plan_checks(l, "irq.affinity", NULL, NULL);
}

static void coalescing(struct np_plan *p, const struct np_snapshot *s,
		       const struct np_report *rep)
{
	const struct np_coalesce *c = &s->eth.coalesce;
	struct np_plan_line *l;

	if (!np_src_ok(s, NP_SRC_ETHTOOL_COALESCE))
		return;
	if (p->profile == NP_PROFILE_LOW_LATENCY) {
		if (c->adaptive_rx != 1 && (!np_has(c->rx_usecs) || c->rx_usecs <= 8))
			return;
		if (c->adaptive_rx == 1 && (l = np_plan_add(p, NP_PLAN_LINK, NP_STAGE_IRQ,
							    "UseAdaptiveRxCoalesce"))) {
			snprintf(l->current, sizeof(l->current), "yes");
			snprintf(l->planned, sizeof(l->planned), "no");
			snprintf(l->command, sizeof(l->command),
				 "/usr/sbin/ethtool -C $name adaptive-rx off");
			PLAN_CAT(l->why, "Adaptive coalescing stretches the interrupt delay under "
				 "load: latency before throughput means fixed, short delays.");
			PLAN_CAT(l->cost, "More interrupts per second under load (CPU).");
		}
		if (np_has(c->rx_usecs) && c->rx_usecs > 8 &&
		    (l = np_plan_add(p, NP_PLAN_LINK, NP_STAGE_IRQ, "RxCoalesceSec"))) {
			snprintf(l->current, sizeof(l->current), "%lluus",
				 (unsigned long long)c->rx_usecs);
			snprintf(l->planned, sizeof(l->planned), "8us");
			snprintf(l->command, sizeof(l->command),
				 "/usr/sbin/ethtool -C $name rx-usecs 8");
			PLAN_CAT(l->why, "The NIC waits up to %llu us before it interrupts: every "
				 "packet of a quiet flow pays it.", (unsigned long long)c->rx_usecs);
			PLAN_CAT(l->moot, "Throughput-bound hosts, where batching saves CPU.");
			PLAN_CAT(l->cost, "More interrupts per second (CPU) at high packet rates.");
		}
		return;
	}
	if (!np_plan_flagged(rep, "irq.coalescing", NP_SEV_INFO) || c->adaptive_rx != 0)
		return;
	l = np_plan_add(p, NP_PLAN_LINK, NP_STAGE_IRQ, "UseAdaptiveRxCoalesce");
	if (!l)
		return;
	snprintf(l->current, sizeof(l->current), "no");
	snprintf(l->planned, sizeof(l->planned), "yes");
	snprintf(l->command, sizeof(l->command), "/usr/sbin/ethtool -C $name adaptive-rx on");
	np_plan_checks(l, "irq.coalescing", NULL, NULL);
	PLAN_CAT(l->why, "Fixed, extreme interrupt delays (rx-usecs %llu, rx-frames %llu): "
		 "adaptive coalescing follows the load.",
		 (unsigned long long)(np_has(c->rx_usecs) ? c->rx_usecs : 0),
		 (unsigned long long)(np_has(c->rx_max_frames) ? c->rx_max_frames : 0));
	PLAN_CAT(l->moot, "Drivers without adaptive coalescing reject it; then pick rx-usecs "
		 "by hand (RxCoalesceSec=).");
	PLAN_CAT(l->cost, "Latency and interrupt rate now follow the traffic rather than a fixed "
		 "trade.");
}

void np_plan_nic_lines(struct np_plan *p, const struct np_analysis *a,
		       const struct np_report *rep)
{
	const struct np_snapshot *s = a->cur;

	mtu(p, s, rep);
	ring(p, s, rep);
	channels(p, s, rep);
	coalescing(p, s, rep);
}
