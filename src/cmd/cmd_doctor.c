// SPDX-License-Identifier: GPL-2.0-only
/* `netpath doctor [IFACE]`: two snapshots an interval apart, the checks, one report. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "cleanup.h"
#include "clock.h"
#include "deadline.h"
#include "doctor_stack.h"
#include "collect.h"
#include "sock_diag.h"
#include "commands.h"
#include "command_config.h"
#include "doctor_config.h"
#include "doctor_run.h"
#include "ctx.h"
#include "target.h"
#include "funnel.h"
#include "kmods.h"
#include "log.h"
#include "opts.h"
#include "specs.h"
#include "render.h"
#include "render_monitor.h"
#include "termwidth.h"
#include "textenc.h"

/* A plugin must never outlive the monitoring system's patience (Nagios and Icinga end a check
 * after 60 s, and the Monitoring Plugins' own default is 10 s): under --nagios without
 * --timeout, the run gives up this many seconds after its sampling interval. */
#define NAGIOS_TIMEOUT_EXTRA 10

/* The one way out of doctor: a failure's reason on stderr (and as a JSON error object with
 * --json, or a Nagios UNKNOWN line with --nagios), then its exit code. */
static int finish(const struct doctor_args *d, const struct np_status *st)
{
	if (np_failed(st) && d->nagios && !d->json)
		np_render_nagios_unknown(stdout, st->msg);
	return np_finish(st, "doctor", d->json);
}

/* The options whose values doctor parses itself; the others are stored by np_opts_parse() in
 * their rows' destinations (spec_doctor.c). */
static int set_option(void *arg, int id, const struct np_optval *v, struct np_status *st)
{
	struct doctor_args *d = arg;
	char err[512];

	if (id == NP_DOCTOR_THRESHOLD) {
		if (np_overrides_parse_option(&d->cfg.ovr, v->s, err, sizeof(err)) < 0)
			return np_fail(st, "--threshold: %s", err);
	} else if (id == NP_DOCTOR_CHECK || id == NP_DOCTOR_SKIP) {
		if (np_selection_parse(&d->cli_sel, id == NP_DOCTOR_CHECK ? NP_SEL_CHECK :
				       NP_SEL_SKIP, v->s, err, sizeof(err)) < 0)
			return np_fail(st, "--%s: %s", id == NP_DOCTOR_CHECK ? "check" : "skip",
				       err);
	} else if (id == NP_DOCTOR_FORMAT) {
		/* by the word, not its place in the row's list: --json and --format json alike */
		d->json = strcmp(v->s, "json") == 0;
		d->prom = strcmp(v->s, "prometheus") == 0;
	}
	return 0;	/* --config: read by np_command_config_load() */
}

