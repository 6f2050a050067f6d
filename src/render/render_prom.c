// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prometheus text exposition (format 0.0.4) of a doctor run, for node_exporter's textfile dir.
 * What node_exporter's default collectors already export (softnet_stat per CPU, MTU, link speed,
 * conntrack count and limit, sockstat memory in use) is not repeated: the same number under two
 * names disagrees with itself by a scrape. Written are the verdicts, the coverage, the per-stage
 * funnel and the configuration netpath judges that node_exporter lacks (contrib/prometheus/
 * README.md has the table).
 */
#include "render_monitor.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "render_prom_priv.h"

/* ---- the run itself ---- */

/* Each device of the stack once, with its driver ("" for a virtual device). */
static void stack_devices(struct np_prom *p, const struct np_doctor_view *v)
{
	const struct np_snapshot *s = v->a->cur;

	np_prom_family(p, NP_PROM_DEVICE, "netpath_stack_device_info", "gauge",
		       "Always 1: each device of the stack judged (kind, parent, driver; hardware 1 "
		       "when its link, pcie, nic and irq stages are judged on it)");
	if (!v->stack || !v->stack->n) {
		np_prom_device(p, s->ifname);
		np_prom_dbl(p, 1, "kind", np_dev_is_virtual(s) ? "virtual" : "physical",
			    "parent", "", "hardware", np_dev_is_virtual(s) ? "0" : "1",
			    "driver", np_snapshot_driver(s), NULL);
		return;
	}
	for (size_t i = 0; i < v->stack->n; i++) {
		const struct np_stack_dev *d = &v->stack->dev[i];

		np_prom_device(p, d->name);
		np_prom_dbl(p, 1, "kind", np_dev_kind_name(d->kind), "parent",
			    d->upper >= 0 ? v->stack->dev[d->upper].name : "", "hardware",
			    d->judged_hw ? "1" : "0", "driver", d->driver, NULL);
	}
}

static void meta(struct np_prom *p, const struct np_doctor_view *v)
{
	const struct np_snapshot *s = v->a->cur;
	struct timespec now;

	np_prom_family(p, NP_PROM_NETNS, "netpath_info", "gauge",
		       "Always 1: the netpath version and kernel release of this run");
	np_prom_dbl(p, 1, "version", NETPATH_VERSION, "kernel", s->hs->host.kernel, NULL);
	stack_devices(p, v);
	np_prom_family(p, NP_PROM_NETNS, "netpath_status", "gauge",
		       "The run's verdict as its exit code: 0 ok, 1 warning, 2 critical, 3 unknown "
		       "(no stage could be judged)");
	np_prom_dbl(p, (double)v->exit_code, NULL);
	np_prom_family(p, NP_PROM_NETNS, "netpath_worst_severity", "gauge",
		       "Worst severity of all findings: 0 ok, 1 info, 2 warning, 3 critical");
	np_prom_dbl(p, (double)np_report_worst(v->r), NULL);
	np_prom_family(p, NP_PROM_NETNS, "netpath_stage_judged", "gauge",
		       "Per stage: 1 judged, 0.5 partly (some evidence missing), 0 not judged; "
		       "absent where the stage does not apply");
	for (int st = 0; st < NP_STAGE__COUNT; st++) {
		enum np_cov_status cs = v->cov->st[st].status;

		if (cs != NP_COV_NOT_APPLICABLE)
			np_prom_dbl(p, cs == NP_COV_JUDGED ? 1 : cs == NP_COV_PARTIAL ? 0.5 : 0,
				    "stage", np_stage_name((enum np_stage)st), NULL);
	}
	np_prom_family(p, NP_PROM_NETNS, "netpath_interval_seconds", "gauge",
		       "Seconds between the two snapshots the rates come from (0: no sampling)");
	np_prom_dbl(p, v->a->prev ? v->a->dt : 0.0, NULL);
	clock_gettime(CLOCK_REALTIME, &now);
	np_prom_family(p, NP_PROM_NETNS, "netpath_last_run_timestamp_seconds", "gauge",
		       "Unix time at which this file was written");
	np_prom_dbl(p, (double)now.tv_sec + (double)(now.tv_nsec / 1000000) / 1e3, NULL);
}

static const char *check_help_sev =
	"Worst severity the check found: 0 ok, 1 info, 2 warning, 3 critical "
	"(0 when skipped: see netpath_check_skipped)";

/* The worst severity of finding i's check on finding i's device, from i on. */
static enum np_severity worst_from(const struct np_report *r, size_t i)
{
	enum np_severity worst = r->f[i].severity;

	for (size_t k = i + 1; k < r->n; k++)
		if (r->f[k].check == r->f[i].check && !strcmp(r->f[k].dev, r->f[i].dev))
			worst = np_sev_max(worst, r->f[k].severity);
	return worst;
}

/* Which device of the stack each finding is about: the worst severity per device and check
 * (bounded: the findings of one run). netpath_check_severity above is the worst over all. */
