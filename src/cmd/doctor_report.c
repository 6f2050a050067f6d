// SPDX-License-Identifier: GPL-2.0-only
/* One doctor report: the interfaces, two snapshots an interval apart, the checks, the output. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npfloor.h"
#include "atomic_file.h"
#include "cleanup.h"
#include "clock.h"
#include "deadline.h"
#include "doctor_run.h"
#include "doctor_stack.h"
#include "collect.h"
#include "sock_diag.h"
#include "commands.h"
#include "command_config.h"
#include "doctor_config.h"
#include "ctx.h"
#include "target.h"
#include "funnel.h"
#include "ledger.h"
#include "kmods.h"
#include "log.h"
#include "opts.h"
#include "specs.h"
#include "render.h"
#include "render_monitor.h"
#include "termwidth.h"
#include "textenc.h"

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - np_floor(s)) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * The spacing of two captures: the difference of their proc/uptime, or --interval-of when the
 * user knows it (captures without uptime, or from tools that do not copy it). 0 (*dt set) or -1.
 */
static int capture_spacing(const struct doctor_args *d, const struct np_ctx *ctx,
			   const struct np_dev_run *r, double *dt, struct np_status *st)
{
	*dt = r->cur.t - r->prev.t;
	if (d->interval_of > 0)
		*dt = d->interval_of;
	else if (!r->prev.t_known || !r->cur.t_known)
		return np_fail(st, "%s has no proc/uptime, so the time between the captures is unknown: "
			    "give it with --interval-of SECONDS", !r->prev.t_known && d->before ?
			    d->before : ctx->root);
	else if (!(*dt > 0))
		return np_fail(st, "--before %s is not earlier than --root %s (their proc/uptime: %.0f "
			    "and %.0f s)", d->before ? d->before : "(the capture's first sample)",
			    ctx->root, r->prev.t, r->cur.t);
	return 0;
}

/*
 * Both snapshots of every device of the stack(s): live ones an interval apart, or the --before
 * and --root captures. A snapshot in which nothing could be read is still a report: every stage
 * says why it was not judged and the verdict is UNKNOWN (coverage.c), which names the file.
 * 0 (*dt set) or -1.
 */
/* The earlier instant from --before (a tree, capture or sosreport), else a capture's own first
 * sample; then the later one. Apart from collect_runs(): its 19 KB frame (the --before root)
 * lay under every live collection, a few stack pages deeper. */
static __attribute__((noinline)) int collect_runs_before(const struct doctor_args *d,
							 const struct np_target *tgt,
							 const char *const *tops, size_t ntops,
							 struct np_dev_runs *dr, double *dt,
							 struct np_status *st)
{
	const struct np_ctx *ctx = &tgt->ctx;
	const struct np_root *br = &tgt->root;
	struct np_root broot;
	struct np_ctx bctx;
	char err[400];
	int r;

	if (d->before) {
		if (np_root_resolve(&broot, d->before, err, sizeof(err)) < 0)
			return np_fail(st, "--before: %s", err);
		br = &broot;
	}
	r = np_sample_ctx_open(&bctx, br, d->before ? br->dir : br->before);
	if (r < 0) {
		if (d->before)
			np_root_release(&broot);
		return np_fail(st, "cannot open %s: %s", br->shown, strerror(-r));
	}
	np_runs_discover(dr, &bctx, tops, ntops);
	np_root_ctx_close(&bctx);
	if (d->before)
		np_root_release(&broot);
	np_runs_collect_again(dr, ctx);
	return capture_spacing(d, ctx, &dr->run[0], dt, st);
}

static int collect_runs(const struct doctor_args *d, const struct np_target *tgt,
			const char *const *tops, size_t ntops, struct np_dev_runs *dr,
			double *dt, struct np_status *st)
{
	const struct np_ctx *ctx = &tgt->ctx;

	*dt = 0;
	if (d->before || np_root_has_before(&tgt->root))
		return collect_runs_before(d, tgt, tops, ntops, dr, dt, st);
	np_runs_discover(dr, ctx, tops, ntops);
	if (d->opt.interval <= 0)
		return 0;
	sleep_seconds(d->opt.interval);
	np_runs_collect_again(dr, ctx);
	for (size_t i = 0; i < ntops; i++)
		if (np_iface_check(ctx, tops[i]) < 0)
			return np_fail(st, "interface '%s' disappeared while sampling", tops[i]);
	*dt = dr->run[0].cur.t - dr->run[0].prev.t;
	return 0;
}

