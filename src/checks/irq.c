// SPDX-License-Identifier: GPL-2.0-only
/* Stage "irq": where the device's queue interrupts are delivered, from procfs and sysfs. */
#include "irq_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Squeezes per second on the IRQ CPUs that count as "the IRQ CPUs are saturated". */
#define IRQ_SQUEEZE_BUSY 100.0

static bool cpuset_disjoint(const struct np_cpuset *a, const struct np_cpuset *b)
{
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		if (a->w[i] & b->w[i])
			return false;
	return true;
}

/* ---- irq.affinity ---- */

static void run_affinity(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_cpuset to = np_irq_target_cpus(s);
	struct np_finding *f;
	enum np_severity sev = NP_SEV_OK;
	struct np_irq_sum q;
	unsigned ncpu = np_ncpu_online(s), ntgt = np_cpuset_count(&to), want;
	double drop_in = 0, drop_all = 0, sq_in = 0, sq_all = 0;
	bool hot = false, alone;
	char used[128], num[32], num2[32];

	if (!np_irq_usable(s, r, &q))
		return;
	if (ncpu < 2)
		return;
	/* Drops and squeezes on the IRQ CPUs vs everywhere: are the IRQ CPUs the bottleneck? */
	if (np_src_ok(s, NP_SRC_SOFTNET) && a->prev && a->dt > 0 && s->hs->softnet.n) {
		struct np_counter_view dtot, ztot;
		struct np_sn_cpu *d = np_sn_views(a, NP_SN_DROPPED, false, &dtot);
		struct np_sn_cpu *z = np_sn_views(a, NP_SN_SQUEEZE, false, &ztot);

		if (!d || !z) {
			free(d);
			free(z);
			np_skip(r, "out of memory");
			return;
		}
		/* Unsorted views are in row order: d[i] and z[i] are the same CPU. */
		for (size_t i = 0; i < s->hs->softnet.n; i++) {
			int cpu = d[i].cpu;

			drop_all += (double)d[i].v.delta;
			sq_all += (double)z[i].v.delta;
			if (cpu >= 0 && np_cpuset_has(&q.used, (unsigned)cpu)) {
				drop_in += (double)d[i].v.delta;
				sq_in += (double)z[i].v.delta;
			}
		}
		free(d);
		free(z);
		hot = q.nused < ncpu && drop_in + sq_in > 0 &&
		      drop_in + sq_in >= 0.8 * (drop_all + sq_all) &&
		      (drop_in / a->dt >= np_thr_warn(r) || sq_in / a->dt >= IRQ_SQUEEZE_BUSY);
	}
	want = (unsigned)q.nknown < ntgt ? (unsigned)q.nknown : ntgt;
	np_cpuset_format(&q.used, used, sizeof(used));
	if (hot) {
		sev = drop_in / a->dt >= np_thr_crit(r) ? NP_SEV_CRITICAL : NP_SEV_WARNING;
		f = np_emit(r, sev, "The %u CPUs serving %s's queue IRQs (CPUs %s of %u) take the "
			    "softnet load: %s drops/s, %s squeezes/s there", q.nused, s->dev.name,
			    used, ncpu, np_fmt_num(drop_in / a->dt, num, sizeof(num)),
			    np_fmt_num(sq_in / a->dt, num2, sizeof(num2)));
	} else if (q.nknown >= 2 && q.nused == 1) {
		sev = NP_SEV_WARNING;
		f = np_emit(r, sev, "All %zu queue IRQs of %s are delivered to CPU %s (of %u "
			    "online)", q.nknown, s->dev.name, used, ncpu);
	} else if (q.nused < want) {
		sev = q.nused * 2 <= want ? NP_SEV_WARNING : NP_SEV_INFO;
		f = np_emit(r, sev, "%zu queue IRQs of %s share %u CPUs (%s)", q.nknown,
			    s->dev.name, q.nused, used);
	} else {
		return;
	}
	if (!f)
		return;
	f->rank = drop_in / (a->dt > 0 ? a->dt : 1);
	np_ev_value(f, "queue_irqs", "irqs", (double)q.nq);
	np_ev_value(f, "irq_cpus", "cpus", (double)q.nused);
	np_ev_text(f, "irq_cpu_list", "%s", used);
	np_ev_value(f, "cpus_online", "cpus", (double)ncpu);
	if (hot) {
		np_ev_value(f, "softnet_drops_on_irq_cpus", "packets/s", drop_in / a->dt);
		np_ev_value(f, "time_squeeze_on_irq_cpus", "events/s", sq_in / a->dt);
	}
	alone = np_irq_alone(s);
	np_detail(f, "Each queue's interrupt and its NAPI softirq run on the CPU the IRQ is "
		     "delivered to%s, so the interface is capped by %u CPU%s.",
		  alone ? "" : "; queues sharing a CPU share its cycles", q.nused,
		  q.nused == 1 ? "" : "s");
	if (hot)
		np_detail(f, "Those CPUs carry %.0f%% of the host's softnet drops and squeezes: "
			     "more queues or CPUs for them is the fix, not bigger queues.",
			  100.0 * (drop_in + sq_in) / (drop_all + sq_all));
	if (s->hs->host.irqbalance == 0)
		np_detail(f, "irqbalance is not running.");
	if (alone) {
		np_irq_more_queues_or_rps(f, s, &q, &to, ntgt);
		np_remedy(f, "Cost: more queues use more interrupts and ring memory (ethtool -L "
			     "resets the queues on many drivers); RPS costs an inter-CPU interrupt "
			     "per batch and cache-line traffic.");
		return;
	}
	if (hot && q.nq < ntgt)
		np_remedy(f, "ethtool -L %s combined %u   # one queue per NUMA-local CPU",
			  s->dev.name, ntgt);
	np_irq_pin_lines(f, s, &to, NULL, true);
	np_remedy(f, "Cost: none at run time; the pinned CPUs also run these queues' softirq "
		     "work, so keep latency-critical threads off them.");
}