static void device_findings(struct np_prom *p, const struct np_report *r)
{
	np_prom_family(p, NP_PROM_DEVICE, "netpath_device_check_severity", "gauge",
		       "Worst severity of a check's findings about one device of the stack: 1 info, "
		       "2 warning, 3 critical (no series: no finding)");
	for (size_t i = 0; i < r->n; i++) {
		const struct np_finding *f = &r->f[i];
		bool first = true;

		/* One series per (device, check), carrying the worst of its findings. */
		for (size_t k = 0; k < i && first; k++)
			first = r->f[k].check != f->check || strcmp(r->f[k].dev, f->dev);
		if (!first)
			continue;
		np_prom_device(p, f->dev);
		np_prom_dbl(p, (double)worst_from(r, i), "check", f->check->id,
			    "stage", np_stage_name(f->check->stage), NULL);
	}
}

static void checks(struct np_prom *p, const struct np_report *r)
{
	np_prom_family(p, NP_PROM_NETNS, "netpath_check_severity", "gauge", check_help_sev);
	for (size_t i = 0; i < r->nres; i++)
		if (r->res[i].state != NP_CHECK_NOT_RUN)
			np_prom_dbl(p, (double)r->res[i].worst, "check", r->res[i].check->id,
				    "stage", np_stage_name(r->res[i].check->stage), NULL);
	np_prom_family(p, NP_PROM_NETNS, "netpath_check_skipped", "gauge",
		       "1 when the check could not run because its data was unavailable");
	for (size_t i = 0; i < r->nres; i++)
		if (r->res[i].state != NP_CHECK_NOT_RUN)
			np_prom_dbl(p, r->res[i].state == NP_CHECK_SKIPPED ? 1.0 : 0.0,
				    "check", r->res[i].check->id,
				    "stage", np_stage_name(r->res[i].check->stage), NULL);
	device_findings(p, r);
}

/*
 * The per-stage funnel: since-boot counters, and per-second gauges when sampled. A row of the
 * interface's own counters names it in interface; rows of the namespace's or the host's
 * counters have interface="" (which Prometheus stores as no label), so summing a stage over
 * interfaces cannot count them twice. Under --netns the host's rows are left out, as every
 * host-wide series is.
 */
static void funnel(struct np_prom *p, const struct np_funnel *fn)
{
	static const struct {
		const char *name, *type, *help;
		bool drop, rate;
	} fams[] = {
		{ "netpath_stage_packets_total", "counter",
		  "Packets seen at the stage since boot (scope: whose counters)", false, false },
		{ "netpath_stage_drops_total", "counter",
		  "Packets dropped at the stage since boot (scope: whose counters)", true, false },
		{ "netpath_stage_packets_per_second", "gauge",
		  "Packets per second at the stage over the sampling interval", false, true },
		{ "netpath_stage_drops_per_second", "gauge",
		  "Drops per second at the stage over the sampling interval", true, true },
	};

	for (size_t k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		np_prom_family(p, NP_PROM_DEVICE, fams[k].name, fams[k].type, fams[k].help);
		for (size_t i = 0; i < fn->n; i++) {
			const struct np_funnel_row *row = &fn->rows[i];
			const struct np_counter_view *c = fams[k].drop ? &row->drop : &row->in;
			const char *st = np_stage_name(row->stage), *sc = np_scope_name(row->scope);

			if (!c->present || (fams[k].rate && !c->sampled))
				continue;
			if (row->scope == NP_SCOPE_HOST && p->netns)
				continue;
			np_prom_device(p, row->scope == NP_SCOPE_INTERFACE ? fn->dev : "");
			if (fams[k].rate)
				np_prom_dbl(p, c->rate, "stage", st, "scope", sc, NULL);
			else
				np_prom_u64(p, c->total, "stage", st, "scope", sc, NULL);
		}
	}
}

/* One sysctl value as a gauge, scaled (usecs to seconds); absent when not read. */
static void sysctl(struct np_prom *p, const struct np_snapshot *s, enum np_sysctl_id id,
		   int idx, double scale, const char *lname, const char *lval)
{
	bool ok;
	int64_t val = np_sysctl_int(s, id, idx, &ok);

	if (!ok)
		return;
	if (lname)
		np_prom_dbl(p, (double)val * scale, lname, lval, NULL);
	else
		np_prom_dbl(p, (double)val * scale, NULL);
}

static void sysctl3(struct np_prom *p, const struct np_snapshot *s, enum np_sysctl_id id,
		    const char *lname, const char *const names[3])
{
	const struct np_sysctl *sc = np_sysctl_find(s, id);

	/* A triple is used only whole: two of three thresholds would mislead. */
	if (!sc || sc->err || sc->nvals != 3)
		return;
	for (int i = 0; i < 3; i++)
		sysctl(p, s, id, i, 1, lname, names[i]);
}

/* Whose value a sysctl is (sysctl_registry.h): the host's, or the namespace's own. */
static enum np_prom_scope owner(enum np_sysctl_id id)
{
	return np_sysctl_def(id)->owner == NP_SYSCTL_OWNER_HOST ? NP_PROM_HOST : NP_PROM_NETNS;
}

