// SPDX-License-Identifier: GPL-2.0-only
/* Stage "nic" from the NIC's own view: ring sizes, port buffer, cloud shaping, buffer refill. */
#include "check_util.h"
#include "nic_view.h"
#include "sizing.h"

#include <stdio.h>
#include <string.h>

/* RX queues the ring size applies to: combined + rx-only channels, 0 when unknown. */
static uint64_t rx_queues(const struct np_snapshot *s)
{
	const struct np_channels *ch = &s->eth.channels;
	uint64_t n = 0;

	if (!np_src_ok(s, NP_SRC_ETHTOOL_CHANNELS))
		return 0;
	if (np_has(ch->combined))
		n += ch->combined;
	if (np_has(ch->rx))
		n += ch->rx;
	return n;
}

/* The cost lines of `ethtool -G rx N`: memory for all queues, queueing delay of a full ring. */
static void ring_cost(struct np_finding *f, const struct np_snapshot *s, uint64_t rx,
		      uint64_t target)
{
	const struct np_rings *rg = &s->eth.rings;
	uint64_t buf = np_has(rg->rx_buf_len) && rg->rx_buf_len ? rg->rx_buf_len : 2048;
	uint64_t nq = rx_queues(s), speed = np_nv_speed_mbps(s);
	char mem[32] = "", lat[96] = "", where[40] = " per queue";

	if (target > rx) {
		double bytes = (double)(target - rx) * (double)buf * (double)(nq ? nq : 1);

		np_fmt_bytes(bytes, mem, sizeof(mem));
	}
	if (nq)
		snprintf(where, sizeof(where), " on each of %llu RX queues",
			 (unsigned long long)nq);
	if (np_has(speed))
		snprintf(lat, sizeof(lat), " A full ring of %llu 1500-byte frames is %.1f ms of "
			 "queueing at %llu Mbit/s.", (unsigned long long)target,
			 (double)target * 1500 * 8 / ((double)speed * 1e6) * 1e3,
			 (unsigned long long)speed);
	np_remedy(f, "Cost: about %s more memory (%llu more descriptors x %s%llu-byte buffers%s), "
		  "more cache misses and more queueing latency under load (a bigger ring buffers "
		  "bursts instead of dropping them, so packets wait longer).%s ethtool -G briefly "
		  "resets the link or the queues on many drivers.", mem[0] ? mem : "0 B",
		  (unsigned long long)(target > rx ? target - rx : 0),
		  np_has(rg->rx_buf_len) && rg->rx_buf_len ? "" : "~", (unsigned long long)buf,
		  where, lat);
}

