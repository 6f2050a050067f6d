// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verdict of a `netpath path` test (path_verdict.h). The statistics are taken over the
 * samples after slow start (the first NP_PATH_SLOW_START_S seconds, or the first half of a short
 * test), where the window has found its size: the RTT is their median (robust to the spikes of
 * loss recovery), the shares of time limited are the chrono counters' increase over that window
 * divided by the busy time's (tcpi_busy_time counts busy, rwnd- and sndbuf-limited time
 * together), the loss rate is retransmitted over sent segments in the same window.
 *
 * Precedence, first match wins (netpath-path(8) says the same):
 *  1. unknown         no measurable transfer (zero duration, no rate, no samples);
 *  2. receiver-cpu,   the busiest CPU's irq+softirq share >= 0.9 at that end (the receiver
 *     sender-cpu      first): a saturated CPU also shows as a window or a buffer limit, and
 *                     raising buffers would not help;
 *  3. nic             receive drops at the receiver (NIC, softnet, socket) during the test,
 *                     >= 10 and >= 10% of the retransmitted segments, or a receiver finding of
 *                     stage nic/softnet about drops (warning or worse): the losses are local;
 *  4. sender-buffer,  the larger of the sndbuf_limited / rwnd_limited shares of busy time when
 *     receiver-window >= 0.3 and that buffer is at most 4x the measured BDP; without chrono
 *                     counters (before 4.10), from the sizes (sndbuf_by_size() below);
 *  5. application     >= half of the samples app-limited on at least half of the streams;
 *  6. policer         UDP steps: >= 2 steps losing > 2% whose offered rate rises >= 20% while
 *                     the delivered rate stays within 15%, with no standing queue (median
 *                     sRTT < 1.25x min RTT); reported at their median delivery. A shaper (a
 *                     rate limit with a queue) plateaus the same way but queues: that is the
 *                     path's bottleneck, rule 8;
 *  7. congestion      retransmits > 0.1% of segments sent with no standing queue (median sRTT
 *                     < 1.25x min RTT): the window backs off on loss while the path has room;
 *  8. bottleneck      anything else with a rate: the path's rate is the measured one.
 */
#include "path_verdict.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finding.h"
#include "path_fix.h"
#include "npfloor.h"

static const char *const limit_names[NP_LIMIT__COUNT] = {
	[NP_LIMIT_UNKNOWN] = "unknown",
	[NP_LIMIT_SENDER_BUFFER] = "sender-buffer",
	[NP_LIMIT_RECEIVER_WINDOW] = "receiver-window",
	[NP_LIMIT_CONGESTION] = "congestion",
	[NP_LIMIT_BOTTLENECK] = "bottleneck",
	[NP_LIMIT_POLICER] = "policer",
	[NP_LIMIT_SENDER_CPU] = "sender-cpu",
	[NP_LIMIT_RECEIVER_CPU] = "receiver-cpu",
	[NP_LIMIT_NIC] = "nic",
	[NP_LIMIT_APPLICATION] = "application",
};

const char *np_path_limit_name(enum np_path_limit l)
{
	if ((int)l < 0 || l >= NP_LIMIT__COUNT)
		return "unknown";
	return limit_names[l];
}

const char *np_path_side_name(enum np_path_side s)
{
	switch (s) {
	case NP_SIDE_SENDER:
		return "sender";
	case NP_SIDE_RECEIVER:
		return "receiver";
	case NP_SIDE_PATH:
		return "path";
	default:
		return "unknown";
	}
}

