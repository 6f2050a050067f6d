// SPDX-License-Identifier: GPL-2.0-only
/* Stage "irq", NIC side: RSS channels and the indirection table (ethtool -l, -x). */
#include "nic_view.h"
#include "sizing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t or0(uint64_t v)
{
	return np_has(v) ? v : 0;
}

/* NUMA-local online CPUs of the NIC (all online CPUs when unknown). */
/* ---- irq.rss-channels ---- */

/*
 * Without ethtool's channel counts (a capture, a driver without get_channels), the kernel's
 * receive queues in sysfs (queues/rx-*: real_num_rx_queues) still show how many queues RSS
 * spreads over; the hardware maximum stays unknown, so this is info at most.
 */
static bool rss_from_sysfs(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	unsigned ncpu = np_ncpu_online(s), nlocal = np_size_local_cpus(s, ncpu);
	size_t nq = s->dev.n_rxq;
	struct np_finding *f;

	if (np_src_ok(s, NP_SRC_ETHTOOL_CHANNELS) || !np_src_ok(s, NP_SRC_NETDEV) ||
	    np_dev_is_virtual(s) || !nq)
		return false;
	/* Far below: a quarter of the NIC's CPUs or fewer, on a box with 4 CPUs or more. */
	if (ncpu < 4 || nq * 4 > nlocal)
		return true;
	f = np_emit(r, NP_SEV_INFO, "%s has %zu receive queue%s (queues/rx-*) for %u CPUs", ifn,
		    nq, nq == 1 ? "" : "s", nlocal);
	if (!f)
		return true;
	np_ev_value(f, "rx_queues", "queues", (double)nq);
	np_ev_value(f, "cpus_online", "cpus", (double)ncpu);
	if (nlocal != ncpu)
		np_ev_value(f, "numa_local_cpus", "cpus", (double)nlocal);
	np_detail(f, "RSS spreads flows over the receive queues and each queue is served by one "
		     "CPU, so at most %zu CPU%s share the receive work. The hardware maximum is not "
		     "known without ethtool's channel counts (%s).", nq, nq == 1 ? "" : "s",
		  s->captured ? "not in this capture" : "the driver did not report them");
	np_remedy(f, "ethtool -l %s   # the hardware maximum of combined/rx channels", ifn);
	np_remedy(f, "ethtool -L %s combined N   # N = min(hardware max, CPUs of the NIC's NUMA "
		     "node)", ifn);
	np_remedy(f, "Cost: many drivers reset the link or rebuild all rings (a second or more "
		     "without traffic); each queue adds an IRQ, a NAPI instance and ring memory.");
	return true;
}

