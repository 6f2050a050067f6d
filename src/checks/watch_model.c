// SPDX-License-Identifier: GPL-2.0-only
/* The watch frame model: rates along the path over one interval, from what doctor already has. */
#include "watch_model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "driver_counters.h"

/* Per-queue indexes above this are not queues but a parser's misreading. */
#define MAX_QUEUES 4096

static double rate_of(struct np_counter_view v)
{
	return v.present && v.sampled ? v.rate : NAN;
}

/* NAN + x = x: sums of per-queue counters where only some are reported. */
static void add_rate(double *acc, double v)
{
	if (isnan(v))
		return;
	*acc = isnan(*acc) ? v : *acc + v;
}

static void frame_stages(struct np_watch_frame *f, const struct np_funnel *fn)
{
	for (size_t i = 0; i < fn->n && i < NP_STAGE__COUNT; i++) {
		const struct np_funnel_row *r = &fn->rows[i];
		struct np_watch_stage *st = &f->stages[f->nstage++];

		st->stage = r->stage;
		st->scope = r->scope;
		st->packets = rate_of(r->in);
		st->drops = rate_of(r->drop);
	}
}

static int frame_cpus(struct np_watch_frame *f, const struct np_analysis *a)
{
	const struct np_softnet *c = &a->cur->hs->softnet, *p = &a->prev->hs->softnet;

	if (!np_src_ok(a->cur, NP_SRC_SOFTNET) || c->n == 0)
		return 0;
	f->cpus = calloc(c->n, sizeof(*f->cpus));
	if (!f->cpus)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		const struct np_softnet_row *cr = &c->rows[i], *pr = NULL;
		struct np_watch_cpu *w = &f->cpus[f->ncpu++];

		/* Match rows by CPU: a CPU may go offline between the snapshots. */
		for (size_t k = 0; k < p->n && !pr; k++)
			if (p->rows[k].cpu == cr->cpu)
				pr = &p->rows[k];
		w->cpu = cr->cpu;
		w->processed = rate_of(np_view_u32(a, pr ? pr->processed : NP_NA, cr->processed));
		w->dropped = rate_of(np_view_u32(a, pr ? pr->dropped : NP_NA, cr->dropped));
		w->squeezed = rate_of(np_view_u32(a, pr ? pr->time_squeeze : NP_NA,
						  cr->time_squeeze));
		w->rps = rate_of(np_view_u32(a, pr ? pr->received_rps : NP_NA, cr->received_rps));
		w->flow_limit = rate_of(np_view_u32(a, pr ? pr->flow_limit_count : NP_NA,
						    cr->flow_limit_count));
	}
	return 0;
}

/* ---- per-queue ---- */

/* A driver counter of receive loss on one queue: ring empty, queue full, refill failed. */
static int driver_drops_queue(const char *driver, const char *name)
{
	struct np_drv_class c;

	if (!np_drv_classify(driver, name, &c) || c.queue < 0 || c.queue >= MAX_QUEUES || c.is_tx)
		return -1;
	if (c.meaning != NP_DRV_RING_EMPTY && c.meaning != NP_DRV_QUEUE_DROP &&
	    c.meaning != NP_DRV_ALLOC_FAIL)
		return -1;
	return c.queue;
}

static const struct np_qstat *find_qstat(const struct np_snapshot *s, int queue)
{
	for (size_t i = 0; i < s->eth.nqstats; i++)
		if (s->eth.qstats[i].queue == queue)
			return &s->eth.qstats[i];
	return NULL;
}

static struct np_watch_queue *queue_slot(struct np_watch_frame *f, int q)
{
	for (size_t i = 0; i < f->nqueue; i++)
		if (f->queues[i].queue == q)
			return &f->queues[i];
	f->queues[f->nqueue] = (struct np_watch_queue){ q, NAN, NAN, NULL, NULL };
	return &f->queues[f->nqueue++];
}

static int cmp_queue(const void *x, const void *y)
{
	const struct np_watch_queue *a = x, *b = y;

	return (a->queue > b->queue) - (a->queue < b->queue);
}

/* qstats (the kernel's own per-queue counters) where the kernel and driver have them, else the
 * driver's private per-queue counters; drops from either, or from the driver when qstats have
 * no drop fields (virtio_net: packets in qstats, rxN_drops in ethtool -S). */