/* ---- irq.numa ---- */

static void run_numa(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_cpuset local = np_irq_target_cpus(s), on = np_online_cpus(s);
	struct np_finding *f;
	struct np_irq_sum q;
	bool *remote;
	size_t nr = 0, shown = 0;
	char lc[128];

	if (!np_irq_usable(s, r, &q))
		return;
	if (!s->dev.has_local_cpus) {
		np_skip(r, "NUMA locality of %s unknown (no device/local_cpulist)", s->dev.name);
		return;
	}
	/* One NUMA node (local = every online CPU): nothing can be remote. */
	if (np_cpuset_subset(&on, &local))
		return;
	remote = calloc(s->irqs.n, sizeof(*remote));
	if (!remote) {
		np_skip(r, "out of memory");
		return;
	}
	for (size_t i = 0; i < s->irqs.n; i++) {
		const struct np_irq_line *l = &s->irqs.lines[i];
		const struct np_cpuset *c = np_irq_cpus(l);

		if (!np_irq_is_rxq(l) || !c)
			continue;
		/* Effective affinity is where delivery goes; a plain mask only proves remoteness
		 * when none of its CPUs is local. */
		remote[i] = c == &l->effective ? !np_cpuset_subset(c, &local) :
			    cpuset_disjoint(c, &local);
		nr += remote[i];
	}
	if (!nr)
		goto out;
	np_cpuset_format(&local, lc, sizeof(lc));
	if (s->dev.numa_node >= 0)
		f = np_emit(r, NP_SEV_WARNING, "%zu of %zu queue IRQs of %s run outside its NUMA "
			    "node %lld (local CPUs %s)", nr, q.nknown, s->dev.name,
			    (long long)s->dev.numa_node, lc);
	else
		f = np_emit(r, NP_SEV_WARNING, "%zu of %zu queue IRQs of %s run outside its local "
			    "CPUs %s", nr, q.nknown, s->dev.name, lc);
	if (!f)
		goto out;
	np_ev_value(f, "remote_irqs", "irqs", (double)nr);
	np_ev_value(f, "numa_node", "", (double)s->dev.numa_node);
	np_ev_text(f, "local_cpus", "%s", lc);
	for (size_t i = 0; i < s->irqs.n && shown < 6; i++) {
		char key[48], cpus[96];

		if (!remote[i])
			continue;
		snprintf(key, sizeof(key), "irq%u", s->irqs.lines[i].irq);
		np_cpuset_format(np_irq_cpus(&s->irqs.lines[i]), cpus, sizeof(cpus));
		np_ev_text(f, key, "%s on CPU %s", s->irqs.lines[i].name, cpus);
		shown++;
	}
	np_detail(f, "The NIC writes packets into memory of its own node; a remote CPU reads them "
		     "across the interconnect, typically costing 20-40%% of throughput at high "
		     "packet rates. The application's CPU matters the same way.");
	np_irq_pin_lines(f, s, &local, remote, false);
	np_remedy(f, "Cost: none at run time; keep the receiving application on the same node "
		     "(numactl --cpunodebind=%lld) to benefit fully.",
		  (long long)(s->dev.numa_node >= 0 ? s->dev.numa_node : 0));
out:
	free(remote);
}

const struct np_check np_check_irq_affinity = {
	.id = "irq.affinity",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_HOST,
	.title = "Queue IRQs concentrated on few CPUs",
	.looks_at = "/proc/interrupts lines of the device's RX/TxRx queues, "
		    "/proc/irq/N/effective_affinity_list (else smp_affinity_list), softnet drops "
		    "and time_squeeze per CPU",
	.why = "A queue's hard IRQ and its NAPI softirq run on the CPU the IRQ is delivered to. "
	       "If all queues land on one CPU, or only a few of many CPUs serve them while those "
	       "CPUs drop or squeeze, that handful of CPUs caps the interface. A single-queue "
	       "device is inevitably on one CPU (see softnet.single-cpu); at low packet rates "
	       "placement does not matter.",
	.fix = "Pin each queue IRQ to its own NUMA-local CPU (echo CPU > "
	       "/proc/irq/N/smp_affinity_list) or add queues (ethtool -L); irqbalance may "
	       "rewrite manual pinning; managed IRQs reject writes.",
	.related = "/proc/irq/N/smp_affinity_list, irqbalance, ethtool -L",
	.kernel_notes = "effective_affinity exists since 4.13. Drivers using managed IRQs "
			"(nvme-like allocation, many modern NICs) spread IRQs themselves and "
			"refuse affinity writes (EIO).",
	.warn = 1, .crit = 100, .thr_unit = "softnet drops/s on the IRQ CPUs",
	.run = run_affinity,
};

const struct np_check np_check_irq_numa = {
	.id = "irq.numa",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_HOST,
	.title = "Queue IRQs on CPUs of another NUMA node",
	.looks_at = "/sys/class/net/IF/device/{numa_node,local_cpulist}, effective affinity of the "
		    "queue IRQs",
	.why = "The NIC DMAs into memory of its own NUMA node. A CPU of another node handling the "
	       "queue reads every packet across the interconnect, typically 20-40% less "
	       "throughput at high rates. Irrelevant on single-socket machines.",
	.fix = "Pin the queue IRQs (and ideally the application) to the NIC's local CPUs.",
	.related = "/proc/irq/N/smp_affinity_list, numactl, irqbalance",
	.warn = NAN, .crit = NAN,
	.run = run_numa,
};
