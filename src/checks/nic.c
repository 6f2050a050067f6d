// SPDX-License-Identifier: GPL-2.0-only
/* Stage "nic": NIC buffers and RX rings as the interface's sysfs statistics report them. */
#include "check.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static struct np_counter_view stat_view(const struct np_analysis *a, size_t off)
{
	const char *c = (const char *)&a->cur->dev.stats + off;
	const char *p = a->prev ? (const char *)&a->prev->dev.stats + off : NULL;

	return np_view_u64(a, p ? *(const uint64_t *)(const void *)p : NP_NA,
			   *(const uint64_t *)(const void *)c);
}

#define STAT(a, field) stat_view(a, offsetof(struct np_link_stats, field))

/* Host-global softnet backlog drops over the interval (to attribute rx_dropped). */
static struct np_counter_view softnet_drops(const struct np_analysis *a)
{
	const struct np_softnet *c = &a->cur->softnet;
	struct np_counter_view t = { 0 };

	if (!np_src_ok(a->cur, NP_SRC_SOFTNET) || !c->n)
		return t;
	t.present = true;
	t.sampled = a->prev && a->dt > 0 && np_src_ok(a->prev, NP_SRC_SOFTNET);
	for (size_t i = 0; i < c->n; i++) {
		struct np_counter_view v;
		uint64_t pv = NP_NA;

		for (size_t j = 0; t.sampled && j < a->prev->softnet.n; j++)
			if (a->prev->softnet.rows[j].cpu == c->rows[i].cpu)
				pv = a->prev->softnet.rows[j].dropped;
		v = np_view_u32(a, pv, c->rows[i].dropped);
		t.total += v.total;
		t.delta += v.delta;
	}
	t.rate = t.sampled ? (double)t.delta / a->dt : 0;
	return t;
}