static int frame_queues(struct np_watch_frame *f, const struct np_analysis *a)
{
	const struct np_snapshot *c = a->cur, *p = a->prev;
	const char *drv = np_snapshot_driver(c);
	size_t cap = c->eth.nqstats + (np_src_ok(c, NP_SRC_DRIVER_STATS) ? c->eth.drv_stats.n : 0);
	bool qs = np_src_ok(c, NP_SRC_QSTATS) && np_src_ok(p, NP_SRC_QSTATS);
	bool ds = np_src_ok(c, NP_SRC_DRIVER_STATS) && np_src_ok(p, NP_SRC_DRIVER_STATS);

	if (cap == 0)
		goto none;
	f->queues = calloc(cap, sizeof(*f->queues));
	if (!f->queues)
		return -ENOMEM;
	for (size_t i = 0; qs && i < c->eth.nqstats; i++) {
		const struct np_qstat *cq = &c->eth.qstats[i], *pq = find_qstat(p, cq->queue);
		struct np_watch_queue *w;
		double drops = NAN;

		if (cq->queue < 0 || cq->queue >= MAX_QUEUES)
			continue;
		w = queue_slot(f, cq->queue);
		w->packets = rate_of(np_view_u64(a, pq ? pq->rx_packets : NP_NA, cq->rx_packets));
		if (!isnan(w->packets))
			w->source = "qstats";
		/* rx-hw-drop-overruns and -ratelimits are parts of rx-hw-drops, not additions. */
		add_rate(&drops, rate_of(np_view_u64(a, pq ? pq->rx_hw_drops : NP_NA,
						     cq->rx_hw_drops)));
		add_rate(&drops, rate_of(np_view_u64(a, pq ? pq->rx_alloc_fail : NP_NA,
						     cq->rx_alloc_fail)));
		if (!isnan(drops)) {
			w->drops = drops;
			w->drops_source = "qstats";
		}
	}
	for (size_t i = 0; ds && i < c->eth.drv_stats.n; i++) {
		const struct np_counter *e = &c->eth.drv_stats.e[i];
		double r = rate_of(np_view_u64(a, np_counters_get(&p->eth.drv_stats, e->name),
					       e->value));
		struct np_watch_queue *w;
		int q;

		if (isnan(r))
			continue;
		q = np_drv_rx_packets_queue(e->name);
		if (q >= 0 && q < MAX_QUEUES) {
			w = queue_slot(f, q);
			if (w->source && strcmp(w->source, "driver") != 0)
				continue;	/* qstats already counted this queue */
			add_rate(&w->packets, r);
			w->source = "driver";
			continue;
		}
		q = driver_drops_queue(drv, e->name);
		if (q < 0)
			continue;
		w = queue_slot(f, q);
		if (w->drops_source && strcmp(w->drops_source, "driver") != 0)
			continue;
		add_rate(&w->drops, r);
		w->drops_source = "driver";
	}
	qsort(f->queues, f->nqueue, sizeof(*f->queues), cmp_queue);
	if (f->nqueue)
		return 0;
none:
	snprintf(f->queue_note, sizeof(f->queue_note),
		 "per-queue counters not reported (qstats: %s%s%.100s; driver: %s)",
		 np_src_status_name(np_srcp(c, NP_SRC_QSTATS)->status),
		 np_srcp(c, NP_SRC_QSTATS)->detail[0] ? ", " : "",
		 np_srcp(c, NP_SRC_QSTATS)->detail,
		 ds ? "no per-queue counters" :
		 np_src_status_name(np_srcp(c, NP_SRC_DRIVER_STATS)->status));
	return 0;
}

/* ---- interrupts ---- */

static const struct np_irq_line *find_irq(const struct np_interrupts *t, unsigned irq)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->lines[i].irq == irq)
			return &t->lines[i];
	return NULL;
}

