// SPDX-License-Identifier: GPL-2.0-only
/* Stage "irq", NIC side: RSS channels and indirection, interrupt coalescing, GRO/LRO (ethtool). */
#include "nic_view.h"


#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Coalescing values past which the ring may fill before the interrupt fires. */
#define COAL_BIG_USECS 200
#define COAL_BIG_FRAMES 256
/* Per-packet interrupts below this rate (per queue) cost nothing worth reporting. */
#define COAL_IRQ_NOTABLE 1000.0
/* A full-size Ethernet frame on the wire (1500 + header, FCS, preamble, gap), in bits. */
#define WIRE_FRAME_BITS (1538.0 * 8)

static uint64_t or0(uint64_t v)
{
	return np_has(v) ? v : 0;
}

/* NUMA-local online CPUs of the NIC (all online CPUs when unknown). */
static unsigned local_cpus(const struct np_snapshot *s, unsigned ncpu)
{
	struct np_cpuset t = s->dev.local_cpus;
	unsigned n;

	if (!s->dev.has_local_cpus || !np_cpuset_count(&s->host.online))
		return ncpu;
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		t.w[i] &= s->host.online.w[i];
	n = np_cpuset_count(&t);
	return n ? n : ncpu;
}

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
	unsigned ncpu = np_ncpu_online(s), nlocal = local_cpus(s, ncpu);
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
	nlocal = local_cpus(s, ncpu);
	target = hwmax < nlocal ? hwmax : nlocal;
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

/* ---- irq.coalescing ---- */

/* Interrupt rate of the device's queue IRQs over the interval: sum and busiest line. */
static bool queue_irq_rate(const struct np_analysis *a, double *sum, double *max)
{
	const struct np_snapshot *s = a->cur, *p = a->prev;
	bool any = false;

	*sum = *max = 0;
	if (!p || a->dt <= 0 || !np_src_ok(s, NP_SRC_INTERRUPTS) ||
	    !np_src_ok(p, NP_SRC_INTERRUPTS))
		return false;
	for (size_t i = 0; i < s->irqs.n; i++) {
		const struct np_irq_line *l = &s->irqs.lines[i];
		double rate;

		if (l->role != NP_IRQ_RX && l->role != NP_IRQ_TXRX)
			continue;
		for (size_t j = 0; j < p->irqs.n; j++) {
			if (p->irqs.lines[j].irq != l->irq)
				continue;
			rate = np_view_u64(a, p->irqs.lines[j].total, l->total).rate;
			*sum += rate;
			if (rate > *max)
				*max = rate;
			any = true;
			break;
		}
	}
	return any;
}

