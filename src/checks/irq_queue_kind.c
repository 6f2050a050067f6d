// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stage "irq": what to say when the receive work sits on one CPU because of the traffic or the
 * queue count, not the IRQ placement. Three causes look alike in /proc/interrupts and each has
 * its own fix: queues spread over too few CPUs (pinning, irq_place.c), traffic that lands in
 * one of several queues (the RSS hash, the flows, RPS), and a device with one queue (channels,
 * or the hypervisor's queue count). Pinning cannot help the last two, so it is never proposed
 * for them.
 */
#include "irq_priv.h"

#include <string.h>

/* Drivers whose queue count the hypervisor decides: the guest can only enable what the host
 * offers. */
static const char *hypervisor_queues(const char *drv)
{
	if (!strcmp(drv, "virtio_net"))
		return "the VM's NIC needs N queue pairs on the host side (libvirt <driver "
		       "queues='N'/>, QEMU virtio-net-pci mq=on with a multiqueue tap)";
	if (!strcmp(drv, "vmxnet3"))
		return "vmxnet3 gets as many queues as the VM has vCPUs (up to the hypervisor's "
		       "limit) with RSS enabled in the driver";
	if (!strcmp(drv, "hv_netvsc"))
		return "hv_netvsc gets as many channels as Hyper-V offers (vRSS, the VM's vCPUs)";
	return NULL;
}

/* Some receive queue already has RPS targets: proposing them again would change nothing. */
static bool rps_in_force(const struct np_snapshot *s)
{
	for (size_t i = 0; i < s->dev.n_rxq; i++)
		if (s->dev.rxq[i].has_rps && np_cpuset_count(&s->dev.rxq[i].rps_cpus))
			return true;
	return false;
}

/* RPS over the target CPUs other than 'busy' (the CPU serving the hot queue; -1 = none), or
 * that it is set already (check_util.h: nic.queue-drops proposes it too). */
void np_rps_remedy(struct np_finding *f, const struct np_snapshot *s, int busy)
{
	struct np_cpuset to = np_irq_target_cpus(s);
	char mask[160], cpus[128];

	if (rps_in_force(s)) {
		np_detail(f, "RPS is already set on %s's receive queues (rps_cpus): it spreads the "
			     "protocol work per flow, so what remains on one CPU is one flow or the "
			     "interrupt and driver work of the queue.", s->dev.name);
		return;
	}
	if (busy >= 0 && np_cpuset_count(&to) > 1 && np_cpuset_has(&to, (unsigned)busy))
		to.w[busy / 64] &= ~(1ull << (busy % 64));
	np_fmt_cpumask(&to, mask, sizeof(mask));
	np_cpuset_format(&to, cpus, sizeof(cpus));
	np_remedy(f, "for q in /sys/class/net/%s/queues/rx-*; do echo %s > $q/rps_cpus; done   "
		     "# RPS: protocol work of each flow on CPUs %s", s->dev.name, mask, cpus);
}

void np_irq_one_queue_fix(struct np_finding *f, const struct np_snapshot *s, int busy_cpu)
{
	const char *ifn = s->dev.name;

	np_detail(f, "RSS hashes each flow to one queue, so traffic whose hashed headers are all "
		     "alike keeps one queue and one CPU busy: a single large flow, UDP hashed on "
		     "addresses only, PPPoE sessions or GRE and other tunnels the NIC does not "
		     "hash inside, routed traffic between two addresses. Moving IRQs does not "
		     "help; more flows, RSS hash fields, or RPS for the protocol work do.");
	if (np_src_ok(s, NP_SRC_IRQ_AFFINITY) && np_irq_alone(s))
		np_detail(f, "Each queue IRQ of %s already has a CPU of its own: the placement is "
			     "not the cause.", ifn);
	np_remedy(f, "ethtool -n %s rx-flow-hash udp4   # which header fields are hashed (also "
		     "tcp4, udp6, tcp6)", ifn);
	np_remedy(f, "ethtool -N %s rx-flow-hash udp4 sdfn   # hash UDP on ports too", ifn);
	np_rps_remedy(f, s, busy_cpu);
	np_remedy(f, "PPPoE, GRE or other tunnels: the NIC sees one outer flow; RPS hashes in "
		     "the kernel, whose flow dissector looks inside PPPoE and GRE.");
	np_remedy(f, "Cost: port hashing puts fragments of one datagram on other queues "
		     "(fragments carry no ports); RPS costs an inter-CPU interrupt per batch; a "
		     "single flow stays on one CPU whatever is done.");
}

void np_irq_single_queue_fix(struct np_finding *f, const struct np_snapshot *s)
{
	const char *ifn = s->dev.name, *hv = hypervisor_queues(np_snapshot_driver(s));

	np_detail(f, "%s has one queue IRQ: all its receive interrupts and NAPI polling run on "
		     "one CPU (softnet.single-cpu says whether RPS spreads the protocol work). "
		     "Pinning cannot spread one interrupt; more queues or RPS can.", ifn);
	np_remedy(f, "ethtool -l %s   # how many channels the device offers", ifn);
	np_remedy(f, "ethtool -L %s combined N   # N = min(offered, CPUs of the NIC's NUMA "
		     "node)", ifn);
	if (hv)
		np_remedy(f, "%s: %s.", np_snapshot_driver(s), hv);
	np_rps_remedy(f, s, -1);
	np_remedy(f, "Cost: ethtool -L resets the queues on many drivers (a second or more "
		     "without traffic); RPS costs an inter-CPU interrupt per batch.");
}