int np_path_exit_code(const struct np_path_verdict *v)
{
	switch (v->limited_by) {
	case NP_LIMIT_SENDER_BUFFER:
	case NP_LIMIT_RECEIVER_WINDOW:
	case NP_LIMIT_CONGESTION:
	case NP_LIMIT_SENDER_CPU:
	case NP_LIMIT_RECEIVER_CPU:
	case NP_LIMIT_NIC:
		return 1;
	default:
		return 0;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of the finite, positive values of n doubles (NAN: none); sorts tmp. */
static double median(double *tmp, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(tmp[i]) && tmp[i] > 0)
			tmp[k++] = tmp[i];
	if (!k)
		return NAN;
	qsort(tmp, k, sizeof(*tmp), cmp_double);
	return k % 2 ? tmp[k / 2] : (tmp[k / 2 - 1] + tmp[k / 2]) / 2;
}

/* The statistics the rules read. */
struct path_stats {
	size_t first, n;	/* the steady samples: samples[first .. first + n) */
	double sndbuf, snd_wnd;	/* their medians (NAN: not reported) */
	uint64_t retrans;	/* retransmitted segments in the window */
};

/* The first sample after slow start; all of them when none is. */
static size_t steady_start(const struct np_path_result *r)
{
	double skip = NP_PATH_SLOW_START_S;

	if (r->duration_s > 0 && r->duration_s < 2 * NP_PATH_SLOW_START_S)
		skip = r->duration_s / 2;
	size_t n = r->nsamples < NP_PATH_MAX_SAMPLES ? r->nsamples : NP_PATH_MAX_SAMPLES;

	/* At least two samples, when there are two, so that counters have an increase. */
	for (size_t i = 0; i < n; i++)
		if (r->samples[i].t_s >= skip)
			return i + 1 < n ? i : (n > 1 ? n - 2 : 0);
	return 0;
}

/* A cumulative counter's increase from a to b (0 if it went backwards: a reset stream). */
static uint64_t inc(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

static void chrono_shares(const struct np_path_result *r, const struct path_stats *st,
			  struct np_path_verdict *v)
{
	const struct np_path_sample *a = &r->samples[st->first];
	const struct np_path_sample *b = &r->samples[st->first + st->n - 1];
	uint64_t busy;

	/* One sample: its counters since the start of the stream. */
	if (st->n == 1)
		a = NULL;
	if (!b->have_chrono || (a && !a->have_chrono))
		return;
	busy = inc(a ? a->busy_us : 0, b->busy_us);
	if (!busy)
		return;
	v->share_rwnd = (double)inc(a ? a->rwnd_limited_us : 0, b->rwnd_limited_us) / busy;
	v->share_sndbuf = (double)inc(a ? a->sndbuf_limited_us : 0, b->sndbuf_limited_us) / busy;
	if (v->share_rwnd > 1)
		v->share_rwnd = 1;
	if (v->share_sndbuf > 1)
		v->share_sndbuf = 1;
}

/* The median of one double field (at byte offset off) of the steady samples. */
static double median_of(const struct np_path_result *r, const struct path_stats *st, size_t off)
{
	double tmp[NP_PATH_MAX_SAMPLES];

	for (size_t i = 0; i < st->n; i++)
		memcpy(&tmp[i], (const char *)&r->samples[st->first + i] + off, sizeof(double));
	return median(tmp, st->n);
}

static void sample_stats(const struct np_path_result *r, struct path_stats *st,
			 struct np_path_verdict *v)
{
	const struct np_path_sample *a, *b;
	size_t app = 0, nsamp = r->nsamples < NP_PATH_MAX_SAMPLES ? r->nsamples : NP_PATH_MAX_SAMPLES;
	uint64_t segs;

	st->first = steady_start(r);
	st->n = nsamp - st->first;
	for (size_t i = 0; i < nsamp; i++) {
		double m = r->samples[i].min_rtt_ms;

		if (isfinite(m) && m > 0 && (isnan(v->min_rtt_ms) || m < v->min_rtt_ms))
			v->min_rtt_ms = m;
	}
	v->rtt_ms = median_of(r, st, offsetof(struct np_path_sample, rtt_ms));
	st->sndbuf = median_of(r, st, offsetof(struct np_path_sample, sndbuf_bytes));
	st->snd_wnd = median_of(r, st, offsetof(struct np_path_sample, snd_wnd_bytes));
	/* Old kernels without min_rtt: the smallest sRTT seen stands in for it. */
	if (isnan(v->min_rtt_ms))
		for (size_t i = 0; i < nsamp; i++) {
			double m = r->samples[i].rtt_ms;

			if (isfinite(m) && m > 0 && (isnan(v->min_rtt_ms) || m < v->min_rtt_ms))
				v->min_rtt_ms = m;
		}
	for (size_t i = st->first; i < nsamp; i++) {
		uint32_t k = r->samples[i].app_limited_streams;

		if (k && 2 * k >= (r->streams ? r->streams : 1))
			app++;
	}
	v->share_app_limited = (double)app / st->n;
	chrono_shares(r, st, v);
	/* Loss over the steady window; over the whole test when that window sent nothing. */
	a = &r->samples[st->first];
	b = &r->samples[nsamp - 1];
	segs = inc(a->segs_out, b->segs_out);
	st->retrans = inc(a->total_retrans, b->total_retrans);
	if (!segs) {
		segs = b->segs_out;
		st->retrans = b->total_retrans;
	}
	if (segs)
		v->loss_rate = (double)st->retrans / segs;
}

/* Policer: the plateau of the lossy steps (NAN: none). */
static double step_plateau(const struct np_path_result *r)
{
	double off_lo = INFINITY, off_hi = 0, del_lo = INFINITY, del_hi = 0;
	double del[NP_PATH_MAX_STEPS];
	size_t k = 0, n = r->nsteps < NP_PATH_MAX_STEPS ? r->nsteps : NP_PATH_MAX_STEPS;

	for (size_t i = 0; i < n; i++) {
		const struct np_path_step *s = &r->steps[i];

		if (!(s->loss > NP_PATH_STEP_LOSS) || !(s->delivered_bps > 0) ||
		    !(s->offered_bps > 0))
			continue;
		off_lo = np_fmin(off_lo, s->offered_bps);
		off_hi = np_fmax(off_hi, s->offered_bps);
		del_lo = np_fmin(del_lo, s->delivered_bps);
		del_hi = np_fmax(del_hi, s->delivered_bps);
		del[k++] = s->delivered_bps;
	}
	if (k < 2 || off_hi < NP_PATH_STEP_OFFER_RISE * off_lo ||
	    del_hi > NP_PATH_STEP_PLATEAU * del_lo)
		return NAN;
	return median(del, k);
}

/* The receiver reported drops of its own during the test. */
static bool receiver_drops(const struct np_path_result *r, const struct path_stats *st)
{
	const struct np_path_end *e = &r->receiver;

	if (!e->present)
		return false;
	if (isfinite(e->rx_drops) && e->rx_drops >= NP_PATH_NIC_DROPS_MIN &&
	    e->rx_drops >= NP_PATH_NIC_DROPS_SHARE * (double)st->retrans)
		return true;
	for (size_t i = 0; i < e->nnotes && i < NP_PATH_MAX_NOTES; i++) {
		const struct np_path_note *n = &e->notes[i];

		if (n->severity >= NP_SEV_WARNING &&
		    (!strcmp(n->stage, "nic") || !strcmp(n->stage, "softnet")) &&
		    strstr(n->id, "drop"))
			return true;
	}
	return false;
}

static void init_verdict(struct np_path_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->rtt_ms = v->min_rtt_ms = v->bdp_bytes = v->loss_rate = NAN;
	v->share_rwnd = v->share_sndbuf = v->share_app_limited = v->policer_bps = NAN;
}

/* The rate: what the receiver counted, else what the sender saw acked. */
static double rate_of(const struct np_path_result *r)
{
	if (isfinite(r->throughput_bps) && r->throughput_bps > 0)
		return r->throughput_bps;
	if (r->duration_s > 0 && r->sender_bytes)
		return (double)r->sender_bytes * 8 / r->duration_s;
	return NAN;
}

static bool is_set(double share, double thr)
{
	return isfinite(share) && share >= thr;
}

static bool cpu_bound(const struct np_path_end *e)
{
	return e->present && is_set(e->softirq_busiest_share, NP_PATH_SOFTIRQ_SHARE);
}

/*
 * Without the chrono counters (kernels before 4.10) the buffers are judged from their sizes: the
 * send buffer autotuned up to tcp_wmem[2] (90% or more of it) and at most 2x the measured BDP
 * (it holds little more than the data in flight), or the peer's window at most 1.2x the
 * measured BDP (the window was what was in flight: it was full).
 */
static bool sndbuf_by_size(const struct np_path_result *r, const struct path_stats *st,
			   double bdp)
{
	double max = (double)r->sender.tcp_wmem[2];

	return r->sender.present && max > 0 && st->sndbuf >= NP_PATH_OLD_SNDBUF_AT_MAX * max &&
	       st->sndbuf <= NP_PATH_OLD_SNDBUF_BDP * bdp;
}

/* Rules 4: which buffer, if any (NP_LIMIT_UNKNOWN: neither). */
static enum np_path_limit buffer_limit(const struct np_path_result *r,
				       const struct np_path_verdict *v, const struct path_stats *st)
{
	double cap = NP_PATH_BUF_BDP_FACTOR * v->bdp_bytes;
	bool snd = is_set(v->share_sndbuf, NP_PATH_SHARE_LIMITED) &&
		   (isnan(st->sndbuf) || isnan(cap) || st->sndbuf <= cap);
	bool rwnd = is_set(v->share_rwnd, NP_PATH_SHARE_LIMITED) &&
		    (isnan(st->snd_wnd) || isnan(cap) || st->snd_wnd <= cap);

	if (!rwnd && is_set(v->share_rwnd, NP_PATH_SHARE_SOME) && isfinite(v->bdp_bytes) &&
	    st->snd_wnd <= NP_PATH_OLD_RWND_BDP * v->bdp_bytes)
		rwnd = true;	/* a full window the chrono share undercounts (path_verdict.h) */
	if (isnan(v->share_sndbuf) && isnan(v->share_rwnd) && isfinite(v->bdp_bytes)) {
		rwnd = st->snd_wnd <= NP_PATH_OLD_RWND_BDP * v->bdp_bytes;
		snd = !rwnd && sndbuf_by_size(r, st, v->bdp_bytes);
	}

	if (snd && rwnd)
		return v->share_sndbuf >= v->share_rwnd ? NP_LIMIT_SENDER_BUFFER
							: NP_LIMIT_RECEIVER_WINDOW;
	return snd ? NP_LIMIT_SENDER_BUFFER : rwnd ? NP_LIMIT_RECEIVER_WINDOW : NP_LIMIT_UNKNOWN;
}

static void decide(const struct np_path_result *r, const struct path_stats *st,
		   struct np_path_verdict *v)
{
	enum np_path_limit buf = buffer_limit(r, v, st);
	double plateau = step_plateau(r);

	if (cpu_bound(&r->receiver)) {
		v->limited_by = NP_LIMIT_RECEIVER_CPU;
		v->side = NP_SIDE_RECEIVER;
	} else if (cpu_bound(&r->sender)) {
		v->limited_by = NP_LIMIT_SENDER_CPU;
		v->side = NP_SIDE_SENDER;
	} else if (receiver_drops(r, st)) {
		v->limited_by = NP_LIMIT_NIC;
		v->side = NP_SIDE_RECEIVER;
	} else if (buf != NP_LIMIT_UNKNOWN) {
		v->limited_by = buf;
		v->side = buf == NP_LIMIT_SENDER_BUFFER ? NP_SIDE_SENDER : NP_SIDE_RECEIVER;
	} else if (is_set(v->share_app_limited, NP_PATH_APP_SHARE)) {
		v->limited_by = NP_LIMIT_APPLICATION;
		v->side = NP_SIDE_SENDER;
	} else if (isfinite(plateau) && !(v->rtt_ms >= NP_PATH_QUEUE_RTT_FACTOR * v->min_rtt_ms)) {
		v->limited_by = NP_LIMIT_POLICER;
		v->side = NP_SIDE_PATH;
		v->policer_bps = plateau;
	} else if (isfinite(v->loss_rate) && v->loss_rate > NP_PATH_LOSS_CONGESTION &&
		   !(v->rtt_ms >= NP_PATH_QUEUE_RTT_FACTOR * v->min_rtt_ms)) {
		v->limited_by = NP_LIMIT_CONGESTION;
		v->side = NP_SIDE_PATH;
	} else {
		v->limited_by = NP_LIMIT_BOTTLENECK;
		v->side = NP_SIDE_PATH;
	}
}

void np_path_judge(const struct np_path_result *r, struct np_path_verdict *v)
{
	struct path_stats st = { 0 };
	double rate = rate_of(r);

	init_verdict(v);
	if (!(r->duration_s > 0) || isnan(rate) || !r->nsamples) {
		v->limited_by = NP_LIMIT_UNKNOWN;
		v->side = NP_SIDE_UNKNOWN;
		snprintf(v->why, sizeof(v->why), "%s",
			 !(r->duration_s > 0) ? "The transfer lasted no measurable time: nothing to judge."
			 : isnan(rate) ? "No bytes were delivered: nothing to judge."
				       : "No tcp_info samples were taken: nothing to judge.");
		return;
	}
	sample_stats(r, &st, v);
	if (isfinite(v->min_rtt_ms))
		v->bdp_bytes = rate / 8 * v->min_rtt_ms / 1000;
	decide(r, &st, v);
	np_path_explain(r, v, rate, st.sndbuf, st.snd_wnd);
}