/* Interrupts per second of the device's own lines, summed per CPU. */
static int frame_irqs(struct np_watch_frame *f, const struct np_analysis *a)
{
	const struct np_interrupts *c = &a->cur->irqs, *p = &a->prev->irqs;
	const struct np_src *src = np_srcp(a->cur, NP_SRC_INTERRUPTS);
	uint32_t *cv = NULL, *pv = NULL;
	size_t ncpu_idx = 0;
	int *pcol = NULL, err = 0;

	if (!np_src_ok(a->cur, NP_SRC_INTERRUPTS) || c->n == 0 || c->ncols == 0) {
		const struct np_src *aff = np_srcp(a->cur, NP_SRC_IRQ_AFFINITY);

		if (np_src_ok(a->cur, NP_SRC_INTERRUPTS) && aff->detail[0])
			snprintf(f->irq_note, sizeof(f->irq_note), "%s", aff->detail);
		else if (np_src_ok(a->cur, NP_SRC_INTERRUPTS))
			snprintf(f->irq_note, sizeof(f->irq_note),
				 "no IRQ line of the device found");
		else
			snprintf(f->irq_note, sizeof(f->irq_note), "/proc/interrupts %s%s%.100s",
				 np_src_status_name(src->status), src->detail[0] ? ": " : "",
				 src->detail);
		return 0;
	}
	f->irqs = calloc(c->ncols, sizeof(*f->irqs));
	cv = malloc(c->ncols * sizeof(*cv));
	pv = malloc((p->ncols ? p->ncols : 1) * sizeof(*pv));
	for (size_t col = 0; col < c->ncols; col++)
		if (c->col_cpu[col] >= 0 && (size_t)c->col_cpu[col] + 1 > ncpu_idx)
			ncpu_idx = (size_t)c->col_cpu[col] + 1;
	pcol = np_irq_cpu_columns(p, ncpu_idx);
	if (!f->irqs || !cv || !pv || !pcol) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t col = 0; col < c->ncols; col++) {
		f->irqs[col].cpu = c->col_cpu[col];
		f->irqs[col].rate = NAN;
	}
	f->nirq = c->ncols;
	/* Line by line, each expanded once (the counts may be stored sparse), columns matched
	 * by CPU id through pcol: linear in lines x columns. */
	for (size_t i = 0; i < c->n; i++) {
		const struct np_irq_line *cl = &c->lines[i], *pl = find_irq(p, cl->irq);

		np_irq_counts(cl, cv, c->ncols);
		if (pl)
			np_irq_counts(pl, pv, p->ncols);
		for (size_t col = 0; col < c->ncols; col++) {
			int cpu = c->col_cpu[col], pc = cpu >= 0 ? pcol[cpu] : -1;

			/* Per-CPU counts are unsigned int in the kernel: they wrap at 2^32. */
			add_rate(&f->irqs[col].rate,
				 rate_of(np_view_u32(a, pl && pc >= 0 ? pv[pc] : NP_NA, cv[col])));
		}
	}
out:
	free(cv);
	free(pv);
	free(pcol);
	return err;
}

/* ---- sockets ---- */

static int cmp_sock(const void *x, const void *y)
{
	const struct np_watch_sock *a = x, *b = y;
	double ra = isnan(a->rate) ? -1 : a->rate, rb = isnan(b->rate) ? -1 : b->rate;

	if (ra != rb)
		return ra < rb ? 1 : -1;
	return (a->drops < b->drops) - (a->drops > b->drops);
}

/* A socket's drop rate over the interval. A socket missing from prev's top list had no drops
 * then when that list was complete; when it was truncated, the rate is unknown. */
static double sock_rate(const struct np_analysis *a, bool in_prev, uint64_t prev, uint64_t cur,
			bool prev_complete)
{
	if (!in_prev)
		prev = prev_complete ? 0 : NP_NA;
	return rate_of(np_view_u64(a, prev, cur));
}

static void sock_put(size_t *n, struct np_watch_sock *all, const struct np_sock_id *id,
		     const char *proto, uint64_t drops, double rate)
{
	struct np_watch_sock *w = &all[(*n)++];

	snprintf(w->proto, sizeof(w->proto), "%s%s", proto, id->family == AF_INET6 ? "6" : "");
	np_sock_addr_str(id->family, id->saddr, id->sport, w->local, sizeof(w->local));
	w->drops = drops;
	w->rate = rate;
}

/* Top socket drops from the snapshot's sockets section (sock_diag, sockets.h): UDP sockets and
 * listeners, ranked by drops per second over the interval. */