static int parse_args(int argc, char **argv, struct doctor_args *d, struct np_status *st)
{
	char err[512];

	memset(d, 0, sizeof(*d));
	d->opt.interval = 1;
	d->opt.rtt_ms = NAN;
	d->opt.bandwidth_bps = NAN;
	/* JSON errors need to know about --json before any other option is judged. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "-j") == 0 ||
		    strcmp(argv[i], "--format=json") == 0 ||
		    (strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
		     strcmp(argv[i + 1], "json") == 0))
			d->json = true;
		/* Nagios parses stdout: even a bad option gets a "NETPATH UNKNOWN" line. */
		if (strcmp(argv[i], "--nagios") == 0)
			d->nagios = true;
	}
	/* Before the file: a misspelt --config must not read the default one. */
	if (np_opts_exact(&np_doctor_spec, argc, argv, st) < 0 ||
	    np_command_config_load(&np_doctor_spec, NP_DOCTOR_CONFIG, argc, argv, &d->cfg, &d->opt,
				   &d->opt.interval, st) < 0 ||
	    np_opts_parse(&np_doctor_spec, argc, argv, set_option, d, st) < 0) {
		/* --help and --version under --nagios: UNKNOWN, as the Monitoring Plugins
		 * guidelines ask, so a check command given one by mistake never shows OK. */
		if (!np_failed(st) && d->nagios)
			st->code = NP_EXIT_UNKNOWN;
		return -1;
	}
	if (optind < argc)
		d->ifname = argv[optind++];
	if (d->all && d->ifname)
		return np_fail(st, "--all judges every interface: name none");
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s' (one interface at a time)",
				argv[optind]);
	/* The rules between options alone are declared on their rows (spec_doctor.c) and
	 * checked by np_opts_parse(); these ones depend on values or operands. */
	if (d->nagios && (d->json || d->prom))
		return np_fail(st, "--nagios is an output format of its own: not with --json or "
			       "--format");
	/* A summary for people: machine formats carry every field, Nagios has its own line. */
	if (d->brief && (d->json || d->prom || d->nagios))
		return np_fail(st, "--brief is a short text form: not with %s",
			       d->nagios ? "--nagios" : d->json ? "--json or --format json" :
			       "--format prometheus");
	if (d->timeout > 0 && d->root == NULL && d->timeout <= d->opt.interval)
		return np_fail(st, "--timeout %g s must exceed the interval (%g s): the run samples "
			       "for that long", d->timeout, d->opt.interval);
	if (np_selection_merge(&d->cfg.sel, &d->cli_sel, err, sizeof(err)) < 0)
		return np_fail(st, "%s", err);
	if (d->nagios && !(d->timeout > 0)) {
		d->timeout = (d->root ? 0 : d->opt.interval) + NAGIOS_TIMEOUT_EXTRA;
		d->timeout_default = true;
	}
	return 0;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

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
static int collect_runs(const struct doctor_args *d, const struct np_target *tgt,
			const char *const *tops, size_t ntops, struct np_dev_runs *dr,
			double *dt, struct np_status *st)
{
	const struct np_ctx *ctx = &tgt->ctx;
	struct np_root broot;
	struct np_ctx bctx;
	char err[400];
	int r;

	*dt = 0;
	/* The earlier instant: --before (a tree, capture or sosreport), else a capture's own
	 * first sample. */
	if (d->before || tgt->root.before[0]) {
		const struct np_root *br = &tgt->root;

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

/* What a report shows beyond the runs, all read before anything is rendered. */
struct doctor_verdict {
	struct np_funnel fn;
	struct np_kmods km;
	int code;		/* the exit code: the verdict */
};

/* The analysis, the funnel, the kernel modules and the verdict: everything the report reads,
 * so that rendering does no I/O and no judging. 0 or -1 (st set). */
static int assess(struct doctor_args *d, const struct np_target *tgt, struct np_dev_runs *dr,
		  double dt, struct doctor_verdict *vd, struct np_status *st)
{
	struct np_dev_run *pr = &dr->run[0];

	if (np_runs_analyze(dr, dt, &d->opt, &d->cfg.ovr, np_selection_want, &d->cfg.sel) < 0)
		return np_fail(st, "out of memory");
	np_funnel_build(&pr->a, &vd->fn);
	/* The sender table says whether bbr is built in, a module or absent. */
	np_collect_kmods(&tgt->ctx, pr->a.cur->host.kernel, &vd->km);
	/* No stage judged: UNKNOWN, never "OK" without evidence. */
	vd->code = np_coverage_unknown(&pr->cov) ? NP_EXIT_UNKNOWN :
		   exit_for(np_report_worst(&pr->rep));
	/* Host-wide stages are still judged when the interface is gone; the verdict is not. */
	if (d->unknown_why[0]) {
		if (!d->was_unknown)
			np_say("netpath doctor: %s: the reports are UNKNOWN until then",
			       d->unknown_why);
		vd->code = NP_EXIT_UNKNOWN;
	} else if (vd->code == NP_EXIT_UNKNOWN && !d->was_unknown)
		unknown_reason(&pr->cov);
	d->was_unknown = vd->code == NP_EXIT_UNKNOWN;
	return 0;
}

/* The report of an assessed run in the format asked for: 0 (st->code the verdict), or
 * REPORT_UNWRITTEN (-o could not be written; st says why). Renders only. */
static int report(const struct doctor_args *d, const struct np_target *tgt,
		  struct np_dev_runs *dr, struct doctor_verdict *vd, struct np_status *st)
{
	const struct np_ctx *ctx = &tgt->ctx;
	struct np_dev_run *pr = &dr->run[0];
	struct np_doctor_view v = {
		.a = &pr->a, .r = &pr->rep, .funnel = &vd->fn, .cov = &pr->cov,
		.stack = &dr->stack, .root = ctx->root, .live = ctx->live,
		.origin = &ctx->origin,
		.all_counters = d->all_counters, .sockets_top = d->sockets_top,
		.netns = d->netns, .netns_path = d->netns ? tgt->netns_path : NULL,
		.kmods = &vd->km, .exit_code = vd->code,
	};
	struct np_render_opts ro = {
		.color = !d->json && !d->prom && np_color_enabled(d->color, stdout),
		.verbose = d->opt.verbose,
	};
	const struct np_snapshot *devs[NP_STACK_MAX];
	char tmp[PATH_MAX];
	FILE *out = stdout;
	int code = vd->code, r;

	/* Each device's latest snapshot, for the series that are the device's own. */
	for (size_t i = 0; i < dr->n; i++)
		if (dr->run[i].have_cur || dr->run[i].have_prev)
			devs[v.ndevs++] = dr->run[i].have_cur ? &dr->run[i].cur : &dr->run[i].prev;
	v.devs = devs;
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

/* What every report does after its snapshots are in: the stack's names for the veth peers
 * the target started from, the owners of listed sockets, then the report. */
int np_doctor_judge(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		    double dt, size_t more, struct np_status *st)
{
	struct doctor_verdict vd;

	dr->stack.truncated |= more > 0;
	if (tgt->n_start_links) {
		unsigned long long ifindex[NP_STACK_MAX];

		for (size_t i = 0; i < dr->n; i++)
			ifindex[i] = dr->run[i].prev.dev.ifindex;
		np_stack_name_peers(&dr->stack, ifindex, tgt->start_links, tgt->n_start_links);
	}
	/* Owners of the listed sockets (/proc/PID/fd) only when they will be shown: it walks
	 * every process's descriptors, bounded in count and time. */
	if (d->sockets_top > 0 && tgt->ctx.live)
		np_sockets_map_owners(&tgt->ctx, dr->run[0].have_cur ? &dr->run[0].cur :
				      &dr->run[0].prev, 200000, 1.0);
	if (assess(d, tgt, dr, dt, &vd, st) < 0)
		return -1;
	return report(d, tgt, dr, &vd, st);
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

int np_cmd_doctor(int argc, char **argv)
{
	struct np_status st = { 0 };
	struct np_dev_runs *dr;
	struct doctor_args d;
	struct np_target tgt;

	if (parse_args(argc, argv, &d, &st) < 0)
		return finish(&d, &st);
	np_log_set_verbosity(d.opt.verbose);
	np_command_config_say(&d.cfg);
	/* Digits grouped as the locale says in text only (the report and --brief, both human
	 * text): JSON, Prometheus and the Nagios line read the same everywhere. */
	np_text_grouping(!d.json && !d.prom && !d.nagios);
	/* Before the deadline, which then takes SIGTERM over (monitoring runs: its own line). */
	np_cleanup_signals("doctor", d.every > 0);
	/* Monitoring runs are bounded, and end UNKNOWN when the monitoring system ends them. */
	if (d.nagios || d.timeout > 0) {
		struct np_deadline_msgs m;

		np_deadline_format(&m, "doctor", d.nagios && !d.json, d.timeout);
		if (d.timeout_default)
			snprintf(m.timeout, sizeof(m.timeout), "NETPATH UNKNOWN - timed out after "
				 "%g s (the --nagios default: the interval + %d s; set --timeout)\n",
				 d.timeout, NAGIOS_TIMEOUT_EXTRA);
		if (np_deadline_arm(&m, d.nagios && !d.json ? 1 : 2, d.timeout) < 0) {
			np_fail(&st, "cannot arm --timeout: %s", strerror(errno));
			return finish(&d, &st);
		}
	}
	{
		struct np_target_spec spec = {
			.cmd = "doctor", .netns = d.netns, .root = d.root,
			.ifname = d.all ? NULL : d.ifname, .any_iface = d.all,
		};
		char err[400];

		if (np_target_open(&tgt, &spec, err, sizeof(err)) < 0) {
			np_fail(&st, "%s", err);
			return finish(&d, &st);
		}
	}
	dr = calloc(1, sizeof(*dr));
	if (!dr)
		np_fail(&st, "out of memory");
	else if (d.every > 0)
		np_doctor_every(&d, &tgt, dr, &st);
	else {
		struct doctor_tops t;

		np_doctor_diagnose(&d, &tgt, dr, &t, &st);
	}
	if (dr)
		np_runs_free(dr);
	free(dr);
	np_target_close(&tgt);
	return finish(&d, &st);
}