static void run_missed(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_link_stats *st = &s->dev.stats;
	struct np_counter_view missed, fifo, over, all, pkts;
	struct np_finding *f;
	enum np_severity sev;
	const char *ifn = s->dev.name;

	if (!np_src_ok(s, NP_SRC_NETDEV) || (!np_has(st->rx_missed_errors) &&
	    !np_has(st->rx_fifo_errors) && !np_has(st->rx_over_errors))) {
		np_skip(r, "interface statistics (rx_missed/fifo/over_errors) not reported");
		return;
	}
	missed = STAT(a, rx_missed_errors);
	fifo = STAT(a, rx_fifo_errors);
	over = STAT(a, rx_over_errors);
	pkts = STAT(a, rx_packets);
	all = np_view_sum(np_view_sum(missed, fifo), over);
	sev = np_verdict(&all, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	if (all.sampled && all.delta)
		f = np_emit(r, sev, "%s ran out of receive buffers: %.1f packets/s missed (missed "
			    "%llu, fifo %llu, over %llu since boot)", ifn, all.rate,
			    (unsigned long long)missed.total, (unsigned long long)fifo.total,
			    (unsigned long long)over.total);
	else
		f = np_emit(r, sev, "%s ran out of receive buffers in the past (missed %llu, fifo "
			    "%llu, over %llu since boot)%s", ifn, (unsigned long long)missed.total,
			    (unsigned long long)fifo.total, (unsigned long long)over.total,
			    all.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = all.rate;
	np_ev_counter(f, "rx_missed_errors", "packets", &missed);
	np_ev_counter(f, "rx_fifo_errors", "events", &fifo);
	np_ev_counter(f, "rx_over_errors", "packets", &over);
	if (pkts.present)
		np_ev_counter(f, "rx_packets", "packets", &pkts);
	if (all.sampled && all.delta && pkts.sampled && pkts.delta)
		np_ev_value(f, "missed_share", "% of packets",
			    100.0 * (double)all.delta / (double)(all.delta + pkts.delta));
	np_detail(f, "The NIC had a packet but no free descriptor in the RX ring: the host did not "
		     "refill it in time (ring too small for the bursts, softirq starved or on a "
		     "busy "
		     "CPU, coalescing too long). Lost before the kernel saw it. rx_fifo_errors is "
		     "a "
		     "count of overflow events, not packets. Ring sizes come from ethtool, which "
		     "this "
		     "run did not read.");
	np_remedy(f, "ethtool -g %s   # current vs maximum ring size", ifn);
	np_remedy(f, "ethtool -G %s rx 4096   # or the maximum shown", ifn);
	np_remedy(f, "ethtool -L %s combined N   # more queues on more CPUs; see the irq and "
		     "softnet findings for saturated CPUs", ifn);
	np_remedy(f, "ethtool -C %s adaptive-rx on   # or a smaller rx-usecs", ifn);
	np_remedy(f, "Cost: a bigger ring holds more memory (ring x buffer size per queue, e.g. "
		     "4096 x 2 KiB = 8 MiB) and more cache misses and queueing latency under load; "
		     "ethtool -G/-L reset the link on many drivers (a short outage).");
}

static void run_rx_dropped(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_link_stats *st = &s->dev.stats;
	struct np_counter_view drop, pkts, noh, other, sn;
	struct np_finding *f;
	enum np_severity sev;
	double share = -1;
	const char *ifn = s->dev.name;

	if (!np_src_ok(s, NP_SRC_NETDEV) || !np_has(st->rx_dropped)) {
		np_skip(r, "rx_dropped not reported");
		return;
	}
	drop = STAT(a, rx_dropped);
	pkts = STAT(a, rx_packets);
	noh = STAT(a, rx_nohandler);
	other = STAT(a, rx_otherhost_dropped);
	sn = softnet_drops(a);
	/* rx_dropped mixes real loss with frames nobody wanted: only a share of the traffic
	 * escalates it, never the count alone. */
	sev = np_verdict(&drop, NAN, NAN);
	if (sev == NP_SEV_OK)
		return;
	if (drop.sampled && drop.delta && pkts.sampled) {
		share = 100.0 * (double)drop.delta / (double)(drop.delta + pkts.delta);
		if (share > np_thr_warn(r))
			sev = NP_SEV_WARNING;
	}
	if (drop.sampled && drop.delta)
		f = np_emit(r, sev, "%s rx_dropped grows %.1f/s%s", ifn, drop.rate,
			    share >= 0 ? "" : " (packet rate unknown)");
	else
		f = np_emit(r, sev, "%s rx_dropped is %llu since boot%s", ifn,
			    (unsigned long long)drop.total,
			    drop.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	if (share >= 0) {
		size_t len = strlen(f->summary);

		snprintf(f->summary + len, sizeof(f->summary) - len,
			 " (%.2f%% of received packets)", share);
		np_ev_value(f, "dropped_share", "% of packets", share);
	}
	f->rank = drop.rate;
	np_ev_counter(f, "rx_dropped", "packets", &drop);
	if (pkts.present)
		np_ev_counter(f, "rx_packets", "packets", &pkts);
	if (noh.present)
		np_ev_counter(f, "rx_nohandler", "packets", &noh);
	if (other.present)
		np_ev_counter(f, "rx_otherhost_dropped", "packets", &other);
	if (sn.present)
		np_ev_counter(f, "softnet_dropped_all_cpus", "packets", &sn);
	np_detail(f, "rx_dropped is not proof of loss: it counts frames of protocols nothing "
		     "handles (LLDP, STP, IPv6 when disabled), traffic not for this host, and on "
		     "rtnetlink the stack's own backlog drops, besides driver drops.");
	if (drop.sampled && drop.delta && sn.sampled && sn.delta)
		np_detail(f, "Softnet backlog drops also grew (%.1f/s host-wide): part of this is "
			     "backlog overflow (softnet.backlog-drops).", sn.rate);
	else if (sn.sampled && drop.sampled && drop.delta)
		np_detail(f, "Softnet backlog drops did not grow: this is not backlog overflow.");
	if (noh.present || other.present)
		np_detail(f, "rx_nohandler (inactive bond slave) and rx_otherhost_dropped (foreign "
			     "MAC) are counted separately here.");
	np_remedy(f, "tcpdump -i %s -nn -e 'not ip and not ip6 and not arp' -c 50   # what arrives "
		     "that nothing handles", ifn);
	np_remedy(f, "netpath trace %s   # count kernel drops by reason", ifn);
	np_remedy(f, "Cost: diagnosis only (a capture costs some CPU while it runs).");
}

static const struct np_check missed = {
	.id = "nic.missed",
	.stage = NP_STAGE_NIC,
	.title = "NIC out of receive buffers (missed, FIFO, overrun)",
	.looks_at = "rx_missed_errors, rx_fifo_errors, rx_over_errors of the interface",
	.why = "The NIC had nowhere to put a packet: the RX ring was empty because the host did "
	       "not refill it in time. Packets are lost before the kernel sees them, so no drop "
	       "reason or socket counter shows them. Some drivers count ring drops only in "
	       "ethtool -S (ixgbe rx_no_dma_resources, mlx5 rx_out_of_buffer).",
	.fix = "Bigger RX rings (ethtool -G), more queues/CPUs (ethtool -L), interrupt coalescing "
	       "that lets NAPI run sooner; rings cost memory and latency, -G/-L reset the link on "
	       "many drivers.",
	.related = "ethtool -g/-G, ethtool -l/-L, ethtool -c/-C, net.core.netdev_budget",
	.kernel_notes = "mlx5 (2024) and i40e (~6.8) moved buffer exhaustion from rx_dropped to "
			"rx_missed_errors, backported to stable kernels.",
	.warn = 1, .crit = 100, .thr_unit = "packets/s",
	.run = run_missed,
};

static const struct np_check rx_dropped = {
	.id = "nic.rx-dropped",
	.stage = NP_STAGE_NIC,
	.title = "rx_dropped growing",
	.looks_at = "rx_dropped vs rx_packets, rx_nohandler, rx_otherhost_dropped, softnet drops",
	.why = "rx_dropped mixes real loss (driver drops, per-CPU backlog overflow) with frames "
	       "nothing wanted (unknown protocols, traffic for other hosts). A rising rx_dropped "
	       "alone is a common false alarm; only a notable share of the traffic is worth a "
	       "warning.",
	.fix = "Find out what is dropped (tcpdump for unhandled protocols, netpath trace for "
	       "drop reasons); fix the backlog if softnet drops move too.",
	.related = "rx_nohandler, rx_otherhost_dropped, net.core.netdev_max_backlog",
	.kernel_notes = "rx_nohandler since 4.6, rx_otherhost_dropped since ~5.19.",
	.warn = 1, .crit = NAN, .thr_unit = "% of received packets",
	.run = run_rx_dropped,
};

extern const struct np_check np_chk_ring_size, np_chk_port_discards, np_chk_cloud_allowance,
	np_chk_alloc_failures, np_chk_queue_drops, np_chk_pause_frames, np_chk_xdp_drops;
const struct np_check *const np_checks_nic[] = {
	&missed, &rx_dropped, &np_chk_ring_size, &np_chk_port_discards, &np_chk_cloud_allowance,
	&np_chk_alloc_failures, &np_chk_queue_drops, &np_chk_pause_frames, &np_chk_xdp_drops, NULL,
};
