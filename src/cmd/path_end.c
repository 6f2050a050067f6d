// SPDX-License-Identifier: GPL-2.0-only
/*
 * What one end of `netpath path` says about its host: doctor's own judgement over the test's
 * window (the same checks, thresholds and remedies, not a second set), the facts the verdict
 * needs (buffers, congestion control, qdisc, CPU), and the findings flattened into notes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "finding.h"
#include "path_end.h"
#include "path_wire.h"

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void np_path_window_begin(struct np_path_window *w, struct np_target *tgt, const char *ifname)
{
	const char *tops[1] = { ifname };

	memset(w, 0, sizeof(*w));
	w->tgt = tgt;
	w->t0 = mono();
	w->cpu0 = calloc(NP_CPU_TIMES_MAX, sizeof(*w->cpu0));
	if (w->cpu0)
		w->ncpu = np_cpu_times_read(w->cpu0, NP_CPU_TIMES_MAX);
	if (!ifname || !ifname[0] || !tgt)
		return;
	snprintf(w->ifname, sizeof(w->ifname), "%s", ifname);
	w->dr = calloc(1, sizeof(*w->dr));
	if (w->dr)
		np_runs_discover(w->dr, &tgt->ctx, tops, 1);
}

/* Findings worst first (the report is in stage order), INFO and above, at most the notes'
 * room. */
static void notes(const struct np_report *rep, struct np_path_end *e)
{
	for (int sev = NP_SEV_CRITICAL; sev >= NP_SEV_INFO; sev--)
		for (size_t i = 0; i < rep->n && e->nnotes < NP_PATH_MAX_NOTES; i++) {
			const struct np_finding *f = &rep->f[i];
			struct np_path_note *n;

			if ((int)f->severity != sev)
				continue;
			n = &e->notes[e->nnotes++];
			n->severity = (int)f->severity;
			snprintf(n->stage, sizeof(n->stage), "%s", np_stage_name(f->check->stage));
			snprintf(n->id, sizeof(n->id), "%s", f->check->id);
			/* cut at a character, as the wire would */
			np_wire_clean(n->summary, sizeof(n->summary), f->summary);
			np_wire_clean(n->remedy, sizeof(n->remedy), f->remedy);
		}
}

static void sysctls(const struct np_snapshot *s, struct np_path_end *e)
{
	int64_t v[3];
	bool ok;

	if (np_sysctl_vec(s, NP_SYSCTL_TCP_RMEM, 3, v))
		for (int i = 0; i < 3; i++)
			e->tcp_rmem[i] = v[i];
	if (np_sysctl_vec(s, NP_SYSCTL_TCP_WMEM, 3, v))
		for (int i = 0; i < 3; i++)
			e->tcp_wmem[i] = v[i];
	v[0] = np_sysctl_int(s, NP_SYSCTL_RMEM_MAX, 0, &ok);
	if (ok)
		e->rmem_max = v[0];
	v[0] = np_sysctl_int(s, NP_SYSCTL_WMEM_MAX, 0, &ok);
	if (ok)
		e->wmem_max = v[0];
}

/* Drops on the receive path in the window: the interface's own (rx_dropped, rx_missed) and
 * the backlog's (softnet). */
static double drops(const struct np_snapshot *a, const struct np_snapshot *b)
{
	double d = 0;

	if (a->rtnl.has_stats64 && b->rtnl.has_stats64)
		d += (double)(b->rtnl.stats64.rx_dropped - a->rtnl.stats64.rx_dropped) +
		     (double)(b->rtnl.stats64.rx_missed_errors - a->rtnl.stats64.rx_missed_errors);
	else
		return NAN;
	for (size_t i = 0; i < b->hs->softnet.n && i < a->hs->softnet.n; i++)
		if (b->hs->softnet.rows[i].dropped >= a->hs->softnet.rows[i].dropped)
			d += (double)(b->hs->softnet.rows[i].dropped - a->hs->softnet.rows[i].dropped);
	return d;
}

void np_path_window_end(struct np_path_window *w, int fd, struct np_path_end *e)
{
	uint64_t keep = e->bytes_counted;
	double dt = mono() - w->t0;

	memset(e, 0, sizeof(*e));
	e->present = true;
	e->bytes_counted = keep;
	e->tcp_rmem[0] = e->tcp_rmem[1] = e->tcp_rmem[2] = -1;
	e->tcp_wmem[0] = e->tcp_wmem[1] = e->tcp_wmem[2] = -1;
	e->rmem_max = e->wmem_max = -1;
	e->cpu_busiest_share = e->softirq_busiest_share = e->rx_drops = NAN;
	gethostname(e->host, sizeof(e->host) - 1);
	snprintf(e->ifname, sizeof(e->ifname), "%s", w->ifname);
	if (fd >= 0)
		np_sock_cc(fd, e->cc, sizeof(e->cc));
	if (w->cpu0 && w->ncpu > 0) {
		struct np_cpu_times *c1 = calloc(NP_CPU_TIMES_MAX, sizeof(*c1));
		int n = c1 ? np_cpu_times_read(c1, NP_CPU_TIMES_MAX) : -1;

		if (n > 0)
			np_cpu_busiest(w->cpu0, c1, (size_t)(n < w->ncpu ? n : w->ncpu),
				       &e->cpu_busiest_share, &e->softirq_busiest_share);
		free(c1);
	}
	if (w->dr && w->dr->n > 0) {
		struct np_options opt = { .interval = dt, .rtt_ms = NAN, .bandwidth_bps = NAN };
		const struct np_dev_run *r0 = &w->dr->run[0];

		np_runs_collect_again(w->dr, &w->tgt->ctx);
		if (np_runs_analyze(w->dr, dt, &opt, NULL, NULL, NULL) == 0)
			notes(&r0->rep, e);
		if (r0->have_cur) {
			sysctls(&r0->cur, e);
			for (size_t i = 0; i < r0->cur.rtnl.nqdisc; i++)
				if (r0->cur.rtnl.qdiscs[i].root)
					snprintf(e->qdisc, sizeof(e->qdisc), "%s",
						 r0->cur.rtnl.qdiscs[i].kind);
			if (r0->have_prev)
				e->rx_drops = drops(&r0->prev, &r0->cur);
		}
	}
}

void np_path_window_free(struct np_path_window *w)
{
	if (w->dr) {
		np_runs_free(w->dr);
		free(w->dr);
	}
	free(w->cpu0);
	memset(w, 0, sizeof(*w));
}
