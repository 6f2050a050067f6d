// SPDX-License-Identifier: GPL-2.0-only
/* Counter views over the interval, the common verdict, units, the engine that runs the table. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct np_counter_view view(const struct np_analysis *a, uint64_t prev, uint64_t cur,
				   uint64_t modulo)
{
	struct np_counter_view v = { 0 };

	if (!np_has(cur))
		return v;
	v.present = true;
	v.total = cur;
	if (!a->prev || a->dt <= 0 || !np_has(prev))
		return v;
	v.sampled = true;
	if (cur >= prev)
		v.delta = cur - prev;
	else if (modulo)
		v.delta = modulo - prev + cur;	/* one wrap of a 32-bit counter */
	else
		v.delta = 0;			/* reset (device re-created): no evidence */
	v.rate = (double)v.delta / a->dt;
	return v;
}

struct np_counter_view np_view_u64(const struct np_analysis *a, uint64_t prev, uint64_t cur)
{
	return view(a, prev, cur, 0);
}

struct np_counter_view np_view_u32(const struct np_analysis *a, uint64_t prev, uint64_t cur)
{
	return view(a, prev, cur, 1ull << 32);
}

struct np_counter_view np_view_mib(const struct np_analysis *a, const char *name)
{
	return view(a, a->prev ? np_mib(a->prev, name) : NP_NA, np_mib(a->cur, name), 0);
}

struct np_counter_view np_view_sum(struct np_counter_view x, struct np_counter_view y)
{
	struct np_counter_view v;

	if (!x.present)
		return y;
	if (!y.present)
		return x;
	v.present = true;
	v.total = x.total + y.total;
	v.sampled = x.sampled && y.sampled;
	v.delta = v.sampled ? x.delta + y.delta : 0;
	v.rate = v.sampled ? x.rate + y.rate : 0;
	return v;
}

enum np_severity np_verdict(const struct np_counter_view *v, double warn, double crit)
{
	if (!v->present || v->total == 0)
		return NP_SEV_OK;
	if (!v->sampled)
		return NP_SEV_INFO;
	if (v->delta == 0)
		return NP_SEV_INFO;
	if (!isnan(crit) && v->rate >= crit)
		return NP_SEV_CRITICAL;
	if (!isnan(warn) && v->rate >= warn)
		return NP_SEV_WARNING;
	return NP_SEV_INFO;
}

const char *np_fmt_bytes(double bytes, char *buf, size_t size)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	int u = 0;

	while (bytes >= 1024 && u < 5) {
		bytes /= 1024;
		u++;
	}
	if (u == 0 || bytes >= 100 || bytes == (double)(long long)bytes)
		snprintf(buf, size, "%.0f %s", bytes, units[u]);
	else
		snprintf(buf, size, "%.1f %s", bytes, units[u]);
	return buf;
}

const char *np_fmt_bps(double bps, char *buf, size_t size)
{
	static const char *const units[] = { "bit/s", "Kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" };
	int u = 0;

	while (bps >= 1000 && u < 4) {
		bps /= 1000;
		u++;
	}
	if (bps == (double)(long long)bps)
		snprintf(buf, size, "%.0f %s", bps, units[u]);
	else
		snprintf(buf, size, "%.1f %s", bps, units[u]);
	return buf;
}

double np_bdp_bytes(double bw_bps, double rtt_ms)
{
	if (isnan(bw_bps) || isnan(rtt_ms) || bw_bps <= 0 || rtt_ms <= 0)
		return NAN;
	return bw_bps / 8.0 * rtt_ms / 1000.0;
}

double np_rtt_covered_ms(double bytes, double bw_bps)
{
	if (isnan(bw_bps) || bw_bps <= 0)
		return NAN;
	return bytes * 8.0 / bw_bps * 1000.0;
}

void np_analysis_derive(struct np_analysis *a)
{
	const struct np_snapshot *s = a->cur;

	a->bw_bps = NAN;
	a->bw_source = "unknown";
	if (a->opt && !isnan(a->opt->bandwidth_bps) && a->opt->bandwidth_bps > 0) {
		a->bw_bps = a->opt->bandwidth_bps;
		a->bw_source = "--bandwidth";
	} else if (np_has(s->dev.speed_mbps) && s->dev.speed_mbps > 0) {
		a->bw_bps = (double)s->dev.speed_mbps * 1e6;
		a->bw_source = np_dev_is_virtual(s) ? "link speed beneath" : "link speed";
	}
	a->rtt_ms = NAN;
	a->rtt_source = "unknown";
	if (a->opt && !isnan(a->opt->rtt_ms) && a->opt->rtt_ms > 0) {
		a->rtt_ms = a->opt->rtt_ms;
		a->rtt_source = "--rtt";
	} else if (np_src_ok(s, NP_SRC_SOCK_DIAG) &&
		   s->socks.min_rtt_n >= NP_SOCK_RTT_MIN_SAMPLES && s->socks.min_rtt_p90_ms > 0) {
		/* Live sockets (loopback excluded): their min RTT is the path's, without the
		 * queueing and delayed-ACK inflation of the smoothed RTT. */
		a->rtt_ms = s->socks.min_rtt_p90_ms;
		a->rtt_source = s->socks.rtt_source;
	}
}

int np_analyze(const struct np_analysis *a, struct np_report *r, np_check_filter want, void *arg)
{
	size_t n;
	const struct np_check *const *t = np_check_table(&n);

	memset(r, 0, sizeof(*r));
	snprintf(r->dev, sizeof(r->dev), "%s", a->cur->ifname);
	r->res = calloc(n ? n : 1, sizeof(*r->res));
	if (!r->res)
		return -1;
	r->nres = n;
	for (size_t i = 0; i < n; i++) {
		r->res[i].check = t[i];
		r->res[i].warn = np_check_warn(t[i], a->ovr);
		r->res[i].crit = np_check_crit(t[i], a->ovr);
		if (want && !want(t[i], arg))
			continue;
		r->res[i].state = NP_CHECK_PASSED;
		r->cur = &r->res[i];
		t[i]->run(a, r);
	}
	r->cur = NULL;
	np_report_sort(r);
	return 0;
}
