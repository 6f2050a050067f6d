// SPDX-License-Identifier: GPL-2.0-only
/* `netpath doctor [IFACE]`: two snapshots an interval apart, the checks, one report. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect.h"
#include "commands.h"
#include "ctx.h"
#include "funnel.h"
#include "log.h"
#include "netns.h"
#include "opts.h"
#include "render.h"

static const char usage_text[] =
	"Usage: netpath doctor [OPTIONS] [IFACE]\n"
	"Walk the receive path of IFACE (default: the interface of the default route).\n\n"
	"  -i, --interval SEC     sample counters over SEC seconds (default 1; 0 = no sampling)\n"
	"      --rtt MS           round-trip time for the bandwidth-delay-product checks\n"
	"      --bandwidth RATE   path bandwidth, e.g. 10G, 500M (default: the link speed)\n"
	"  -j, --json             JSON output (schema netpath/doctor, version 1)\n"
	"      --color WHEN       auto, always or never (default auto)\n"
	"      --netns NS         diagnose inside network namespace NS: a name (/run/netns/NS),\n"
	"                         a path, or a PID (its /proc/PID/ns/net); needs root\n"
	"      --root DIR         read DIR/proc and DIR/sys instead of the live system\n"
	"      --before DIR       with --root: an earlier capture of the same machine; rates are\n"
	"                         computed between the two (tools/capture-tree.sh makes captures)\n"
	"      --all-counters     JSON: every driver counter, not only those that witness loss\n"
	"  -v, --verbose          more evidence and every check's outcome (-vv: debug log)\n"
	"  -h, --help             this text\n\n"
	"Exit: 0 no warning, 1 warning, 2 critical, 3 could not diagnose.\n";

struct doctor_args {
	struct np_options opt;
	const char *root;
	const char *before;
	const char *netns;
	char netns_path[256];
	const char *ifname;
	bool json;
	enum np_color color;
	bool all_counters;
};

/* One-line reason on stderr (and a JSON error object in --json), exit 3. */
static int fail(const struct doctor_args *d, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "netpath doctor: %s\n", msg);
	if (d->json)
		np_render_error_json(stdout, "doctor", msg, NP_EXIT_UNKNOWN);
	return NP_EXIT_UNKNOWN;
}

