// SPDX-License-Identifier: GPL-2.0-only
/* `netpath diff BEFORE AFTER [IFACE]`: what changed between two diagnoses of one interface. */
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
#include "cmd_args.h"
#include "collect.h"
#include "commands.h"
#include "diff.h"
#include "doctor_run.h"
#include "doctor_stack.h"
#include "log.h"
#include "opts.h"
#include "specs.h"
#include "render_diff.h"
#include "target.h"
#include "termwidth.h"
#include "textenc.h"
#include "when.h"

static int parse_args(int argc, char **argv, struct diff_args *d, struct np_status *st)
{
	static const char *const json[] = { "--json", "-j", NULL };

	memset(d, 0, sizeof(*d));
	d->interval = 1;
	/* JSON errors need to know about --json before any other option is judged. */
	d->json = np_argv_has(argc, argv, json);
	/* Every row stores into d (spec_diff.c), where --interval's need of --live is declared. */
	if (np_opts_parse(&np_diff_spec, argc, argv, NULL, d, st) < 0)
		return -1;
	if (d->root) {
		/* Two windows of one recording: IFACE is the only operand. */
		if (optind < argc)
			d->ifname = argv[optind++];
		if (optind < argc)
			return np_usage(st, "unexpected argument '%s' (with --root, only IFACE)",
					argv[optind]);
		return 0;
	}
	if (optind < argc)
		d->before = argv[optind++];
	if (!d->live && optind < argc)
		d->after = argv[optind++];
	if (optind < argc)
		d->ifname = argv[optind++];
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s' (one interface at a time)",
				argv[optind]);
	if (!d->before)
		return np_fail(st, "name the two sides: netpath diff BEFORE AFTER [IFACE] (or --live "
			       "BEFORE)");
	if (!d->live && !d->after)
		return np_fail(st, "AFTER missing: netpath diff BEFORE AFTER [IFACE] (or --live "
			       "BEFORE to compare with the running system)");
	if (d->output && !d->output[0])
		return np_fail(st, "-o needs a file name");
	return 0;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - np_floor(s)) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* One side, as doctor would judge it: its target, the runs over its device stack. */
struct side {
	const char *name;		/* as given: a path, or "the running system" */
	char label[300];		/* a recorded window: "DIR at TIME" */
	struct np_target tgt;
	struct np_at at;		/* a window of a recording (--root): its own target */
	bool recorded;
	bool open;
	struct np_dev_runs *dr;
	double dt;
	const struct np_snapshot *snap[NP_STACK_MAX];
	struct np_diff_side view;
};

static int side_open(struct side *s, const char *root, const char *netns, const char *ifname,
		     const char *label, struct np_status *st)
{
	struct np_target_spec spec = { .cmd = "diff", .root = root, .netns = netns,
				       .ifname = ifname };
	char err[400];

	if (netns)
		snprintf(s->label, sizeof(s->label), "the running system of namespace %.200s", netns);
	s->name = root ? root : netns ? s->label : "the running system";
	if (np_target_open(&s->tgt, &spec, err, sizeof(err)) < 0)
		return np_fail(st, "%s: %s", label, err);
	s->open = true;
	s->dr = calloc(1, sizeof(*s->dr));
	if (!s->dr)
		return np_fail(st, "out of memory");
	return 0;
}

/*
 * Collect and judge one side. A tree is one instant; a capture holds two samples, spaced by
 * their proc/uptime; the running system is sampled over interval seconds.
 */