static void run_coalescing(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_coalesce *c = &s->eth.coalesce;
	const char *ifn = s->dev.name;
	uint64_t speed = np_nv_speed_mbps(s), ring_sz = s->eth.rings.rx;
	bool per_pkt, big, have_rate;
	double sum, max;
	struct np_counter_view ring;
	struct np_nv_ring rg;
	struct np_finding *f;
	enum np_severity sev;
	char num[32];

	if (!np_nv_src_usable(s, NP_SRC_ETHTOOL_COALESCE, "interrupt coalescing", r))
		return;
	if (!np_has(c->rx_usecs) && !np_has(c->rx_max_frames)) {
		np_skip(r, "driver does not report rx-usecs or rx-frames");
		return;
	}
	/* Adaptive moderation replaces the static values on the drivers that offer it. */
	if (c->adaptive_rx == 1)
		return;
	per_pkt = np_has(c->rx_usecs) && c->rx_usecs == 0 &&
		  (!np_has(c->rx_max_frames) || c->rx_max_frames <= 1);
	big = (np_has(c->rx_usecs) && c->rx_usecs > COAL_BIG_USECS) ||
	      (np_has(c->rx_max_frames) && c->rx_max_frames > COAL_BIG_FRAMES);
	if (per_pkt) {
		have_rate = queue_irq_rate(a, &sum, &max);
		if (have_rate && max < COAL_IRQ_NOTABLE)
			return;		/* measured: too few interrupts to matter */
		sev = have_rate && max >= np_thr_warn(r) ? NP_SEV_WARNING : NP_SEV_INFO;
		if (have_rate)
			f = np_emit(r, sev, "%s interrupts once per packet (rx-usecs 0, adaptive "
				    "off): %s interrupts/s on its busiest queue", ifn,
				    np_fmt_num(max, num, sizeof(num)));
		else
			f = np_emit(r, sev, "%s interrupts once per packet (rx-usecs 0, adaptive "
				    "off); interrupt rate not measured", ifn);
		if (!f)
			return;
		f->rank = max;
		if (have_rate) {
			np_ev_value(f, "queue_interrupts", "interrupts/s", sum);
			np_ev_value(f, "busiest_queue_interrupts", "interrupts/s", max);
		}
	} else if (big) {
		np_nv_ring_empty(a, &rg);
		ring = rg.all;
		sev = ring.sampled && ring.delta ? NP_SEV_WARNING : NP_SEV_INFO;
		f = np_emit(r, sev, "%s delays receive interrupts up to %llu us / %llu frames with "
			    "adaptive coalescing off%s", ifn, (unsigned long long)or0(c->rx_usecs),
			    (unsigned long long)or0(c->rx_max_frames),
			    sev == NP_SEV_WARNING ? ", and the ring overflows" : "");
		if (!f)
			return;
		f->rank = ring.rate;
		if (ring.present)
			np_ev_counter(f, "ring_drops", "packets", &ring);
	} else {
		return;
	}
	if (np_has(c->rx_usecs))
		np_ev_value(f, "rx_usecs", "us", (double)c->rx_usecs);
	if (np_has(c->rx_max_frames))
		np_ev_value(f, "rx_frames", "frames", (double)c->rx_max_frames);
	np_ev_text(f, "adaptive_rx", "%s", c->adaptive_rx == 0 ? "off" : "not supported");
	if (per_pkt) {
		np_detail(f, "Every received packet raises an interrupt until NAPI takes over "
			     "polling; at high packet rates the interrupts themselves eat CPU that "
			     "packet processing needs. It gives the lowest latency, which is why "
			     "latency-tuned hosts and some virtual NICs use it; at low rates it "
			     "costs nothing.");
		np_remedy(f, "ethtool -C %s adaptive-rx on   # where supported; else e.g. rx-usecs "
			     "8 rx-frames 32", ifn);
		np_remedy(f, "Cost: a few to tens of microseconds more latency per packet at low "
			     "rates; fewer interrupts and more packets per NAPI poll under load.");
		return;
	}
	np_detail(f, "The NIC waits up to rx-usecs or until rx-frames packets arrived before it "
		     "interrupts; meanwhile the ring fills. That buys throughput per interrupt at "
		     "the price of latency, and if the ring fills before the interrupt the NIC "
		     "drops.");
	if (np_has(ring_sz) && np_has(speed) && speed > 0) {
		double fill_us = (double)ring_sz * WIRE_FRAME_BITS / (double)speed;

		np_ev_value(f, "ring_fill_time_line_rate", "us", fill_us);
		np_detail(f, "At %llu Mbit/s a %llu-entry ring fills in about %.0f us with "
			     "full-size frames, ~18x faster with minimum-size ones.",
			  (unsigned long long)speed, (unsigned long long)ring_sz, fill_us);
	}
	if (np_has(ring_sz) && np_has(c->rx_max_frames) && c->rx_max_frames >= ring_sz)
		np_detail(f, "rx-frames %llu is not below the ring size %llu: the frame trigger "
			     "can never fire before the ring is full.",
			  (unsigned long long)c->rx_max_frames, (unsigned long long)ring_sz);
	np_remedy(f, "ethtool -C %s adaptive-rx on   # or e.g. rx-usecs 50 rx-frames 64", ifn);
	np_remedy(f, "Cost: more interrupts per second (CPU), in exchange for lower latency and "
		     "no ring overflow between interrupts.");
}

/* ---- irq.gro ---- */

static void gro_off(const struct np_analysis *a, struct np_report *r)
{
	const char *ifn = a->cur->dev.name;
	uint64_t speed = np_nv_speed_mbps(a->cur);
	double pps = np_nv_rx_pps(a);
	bool fast = np_has(speed) && speed >= NP_NV_FAST_MBPS;
	bool busy = !isnan(pps) && pps >= NP_NV_BUSY_PPS;
	bool virt = np_src_ok(a->cur, NP_SRC_NETDEV) && np_dev_is_virtual(a->cur);
	struct np_finding *f;
	char num[32];

	/* veth ships with GRO off, and local TCP crosses it as GSO super-packets anyway. */
	if (virt && !busy)
		return;
	if (busy)
		f = np_emit(r, virt ? NP_SEV_INFO : NP_SEV_WARNING, "GRO is off on %s while it "
			    "receives %s packets/s", ifn, np_fmt_num(pps, num, sizeof(num)));
	else
		f = np_emit(r, fast ? NP_SEV_WARNING : NP_SEV_INFO, "GRO is off on %s%s", ifn,
			    fast ? " (a 10G+ link)" : "");
	np_ev_text(f, "gro", "off");
	if (np_has(speed))
		np_ev_value(f, "speed", "Mbit/s", (double)speed);
	if (!isnan(pps))
		np_ev_value(f, "rx_packets", "packets/s", pps);
	np_detail(f, "Without GRO every wire packet travels the whole stack (netfilter, IP, TCP, "
		     "socket wakeups) alone; GRO merges the packets of a flow within one NAPI "
		     "poll, typically cutting per-packet CPU several-fold for TCP. It is safe for "
		     "forwarding and bridging (segments are rebuilt on output). At low packet "
		     "rates it makes no visible difference.");
	if (virt)
		np_detail(f, "On a veth, traffic from local sockets already crosses as GSO "
			     "super-packets; GRO (which switches veth to NAPI mode) helps UDP and "
			     "forwarded traffic.");
	np_remedy(f, "ethtool -K %s gro on", ifn);
	np_remedy(f, "Cost: no reset on most drivers; packet captures on the host see merged "
		     "frames; latency is unchanged (merging ends with each poll).");
}