static void sysctls(struct np_prom *p, const struct np_snapshot *s)
{
	static const char *const thr[3] = { "min", "pressure", "max" };
	static const char *const set[3] = { "min", "default", "max" };

	np_prom_family(p, owner(NP_SYSCTL_NETDEV_MAX_BACKLOG), "netpath_netdev_max_backlog_packets",
		       "gauge",
		       "net.core.netdev_max_backlog: per-CPU backlog queue length");
	sysctl(p, s, NP_SYSCTL_NETDEV_MAX_BACKLOG, 0, 1, NULL, NULL);
	np_prom_family(p, owner(NP_SYSCTL_NETDEV_BUDGET), "netpath_netdev_budget_packets", "gauge",
		       "net.core.netdev_budget: packets one NET_RX run may process");
	sysctl(p, s, NP_SYSCTL_NETDEV_BUDGET, 0, 1, NULL, NULL);
	np_prom_family(p, owner(NP_SYSCTL_NETDEV_BUDGET_USECS), "netpath_netdev_budget_seconds",
		       "gauge",
		       "net.core.netdev_budget_usecs / 1e6: time one NET_RX run may take");
	sysctl(p, s, NP_SYSCTL_NETDEV_BUDGET_USECS, 0, 1e-6, NULL, NULL);
	np_prom_family(p, owner(NP_SYSCTL_RMEM_MAX), "netpath_rmem_max_bytes", "gauge",
		       "net.core.rmem_max: the largest SO_RCVBUF an application may set");
	sysctl(p, s, NP_SYSCTL_RMEM_MAX, 0, 1, NULL, NULL);
	np_prom_family(p, owner(NP_SYSCTL_WMEM_MAX), "netpath_wmem_max_bytes", "gauge",
		       "net.core.wmem_max: the largest SO_SNDBUF an application may set");
	sysctl(p, s, NP_SYSCTL_WMEM_MAX, 0, 1, NULL, NULL);
	np_prom_family(p, owner(NP_SYSCTL_TCP_RMEM), "netpath_tcp_rmem_bytes", "gauge",
		       "net.ipv4.tcp_rmem: TCP receive buffer min, default and autotuning max");
	sysctl3(p, s, NP_SYSCTL_TCP_RMEM, "setting", set);
	np_prom_family(p, owner(NP_SYSCTL_TCP_WMEM), "netpath_tcp_wmem_bytes", "gauge",
		       "net.ipv4.tcp_wmem: TCP send buffer min, default and autotuning max");
	sysctl3(p, s, NP_SYSCTL_TCP_WMEM, "setting", set);

	np_prom_family(p, owner(NP_SYSCTL_TCP_MEM), "netpath_tcp_mem_pages", "gauge",
		       "net.ipv4.tcp_mem thresholds in pages: min, pressure, max (pages in use: "
		       "node_sockstat_TCP_mem)");
	sysctl3(p, s, NP_SYSCTL_TCP_MEM, "threshold", thr);
	np_prom_family(p, owner(NP_SYSCTL_UDP_MEM), "netpath_udp_mem_pages", "gauge",
		       "net.ipv4.udp_mem thresholds in pages: min, pressure, max (pages in use: "
		       "node_sockstat_UDP_mem)");
	sysctl3(p, s, NP_SYSCTL_UDP_MEM, "threshold", thr);
	np_prom_family(p, NP_PROM_HOST, "netpath_page_size_bytes", "gauge",
		       "Page size: the unit of tcp_mem and udp_mem");
	if (!s->hs->mem.page_size_assumed)
		np_prom_u64(p, s->hs->mem.page_size, NULL);

	/* node_exporter's conntrack collector reads the namespace it runs in (the host's):
	 * only a container's count is ours to add. */
	if (!p->netns)
		return;
	np_prom_family(p, owner(NP_SYSCTL_NF_CONNTRACK_COUNT), "netpath_conntrack_entries", "gauge",
		       "net.netfilter.nf_conntrack_count of the --netns namespace (the host's own is "
		       "node_exporter's node_nf_conntrack_entries)");
	sysctl(p, s, NP_SYSCTL_NF_CONNTRACK_COUNT, 0, 1, NULL, NULL);
}

void np_render_doctor_prom(FILE *out, const struct np_doctor_view *v, bool raw_driver_counters)
{
	const struct np_snapshot *s = v->a->cur;
	const struct np_snapshot *one[1] = { s };
	const struct np_snapshot *const *devs = v->devs && v->ndevs ? v->devs : one;
	size_t ndevs = v->devs && v->ndevs ? v->ndevs : 1;
	struct np_prom p = { .out = out, .netns = v->netns };

	meta(&p, v);
	checks(&p, v->r);
	funnel(&p, v->funnel);
	np_prom_nic(&p, devs, ndevs, raw_driver_counters);
	sysctls(&p, s);
	np_prom_qdiscs(&p, devs, ndevs);
}
