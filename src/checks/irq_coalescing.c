// SPDX-License-Identifier: GPL-2.0-only
/* Stage "irq", NIC side: interrupt coalescing (ethtool -c) against the ring and the IRQ rate. */
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