static int side_judge(struct side *s, const char *ifname, double interval,
		      const struct np_options *opt, struct np_status *st)
{
	const char *tops[1] = { ifname };

	s->dt = 0;
	if (np_root_has_before(&s->tgt.root)) {
		/* A capture: its first sample, then its last, spaced by their proc/uptime. */
		struct np_ctx bctx;
		int r = np_sample_ctx_open(&bctx, &s->tgt.root, s->tgt.root.before);

		if (r < 0)
			return np_fail(st, "%s: cannot open its first sample: %s", s->name, strerror(-r));
		np_runs_discover(s->dr, &bctx, tops, 1);
		np_root_ctx_close(&bctx);
		np_runs_collect_again(s->dr, &s->tgt.ctx);
		s->dt = s->dr->run[0].cur.t - s->dr->run[0].prev.t;
		if (!(s->dt > 0))
			s->dt = s->tgt.root.interval;
	} else {
		np_runs_discover(s->dr, &s->tgt.ctx, tops, 1);
	}
	if (s->tgt.ctx.live && interval > 0) {
		sleep_seconds(interval);
		np_runs_collect_again(s->dr, &s->tgt.ctx);
		if (np_iface_check(&s->tgt.ctx, ifname) < 0)
			return np_fail(st, "interface '%s' disappeared while sampling", ifname);
		s->dt = s->dr->run[0].cur.t - s->dr->run[0].prev.t;
	}
	if (np_runs_analyze(s->dr, s->dt, opt, NULL, NULL, NULL) < 0)
		return np_fail(st, "out of memory");
	for (size_t i = 0; i < s->dr->n; i++)
		s->snap[i] = s->dr->run[i].have_cur ? &s->dr->run[i].cur : &s->dr->run[i].prev;
	s->view = (struct np_diff_side){
		.snap = s->snap, .nsnap = s->dr->n, .a = &s->dr->run[0].a,
		.rep = &s->dr->run[0].rep, .cov = &s->dr->run[0].cov,
	};
	return 0;
}

/* A window of the recording d->root at TIME, judged as doctor --at judges it. */
static int side_recorded(struct side *s, const struct diff_args *d, const char *when,
			 const char *ifname, const struct np_options *opt, struct np_status *st)
{
	struct doctor_args da;
	struct doctor_tops t;
	char err[300], at_s[40];
	double at;

	if (np_parse_when(when, (double)time(NULL), &at, err, sizeof(err)) < 0)
		return np_usage(st, "invalid time '%s' (%s)", when, err);
	memset(&da, 0, sizeof(da));
	da.root = d->root;
	da.ifname = ifname;
	da.opt = *opt;
	s->dr = calloc(1, sizeof(*s->dr));
	if (!s->dr)
		return np_fail(st, "out of memory");
	if (np_at_open(&s->at, &da, at, d->window > 0 ? d->window : 1, s->dr, &t, st) != 0)
		return -1;
	s->recorded = true;
	s->dt = s->at.dt;
	np_when_format(at, at_s, sizeof(at_s));
	snprintf(s->label, sizeof(s->label), "%.240s at %s", d->root, at_s);
	s->name = s->label;
	if (np_runs_analyze(s->dr, s->dt, opt, NULL, NULL, NULL) < 0)
		return np_fail(st, "out of memory");
	s->view = (struct np_diff_side){
		.snap = s->snap, .nsnap = s->dr->n, .a = &s->dr->run[0].a,
		.rep = &s->dr->run[0].rep, .cov = &s->dr->run[0].cov,
	};
	for (size_t i = 0; i < s->dr->n; i++)
		s->snap[i] = &s->dr->run[i].cur;
	return 0;
}

static const char *side_ifname(const struct side *s)
{
	return s->recorded ? s->dr->run[0].name : s->tgt.ifname;
}

static void side_close(struct side *s)
{
	if (s->dr) {
		np_runs_free(s->dr);
		free(s->dr);
	}
	if (s->recorded)
		np_at_close(&s->at);
	if (s->open)
		np_target_close(&s->tgt);
}

static int exit_for(const struct np_diff *df)
{
	if (df->new_unknown)
		return NP_EXIT_UNKNOWN;
	return df->new_worst == NP_SEV_CRITICAL ? NP_EXIT_CRITICAL :
	       df->new_worst == NP_SEV_WARNING ? NP_EXIT_WARNING : NP_EXIT_OK;
}

