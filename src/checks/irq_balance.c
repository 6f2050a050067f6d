// SPDX-License-Identifier: GPL-2.0-only
/* irq.irqbalance: whether anything spreads the queue IRQs, and what irqbalance means for pinning. */
#include "irq_priv.h"

#include <stdio.h>

static void run_irqbalance(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_finding *f;
	struct np_irq_sum q;
	char used[128];

	if (s->hs->host.irqbalance < 0) {
		np_skip(r, "whether irqbalance runs is unknown");
		return;
	}
	if (s->hs->host.irqbalance == 1) {
		f = np_emit(r, NP_SEV_INFO, "irqbalance is running and manages IRQ affinity");
		np_ev_value(f, "irqbalance", "", 1);
		np_detail(f, "Its default placement is fine for most hosts. It rewrites "
			     "smp_affinity periodically, so manual pinning of %s's IRQs is undone "
			     "unless those IRQs are banned from it.", s->dev.name);
		np_remedy(f, "IRQBALANCE_ARGS=\"--banirq=N\" in /etc/default/irqbalance (or "
			     "/etc/sysconfig/irqbalance) for IRQs you pin by hand.");
		np_remedy(f, "Cost: banned IRQs no longer follow CPU hotplug or load changes.");
		return;
	}
	if (!np_src_ok(s, NP_SRC_INTERRUPTS))
		return;
	q = np_irq_summary(s);
	if (q.nknown < 2 || q.nused * 2 > q.nknown || q.nused >= np_ncpu_online(s))
		return;
	np_cpuset_format(&q.used, used, sizeof(used));
	f = np_emit(r, NP_SEV_INFO, "irqbalance is not running and %zu queue IRQs of %s sit on %u "
		    "CPU%s (%s)", q.nknown, s->dev.name, q.nused, q.nused == 1 ? "" : "s", used);
	np_ev_value(f, "irqbalance", "", 0);
	np_ev_value(f, "queue_irqs", "irqs", (double)q.nknown);
	np_ev_value(f, "irq_cpus", "cpus", (double)q.nused);
	np_detail(f, "Nothing spreads the IRQs: they stay where the driver or the kernel put them "
		     "(often CPU 0). Either pin them by hand (irq.affinity) or run irqbalance.");
	np_remedy(f, "systemctl enable --now irqbalance");
	np_remedy(f, "Cost: a small daemon; it moves IRQs periodically, which can fight manual "
		     "pinning and latency-tuned setups.");
}

const struct np_check np_check_irq_irqbalance = {
	.id = "irq.irqbalance",
	.stage = NP_STAGE_IRQ,
	.scope = NP_SCOPE_HOST,
	.title = "irqbalance state",
	.looks_at = "whether irqbalance runs: systemd's irqbalance.service cgroup, its socket "
		    "/run/irqbalance/irqbalance<PID>.sock (1.5+) or its pid file "
		    "/run/irqbalance.pid (sysvinit, upstart), with that PID alive; on a systemd "
		    "host none of them means not running, elsewhere unknown (processes are not "
		    "scanned: that cost grows with their number); queue IRQ placement",
	.why = "irqbalance spreads IRQs over CPUs and is a fine default; it periodically "
	       "rewrites affinity, undoing hand pinning of IRQs not banned from it. Without it, "
	       "IRQs stay wherever the driver put them, often all on CPU 0.",
	.fix = "Run irqbalance, or pin by hand and ban pinned IRQs from irqbalance.",
	.related = "irqbalance --banirq, IRQBALANCE_BANNED_CPULIST",
	.warn = NAN, .crit = NAN,
	.run = run_irqbalance,
};