static void frame_sockets(struct np_watch_frame *f, const struct np_analysis *a)
{
	const struct np_sockets *c = &a->cur->socks, *p = &a->prev->socks;
	const struct np_src *src = np_srcp(a->cur, NP_SRC_SOCK_DIAG);
	struct np_watch_sock all[2 * NP_SOCK_TOP];
	bool udp_complete = p->udp.total <= p->udp.n, lis_complete = p->listen.total <= p->listen.n;
	size_t n = 0;

	if (!np_src_ok(a->cur, NP_SRC_SOCK_DIAG) || !np_src_ok(a->prev, NP_SRC_SOCK_DIAG)) {
		snprintf(f->sock_note, sizeof(f->sock_note), "socket diagnostics %s%s%.100s",
			 src->status == NP_SRC_UNREAD ? "not collected" :
			 np_src_status_name(src->status), src->detail[0] ? ": " : "", src->detail);
		return;
	}
	f->has_socks = true;
	for (uint32_t i = 0; i < c->udp.n && i < NP_SOCK_TOP; i++) {
		const struct np_sock_udp *u = &c->udp.e[i];
		const struct np_sock_udp *pu = np_sockets_find_udp(p, u->id.inode, u->id.sport);

		if (u->drops == 0)
			continue;
		sock_put(&n, all, &u->id, "udp", u->drops,
			 sock_rate(a, pu, pu ? pu->drops : 0, u->drops, udp_complete));
	}
	for (uint32_t i = 0; i < c->listen.n && i < NP_SOCK_TOP; i++) {
		const struct np_sock_listener *l = &c->listen.e[i];
		const struct np_sock_listener *pl = np_sockets_find_listener(p, l->id.inode,
									     l->id.sport);

		if (l->drops == 0 || l->drops == UINT64_MAX)
			continue;
		sock_put(&n, all, &l->id, "tcp", l->drops,
			 sock_rate(a, pl && pl->drops != UINT64_MAX, pl ? pl->drops : 0, l->drops,
				   lis_complete));
	}
	qsort(all, n, sizeof(all[0]), cmp_sock);
	for (size_t i = 0; i < n && i < NP_WATCH_TOP_SOCKS; i++)
		f->socks[f->nsock++] = all[i];
	if (n == 0)
		snprintf(f->sock_note, sizeof(f->sock_note), "no socket has dropped (%llu UDP, "
			 "%llu listening TCP sockets)", (unsigned long long)c->udp_total,
			 (unsigned long long)c->listeners);
}

/* ---- the socket walk ---- */

/* The checks that judge established TCP flows: between full walks their evidence is the last
 * walk's. Listener and UDP checks read this frame's dump. A test holds every id to the check
 * table. */
static const char *const flow_checks[] = {
	"socket.tcp-buffer-ceiling", "socket.tcp-buffer-pinned", "congestion.lossy-long-flows",
	"congestion.cc-in-use",
};
/* The checks that size buffers from the RTT, which without --rtt is the flows' measured one
 * (bdp.c): from the last walk too, then. */
static const char *const rtt_checks[] = {
	"socket.tcp-rmem-bdp", "socket.tcp-wmem-bdp", "socket.rcvbuf-autotuning",
	"socket.rmem-max", "socket.buffer-limits",
};

static bool listed(const char *id, const char *const *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(id, ids[i]))
			return true;
	return false;
}

bool np_watch_check_reads_flows(const struct np_check *c, bool rtt_from_flows)
{
	return listed(c->id, flow_checks, sizeof(flow_checks) / sizeof(flow_checks[0])) ||
	       (rtt_from_flows && listed(c->id, rtt_checks, sizeof(rtt_checks) /
					 sizeof(rtt_checks[0])));
}

const char *const *np_watch_flow_check_ids(size_t *n)
{
	static const char *all[sizeof(flow_checks) / sizeof(flow_checks[0]) +
			       sizeof(rtt_checks) / sizeof(rtt_checks[0])];
	size_t k = 0;

	for (size_t i = 0; i < sizeof(flow_checks) / sizeof(flow_checks[0]); i++)
		all[k++] = flow_checks[i];
	for (size_t i = 0; i < sizeof(rtt_checks) / sizeof(rtt_checks[0]); i++)
		all[k++] = rtt_checks[i];
	*n = k;
	return all;
}

static void frame_walk(struct np_watch_frame *f, const struct np_analysis *a)
{
	const struct np_sockets *k = &a->cur->socks;

	if (!np_src_ok(a->cur, NP_SRC_SOCK_DIAG))
		return;
	f->walk.known = true;
	f->walk.only_listeners = k->only_listeners;
	f->walk.full = k->walk == NP_SOCK_WALK_FULL || k->only_listeners;
	/* A listeners walk with nothing carried (no full walk succeeded yet): age unknown. */
	f->walk.age_s = f->walk.full ? 0 : !k->flows_carried || isnan(k->flows_t) ? NAN :
			a->cur->t - k->flows_t;
	f->walk.every = 0;
	f->walk.walk_cpu_ms = f->walk.frame_cpu_ms = NAN;
}

