// SPDX-License-Identifier: GPL-2.0-only
/* `netpath diff BEFORE AFTER [IFACE]`: what changed between two diagnoses of one interface. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "collect.h"
#include "commands.h"
#include "diff.h"
#include "doctor_stack.h"
#include "log.h"
#include "opts.h"
#include "render_diff.h"
#include "target.h"

static const char usage_text[] =
	"Usage: netpath diff [OPTIONS] BEFORE AFTER [IFACE]\n"
	"       netpath diff --live [OPTIONS] BEFORE [IFACE]\n"
	"What changed between two captures of the same machine, in receive-path order: settings\n"
	"old -> new, findings resolved, new, better or worse, stages judged on one side only,\n"
	"and the drop funnels side by side when both sides were sampled. BEFORE and AFTER are\n"
	"captures (netpath capture files), sosreports, or trees holding proc/ and sys/ (or\n"
	"archives of them); IFACE defaults to AFTER's\n"
	"default-route interface.\n\n"
	"      --live             AFTER is the running system (read-only), sampled over\n"
	"                         --interval\n"
	"  -i, --interval SEC     with --live: sample the running system over SEC seconds\n"
	"                         (default 1; 0 = configuration and since-boot counters only)\n"
	"  -j, --json             JSON output (schema netpath/diff, version 1)\n"
	"  -o, --output FILE      write the result to FILE atomically (a temporary file in the\n"
	"                         same directory, renamed over FILE)\n"
	"      --color WHEN       auto, always or never (default auto)\n"
	"  -v, --verbose          log to stderr (-vv: debug)\n"
	"  -h, --help             this text\n\n"
	"Exit: AFTER's verdict: 0 no warning, 1 warning, 2 critical, 3 could not diagnose\n"
	"(also bad arguments, with a one-line reason on stderr).\n";

struct diff_args {
	const char *before, *after, *ifname, *output;
	bool live, json, interval_given;
	double interval;
	enum np_color color;
	int verbose;
};

/* One-line reason on stderr (and a JSON error object with --json), exit 3. */
static int fail(const struct diff_args *d, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "netpath diff: %s\n", msg);
	if (d->json)
		np_render_error_json(stdout, "diff", msg, NP_EXIT_UNKNOWN);
	return NP_EXIT_UNKNOWN;
}