static int parse_args(int argc, char **argv, struct doctor_args *d)
{
	enum { OPT_RTT = 256, OPT_BW, OPT_COLOR, OPT_ROOT, OPT_BEFORE, OPT_ALL_COUNTERS,
	       OPT_NETNS };
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "rtt", required_argument, NULL, OPT_RTT },
		{ "bandwidth", required_argument, NULL, OPT_BW },
		{ "json", no_argument, NULL, 'j' },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "before", required_argument, NULL, OPT_BEFORE },
		{ "all-counters", no_argument, NULL, OPT_ALL_COUNTERS },
		{ "netns", required_argument, NULL, OPT_NETNS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	memset(d, 0, sizeof(*d));
	d->opt.interval = 1;
	d->opt.rtt_ms = NAN;
	d->opt.bandwidth_bps = NAN;
	optind = 1;
	/* JSON errors need to know about --json before any other option is judged. */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "-j") == 0)
			d->json = true;
	while ((c = getopt_long(argc, argv, "i:jvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (np_parse_number(optarg, 0, 3600, &d->opt.interval) < 0)
				return fail(d, "invalid --interval '%s' (seconds, 0 to 3600)", optarg);
			break;
		case OPT_RTT:
			if (np_parse_number(optarg, 0.001, 100000, &d->opt.rtt_ms) < 0)
				return fail(d, "invalid --rtt '%s' (milliseconds, > 0)", optarg);
			break;
		case OPT_BW:
			if (np_parse_bandwidth(optarg, &d->opt.bandwidth_bps) < 0)
				return fail(d, "invalid --bandwidth '%s' (e.g. 10G, 500M, 100k)", optarg);
			break;
		case 'j':
			d->json = true;
			break;
		case OPT_COLOR:
			if (np_parse_color(optarg, &d->color) < 0)
				return fail(d, "invalid --color '%s' (auto, always, never)", optarg);
			break;
		case OPT_ROOT:
			d->root = optarg;
			break;
		case OPT_BEFORE:
			d->before = optarg;
			break;
		case OPT_ALL_COUNTERS:
			d->all_counters = true;
			break;
		case OPT_NETNS:
			d->netns = optarg;
			break;
		case 'v':
			d->opt.verbose++;
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
		d->ifname = argv[optind++];
	if (optind < argc)
		return fail(d, "unexpected argument '%s' (one interface at a time)", argv[optind]);
	if (d->before && !d->root)
		return fail(d, "--before needs --root (two captures of the same machine)");
	if (d->netns && d->root)
		return fail(d, "--netns and --root exclude each other (a tree is not a namespace)");
	return -1;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The two snapshots: live ones an interval apart, or the --before and --root captures.
 * Returns -1 on success (a.prev/a.cur set), else the exit code after reporting the failure. */
static int collect_pair(struct doctor_args *d, const struct np_ctx *ctx, const char *ifname,
			struct np_snapshot *prev, struct np_snapshot *cur, struct np_analysis *a)
{
	struct np_ctx bctx;
	int r;

	if (d->before) {
		r = np_ctx_open(&bctx, d->before);
		if (r < 0)
			return fail(d, "cannot open %s/proc or %s/sys: %s", d->before, d->before,
				    strerror(-r));
		r = np_collect(&bctx, ifname, prev);
		np_ctx_close(&bctx);
	} else {
		r = np_collect(ctx, ifname, prev);
	}
	if (r < 0) {
		np_snapshot_free(prev);
		return fail(d, "nothing under %s was readable", d->before ? d->before : ctx->root);
	}
	if (!d->before && d->opt.interval <= 0) {
		a->cur = prev;
		return -1;
	}
	if (!d->before)
		sleep_seconds(d->opt.interval);
	r = np_collect(ctx, ifname, cur);
	if (r < 0 || np_iface_check(ctx, ifname) < 0) {
		np_snapshot_free(prev);
		np_snapshot_free(cur);
		return fail(d, r < 0 ? "nothing under %s was readable" :
			    "interface '%s' disappeared while sampling", r < 0 ? ctx->root : ifname);
	}
	if (!(cur->t > prev->t)) {
		np_snapshot_free(prev);
		np_snapshot_free(cur);
		return fail(d, "--before %s is not earlier than --root %s (compare proc/uptime)",
			    d->before, ctx->root);
	}
	a->prev = prev;
	a->cur = cur;
	a->dt = cur->t - prev->t;
	return -1;
}

static int exit_for(enum np_severity worst)
{
	return worst == NP_SEV_CRITICAL ? NP_EXIT_CRITICAL :
	       worst == NP_SEV_WARNING ? NP_EXIT_WARNING : NP_EXIT_OK;
}

int np_cmd_doctor(int argc, char **argv)
{
	struct np_snapshot prev, cur;
	struct doctor_args d;
	struct np_analysis a = { 0 };
	struct np_report rep;
	struct np_funnel fn;
	struct np_ctx ctx;
	char ifname[IF_NAMESIZE];
	int r, code;

	r = parse_args(argc, argv, &d);
	if (r >= 0)
		return r >= 100 ? r - 100 : r;
	if (d.opt.verbose >= 2)
		np_log_set_level(NP_LOG_DEBUG);
	else if (d.opt.verbose)
		np_log_set_level(NP_LOG_INFO);

	if (d.netns) {
		char err[320];

		/* Before anything is opened: /proc/net, /sys and every socket must be the
		 * namespace's. */
		if (np_netns_enter(d.netns, d.netns_path, sizeof(d.netns_path), err, sizeof(err)) < 0)
			return fail(&d, "%s", err);
	}
	r = np_ctx_open(&ctx, d.root);
	if (r < 0)
		return fail(&d, "cannot open %s/proc or %s/sys: %s", d.root ? d.root : "",
			    d.root ? d.root : "", strerror(-r));
	if (d.ifname) {
		snprintf(ifname, sizeof(ifname), "%s", d.ifname);
		r = np_iface_check(&ctx, d.ifname);
		if (r == -EINVAL) {
			np_ctx_close(&ctx);
			return fail(&d, "invalid interface name '%.64s'", d.ifname);
		}
	} else {
		r = np_default_iface(&ctx, ifname, sizeof(ifname));
		if (r < 0) {
			np_ctx_close(&ctx);
			return fail(&d, "no default route to pick an interface from; name one "
				    "(netpath doctor IFACE)");
		}
		r = np_iface_check(&ctx, ifname);
	}
	if (r < 0) {
		np_ctx_close(&ctx);
		return fail(&d, "no such interface '%s'%s%s", ifname, d.root ? " under " : "",
			    d.root ? d.root : "");
	}

	/* A captured tree is one instant: rates need an earlier capture (--before). */
	if (!ctx.live)
		d.opt.interval = 0;
	r = collect_pair(&d, &ctx, ifname, &prev, &cur, &a);
	if (r >= 0) {
		np_ctx_close(&ctx);
		return r;
	}
	a.opt = &d.opt;
	np_analysis_derive(&a);
	if (np_analyze(&a, &rep, NULL, NULL) < 0) {
		code = fail(&d, "out of memory");
	} else {
		struct np_doctor_view v = {
			.a = &a, .r = &rep, .funnel = &fn, .root = ctx.root, .live = ctx.live,
			.all_counters = d.all_counters,
			.netns = d.netns, .netns_path = d.netns ? d.netns_path : NULL,
		};
		struct np_render_opts ro = {
			.color = !d.json && np_color_enabled(d.color, stdout),
			.verbose = d.opt.verbose,
		};

		np_funnel_build(&a, &fn);
		code = exit_for(np_report_worst(&rep));
		v.exit_code = code;
		if (d.json)
			np_render_doctor_json(stdout, &v);
		else
			np_render_doctor_text(stdout, &v, &ro);
	}
	np_report_free(&rep);
	if (a.prev)
		np_snapshot_free(&cur);
	np_snapshot_free(&prev);
	np_ctx_close(&ctx);
	return code;
}