static void run_rss_channels(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_channels *ch = &s->eth.channels;
	const char *ifn = s->dev.name;
	struct np_counter_view sdrop, squeeze, ring;
	struct np_nv_ring rg;
	struct np_finding *f;
	uint64_t inuse, hwmax, target;
	unsigned ncpu, nlocal;
	bool combined, busy;

	if (rss_from_sysfs(a, r))
		return;
	if (!np_nv_src_usable(s, NP_SRC_ETHTOOL_CHANNELS, "channels", r))
		return;
	if (!np_has(ch->combined) && !np_has(ch->rx)) {
		np_skip(r, "driver does not report its channel counts");
		return;
	}
	/* Drivers use either combined (RX+TX) channels or separate RX ones; both receive. */
	inuse = or0(ch->combined) + or0(ch->rx);
	hwmax = or0(ch->combined_max) > or0(ch->rx_max) ? or0(ch->combined_max) : or0(ch->rx_max);
	combined = or0(ch->combined) > 0 || (or0(ch->combined_max) > 0 && !or0(ch->rx));
	ncpu = np_ncpu_online(s);
	nlocal = np_size_local_cpus(s, ncpu);
	target = np_size_rx_channels(s, hwmax, ncpu);
	/* Small boxes, fixed single-queue devices and full use: nothing to add. */
	if (ncpu < 4 || hwmax <= 1 || inuse >= target)
		return;
	sdrop = np_nv_softnet(a, false);
	squeeze = np_nv_softnet(a, true);
	np_nv_ring_empty(a, &rg);
	ring = rg.all;
	busy = (sdrop.sampled && sdrop.delta) || (ring.sampled && ring.delta) ||
	       (squeeze.sampled && squeeze.rate >= np_thr_warn(r));
	f = np_emit(r, busy ? NP_SEV_WARNING : NP_SEV_INFO,
		    "%s receives on %llu of %llu hardware queues with %u CPUs online%s", ifn,
		    (unsigned long long)inuse, (unsigned long long)hwmax, ncpu,
		    busy ? ", and packets are dropped or squeezed meanwhile" : "");
	if (!f)
		return;
	f->rank = sdrop.rate + ring.rate;
	np_ev_value(f, "rx_channels_in_use", "queues", (double)inuse);
	np_ev_value(f, "rx_channels_max", "queues", (double)hwmax);
	np_ev_value(f, "cpus_online", "cpus", (double)ncpu);
	if (nlocal != ncpu)
		np_ev_value(f, "numa_local_cpus", "cpus", (double)nlocal);
	if (ring.present)
		np_ev_counter(f, "ring_drops", "packets", &ring);
	if (sdrop.present)
		np_ev_counter(f, "softnet_dropped", "packets", &sdrop);
	if (squeeze.present)
		np_ev_counter(f, "time_squeeze", "events", &squeeze);
	np_detail(f, "RSS spreads flows over the receive queues and each queue is served by one "
		     "CPU; with %llu queues at most %llu CPUs share the receive work while the NIC "
		     "supports %llu.", (unsigned long long)inuse, (unsigned long long)inuse,
		  (unsigned long long)hwmax);
	if (busy)
		np_detail(f, "Drops or squeezes moved during the sample: the queues in use do not "
			     "keep up (softnet counters are host-wide; nic.missed and "
			     "softnet.time-squeeze have the details).");
	else
		np_detail(f, "Nothing was dropped or squeezed%s, so this is capacity headroom, not "
			     "a fault; a low count is sometimes deliberate (CPUs reserved for the "
			     "application).", a->prev ? " during the sample" : " (not sampled)");
	np_remedy(f, "ethtool -L %s %s %llu   # min(hardware max, CPUs of the NIC's NUMA node)",
		  ifn, combined ? "combined" : "rx", (unsigned long long)target);
	np_remedy(f, "Cost: many drivers reset the link or rebuild all rings (a second or more "
		     "without traffic); each queue adds an IRQ, a NAPI instance and ring memory "
		     "(rx ring x buffer size); a custom RSS table or IRQ pinning must be redone.");
}

/* ---- irq.rss-indirection ---- */

static void run_rss_indir(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_ethtool *e = &s->eth;
	const char *ifn = s->dev.name;
	uint64_t nq = or0(e->channels.combined) + or0(e->channels.rx);
	size_t *cnt, missing = 0, hot = 0, outside = 0, busiest = 0;
	double fair;
	struct np_finding *f;
	char list[96];
	size_t len = 0;

	if (!np_nv_src_usable(s, NP_SRC_ETHTOOL_RSS, "the RSS indirection table", r))
		return;
	if (!e->rss_size || !e->rss_indir) {
		np_skip(r, "driver does not report an RSS indirection table");
		return;
	}
	if (!nq)	/* channel count unknown: the table's own highest queue */
		for (size_t i = 0; i < e->rss_size; i++)
			if (e->rss_indir[i] + 1ull > nq)
				nq = e->rss_indir[i] + 1ull;
	if (nq < 2)
		return;
	cnt = calloc(nq, sizeof(*cnt));
	if (!cnt) {
		np_skip(r, "out of memory");
		return;
	}
	for (size_t i = 0; i < e->rss_size; i++) {
		if (e->rss_indir[i] < nq)
			cnt[e->rss_indir[i]]++;
		else
			outside++;
	}
	fair = (double)e->rss_size / (double)nq;
	list[0] = '\0';
	for (size_t q = 0; q < nq; q++) {
		if (cnt[q] > cnt[busiest])
			busiest = q;
		hot += (double)cnt[q] > 2 * fair;
		/* A table smaller than the queue count cannot reach every queue anyway. */
		if (!cnt[q] && e->rss_size >= nq) {
			missing++;
			if (len + 12 < sizeof(list))
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%zu",
							len ? "," : "", q);
		}
	}
	if (!missing && !hot)
		goto out;
	if (missing)
		f = np_emit(r, NP_SEV_WARNING, "%s's RSS table sends no flows to %zu of its %llu "
			    "receive queues (queue %zu holds %zu of %zu entries)", ifn, missing,
			    (unsigned long long)nq, busiest, cnt[busiest], e->rss_size);
	else
		f = np_emit(r, NP_SEV_WARNING, "%s's RSS table is skewed: queue %zu holds %zu of "
			    "%zu entries (fair share %.1f)", ifn, busiest, cnt[busiest],
			    e->rss_size, fair);
	if (!f)
		goto out;
	np_ev_value(f, "rss_table_size", "entries", (double)e->rss_size);
	np_ev_value(f, "rx_queues", "queues", (double)nq);
	np_ev_value(f, "fair_share", "entries", fair);
	np_ev_value(f, "busiest_queue", "", (double)busiest);
	np_ev_value(f, "busiest_queue_share", "% of entries",
		    100.0 * (double)cnt[busiest] / (double)e->rss_size);
	if (missing)
		np_ev_text(f, "queues_without_entries", "%s%s", list,
			   len + 12 >= sizeof(list) ? ",..." : "");
	if (outside)
		np_ev_value(f, "entries_past_last_queue", "entries", (double)outside);
	np_detail(f, "The NIC hashes each flow and looks the low bits of the hash up in this "
		     "table to pick a receive queue: a queue with k of %zu entries gets about "
		     "k/%zu of the flows, and a queue with none gets no traffic at all, so its CPU "
		     "sits idle while others carry the load.", e->rss_size, e->rss_size);
	np_detail(f, "This is sometimes deliberate (ethtool -X weight/start to keep queues free "
		     "for ntuple rules, AF_XDP or a dedicated application); if so, ignore it.");
	np_remedy(f, "ethtool -x %s   # the table as the driver has it", ifn);
	np_remedy(f, "ethtool -X %s equal %llu", ifn, (unsigned long long)nq);
	np_remedy(f, "Cost: no link reset on most drivers; existing flows move to other queues "
		     "once (brief reordering); it undoes any deliberate weighting.");