/* Returns -1 to go on, else the exit code (100 + code for --help's success). */
static int parse_args(int argc, char **argv, struct diff_args *d)
{
	enum { OPT_LIVE = 256, OPT_COLOR };
	static const struct option longopts[] = {
		{ "live", no_argument, NULL, OPT_LIVE },
		{ "interval", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *bad;
	int c;

	memset(d, 0, sizeof(*d));
	d->interval = 1;
	optind = 1;
	/* JSON errors need to know about --json before any other option is judged. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "-j") == 0)
			d->json = true;
	bad = np_opts_inexact(argc, argv, "i:jo:vh", longopts);
	if (bad)
		return fail(d, "unknown option '%.64s' (long options are spelled out in full: "
			    "netpath diff --help)", bad);
	while ((c = getopt_long(argc, argv, "i:jo:vh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_LIVE:
			d->live = true;
			break;
		case 'i':
			if (np_parse_number(optarg, 0, 3600, &d->interval) < 0)
				return fail(d, "invalid --interval '%s' (seconds, 0 to 3600)", optarg);
			d->interval_given = true;
			break;
		case 'j':
			d->json = true;
			break;
		case 'o':
			d->output = optarg;
			break;
		case OPT_COLOR:
			if (np_parse_color(optarg, &d->color) < 0)
				return fail(d, "invalid --color '%s' (auto, always, never)", optarg);
			break;
		case 'v':
			d->verbose++;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return NP_EXIT_OK + 100;
		default:
			fputs(usage_text, stderr);
			return NP_EXIT_UNKNOWN;
		}
	}
	if (optind < argc)
		d->before = argv[optind++];
	if (!d->live && optind < argc)
		d->after = argv[optind++];
	if (optind < argc)
		d->ifname = argv[optind++];
	if (optind < argc)
		return fail(d, "unexpected argument '%s' (one interface at a time)", argv[optind]);
	if (!d->before)
		return fail(d, "name the two sides: netpath diff BEFORE AFTER [IFACE] (or --live "
			    "BEFORE)");
	if (!d->live && !d->after)
		return fail(d, "AFTER missing: netpath diff BEFORE AFTER [IFACE] (or --live BEFORE "
			    "to compare with the running system)");
	if (!d->live && d->interval_given)
		return fail(d, "--interval needs --live (a captured tree is one instant)");
	if (d->output && !d->output[0])
		return fail(d, "-o needs a file name");
	return -1;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* One side, as doctor would judge it: its target, the runs over its device stack. */
struct side {
	const char *name;		/* as given: a path, or "the running system" */
	struct np_target tgt;
	bool open;
	struct np_dev_runs *dr;
	double dt;
	const struct np_snapshot *snap[NP_STACK_MAX];
	struct np_diff_side view;
};

static int side_open(const struct diff_args *d, struct side *s, const char *root,
		     const char *ifname, const char *label)
{
	struct np_target_spec spec = { .cmd = "diff", .root = root, .ifname = ifname };
	char err[400];

	s->name = root ? root : "the running system";
	if (np_target_open(&s->tgt, &spec, err, sizeof(err)) < 0)
		return fail(d, "%s: %s", label, err);
	s->open = true;
	s->dr = calloc(1, sizeof(*s->dr));
	if (!s->dr)
		return fail(d, "out of memory");
	return -1;
}

/*
 * Collect and judge one side. A tree is one instant; a capture holds two samples, spaced by
 * their proc/uptime; the running system is sampled over interval seconds.
 */
static int side_judge(const struct diff_args *d, struct side *s, const char *ifname,
		      double interval, const struct np_options *opt)
{
	const char *tops[1] = { ifname };

	s->dt = 0;
	if (s->tgt.root.before[0]) {
		/* A capture: its first sample, then its last, spaced by their proc/uptime. */
		struct np_ctx bctx;
		int r = np_root_ctx_open(&bctx, &s->tgt.root, s->tgt.root.before);

		if (r < 0)
			return fail(d, "%s: cannot open its first sample: %s", s->name, strerror(-r));
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
			return fail(d, "interface '%s' disappeared while sampling", ifname);
		s->dt = s->dr->run[0].cur.t - s->dr->run[0].prev.t;
	}
	if (np_runs_analyze(s->dr, s->dt, opt, NULL, NULL, NULL) < 0)
		return fail(d, "out of memory");
	for (size_t i = 0; i < s->dr->n; i++)
		s->snap[i] = s->dr->run[i].have_cur ? &s->dr->run[i].cur : &s->dr->run[i].prev;
	s->view = (struct np_diff_side){
		.snap = s->snap, .nsnap = s->dr->n, .a = &s->dr->run[0].a,
		.rep = &s->dr->run[0].rep, .cov = &s->dr->run[0].cov,
	};
	return -1;
}

static void side_close(struct side *s)
{
	if (s->dr) {
		np_runs_free(s->dr);
		free(s->dr);
	}
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

static int render(const struct diff_args *d, const struct side *b, const struct side *a,
		  const struct np_diff *df)
{
	struct np_diff_view v = {
		.d = df, .ifname = a->tgt.ifname, .before = b->name, .after = a->name,
		.before_dt = b->dt, .after_dt = a->dt, .exit_code = exit_for(df),
	};
	struct np_render_opts ro = {
		.color = !d->json && !d->output && np_color_enabled(d->color, stdout),
		.verbose = d->verbose,
	};
	char tmp[PATH_MAX];
	FILE *out = stdout;
	int r;

	if (v.exit_code == NP_EXIT_UNKNOWN)
		fprintf(stderr, "netpath diff: no stage of the receive path could be judged in "
			"%s\n", a->name);
	if (d->output) {
		out = np_atomic_open(d->output, tmp, sizeof(tmp));
		if (!out)
			return fail(d, "cannot write %s: %s", d->output, strerror(errno));
	}
	if (d->json)
		np_render_diff_json(out, &v);
	else
		np_render_diff_text(out, &v, &ro);
	if (d->output) {
		r = np_atomic_commit(out, tmp, d->output);
		if (r < 0)
			return fail(d, "cannot write %s: %s", d->output, strerror(-r));
	}
	return v.exit_code;
}

int np_cmd_diff(int argc, char **argv)
{
	struct side before = { 0 }, after = { 0 };
	/* One each: an analysis keeps a pointer to its options. */
	struct np_options bopt = { .rtt_ms = NAN, .bandwidth_bps = NAN }, aopt = bopt;
	struct diff_args d;
	struct np_diff df;
	char ifname[IF_NAMESIZE];
	int r;

	r = parse_args(argc, argv, &d);
	if (r >= 0)
		return r >= 100 ? r - 100 : r;
	np_log_set_verbosity(d.verbose);
	/* AFTER first: it names the interface when IFACE is not given (its default route). */
	r = side_open(&d, &after, d.live ? NULL : d.after, d.ifname, "after");
	if (r < 0) {
		snprintf(ifname, sizeof(ifname), "%s", after.tgt.ifname);
		r = side_open(&d, &before, d.before, ifname, "before");
	}
	if (r < 0)
		r = side_judge(&d, &before, ifname, 0, &bopt);
	if (r < 0) {
		aopt.interval = d.live ? d.interval : 0;
		r = side_judge(&d, &after, ifname, aopt.interval, &aopt);
	}
	if (r < 0) {
		if (np_diff_build(&before.view, &after.view, &df) < 0) {
			r = fail(&d, "out of memory");
		} else {
			r = render(&d, &before, &after, &df);
			np_diff_free(&df);
		}
	}
	side_close(&before);
	side_close(&after);
	return r;
}