static int exit_for(enum np_severity worst)
{
	return worst == NP_SEV_CRITICAL ? NP_EXIT_CRITICAL :
	       worst == NP_SEV_WARNING ? NP_EXIT_WARNING : NP_EXIT_OK;
}

/* Exit 3 always comes with a one-line reason on stderr: here, the first stage's. */
static void unknown_reason(const struct np_coverage *cov)
{
	for (int st = 0; st < NP_STAGE__COUNT; st++)
		if (cov->st[st].status == NP_COV_NOT_JUDGED) {
			np_say("netpath doctor: no stage of the receive path could be judged "
			       "(%s: %s)", np_stage_name((enum np_stage)st), cov->st[st].reason);
			return;
		}
	fputs("netpath doctor: no stage of the receive path could be judged\n", stderr);
}

/* The interfaces to judge: the one named (or the default route's), or with --all every one that
 * is up and carries traffic. */
static int pick_tops(const struct doctor_args *d, const struct np_target *tgt,
		     char (*names)[IF_NAMESIZE], size_t max, size_t *n, size_t *more,
		     struct np_status *st)
{
	*more = 0;
	if (!d->all) {
		snprintf(names[0], IF_NAMESIZE, "%s", tgt->ifname);
		*n = 1;
		return 0;
	}
	*n = np_collect_busy_ifaces(&tgt->ctx, names, max, more);
	if (!*n)
		return np_fail(st, "--all: no interface is up and carrying traffic%s%s",
			    d->root ? " under " : "", d->root ? d->root : "");
	return 0;
}

/* The verdict and the report in the format asked for, from what was collected (km: the
 * kernel's modules, for the sender table): 0 (st->code the verdict), -1, or
 * REPORT_UNWRITTEN (-o could not be written; st says why). No kernel read here. */
static int report(struct doctor_args *d, const struct np_target *tgt,
		  struct np_dev_runs *dr, double dt, const struct np_kmods *km,
		  struct np_status *st)
{
	const struct np_ctx *ctx = &tgt->ctx;
	struct np_dev_run *pr = &dr->run[0];
	struct np_funnel fn;
	struct np_ledger lg;
	struct np_doctor_view v = {
		.a = &pr->a, .r = &pr->rep, .funnel = &fn, .ledger = &lg, .cov = &pr->cov,
		.stack = &dr->stack, .root = ctx->root, .live = ctx->live,
		.origin = ctx->origin,
		.all_counters = d->all_counters, .sockets_top = d->sockets_top,
		.netns = d->netns, .netns_path = d->netns ? tgt->netns_path : NULL,
	};
	struct np_render_opts ro = {
		.color = !d->json && !d->prom && np_color_enabled(d->color, stdout),
		.verbose = d->opt.verbose,
	};
	const struct np_snapshot *devs[NP_STACK_MAX];
	char tmp[PATH_MAX];
	FILE *out = stdout;
	int code, r;

	/* Each device's latest snapshot, for the series that are the device's own. */
	for (size_t i = 0; i < dr->n; i++)
		if (dr->run[i].have_cur || dr->run[i].have_prev)
			devs[v.ndevs++] = dr->run[i].have_cur ? &dr->run[i].cur : &dr->run[i].prev;
	v.devs = devs;

