// SPDX-License-Identifier: GPL-2.0-only
/* `netpath plan --profile P [IFACE]`: doctor's analysis of IFACE turned into the commented
 * configuration files that resolve it, for review. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npfloor.h"
#include "cleanup.h"
#include "cmd_args.h"
#include "collect.h"
#include "commands.h"
#include "doctor_stack.h"
#include "kmods.h"
#include "log.h"
#include "opts.h"
#include "plan.h"
#include "plan_write.h"
#include "render_plan.h"
#include "specs.h"
#include "target.h"
#include "termwidth.h"
#include "text_wrap.h"
#include "textenc.h"

static int parse_args(int argc, char **argv, struct plan_args *d, struct np_status *st)
{
	static const char *const json[] = { "--json", "-j", NULL };
	char err[400];

	memset(d, 0, sizeof(*d));
	d->profile = -1;
	d->rtt_ms = d->bw_bps = NAN;
	d->interval = 1;
	d->json = np_argv_has(argc, argv, json);
	/* Every row stores into d (spec_plan.c): no callback. */
	if (np_opts_parse(&np_plan_spec, argc, argv, NULL, d, st) < 0)
		return -1;
	if (optind < argc)
		d->ifname = argv[optind++];
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s' (one interface, or --all)",
				argv[optind]);
	if (d->all && d->ifname)
		return np_fail(st, "--all plans every interface: give no IFACE with it");
	if (d->profile < 0)
		return np_fail(st, "--profile is required: lan, long-haul, busy-server or "
			       "low-latency");
	/* Refuse a bad --write before reading anything. */
	if (d->write && np_plan_dir_check(d->write, err, sizeof(err)) < 0)
		return np_fail(st, "%s", err);
	return 0;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - np_floor(s)) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The snapshots doctor would take: a capture's two samples, a tree's one, or the live system
 * over the interval. */
static int collect(struct np_target *t, const char *ifname, struct np_dev_runs *dr,
		   const struct plan_args *d, double *dt, struct np_status *st)
{
	const char *tops[1] = { ifname };

	*dt = 0;
	if (np_root_has_before(&t->root)) {
		struct np_ctx bctx;
		int r = np_sample_ctx_open(&bctx, &t->root, t->root.before);

		if (r < 0)
			return np_fail(st, "%s: cannot open its first sample: %s", d->root,
				       strerror(-r));
		np_runs_discover(dr, &bctx, tops, 1);
		np_root_ctx_close(&bctx);
		np_runs_collect_again(dr, &t->ctx);
		*dt = dr->run[0].cur.t - dr->run[0].prev.t;
		if (!(*dt > 0))
			*dt = t->root.interval;
		return 0;
	}
	np_runs_discover(dr, &t->ctx, tops, 1);
	if (t->ctx.live && d->interval > 0) {
		sleep_seconds(d->interval);
		np_runs_collect_again(dr, &t->ctx);
		if (np_iface_check(&t->ctx, ifname) < 0)
			return np_fail(st, "interface '%s' disappeared while sampling", ifname);
		*dt = dr->run[0].cur.t - dr->run[0].prev.t;
	}
	return 0;
}

static int output(const struct plan_args *d, const struct np_plan *p, struct np_status *st)
{
	int width = np_term_width(stdout);
	struct np_wrap_stream w;
	/* The files are written as they are, whatever the locale; what is shown on stdout is
	 * human text, wrapped at the width and then ASCII under a non-UTF-8 locale (h). Never
	 * digit-grouped. */
	FILE *h = d->json ? stdout : np_text_stream(stdout);
	char err[600];
	int r = 0;

	if (d->write && np_plan_write(p, d->write, d->json ? NULL : h, err, sizeof(err)) < 0)
		r = np_fail(st, "%s", err);
	else if (d->json)
		np_render_plan_json(stdout, p);
	else if (d->write) {
		np_render_plan_summary(np_wrap_open(&w, h, width), p);
		np_wrap_close(&w);
	} else {
		np_render_plan_text(h, p, width);
	}
	np_text_stream_done(h, stdout);
	return r;
}

/*
 * One device as doctor judges it, into the plan: the primary builds it (path, sysctls, its NIC),
 * each other device (--all) adds its NIC settings and qdisc. Then the plan is applied to the
 * device's snapshot and judged again. 0 or -1.
 */