static void lro_forwarding(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	bool ok4, ok6, fwd;
	int64_t fwd4 = np_sysctl_int(s, "net.ipv4.ip_forward", 0, &ok4);
	int64_t fwd6 = np_sysctl_int(s, "net.ipv6.conf.all.forwarding", 0, &ok6);
	struct np_finding *f;

	fwd = (ok4 && fwd4 == 1) || (ok6 && fwd6 == 1);
	if (!fwd && (ok4 || ok6))
		return;		/* an end host: LRO is harmless there */
	f = np_emit(r, fwd ? NP_SEV_WARNING : NP_SEV_INFO, "LRO is on for %s%s", s->dev.name,
		    fwd ? " and this host forwards IP" : " (forwarding state unknown)");
	np_ev_text(f, "lro", "on");
	if (ok4)
		np_ev_value(f, "net.ipv4.ip_forward", "", (double)fwd4);
	if (ok6)
		np_ev_value(f, "net.ipv6.conf.all.forwarding", "", (double)fwd6);
	np_detail(f, "LRO merges packets in the NIC and loses the original segment boundaries: "
		     "forwarded or bridged LRO frames exceed the outgoing MTU and are dropped or "
		     "mangled. The kernel turns LRO off when forwarding is enabled or the device "
		     "joins a bridge, so seeing it on means it was re-enabled later or the driver "
		     "ignored the request. On an end host LRO is harmless.");
	np_remedy(f, "ethtool -K %s lro off gro on   # GRO keeps the merging, safely",
		  s->dev.name);
	np_remedy(f, "Cost: some drivers reset the rings when LRO changes; GRO does in software "
		     "what LRO did in the NIC (a little more CPU; rx-gro-hw, where offered, is the "
		     "forwarding-safe hardware variant).");
}

static void run_gro(const struct np_analysis *a, struct np_report *r)
{
	const struct np_features *ft = &a->cur->eth.features;

	if (!np_nv_src_usable(a->cur, NP_SRC_ETHTOOL_FEATURES, "offload features", r))
		return;
	if (ft->gro < 0 && ft->lro < 0) {
		np_skip(r, "driver did not report the GRO/LRO state");
		return;
	}
	if (ft->gro == 0)
		gro_off(a, r);
	if (ft->lro == 1)
		lro_forwarding(a, r);
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

const struct np_check np_check_irq_coalescing = {
	.id = "irq.coalescing",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Interrupt coalescing extremes",
	.looks_at = "ethtool coalescing (rx-usecs, rx-frames, adaptive-rx), the queue IRQ rate "
		    "over the interval, ring size, link speed and ring drops",
	.why = "Coalescing trades latency for CPU: rx-usecs 0 with adaptive off means one "
	       "interrupt per packet (lowest latency, high CPU cost at high packet rates); very "
	       "large rx-usecs or rx-frames batch many packets per interrupt (cheap) but add "
	       "latency and let the ring overflow before the interrupt fires. Moderate values or "
	       "adaptive moderation suit most hosts; at low rates neither extreme matters.",
	.fix = "Turn on adaptive-rx where the driver supports it, or choose moderate rx-usecs "
	       "and rx-frames with ethtool -C.",
	.related = "ethtool -c/-C, /sys/class/net/IF/napi_defer_hard_irqs, gro_flush_timeout",
	.kernel_notes = "Some drivers give rx-usecs special meanings (ixgbe 1 and igb 3 = "
			"dynamic moderation); only 0 and values above 200 us are judged here.",
	.warn = 20000, .crit = NAN,
	.thr_unit = "interrupts/s on one queue with per-packet interrupts (warning); large "
		    "values: warning when ring drops move",
	.run = run_coalescing,
};

const struct np_check np_check_irq_gro = {
	.id = "irq.gro",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_INTERFACE,
	.title = "GRO off, or LRO on while forwarding",
	.looks_at = "ethtool features (generic-receive-offload, large-receive-offload), link "
		    "speed, receive packet rate, net.ipv4.ip_forward, net.ipv6.conf.all.forwarding",
	.why = "GRO merges the packets of a flow before the stack, cutting per-packet CPU; off, "
	       "a busy 10G+ receiver spends its CPUs on headers. LRO does the same in the NIC but "
	       "destroys segment boundaries, which breaks forwarding and bridging. On a lightly "
	       "loaded slow link GRO off is harmless, and LRO is harmless on an end host.",
	.fix = "ethtool -K IF gro on; with forwarding or bridging also lro off.",
	.related = "ethtool -k/-K gro lro rx-gro-hw, net.ipv4.ip_forward, "
		   "net.core.gro_normal_batch",
	.warn = NAN, .crit = NAN,
	.run = run_gro,
};
