// SPDX-License-Identifier: GPL-2.0-only
/* Shared check helpers: MIB counter groups, the drop-counter finding, per-CPU softnet views. */
#include "check_util.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- MIB counter groups ---- */

struct np_counter_view np_mib_sum(const struct np_analysis *a, const char *const *names)
{
	struct np_counter_view v = { 0 };

	for (size_t i = 0; names[i]; i++)
		v = np_view_sum(v, np_view_mib(a, names[i]));
	return v;
}

void np_mib_evidence(struct np_finding *f, const struct np_analysis *a, const char *const *names,
		     const char *unit)
{
	for (size_t i = 0; names[i]; i++) {
		struct np_counter_view v = np_view_mib(a, names[i]);

		if (v.present)
			np_ev_counter(f, names[i], unit, &v);
	}
}

const char *np_mib_missing(const struct np_analysis *a, const struct np_counter_view *v)
{
	/* snmp and netstat split the names between them: either one may hold the list. */
	if (!np_src_ok(a->cur, NP_SRC_SNMP) && !np_src_ok(a->cur, NP_SRC_NETSTAT))
		return a->cur->captured ? "/proc/net/snmp and /proc/net/netstat not in this capture" :
		       "/proc/net/snmp and /proc/net/netstat not readable";
	if (!v->present)
		return "counters not reported by this kernel";
	return NULL;
}

void np_rate_text(const struct np_counter_view *v, char *buf, size_t size)
{
	if (v->sampled && v->delta)
		snprintf(buf, size, "%.1f/s (%llu since boot)", v->rate,
			 (unsigned long long)v->total);
	else
		snprintf(buf, size, "%llu since boot%s", (unsigned long long)v->total,
			 v->sampled ? ", none during the sample" : "");
}

bool np_mib_read(const struct np_analysis *a, struct np_report *r, const char *const *names,
		 struct np_counter_view *v)
{
	const char *why;

	*v = np_mib_sum(a, names);
	why = np_mib_missing(a, v);
	/* Both files read and the counter in neither: this kernel lacks it. One file missing
	 * (TcpExt lives only in netstat) is missing evidence. */
	if (why && !v->present && np_src_ok(a->cur, NP_SRC_SNMP) &&
	    np_src_ok(a->cur, NP_SRC_NETSTAT))
		np_not_applicable(r, "%s", why);
	else if (why)
		np_skip(r, "%s", why);
	if (why)
		return false;
	return true;
}

enum np_severity np_mib_verdict(const struct np_analysis *a, struct np_report *r,
				const char *const *names, struct np_counter_view *v)
{
	if (!np_mib_read(a, r, names, v))
		return NP_SEV_OK;
	return np_verdict(v, np_thr_warn(r), np_thr_crit(r));
}

struct np_finding *np_mib_drop_finding(const struct np_analysis *a, struct np_report *r,
				       const char *const *names, const char *unit,
				       const char *what)
{
	struct np_counter_view v;
	enum np_severity sev = np_mib_verdict(a, r, names, &v);
	struct np_finding *f;
	char rate[96];

	if (sev == NP_SEV_OK)
		return NULL;
	np_rate_text(&v, rate, sizeof(rate));
	f = np_emit(r, sev, "%s: %s", what, rate);
	if (!f)
		return NULL;
	f->rank = v.rate;
	np_mib_evidence(f, a, names, unit);
	return f;
}

/* ---- per-CPU softnet_stat ---- */

static uint64_t sn_field(const struct np_softnet_row *row, size_t off)
{
	return *(const uint64_t *)(const void *)((const char *)row + off);
}

bool np_sn_sampled(const struct np_analysis *a)
{
	return a->prev && a->dt > 0 && np_src_ok(a->prev, NP_SRC_SOFTNET) && a->prev->softnet.n;
}

/* Rows are matched by CPU id, not position: a CPU may go offline between the snapshots. */
static const struct np_softnet_row *sn_prev_row(const struct np_analysis *a, size_t i, int cpu)
{
	const struct np_softnet *p;

	if (!np_sn_sampled(a))
		return NULL;
	p = &a->prev->softnet;
	if (i < p->n && p->rows[i].cpu == cpu)
		return &p->rows[i];
	for (size_t j = 0; j < p->n; j++)
		if (p->rows[j].cpu == cpu)
			return &p->rows[j];
	return NULL;
}