/* ---- findings ---- */

static enum np_severity baseline(const struct np_watch_session *s, const struct np_check *c)
{
	for (size_t i = 0; i < s->nbase; i++)
		if (s->base_check[i] == c)
			return s->base_sev[i];
	return NP_SEV_OK;
}

static int record_baseline(struct np_watch_session *s, const struct np_report *r)
{
	s->base_check = calloc(r->n ? r->n : 1, sizeof(*s->base_check));
	s->base_sev = calloc(r->n ? r->n : 1, sizeof(*s->base_sev));
	if (!s->base_check || !s->base_sev)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++) {
		const struct np_finding *fd = &r->f[i];
		size_t k;

		for (k = 0; k < s->nbase && s->base_check[k] != fd->check; k++)
			;
		if (k == s->nbase) {
			s->base_check[s->nbase] = fd->check;
			s->base_sev[s->nbase++] = fd->severity;
		} else if (fd->severity > s->base_sev[k]) {
			s->base_sev[k] = fd->severity;
		}
	}
	s->have_baseline = true;
	return 0;
}

static int cmp_finding(const void *x, const void *y)
{
	const struct np_watch_finding *a = x, *b = y;

	if (a->severity != b->severity)
		return a->severity < b->severity ? 1 : -1;
	if (a->is_new != b->is_new)
		return a->is_new ? -1 : 1;
	return (a->check->stage > b->check->stage) - (a->check->stage < b->check->stage);
}

/* carried: the frame's established flows are the last walk's; rtt_from_flows: the analysis
 * took its RTT from them. */
static int frame_findings(struct np_watch_frame *f, struct np_watch_session *s,
			  const struct np_report *r, bool carried, bool rtt_from_flows)
{
	if (!s->have_baseline && record_baseline(s, r) < 0)
		return -ENOMEM;
	if (r->n == 0)
		return 0;
	f->findings = calloc(r->n, sizeof(*f->findings));
	if (!f->findings)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++) {
		const struct np_finding *fd = &r->f[i];
		struct np_watch_finding *w;

		if (fd->severity < NP_SEV_INFO)
			continue;
		w = &f->findings[f->nfind++];
		w->check = fd->check;
		w->severity = fd->severity;
		w->is_new = fd->severity > baseline(s, fd->check);
		w->from_walk = carried && np_watch_check_reads_flows(fd->check, rtt_from_flows);
		snprintf(w->summary, sizeof(w->summary), "%s", fd->summary);
	}
	/* The report is in stage order; qsort is not stable but stage is the last key, and two
	 * findings of one check and severity keep no meaningful order between them anyway. */
	qsort(f->findings, f->nfind, sizeof(*f->findings), cmp_finding);
	return 0;
}

int np_watch_frame_build(struct np_watch_frame *f, struct np_watch_session *sess,
			 const struct np_analysis *a, const struct np_report *r,
			 const struct np_funnel *fn)
{
	memset(f, 0, sizeof(*f));
	if (!a->prev || !a->cur)
		return -EINVAL;
	f->seq = ++sess->frames;
	f->dt = a->dt;
	snprintf(f->ifname, sizeof(f->ifname), "%s", a->cur->ifname);
	frame_stages(f, fn);
	frame_sockets(f, a);
	frame_walk(f, a);
	if (frame_cpus(f, a) < 0 || frame_queues(f, a) < 0 || frame_irqs(f, a) < 0 ||
	    frame_findings(f, sess, r, f->walk.known && !f->walk.full,
			   a->rtt_source == a->cur->socks.rtt_source) < 0) {
		np_watch_frame_free(f);
		return -ENOMEM;
	}
	return 0;
}

void np_watch_frame_free(struct np_watch_frame *f)
{
	free(f->cpus);
	free(f->queues);
	free(f->irqs);
	free(f->findings);
	memset(f, 0, sizeof(*f));
}

void np_watch_session_free(struct np_watch_session *sess)
{
	free(sess->base_check);
	free(sess->base_sev);
	memset(sess, 0, sizeof(*sess));
}
