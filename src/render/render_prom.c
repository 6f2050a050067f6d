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

/* Length of the well-formed UTF-8 sequence at s (RFC 3629), 0 if it is not one. Stops at the
 * terminating NUL, which is never a continuation byte. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		lo = s[0] == 0xe0 ? 0xa0 : 0x80;	/* no overlong forms */
		hi = s[0] == 0xed ? 0x9f : 0xbf;	/* no surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		lo = s[0] == 0xf0 ? 0x90 : 0x80;
		hi = s[0] == 0xf4 ? 0x8f : 0xbf;	/* nothing past U+10FFFF */
	} else {
		return 0;
	}
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * The text between the quotes of a label value (quote = true) or of a HELP line: backslash,
 * newline and (in labels) the double quote escaped as the format requires. Names come from
 * drivers and the kernel, so bytes that are not UTF-8 and other control characters become '?':
 * a parser must never see a broken line. Truncates at a whole character.
 */
void np_prom_escape(const char *in, bool quote, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	/* Most names are printable ASCII without a quote or backslash: copied as they are, with
	 * the same truncation as the loop below (size - 1 bytes and the NUL). */
	while (s[o] >= 0x20 && s[o] < 0x7f && s[o] != '\\' && s[o] != '"')
		o++;
	if (!s[o] || o + 1 >= size) {
		if (o >= size)
			o = size - 1;
		memcpy(out, in, o);
		out[o] = '\0';
		return;
	}
	memcpy(out, in, o);
	s += o;
	while (*s) {
		const char *rep = NULL;
		size_t n = 1, len;

		if (*s == '\\')
			rep = "\\\\";
		else if (*s == '\n')
			rep = "\\n";
		else if (*s == '"' && quote)
			rep = "\\\"";
		else if (*s < 0x20 || *s == 0x7f || !(n = utf8_len(s)))
			rep = "?", n = 1;
		len = rep ? strlen(rep) : n;
		if (o + len >= size)
			break;
		memcpy(out + o, rep ? rep : (const char *)s, len);
		o += len;
		s += n;
	}
	out[o] = '\0';
}

void np_prom_family(struct np_prom *p, enum np_prom_scope sc, const char *name,
		    const char *type, const char *help)
{
	p->name = name;
	p->type = type;
	p->help = help;
	p->header_done = false;
	p->dev = NULL;
	p->netns_label = sc != NP_PROM_HOST && p->netns;
	p->skip = sc == NP_PROM_HOST && p->netns;
	p->device_family = sc == NP_PROM_DEVICE;
}

/*
 * A sample line is put together in a buffer and written with one fwrite: fprintf's format
 * parsing, and the stream lock each stdio call takes, were a quarter of the user-space
 * instructions of a `doctor --format prometheus` run, for lines that are only strings put one
 * after the other. A line longer than the buffer is written in pieces.
 */
struct line {
	FILE *out;
	size_t n;
	char buf[1024];
};

static void put_n(struct line *l, const char *s, size_t len)
{
	if (l->n + len > sizeof(l->buf)) {
		fwrite(l->buf, 1, l->n, l->out);
		l->n = 0;
		if (len > sizeof(l->buf)) {
			fwrite(s, 1, len, l->out);
			return;
		}
	}
	memcpy(l->buf + l->n, s, len);
	l->n += len;
}

static void put(struct line *l, const char *s)
{
	put_n(l, s, strlen(s));
}

static void put_label(struct line *l, const char *sep, const char *name, const char *raw)
{
	char esc[NP_PROM_LABEL_MAX];

	np_prom_escape(raw, true, esc, sizeof(esc));
	put(l, sep);
	put(l, name);
	put_n(l, "=\"", 2);
	put(l, esc);
	put_n(l, "\"", 1);
}

/* The labels a sample starts with (interface, netns: see enum np_prom_scope), written after
 * "name{"; returns the separator the next label needs. */
static const char *scope_labels(const struct np_prom *p, struct line *l)
{
	const char *sep = "";

	if (p->device_family) {
		put_label(l, sep, "interface", p->dev ? p->dev : "");
		sep = ",";
	}
	if (p->netns_label) {
		put_label(l, sep, "netns", p->netns);
		sep = ",";
	}
	return sep;
}

/* One sample of the current family: value, then NULL-terminated label name/value pairs (raw
 * values; escaped here), after the family's scope labels. */
static void vsample(struct np_prom *p, const char *value, va_list ap)
{
	struct line l = { .out = p->out };
	const char *k, *sep;
	va_list peek;
	bool bare;

	if (p->skip)
		return;
	if (!p->header_done) {
		char help[512];

		np_prom_escape(p->help, false, help, sizeof(help));
		put_n(&l, "# HELP ", 7);
		put(&l, p->name);
		put_n(&l, " ", 1);
		put(&l, help);
		put_n(&l, "\n# TYPE ", 8);
		put(&l, p->name);
		put_n(&l, " ", 1);
		put(&l, p->type);
		put_n(&l, "\n", 1);
		p->header_done = true;
	}
	/* A sample without labels is written bare ("name 1"), not "name{} 1". */
	va_copy(peek, ap);
	bare = !p->device_family && !p->netns_label && !va_arg(peek, const char *);
	va_end(peek);
	put(&l, p->name);
	if (!bare) {
		put_n(&l, "{", 1);
		sep = scope_labels(p, &l);
		while ((k = va_arg(ap, const char *))) {
			put_label(&l, sep, k, va_arg(ap, const char *));
			sep = ",";
		}
		put_n(&l, "}", 1);
	}
	put_n(&l, " ", 1);
	put(&l, value);
	put_n(&l, "\n", 1);
	fwrite(l.buf, 1, l.n, l.out);
}

/* v in decimal, as "%" PRIu64 writes it, ending at end (exclusive); returns the first digit. */
static char *u64_digits(uint64_t v, char *end)
{
	*--end = '\0';
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

/* Not reported (NP_NA) leaves the series out: absent is not zero. */
void np_prom_u64(struct np_prom *p, uint64_t v, ...)
{
	char num[32];
	va_list ap;

	if (!np_has(v))
		return;
	va_start(ap, v);
	vsample(p, u64_digits(v, num + sizeof(num)), ap);
	va_end(ap);
}

void np_prom_dbl(struct np_prom *p, double v, ...)
{
	char num[48];
	const char *text = num;
	va_list ap;

	if (!isfinite(v))
		return;
	v += 0.0;	/* no "-0" */
	if (v == floor(v) && fabs(v) < 1e15) {
		/* What "%.0f" writes for a whole number below 2^53, without printf's
		 * multiple-precision path. */
		char *d = u64_digits((uint64_t)fabs(v), num + sizeof(num));

		if (v < 0)
			*--d = '-';
		text = d;
	} else {
		snprintf(num, sizeof(num), "%.15g", v);
	}
	va_start(ap, v);
	vsample(p, text, ap);
	va_end(ap);
}

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
	np_prom_dbl(p, 1, "version", NETPATH_VERSION, "kernel", s->host.kernel, NULL);
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
	if (!s->mem.page_size_assumed)
		np_prom_u64(p, s->mem.page_size, NULL);

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