static int sn_cmp(const void *x, const void *y)
{
	const struct np_sn_cpu *a = x, *b = y;

	return a->key < b->key ? 1 : a->key > b->key ? -1 : a->cpu - b->cpu;
}

struct np_sn_cpu *np_sn_views(const struct np_analysis *a, size_t off, bool sorted,
			      struct np_counter_view *total)
{
	const struct np_softnet *s = &a->cur->softnet;
	struct np_sn_cpu *c;

	memset(total, 0, sizeof(*total));
	if (!s->n || !(c = calloc(s->n, sizeof(*c))))
		return NULL;
	total->sampled = np_sn_sampled(a);
	for (size_t i = 0; i < s->n; i++) {
		const struct np_softnet_row *pr = sn_prev_row(a, i, s->rows[i].cpu);

		c[i].cpu = s->rows[i].cpu;
		c[i].v = np_view_u32(a, pr ? sn_field(pr, off) : NP_NA, sn_field(&s->rows[i], off));
		c[i].key = total->sampled ? (double)c[i].v.delta : (double)c[i].v.total;
		if (!c[i].v.present)
			continue;
		total->present = true;
		total->total += c[i].v.total;
		total->delta += c[i].v.delta;
	}
	total->rate = total->sampled ? (double)total->delta / a->dt : 0;
	if (sorted)
		qsort(c, s->n, sizeof(*c), sn_cmp);
	return c;
}

const struct np_sn_cpu *np_sn_find(const struct np_sn_cpu *c, size_t n, int cpu)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].cpu == cpu)
			return &c[i];
	return NULL;
}

bool np_irq_is_rxq(const struct np_irq_line *l)
{
	return l->role == NP_IRQ_RX || l->role == NP_IRQ_TXRX;
}

const struct np_cpuset *np_irq_cpus(const struct np_irq_line *l)
{
	if (l->has_effective && np_cpuset_count(&l->effective))
		return &l->effective;
	if (l->has_affinity && np_cpuset_count(&l->affinity))
		return &l->affinity;
	return NULL;
}

bool np_rx_cpus(const struct np_snapshot *s, struct np_cpuset *irq, struct np_cpuset *rps)
{
	bool irq_known = false;

	np_cpuset_zero(irq);
	np_cpuset_zero(rps);
	if (np_src_ok(s, NP_SRC_INTERRUPTS) && np_src_ok(s, NP_SRC_IRQ_AFFINITY))
		for (size_t i = 0; i < s->irqs.n; i++) {
			const struct np_cpuset *c = np_irq_cpus(&s->irqs.lines[i]);

			if (!np_irq_is_rxq(&s->irqs.lines[i]) || !c)
				continue;
			np_cpuset_or(irq, c);
			irq_known = true;
		}
	if (np_src_ok(s, NP_SRC_NETDEV))
		for (size_t i = 0; i < s->dev.n_rxq; i++)
			if (s->dev.rxq[i].has_rps)
				np_cpuset_or(rps, &s->dev.rxq[i].rps_cpus);
	return irq_known || np_cpuset_count(rps);
}

struct np_cpuset np_online_cpus(const struct np_snapshot *s)
{
	struct np_cpuset on = s->host.online;

	if (!np_cpuset_count(&on))
		for (size_t i = 0; i < s->softnet.n; i++)
			if (s->softnet.rows[i].cpu >= 0)
				np_cpuset_set(&on, (unsigned)s->softnet.rows[i].cpu);
	/* The columns of /proc/interrupts are the online CPUs too. */
	if (!np_cpuset_count(&on))
		for (size_t c = 0; c < s->irqs.ncols; c++)
			if (s->irqs.col_cpu[c] >= 0 && s->irqs.col_cpu[c] < NP_MAX_CPUS)
				np_cpuset_set(&on, (unsigned)s->irqs.col_cpu[c]);
	return on;
}

unsigned np_ncpu_online(const struct np_snapshot *s)
{
	struct np_cpuset on;

	if (s->host.ncpu_online)
		return s->host.ncpu_online;
	on = np_online_cpus(s);
	return np_cpuset_count(&on);
}