/* The result in the format asked for: 0 (st->code AFTER's verdict) or -1. */
static int render(const struct diff_args *d, const struct side *b, const struct side *a,
		  const struct np_diff *df, struct np_status *st)
{
	struct np_diff_view v = {
		.d = df, .ifname = side_ifname(a), .before = b->name, .after = a->name,
		.before_dt = b->dt, .after_dt = a->dt, .exit_code = exit_for(df),
	};
	struct np_render_opts ro = {
		.color = !d->json && !d->output && np_color_enabled(d->color, stdout),
		.verbose = d->verbose,
	};
	char tmp[PATH_MAX];
	FILE *out = stdout;
	int r;

	/* Between two windows of a recording: when the configuration changed. */
	if (d->root && np_rec_config_changes(d->root, (double)b->at.m0.wall_ns / 1e9,
					     (double)a->at.m1.wall_ns / 1e9, &v.changes,
					     &v.nchanges) < 0)
		return np_fail(st, "%s: cannot read the recording", d->root);
	if (v.exit_code == NP_EXIT_UNKNOWN)
		np_say("netpath diff: no stage of the receive path could be judged in %s", a->name);
	if (d->output) {
		out = np_atomic_open(d->output, tmp, sizeof(tmp));
		if (!out)
			return np_fail(st, "cannot write %s: %s", d->output, strerror(errno));
	}
	ro.width = np_term_width(out);	/* a file: $COLUMNS or 80 */
	if (d->json)
		np_render_diff_json(out, &v);
	else {
		/* The renderer wraps into h, which writes ASCII under a non-UTF-8 locale. */
		FILE *h = np_text_stream(out);

		np_render_diff_text(h, &v, &ro);
		np_text_stream_done(h, out);
	}
	if (d->output) {
		r = np_atomic_commit(out, tmp, d->output);
		if (r < 0)
			return np_fail(st, "cannot write %s: %s", d->output, strerror(-r));
	}
	st->code = v.exit_code;
	free(v.changes);
	return 0;
}

/* Both sides opened and judged, compared, rendered: 0 or -1. Each side's analysis keeps a
 * pointer to its options (bopt, aopt), which must outlive the sides. */
static int compare(const struct diff_args *d, struct side *before, struct side *after,
		   const struct np_options *bopt, const struct np_options *aopt,
		   struct np_status *st)
{
	char ifname[IF_NAMESIZE];
	struct np_diff df;
	int r;

	if (d->root) {
		/* The later window names the interface when IFACE is not given. */
		if (side_recorded(after, d, d->to, d->ifname, aopt, st) < 0 ||
		    side_recorded(before, d, d->at, side_ifname(after), bopt, st) < 0)
			return -1;
		goto judged;
	}
	/* AFTER first: it names the interface when IFACE is not given (its default route). With
	 * --netns it enters the namespace for the whole process; BEFORE is a file, read the
	 * same from any namespace. */
	if (side_open(after, d->live ? NULL : d->after, d->live ? d->netns : NULL, d->ifname,
		      "after", st) < 0)
		return -1;
	snprintf(ifname, sizeof(ifname), "%s", after->tgt.ifname);
	if (side_open(before, d->before, NULL, ifname, "before", st) < 0 ||
	    side_judge(before, ifname, 0, bopt, st) < 0 ||
	    side_judge(after, ifname, aopt->interval, aopt, st) < 0)
		return -1;
judged:
	if (np_diff_build(&before->view, &after->view, &df) < 0)
		return np_fail(st, "out of memory");
	r = render(d, before, after, &df, st);
	np_diff_free(&df);
	return r;
}

int np_cmd_diff(int argc, char **argv)
{
	struct side before = { 0 }, after = { 0 };
	struct np_options bopt = { .rtt_ms = NAN, .bandwidth_bps = NAN }, aopt = bopt;
	struct np_status st = { 0 };
	struct diff_args d;

	if (parse_args(argc, argv, &d, &st) < 0)
		return np_finish(&st, "diff", d.json);
	np_log_set_verbosity(d.verbose);
	np_text_grouping(!d.json);	/* the locale's digit groups in text only */
	np_cleanup_signals("diff", false);
	aopt.interval = d.live ? d.interval : 0;
	compare(&d, &before, &after, &bopt, &aopt, &st);
	side_close(&before);
	side_close(&after);
	return np_finish(&st, "diff", d.json);
}