out:
	free(cnt);
}

const struct np_check np_check_irq_rss_channels = {
	.id = "irq.rss-channels",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_INTERFACE,
	.title = "RSS queues in use vs CPUs and hardware maximum",
	.looks_at = "ethtool channels (current and maximum), online and NUMA-local CPUs, softnet "
		    "drops and time_squeeze, ring drops (rx_missed_errors, driver counters); "
		    "without ethtool (captures): the receive queues in sysfs (queues/rx-*), info "
		    "when they are a quarter of the CPUs or fewer",
	.why = "Each receive queue is served by one CPU, so the number of queues caps how many "
	       "CPUs share the receive work: 4 queues on a 32-CPU box with a NIC that offers 16 "
	       "leave most CPUs unused. It only matters when the queues in use do not keep up; "
	       "on a lightly loaded host fewer queues are fine (and save IRQs and memory).",
	.fix = "Raise the channel count to min(hardware max, CPUs of the NIC's NUMA node) with "
	       "ethtool -L. Many drivers reset the link; each queue costs an IRQ and ring memory.",
	.related = "ethtool -l/-L, ethtool -x/-X, /proc/irq/N/smp_affinity_list",
	.kernel_notes = "Channels via ethtool netlink since 5.7 (ETHTOOL_GCHANNELS ioctl before). "
			"Virtual NICs (virtio_net, ena) are limited by the hypervisor's queue "
			"count.",
	.warn = 1, .crit = NAN,
	.thr_unit = "time_squeeze/s, or any softnet or ring drop during the sample (warning)",
	.run = run_rss_channels,
};

const struct np_check np_check_irq_rss_indirection = {
	.id = "irq.rss-indirection",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_INTERFACE,
	.title = "RSS indirection table skewed to few queues",
	.looks_at = "ethtool RSS indirection table (entry -> queue) and the channel count",
	.why = "The indirection table decides which queue each flow hash lands on. Queues missing "
	       "from it receive nothing, and a queue with more than twice its fair share of "
	       "entries gets more than twice the flows, so one CPU saturates early. Deliberate "
	       "weighting (queues reserved for ntuple rules or AF_XDP) is a valid exception.",
	.fix = "Spread it evenly with ethtool -X IF equal N. No link reset on most drivers; "
	       "flows move once.",
	.related = "ethtool -x/-X, ethtool -L, ethtool -N rx-flow-hash",
	.kernel_notes = "RSS_GET over ethtool netlink since about 6.2; ETHTOOL_GRXFHINDIR ioctl "
			"before. Changing the channel count resets a default table, not a "
			"user-set one.",
	.warn = NAN, .crit = NAN,
	.run = run_rss_indir,
};