static void run_ring_size(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_rings *rg = &s->eth.rings;
	const char *ifn = s->dev.name;
	struct np_nv_ring ring;
	struct np_counter_view best;
	enum np_severity sev = NP_SEV_INFO;
	bool moving;
	uint64_t target;
	struct np_finding *f;

	if (!np_src_ok(s, NP_SRC_ETHTOOL_RINGS)) {
		np_nv_skip_src(r, s, NP_SRC_ETHTOOL_RINGS, "ring sizes");
		return;
	}
	/* At the maximum there is nothing to grow: the loss, if any, is nic.missed's alone
	 * (one finding per loss), with remedies that do not involve the ring size. */
	switch (np_nv_ring_state(s)) {
	case NP_NV_RING_UNKNOWN:
		np_skip(r, "driver does not report the RX ring size and its maximum");
		return;
	case NP_NV_RING_AT_MAX:
		return;
	case NP_NV_RING_BELOW_MAX:
		break;
	}
	np_nv_ring_empty(a, &ring);
	best = ring.ring;
	moving = best.sampled && best.delta > 0;
	if (moving)
		sev = np_verdict(&best, np_thr_warn(r), np_thr_crit(r));
	target = np_size_rx_ring(rg->rx, rg->rx_max, sev == NP_SEV_CRITICAL);
	if (moving)
		f = np_emit(r, sev, "%s rx ring %llu of %llu while the NIC runs out of RX buffers: "
			    "%s packets/s", ifn, (unsigned long long)rg->rx,
			    (unsigned long long)rg->rx_max, np_fmt_rate(best.rate));
	else if (best.present && best.total)
		f = np_emit(r, sev, "%s rx ring %llu of %llu (%llu ring-empty drops since boot%s)",
			    ifn, (unsigned long long)rg->rx, (unsigned long long)rg->rx_max,
			    (unsigned long long)best.total,
			    best.sampled ? ", none during the sample" : "");
	else
		f = np_emit(r, sev, "%s rx ring %llu of %llu", ifn, (unsigned long long)rg->rx,
			    (unsigned long long)rg->rx_max);
	if (!f)
		return;
	f->rank = best.rate;
	np_ev_value(f, "rx_ring", "descriptors", (double)rg->rx);
	np_ev_value(f, "rx_ring_max", "descriptors", (double)rg->rx_max);
	if (np_has(rg->rx_buf_len) && rg->rx_buf_len)
		np_ev_value(f, "rx_buf_len", "bytes", (double)rg->rx_buf_len);
	np_nv_drv_ev(f, &ring.drv, "packets");
	if (ring.missed.present)
		np_ev_counter(f, ring.rtnl ? "rtnl_rx_missed_errors" : "rx_missed_errors",
			      "packets", &ring.missed);
	if (ring.overruns.present)
		np_ev_counter(f, "qstats_rx_hw_drop_overruns", "packets", &ring.overruns);
	if (moving)
		np_detail(f, "The NIC found no free RX descriptor and dropped packets before "
			     "the kernel saw them, and the ring is %llux smaller than the hardware "
			     "allows. A bigger ring absorbs longer bursts and longer gaps in NAPI "
			     "polling; if the CPU is simply saturated it only delays the drops.",
			  (unsigned long long)(rg->rx_max / (rg->rx ? rg->rx : 1)));
	else
		np_detail(f, "The ring is below the hardware maximum but no ring-empty counter "
			     "moved%s: nothing to fix now. Enlarge it only if out-of-buffer/missed "
			     "counters grow under load; small rings keep latency and cache "
			     "footprint low.",
			  best.sampled ? " during the sample" : "");
	if (target == rg->rx_max)
		np_remedy(f, "ethtool -G %s rx %llu   # the hardware maximum", ifn,
			  (unsigned long long)target);
	else
		np_remedy(f, "ethtool -G %s rx %llu   # 4x the current size; the hardware maximum "
			     "is %llu", ifn, (unsigned long long)target,
			  (unsigned long long)rg->rx_max);
	ring_cost(f, s, rg->rx, target);
}