const char *np_fmt_num(double v, char *buf, size_t size)
{
	char tmp[32];
	size_t len, o = 0;

	if (v < 10 && v != (double)(long long)v) {
		snprintf(buf, size, "%.1f", v);
		return buf;
	}
	len = (size_t)snprintf(tmp, sizeof(tmp), "%.0f", v);
	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (i && (len - i) % 3 == 0 && o + 2 < size)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

void np_fmt_cpumask(const struct np_cpuset *m, char *buf, size_t size)
{
	int hi = -1;
	size_t len = 0;

	for (int cpu = 0; cpu < NP_MAX_CPUS; cpu++)
		if (np_cpuset_has(m, (unsigned)cpu))
			hi = cpu;
	if (hi < 0) {
		snprintf(buf, size, "0");
		return;
	}
	for (int g = hi / 32; g >= 0 && len < size; g--) {
		uint32_t w = (uint32_t)(m->w[g / 2] >> (32 * (g % 2)));

		len += (size_t)snprintf(buf + len, size - len, g == hi / 32 ? "%x" : ",%08x", w);
	}
}

const char *np_src_why(const struct np_snapshot *s, enum np_source id, char *buf, size_t size)
{
	const struct np_src *src = &s->src[id];
	const char *st = src->status == NP_SRC_MALFORMED ? "refused" :
			 np_src_status_name(src->status);

	if (src->detail[0] && src->status == NP_SRC_ABSENT)
		snprintf(buf, size, "%s", src->detail);
	else if (src->detail[0])
		snprintf(buf, size, "%s: %s", st, src->detail);
	else
		snprintf(buf, size, "%s", st);
	return buf;
}

bool np_kernel_version(const struct np_snapshot *s, unsigned *major, unsigned *minor)
{
	return s->host.kernel[0] && sscanf(s->host.kernel, "%u.%u", major, minor) == 2;
}

bool np_kernel_before(const struct np_snapshot *s, unsigned major, unsigned minor)
{
	unsigned ma, mi;

	return np_kernel_version(s, &ma, &mi) && (ma < major || (ma == major && mi < minor));
}

/*
 * A live run inside a child network namespace (a container) has no files for the host-wide
 * sysctls; netdev_max_backlog exists on every kernel, so its absence tells.
 */
bool np_in_child_netns(const struct np_snapshot *s)
{
	const struct np_sysctl *e = np_sysctl_find(s, "net.core.netdev_max_backlog");

	return !s->captured && e && e->err == ENOENT;
}

const char *np_sysctl_absence(const struct np_snapshot *s, const char *key, char *buf,
			      size_t size)
{
	const struct np_sysctl *e = np_sysctl_find(s, key);

	if (s->captured)
		snprintf(buf, size, "%s is not in this capture", key);
	else if (e && e->host_wide && np_in_child_netns(s))
		snprintf(buf, size, "%s is host-wide: no file inside a network namespace (run on "
			 "the host, or doctor --netns from there)", key);
	else if (s->host.kernel[0])
		snprintf(buf, size, "%s is not present on this kernel (%s)", key, s->host.kernel);
	else
		snprintf(buf, size, "%s is not present on this kernel", key);
	return buf;
}

const char *np_sysctl_absence_short(const struct np_snapshot *s, const char *key)
{
	const struct np_sysctl *e = np_sysctl_find(s, key);

	if (s->captured)
		return "not in this capture";
	if (e && e->host_wide && np_in_child_netns(s))
		return "host-wide, not visible in this network namespace";
	if (e && e->err == ENOENT)
		return "not on this kernel";
	return "not readable";
}

void np_skip_sysctl(const struct np_analysis *a, struct np_report *r, const char *key)
{
	const struct np_sysctl *e = np_sysctl_find(a->cur, key);
	char why[224];

	if (!e)
		np_skip(r, "%s not readable", key);
	else if (e->err == ENOENT)
		np_skip(r, "%s", np_sysctl_absence(a->cur, key, why, sizeof(why)));
	else if (e->err == EACCES || e->err == EPERM)
		np_skip(r, "%s not readable (permission denied)", key);
	else if (e->err)
		np_skip(r, "%s not readable: %s", key, strerror(e->err));
	else
		np_skip(r, "%s holds an unexpected value '%.40s'", key, e->raw);
}