static int one_device(const struct plan_args *d, struct np_target *t, const char *ifname,
		      struct np_options *opt, struct np_plan *p, bool primary,
		      struct np_status *st)
{
	struct np_dev_runs *dr = calloc(1, sizeof(*dr));
	struct np_snapshot *cur;
	struct np_analysis probe;
	struct np_kmods km;
	bool assumed = false;
	double dt;
	int r = -1;

	if (!dr)
		return np_fail(st, "out of memory");
	if (collect(t, ifname, dr, d, &dt, st) < 0)
		goto out;
	cur = dr->run[0].have_cur ? &dr->run[0].cur : &dr->run[0].prev;
	if (primary) {
		/* The path first, so doctor judges the plan's path: given, measured, or the
		 * profile's. The other devices are judged on the same one. */
		probe = (struct np_analysis){ .cur = cur, .opt = opt };
		np_analysis_derive(&probe);
		np_plan_path(&probe, (enum np_profile)d->profile, &assumed);
		if (assumed)
			opt->rtt_ms = probe.rtt_ms;
	}
	opt->interval = dt;
	if (np_runs_analyze(dr, dt, opt, NULL, NULL, NULL) < 0) {
		np_fail(st, "out of memory");
		goto out;
	}
	if (primary) {
		if (assumed)
			dr->run[0].a.rtt_source = "assumed for the profile";
		np_collect_kmods(&t->ctx, cur->hs->host.kernel, &km);
		r = np_plan_build(&dr->run[0].a, &dr->run[0].rep, (enum np_profile)d->profile,
				  &km, p);
	} else {
		r = np_plan_add_device(p, &dr->run[0].a, &dr->run[0].rep);
	}
	/* The proof: doctor again, on the same data with the plan applied. */
	if (r == 0)
		r = np_plan_verify(p, &dr->run[0].a, &dr->run[0].rep, cur);
	if (r == -ENOSPC)
		np_fail(st, "more than %d interfaces to plan for", NP_PLAN_DEVS);
	else if (r < 0)
		np_fail(st, "out of memory");
out:
	np_runs_free(dr);
	free(dr);
	return r < 0 ? -1 : 0;
}

/* --all: the default route's interface first (the path is sized for it), then the others that
 * are up and carry traffic. */
static size_t all_devices(struct np_target *t, char (*names)[IF_NAMESIZE], size_t max)
{
	char def[IF_NAMESIZE] = "";
	size_t more = 0, n = np_collect_busy_ifaces(&t->ctx, names, max, &more);

	if (np_default_iface(&t->ctx, def, sizeof(def)) < 0)
		return n;
	for (size_t i = 1; i < n; i++)
		if (!strcmp(names[i], def)) {
			memcpy(names[i], names[0], IF_NAMESIZE);
			memcpy(names[0], def, IF_NAMESIZE);
		}
	return n;
}

static int plan(const struct plan_args *d, struct np_target *t, struct np_status *st)
{
	struct np_options opt = { .rtt_ms = d->rtt_ms, .bandwidth_bps = d->bw_bps };
	char names[NP_PLAN_DEVS][IF_NAMESIZE];
	size_t n = 1;
	struct np_plan p = { 0 };
	int r = 0;

	if (d->all) {
		n = all_devices(t, names, NP_PLAN_DEVS);
		if (!n)
			return np_fail(st, "--all: no interface is up and carries traffic");
	} else {
		snprintf(names[0], sizeof(names[0]), "%s", t->ifname);
	}
	for (size_t i = 0; i < n && r == 0; i++)
		r = one_device(d, t, names[i], &opt, &p, i == 0, st);
	if (r == 0)
		r = output(d, &p, st);
	np_plan_free(&p);
	return r;
}

int np_cmd_plan(int argc, char **argv)
{
	struct np_status st = { 0 };
	struct np_target t;
	struct plan_args d;
	char err[400];

	if (parse_args(argc, argv, &d, &st) < 0)
		return np_finish(&st, "plan", d.json);
	np_log_set_verbosity(d.verbose);
	np_cleanup_signals("plan", false);
	{
		struct np_target_spec spec = { .cmd = "plan", .root = d.root, .ifname = d.ifname,
					       .netns = d.netns, .any_iface = d.all };

		if (np_target_open(&t, &spec, err, sizeof(err)) < 0) {
			np_fail(&st, "%s", err);
			return np_finish(&st, "plan", d.json);
		}
	}
	if (plan(&d, &t, &st) == 0)
		st.code = NP_EXIT_OK;
	np_target_close(&t);
	return np_finish(&st, "plan", d.json);
}