	if (np_runs_analyze(dr, dt, &d->opt, &d->cfg.ovr, np_selection_want, &d->cfg.sel) < 0)
		return np_fail(st, "out of memory");
	np_funnel_build(&pr->a, &fn);
	np_ledger_build(&pr->a, &fn, &lg);
	v.kmods = km;
	/* No stage judged: UNKNOWN, never "OK" without evidence. */
	code = np_coverage_unknown(&pr->cov) ? NP_EXIT_UNKNOWN :
	       exit_for(np_report_worst(&pr->rep));
	/* Host-wide stages are still judged when the interface is gone; the verdict is not. */
	if (d->unknown_why[0]) {
		if (!d->was_unknown)
			np_say("netpath doctor: %s: the reports are UNKNOWN until then",
			       d->unknown_why);
		code = NP_EXIT_UNKNOWN;
	} else if (code == NP_EXIT_UNKNOWN && !d->was_unknown)
		unknown_reason(&pr->cov);
	d->was_unknown = code == NP_EXIT_UNKNOWN;
	v.exit_code = code;
	if (d->output) {
		out = np_atomic_open(d->output, tmp, sizeof(tmp));
		if (!out) {
			np_fail(st, "cannot write %s: %s", d->output, strerror(errno));
			return REPORT_UNWRITTEN;
		}
		ro.color = false;
	}
	ro.width = np_term_width(out);	/* a file: $COLUMNS or 80 */
	if (d->nagios) {
		FILE *h = np_text_stream(stdout);	/* ASCII under a non-UTF-8 locale */

		code = np_render_doctor_nagios(h, &v);
		np_text_stream_done(h, stdout);
	} else if (d->prom) {
		np_render_doctor_prom(out, &v, d->all_counters);
	} else if (d->json) {
		np_render_doctor_json(out, &v);
	} else {
		/* Human text (the report, --brief): the renderer wraps into h, which writes
		 * ASCII under a non-UTF-8 locale. --brief's lines are within 100 bytes, and no
		 * glyph's ASCII form is longer than its UTF-8 bytes, so they stay within 100. */
		FILE *h = np_text_stream(out);

		if (d->brief)
			np_render_doctor_brief(h, &v);
		else
			np_render_doctor_text(h, &v, &ro);
		np_text_stream_done(h, out);
	}
	if (d->output) {
		r = np_atomic_commit(out, tmp, d->output);
		if (r < 0) {
			np_fail(st, "cannot write %s: %s", d->output, strerror(-r));
			return REPORT_UNWRITTEN;
		}
		/* --every: from the rename on, the file holds a whole report and SIGTERM is a
		 * clean stop (exit 0), not only once the first pass has returned. */
		if (d->every > 0)
			np_cleanup_service_done();
	}
	st->code = code;
	return 0;
}

int np_doctor_find_tops(const struct doctor_args *d, const struct np_target *tgt,
			struct doctor_tops *t, struct np_status *st)
{
	if (pick_tops(d, tgt, t->names, NP_STACK_MAX, &t->n, &t->more, st) < 0)
		return -1;
	/* No interface named: the default route's, which a repeating run follows when it
	 * moves (a failover); without a default route now, the one it had. */
	if (!d->all && !d->ifname && d->every > 0) {
		char now[IF_NAMESIZE];

		if (np_default_iface(&tgt->ctx, now, sizeof(now)) == 0)
			memcpy(t->names[0], now, sizeof(now));
	}
	for (size_t i = 0; i < t->n; i++)
		t->tops[i] = t->names[i];
	return 0;
}

/* What every report does after its snapshots are in: the namespaces of the stack's veth
 * peers, the owners of listed sockets, then the report. */
int np_doctor_judge(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		    double dt, size_t more, struct np_status *st)
{
	struct np_kmods km;

	dr->stack.truncated |= more > 0;
	for (size_t i = 0; tgt->ctx.live && i < dr->stack.n; i++) {
		struct np_stack_dev *sd = &dr->stack.dev[i];

		if (sd->kind == NP_KIND_VETH && sd->peer_other_netns && sd->peer_nsid >= 0)
			sd->peer_in_start = np_collect_netns_of_nsid(&tgt->ctx, sd->peer_nsid,
								     tgt->start_ns_fd, sd->peer_netns,
								     sizeof(sd->peer_netns)) == 1;
	}
	/* Owners of the listed sockets (/proc/PID/fd) only when they will be shown: it walks
	 * every process's descriptors, bounded in count and time. */
	if (d->sockets_top > 0 && tgt->ctx.live)
		np_sockets_map_owners(&tgt->ctx, dr->run[0].have_cur ? &dr->run[0].cur :
				      &dr->run[0].prev, 200000, 1.0);
	/* The sender table says whether bbr is built in, a module or absent. */
	np_collect_kmods(&tgt->ctx, (dr->run[0].have_cur ? &dr->run[0].cur :
				     &dr->run[0].prev)->hs->host.kernel, &km);
	return report(d, tgt, dr, dt, &km, st);
}

/* The target, its interfaces and both snapshots of their devices, then the report. */
int np_doctor_diagnose(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		       struct doctor_tops *t, struct np_status *st)
{
	double dt;

	if (np_doctor_find_tops(d, tgt, t, st) < 0)
		return -1;
	/* A captured tree is one instant: rates need an earlier capture (--before). */
	if (!tgt->ctx.live)
		d->opt.interval = 0;
	if (collect_runs(d, tgt, t->tops, t->n, dr, &dt, st) < 0)
		return -1;
	return np_doctor_judge(d, tgt, dr, dt, t->more, st);
}