static void run_port_discards(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	const struct np_pause *pa = &s->eth.pause;
	char lbl[48];
	struct np_nv_drv d;
	enum np_severity sev;
	struct np_finding *f;

	if (!np_src_ok(s, NP_SRC_DRIVER_STATS)) {
		np_nv_skip_src(r, s, NP_SRC_DRIVER_STATS, "driver statistics");
		return;
	}
	np_nv_drv_collect(a, NP_DRV_PORT_DISCARD, false, &d);
	if (!d.n) {
		np_not_applicable(r, "%s has no port-buffer discard counter",
			np_nv_drv_label(s, lbl, sizeof(lbl)));
		return;
	}
	sev = np_verdict(&d.v, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	if (d.v.sampled && d.v.delta)
		f = np_emit(r, sev, "%s NIC port buffer overflows: %s packets/s discarded (%s)",
			    ifn, np_fmt_rate(d.v.rate), d.top[0].name);
	else
		f = np_emit(r, sev, "%s NIC port buffer discarded %llu packets since boot%s", ifn,
			    (unsigned long long)d.v.total,
			    d.v.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = d.v.rate;
	np_ev_counter(f, "port_discards", "packets", &d.v);
	np_nv_drv_ev(f, &d, "packets");
	if (np_src_ok(s, NP_SRC_ETHTOOL_PAUSE) && pa->rx >= 0 && pa->tx >= 0)
		np_ev_text(f, "pause", "rx %s, tx %s", pa->rx ? "on" : "off",
			   pa->tx ? "on" : "off");
	np_detail(f, "The NIC's own packet buffer, in front of all RX rings, filled up and the "
		     "NIC dropped at the port: the host (rings, PCIe, CPUs) drained it more slowly "
		     "than the wire delivered. No kernel counter outside ethtool -S sees this "
		     "loss.");
	if (np_src_ok(s, NP_SRC_ETHTOOL_PAUSE) && pa->tx == 0)
		np_detail(f, "Transmit flow control is off, so the NIC drops instead of asking the "
			     "switch to pause.");
	np_remedy(f, "ethtool -g %s; ethtool -l %s   # rings and queues vs their maximum (see "
		     "nic.ring-size, irq findings)", ifn, ifn);
	np_remedy(f, "ethtool -L %s combined N   # spread the drain over more queues and CPUs",
		  ifn);
	np_remedy(f, "ethtool -A %s tx on   # optional: make the NIC send pause frames instead of "
		     "dropping", ifn);
	np_remedy(f, "Cost: more queues use more interrupts and memory; pause frames move the loss "
		     "upstream and stall every flow on the switch port (head-of-line blocking).");
}

static void run_cloud_allowance(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	struct np_nv_drv d = { 0 };
	struct np_counter_view rl, all;
	enum np_severity sev;
	struct np_finding *f;

	if (!np_src_ok(s, NP_SRC_DRIVER_STATS) && !np_src_ok(s, NP_SRC_QSTATS)) {
		np_nv_skip_src(r, s, NP_SRC_DRIVER_STATS, "driver statistics");
		return;
	}
	np_nv_drv_collect(a, NP_DRV_CLOUD_ALLOWANCE, true, &d);
	rl = np_nv_qstat(a, offsetof(struct np_qstat, rx_hw_drop_ratelimits));
	if (!d.n && !rl.present) {
		np_not_applicable(r, "no shaping counters (not an AWS ENA device, no qstats "
			   "rx-hw-drop-ratelimits)");
		return;
	}
	/* Different events, so added: the cloud's allowance and the device's rate limit. */
	all = np_view_sum(d.v, rl);
	sev = np_verdict(&all, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	if (all.sampled && all.delta)
		f = np_emit(r, sev, "%s is shaped outside the VM: %s packets/s over the "
			    "allowance (%s)", ifn, np_fmt_rate(all.rate),
			    d.n && d.v.delta >= rl.delta ? d.top[0].name :
			    "rx-hw-drop-ratelimits");
	else
		f = np_emit(r, sev, "%s exceeded its platform allowance %llu times since boot%s",
			    ifn, (unsigned long long)all.total,
			    all.sampled ? ", not during the sample" : "");
	if (!f)
		return;
	f->rank = all.rate;
	/* Each allowance counter is its own limit (bandwidth in/out, pps, conntrack). */
	np_nv_drv_ev(f, &d, "packets");
	if (rl.present)
		np_ev_counter(f, "qstats_rx_hw_drop_ratelimits", "packets", &rl);
	np_detail(f, "The hypervisor or the device rate limit queued or dropped these packets "
		     "because the instance exceeded its bandwidth, packets-per-second or "
		     "connection-tracking allowance. This is shaping by the platform: no ring, "
		     "buffer or sysctl inside the guest changes it.");
	np_remedy(f, "ethtool -S %s | grep allowance   # which limit: bw_in/bw_out, pps, "
		     "conntrack, linklocal", ifn);
	np_remedy(f, "Use a larger instance type (higher network allowance), enable ENA Express, "
		     "or send fewer/larger packets (pps limit); for conntrack_allowance, fewer "
		     "tracked flows (security-group rules that are untracked).");
	np_remedy(f, "Cost: a bigger instance costs money; batching packets can add latency.");
}

static void run_alloc_failures(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const char *ifn = s->dev.name;
	struct np_nv_drv d = { 0 };
	struct np_counter_view q, best;
	char lbl[48];
	enum np_severity sev;
	struct np_finding *f;
	int64_t minfree;
	bool have_minfree;
	uint64_t mtu = np_has(s->rtnl.mtu) ? s->rtnl.mtu : s->dev.mtu;
	char buf[32];

	if (!np_src_ok(s, NP_SRC_DRIVER_STATS) && !np_src_ok(s, NP_SRC_QSTATS)) {
		np_nv_skip_src(r, s, NP_SRC_DRIVER_STATS, "driver statistics");
		return;
	}
	np_nv_drv_collect(a, NP_DRV_ALLOC_FAIL, false, &d);
	q = np_nv_qstat(a, offsetof(struct np_qstat, rx_alloc_fail));
	if (!d.n && !q.present) {
		np_not_applicable(r, "%s has no allocation-failure counter and qstats rx-alloc-fail is not "
			   "available", np_nv_drv_label(s, lbl, sizeof(lbl)));
		return;
	}
	best = np_nv_max(d.v, q);
	sev = np_verdict(&best, np_thr_warn(r), np_thr_crit(r));
	if (sev == NP_SEV_OK)
		return;
	if (best.sampled && best.delta)
		f = np_emit(r, sev, "%s fails to allocate RX buffers: %s/s", ifn, np_fmt_rate(best.rate));
	else
		f = np_emit(r, sev, "%s failed to allocate RX buffers %llu times since boot%s", ifn,
			    (unsigned long long)best.total,
			    best.sampled ? ", none during the sample" : "");
	if (!f)
		return;
	f->rank = best.rate;
	np_nv_drv_ev(f, &d, "failures");
	if (q.present)
		np_ev_counter(f, "qstats_rx_alloc_fail", "failures", &q);
	if (np_has(s->hs->mem.mem_available))
		np_ev_value(f, "mem_available", "bytes", (double)s->hs->mem.mem_available);
	minfree = np_sysctl_int(s, NP_SYSCTL_MIN_FREE_KBYTES, 0, &have_minfree);
	if (have_minfree)
		np_ev_value(f, "vm.min_free_kbytes", "KiB", (double)minfree);
	np_detail(f, "The driver could not get a page or skb to refill its RX ring (in softirq "
		     "context, where it cannot wait for reclaim). Until it succeeds the ring runs "
		     "short and the NIC drops. Causes: low free memory, fragmentation (no free "
		     "higher-order pages), or a memory cgroup/NUMA node out of memory.");
	if (np_has(mtu) && mtu > 1500)
		np_detail(f, "With MTU %llu many drivers need multi-page (order-1..3) buffers, "
			     "which fragmentation makes scarce.", (unsigned long long)mtu);
	np_remedy(f, "grep -E 'MemFree|MemAvailable' /proc/meminfo; cat /proc/buddyinfo   # free "
		     "memory and free higher-order pages");
	if (have_minfree && minfree > 0)
		np_remedy(f, "sysctl -w vm.min_free_kbytes=%lld   # twice the current reserve (%s)",
			  (long long)minfree * 2, np_fmt_bytes((double)minfree * 2048, buf,
							      sizeof(buf)));
	else
		np_remedy(f, "sysctl vm.min_free_kbytes   # raise it (e.g. double) so atomic "
			     "allocations keep a reserve");
	np_remedy(f, "Check page pool stats (netdev genl page-pool-stats-get, 6.5+) and "
		     "per-NUMA-node free memory (numastat -m).");
	np_remedy(f, "Cost: a larger min_free_kbytes reserves that memory from every other user "
		     "and makes reclaim start earlier.");
}

const struct np_check np_check_nic_ring_size = {
	.id = "nic.ring-size",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "RX ring below the hardware maximum",
	.looks_at = "ethtool rings (rx vs rx max), ring-empty counters: driver out-of-buffer/"
		    "no-DMA counters, rx_missed_errors (rtnl), qstats rx-hw-drop-overruns",
	.why = "A small RX ring overflows during bursts or short gaps in NAPI polling and the NIC "
	       "drops before the kernel sees anything. On its own a ring below its maximum is "
	       "not a problem: drivers pick small defaults on purpose, because a big ring adds "
	       "memory, cache misses and queueing latency. It matters only when ring-empty "
	       "counters move. At the maximum there is nothing to grow: nic.missed reports "
	       "that loss.",
	.fix = "Enlarge the ring with ethtool -G IF rx N (4x or the maximum) when out-of-buffer "
	       "counters move; cost: memory per queue, latency under load, a reset on many "
	       "drivers.",
	.related = "ethtool -g/-G, ethtool -S (rx_out_of_buffer, rx_no_dma_resources), "
		   "rx_missed_errors, nic.missed",
	.kernel_notes = "RINGS_GET over netlink since 5.7 (ioctl ETHTOOL_GRINGPARAM before); "
			"qstats rx-hw-drop-overruns since 6.10; mlx5 and i40e count buffer "
			"exhaustion in rx_missed_errors only on recent (and stable) kernels.",
	.warn = 1, .crit = 100, .thr_unit = "ring-empty drops/s",
	.run = run_ring_size,
};

const struct np_check np_check_nic_port_discards = {
	.id = "nic.port-discards",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "NIC port buffer discards",
	.looks_at = "driver counters of port/packet-buffer discards (mlx5 rx_discards_phy, i40e "
		    "port.rx_discards, ice rx_dropped.nic, bnxt rx_stat_discard, ...)",
	.why = "The NIC's packet buffer in front of the rings overflowed: the host drained more "
	       "slowly than the wire delivered (rings, queues, PCIe bandwidth or CPUs). The "
	       "drops are visible only in the driver's private counters.",
	.fix = "Drain faster: bigger rings, more queues on more CPUs, check the PCIe link; or "
	       "enable transmit pause so the switch holds the traffic (moves the loss upstream).",
	.related = "ethtool -S, ethtool -G/-L, ethtool -A, pcie.link-degraded",
	.warn = 1, .crit = 100, .thr_unit = "packets/s",
	.run = run_port_discards,
};

const struct np_check np_check_nic_cloud_allowance = {
	.id = "nic.cloud-allowance",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Cloud network allowance exceeded",
	.looks_at = "ENA bw_in/bw_out/pps/conntrack/linklocal_allowance_exceeded, qstats "
		    "rx-hw-drop-ratelimits",
	.why = "The cloud platform shapes each instance to a bandwidth, packets-per-second and "
	       "tracked-connection allowance, outside the VM. Packets over it are queued or "
	       "dropped before the guest sees them; no guest tuning helps.",
	.fix = "A larger instance type, ENA Express, fewer and larger packets, or fewer tracked "
	       "connections; cost: money or latency.",
	.related = "ethtool -S IF | grep allowance",
	.kernel_notes = "The ENA allowance counters (ENI metrics) are in the upstream driver "
			"since about 5.10, earlier in the out-of-tree driver.",
	.warn = 1, .crit = 100, .thr_unit = "packets/s",
	.run = run_cloud_allowance,
};

const struct np_check np_check_nic_alloc_failures = {
	.id = "nic.alloc-failures",
	.stage = NP_STAGE_NIC,
	.scope = NP_SCOPE_INTERFACE,
	.title = "RX buffer allocation failures",
	.looks_at = "driver allocation-failure counters (mlx5 rx_buff_alloc_err, ixgbe "
		    "alloc_rx_page_failed, i40e rx_alloc_fail, ena queue_N_rx_page_alloc_fail), "
		    "qstats rx-alloc-fail",
	.why = "When the driver cannot allocate pages to refill the RX ring, the ring runs short "
	       "and the NIC drops. It points at memory pressure or fragmentation rather than a "
	       "network setting.",
	.fix = "Find the memory pressure; raise vm.min_free_kbytes so atomic allocations keep a "
	       "reserve (costs that memory); avoid jumbo MTUs that need higher-order pages.",
	.related = "vm.min_free_kbytes, /proc/buddyinfo, page pool",
	.kernel_notes = "qstats rx-alloc-fail since 6.9; page pool statistics since 6.5.",
	.warn = 1, .crit = 100, .thr_unit = "failures/s",
	.run = run_alloc_failures,
};
