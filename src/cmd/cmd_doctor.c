// SPDX-License-Identifier: GPL-2.0-only
/* `netpath doctor [IFACE]`: two snapshots an interval apart, the checks, one report. */
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
#include "doctor_stack.h"
#include "collect.h"
#include "sock_diag.h"
#include "commands.h"
#include "doctor_config.h"
#include "ctx.h"
#include "target.h"
#include "funnel.h"
#include "log.h"
#include "opts.h"
#include "render.h"
#include "render_monitor.h"

static const char usage_text[] =
	"Usage: netpath doctor [OPTIONS] [IFACE]\n"
	"Walk the receive path of IFACE (default: the interface of the default route).\n\n"
	"  -i, --interval SEC     sample counters over SEC seconds (default 1; 0 = no sampling)\n"
	"      --rtt MS           round-trip time for the bandwidth-delay-product checks\n"
	"      --bandwidth RATE   path bandwidth, e.g. 10G, 500M (default: the link speed)\n"
	"  -j, --json             JSON output (schema netpath/doctor, version 2)\n"
	"      --format FMT       text, json or prometheus (text format 0.0.4, for the\n"
	"                         node_exporter textfile collector)\n"
	"  -o, --output FILE      write the report to FILE atomically (a temporary file in the\n"
	"                         same directory, renamed over FILE); FILE's directory must exist\n"
	"      --nagios           Nagios/Icinga plugin output: one status line with perfdata,\n"
	"                         exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN\n"
	"      --color WHEN       auto, always or never (default auto)\n"
	"      --netns NS         diagnose inside network namespace NS: a name (/run/netns/NS),\n"
	"                         a path, or a PID (its /proc/PID/ns/net); needs root\n"
	"      --root DIR         read DIR/proc and DIR/sys instead of the live system\n"
	"      --before DIR       with --root: an earlier capture of the same machine; rates are\n"
	"                         computed between the two (tools/capture-tree.sh makes captures)\n"
	"      --interval-of SEC  with --before: the seconds between the two captures, when\n"
	"                         they carry no proc/uptime (or to override it)\n"
	"      --sockets N        list the top N sockets per problem (full listeners, dropping UDP\n"
	"                         sockets, buffer-limited and lossy TCP flows) with their owning\n"
	"                         process, in text and JSON (0-16; default 0: a summary)\n"
	"      --all              every interface that is up and carries traffic, each device\n"
	"                         once (physical NICs shared by several stacks judged once)\n"
	"      --all-counters     JSON and prometheus: every driver counter, not only those\n"
	"                         that witness loss\n"
	"      --config FILE      settings file (default /etc/netpath.conf when it exists);\n"
	"                         the command line overrides it\n"
	"      --threshold ID:warn=N,crit=N\n"
	"                         override a check's thresholds, either level alone (units:\n"
	"                         netpath explain ID); repeat for more checks\n"
	"      --check ID,...     run only these checks: ids, globs (softnet.*, socket.tcp-*)\n"
	"                         or stage names (softnet); replaces the file's check lines\n"
	"      --skip ID,...      do not run these checks (same patterns; wins over --check);\n"
	"                         replaces the file's skip lines\n"
	"  -v, --verbose          more evidence and every check's outcome (-vv: debug log)\n"
	"  -h, --help             this text\n\n"
	"Exit: 0 no warning, 1 warning, 2 critical, 3 could not diagnose.\n";

struct doctor_args {
	struct np_options opt;
	const char *root;
	const char *before;
	const char *netns;
	const char *ifname;
	bool json;
	bool prom;
	bool nagios;
	const char *output;
	enum np_color color;
	bool all_counters;
	bool all;			/* --all: every interface that is up and carries traffic */
	int sockets_top;
	double interval_of;		/* --interval-of: seconds between --before and --root */
	struct np_config cfg;		/* the config file, then the command line over it */
	struct np_selection cli_sel;	/* --check/--skip: replace the file's lists on merge */
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
	else if (d->nagios)
		np_render_nagios_unknown(stdout, msg);
	return NP_EXIT_UNKNOWN;
}

enum { OPT_RTT = 256, OPT_BW, OPT_COLOR, OPT_ROOT, OPT_BEFORE, OPT_ALL_COUNTERS, OPT_NETNS,
       OPT_CONFIG, OPT_THRESHOLD, OPT_CHECK, OPT_SKIP, OPT_FORMAT, OPT_NAGIOS,
       OPT_SOCKETS, OPT_INTERVAL_OF, OPT_ALL };

/*
 * The config file (--config FILE, else /etc/netpath.conf if it exists) before the other
 * options, so that each of them overrides it. A first getopt pass finds --config (abbreviated
 * or --config=FILE too); the file's interval/rtt/bandwidth go through the same parsers as the
 * options. Returns -1 to go on, else the exit code.
 */
static int load_config(int argc, char **argv, const struct option *longopts,
		       struct doctor_args *d)
{
	const char *path = NULL, *v;
	bool help = false;
	char err[512];
	int c, oerr = opterr;

	/* Leading '-': operands come back in order (as 1), so this pass does not permute argv
	 * under the real one; errors are left to the real pass. */
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "-i:jo:vh", longopts, NULL)) != -1) {
		if (c == OPT_CONFIG)
			path = optarg;
		help |= c == 'h';
	}
	opterr = oerr;
	optind = 0;
	if (help)
		return -1;	/* --help works whatever the file says */
	if (np_config_load(path ? path : NP_CONFIG_PATH, path != NULL, &d->cfg, err,
			   sizeof(err)) < 0)
		return fail(d, "%s", err);
	v = d->cfg.interval.text;
	if (d->cfg.interval.line && np_parse_number(v, 0, 3600, &d->opt.interval) < 0)
		return fail(d, "%s:%u: invalid interval '%s' (seconds, 0 to 3600)", d->cfg.path,
			    d->cfg.interval.line, v);
	v = d->cfg.rtt.text;
	if (d->cfg.rtt.line && np_parse_number(v, 0.001, 100000, &d->opt.rtt_ms) < 0)
		return fail(d, "%s:%u: invalid rtt '%s' (milliseconds, > 0)", d->cfg.path,
			    d->cfg.rtt.line, v);
	v = d->cfg.bandwidth.text;
	if (d->cfg.bandwidth.line && np_parse_bandwidth(v, &d->opt.bandwidth_bps) < 0)
		return fail(d, "%s:%u: invalid bandwidth '%s' (e.g. 10G, 500M, 100k)", d->cfg.path,
			    d->cfg.bandwidth.line, v);
	return -1;
}

static int parse_args(int argc, char **argv, struct doctor_args *d)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "rtt", required_argument, NULL, OPT_RTT },
		{ "bandwidth", required_argument, NULL, OPT_BW },
		{ "json", no_argument, NULL, 'j' },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "before", required_argument, NULL, OPT_BEFORE },
		{ "interval-of", required_argument, NULL, OPT_INTERVAL_OF },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "all-counters", no_argument, NULL, OPT_ALL_COUNTERS },
		{ "netns", required_argument, NULL, OPT_NETNS },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "output", required_argument, NULL, 'o' },
		{ "nagios", no_argument, NULL, OPT_NAGIOS },
		{ "sockets", required_argument, NULL, OPT_SOCKETS },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "check", required_argument, NULL, OPT_CHECK },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char err[512];
	int c, r;

	memset(d, 0, sizeof(*d));
	d->opt.interval = 1;
	d->opt.rtt_ms = NAN;
	d->opt.bandwidth_bps = NAN;
	optind = 1;
	/* JSON errors need to know about --json before any other option is judged. */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "-j") == 0 ||
		    strcmp(argv[i], "--format=json") == 0 ||
		    (strcmp(argv[i], "--format") == 0 && i + 1 < argc &&
		     strcmp(argv[i + 1], "json") == 0))
			d->json = true;
		/* Nagios parses stdout: even a bad option gets a "NETPATH UNKNOWN" line. */
		if (strcmp(argv[i], "--nagios") == 0)
			d->nagios = true;
	}
	{
		const char *bad = np_opts_inexact(argc, argv, "i:jo:vh", longopts);

		/* Abbreviations hide typos and change meaning when options are added. */
		if (bad)
			return fail(d, "unknown option '%.64s' (long options are spelled out in full: "
				    "netpath doctor --help)", bad);
	}
	r = load_config(argc, argv, longopts, d);
	if (r >= 0)
		return r;
	while ((c = getopt_long(argc, argv, "i:jo:vh", longopts, NULL)) != -1) {
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
		case OPT_INTERVAL_OF:
			if (np_parse_number(optarg, 0.001, 1e9, &d->interval_of) < 0)
				return fail(d, "invalid --interval-of '%s' (seconds, > 0)", optarg);
			break;
		case OPT_ALL_COUNTERS:
			d->all_counters = true;
			break;
		case OPT_ALL:
			d->all = true;
			break;
		case OPT_NETNS:
			d->netns = optarg;
			break;
		case OPT_CONFIG:
			break;		/* read by load_config() */
		case OPT_THRESHOLD:
			if (np_overrides_parse_option(&d->cfg.ovr, optarg, err, sizeof(err)) < 0)
				return fail(d, "--threshold: %s", err);
			break;
		case OPT_CHECK:
		case OPT_SKIP:
			if (np_selection_parse(&d->cli_sel, c == OPT_CHECK ? NP_SEL_CHECK :
					       NP_SEL_SKIP, optarg, err, sizeof(err)) < 0)
				return fail(d, "--%s: %s", c == OPT_CHECK ? "check" : "skip", err);
			break;
		case OPT_FORMAT:
			d->json = strcmp(optarg, "json") == 0;
			d->prom = strcmp(optarg, "prometheus") == 0;
			if (!d->json && !d->prom && strcmp(optarg, "text") != 0)
				return fail(d, "invalid --format '%s' (text, json, prometheus)", optarg);
			break;
		case 'o':
			d->output = optarg;
			break;
		case OPT_SOCKETS: {
			double n;

			if (np_parse_number(optarg, 0, 16, &n) < 0 || n != (int)n)
				return fail(d, "invalid --sockets '%s' (a whole number, 0 to 16)", optarg);
			d->sockets_top = (int)n;
			break;
		}
		case OPT_NAGIOS:
			d->nagios = true;
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
	if (d->all && d->ifname)
		return fail(d, "--all judges every interface: name none");
	if (optind < argc)
		return fail(d, "unexpected argument '%s' (one interface at a time)", argv[optind]);
	if (d->nagios && (d->json || d->prom))
		return fail(d, "--nagios is an output format of its own: not with --json or --format");
	if (d->nagios && d->output)
		return fail(d, "--nagios prints its status to stdout for the monitoring system: no -o");
	if (d->before && !d->root)
		return fail(d, "--before needs --root (two captures of the same machine)");
	if (d->interval_of > 0 && !d->before)
		return fail(d, "--interval-of needs --before (the spacing of two captures)");
	if (d->netns && d->root)
		return fail(d, "--netns and --root exclude each other (a tree is not a namespace)");
	if (np_selection_merge(&d->cfg.sel, &d->cli_sel, err, sizeof(err)) < 0)
		return fail(d, "%s", err);
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
/*
 * The spacing of two captures: the difference of their proc/uptime, or --interval-of when the
 * user knows it (captures without uptime, or from tools that do not copy it). -1 to go on
 * (*dt set), else the exit code after reporting the failure.
 */
static int capture_spacing(struct doctor_args *d, const struct np_ctx *ctx,
			   const struct np_dev_run *r, double *dt)
{
	*dt = r->cur.t - r->prev.t;
	if (d->interval_of > 0)
		*dt = d->interval_of;
	else if (!r->prev.t_known || !r->cur.t_known)
		return fail(d, "%s has no proc/uptime, so the time between the captures is unknown: "
			    "give it with --interval-of SECONDS", !r->prev.t_known && d->before ?
			    d->before : ctx->root);
	else if (!(*dt > 0))
		return fail(d, "--before %s is not earlier than --root %s (their proc/uptime: %.0f "
			    "and %.0f s)", d->before ? d->before : "(the capture's first sample)",
			    ctx->root, r->prev.t, r->cur.t);
	return -1;
}

/*
 * Both snapshots of every device of the stack(s): live ones an interval apart, or the --before
 * and --root captures. A snapshot in which nothing could be read is still a report: every stage
 * says why it was not judged and the verdict is UNKNOWN (coverage.c), which names the file.
 * -1 to go on (*dt set), else the exit code after reporting the failure.
 */
static int collect_runs(struct doctor_args *d, const struct np_target *tgt,
			const char *const *tops, size_t ntops, struct np_dev_runs *dr,
			double *dt)
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
				return fail(d, "--before: %s", err);
			br = &broot;
		}
		r = np_root_ctx_open(&bctx, br, d->before ? br->dir : br->before);
		if (r < 0) {
			if (d->before)
				np_root_release(&broot);
			return fail(d, "cannot open %s/proc or %s/sys: %s", br->shown, br->shown,
				    strerror(-r));
		}
		np_runs_discover(dr, &bctx, tops, ntops);
		np_root_ctx_close(&bctx);
		if (d->before)
			np_root_release(&broot);
		np_runs_collect_again(dr, ctx);
		return capture_spacing(d, ctx, &dr->run[0], dt);
	}
	np_runs_discover(dr, ctx, tops, ntops);
	if (d->opt.interval <= 0)
		return -1;
	sleep_seconds(d->opt.interval);
	np_runs_collect_again(dr, ctx);
	for (size_t i = 0; i < ntops; i++)
		if (np_iface_check(ctx, tops[i]) < 0)
			return fail(d, "interface '%s' disappeared while sampling", tops[i]);
	*dt = dr->run[0].cur.t - dr->run[0].prev.t;
	return -1;
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
			fprintf(stderr, "netpath doctor: no stage of the receive path could be judged "
				"(%s: %s)\n", np_stage_name((enum np_stage)st), cov->st[st].reason);
			return;
		}
	fputs("netpath doctor: no stage of the receive path could be judged\n", stderr);
}

/* The interfaces to judge: the one named (or the default route's), or with --all every one that
 * is up and carries traffic. */
static int pick_tops(struct doctor_args *d, const struct np_target *tgt,
		     char (*names)[IF_NAMESIZE], size_t max, size_t *n, size_t *more)
{
	*more = 0;
	if (!d->all) {
		snprintf(names[0], IF_NAMESIZE, "%s", tgt->ifname);
		*n = 1;
		return -1;
	}
	*n = np_runs_all_interfaces(&tgt->ctx, names, max, more);
	if (!*n)
		return fail(d, "--all: no interface is up and carrying traffic%s%s",
			    d->root ? " under " : "", d->root ? d->root : "");
	return -1;
}

int np_cmd_doctor(int argc, char **argv)
{
	char names[NP_STACK_MAX][IF_NAMESIZE];
	const char *tops[NP_STACK_MAX];
	struct np_dev_runs *dr = NULL;
	struct doctor_args d;
	struct np_funnel fn;
	struct np_target tgt;
	const struct np_ctx *ctx;
	size_t ntops = 0, more = 0;
	double dt;
	int r, code;

	r = parse_args(argc, argv, &d);
	if (r >= 0)
		return r >= 100 ? r - 100 : r;
	np_log_set_verbosity(d.opt.verbose);

	{
		struct np_target_spec spec = {
			.cmd = "doctor", .netns = d.netns, .root = d.root,
			.ifname = d.all ? NULL : d.ifname, .any_iface = d.all,
		};
		char err[400];

		if (np_target_open(&tgt, &spec, err, sizeof(err)) < 0)
			return fail(&d, "%s", err);
	}
	ctx = &tgt.ctx;
	r = pick_tops(&d, &tgt, names, NP_STACK_MAX, &ntops, &more);
	dr = r < 0 ? calloc(1, sizeof(*dr)) : NULL;
	if (r < 0 && !dr)
		r = fail(&d, "out of memory");
	if (r >= 0) {
		np_target_close(&tgt);
		return r;
	}
	for (size_t i = 0; i < ntops; i++)
		tops[i] = names[i];

	/* A captured tree is one instant: rates need an earlier capture (--before). */
	if (!ctx->live)
		d.opt.interval = 0;
	r = collect_runs(&d, &tgt, tops, ntops, dr, &dt);
	if (r >= 0) {
		code = r;
		goto done;
	}
	dr->stack.truncated |= more > 0;
	if (tgt.n_start_links) {
		unsigned long long ifindex[NP_STACK_MAX];

		for (size_t i = 0; i < dr->n; i++)
			ifindex[i] = dr->run[i].prev.dev.ifindex;
		np_stack_name_peers(&dr->stack, ifindex, tgt.start_links, tgt.n_start_links);
	}
	/* Owners of the listed sockets (/proc/PID/fd) only when they will be shown: it walks
	 * every process's descriptors, bounded in count and time. */
	if (d.sockets_top > 0 && ctx->live)
		np_sockets_map_owners(ctx, dr->run[0].have_cur ? &dr->run[0].cur :
				      &dr->run[0].prev, 200000, 1.0);
	if (np_runs_analyze(dr, dt, &d.opt, &d.cfg.ovr, np_selection_want, &d.cfg.sel) < 0) {
		code = fail(&d, "out of memory");
	} else {
		struct np_dev_run *pr = &dr->run[0];
		struct np_doctor_view v = {
			.a = &pr->a, .r = &pr->rep, .funnel = &fn, .cov = &pr->cov,
			.stack = &dr->stack, .root = ctx->root, .live = ctx->live,
			.origin = &ctx->origin,
			.all_counters = d.all_counters, .sockets_top = d.sockets_top,
			.netns = d.netns, .netns_path = d.netns ? tgt.netns_path : NULL,
		};
		struct np_render_opts ro = {
			.color = !d.json && !d.prom && np_color_enabled(d.color, stdout),
			.verbose = d.opt.verbose,
		};
		char tmp[PATH_MAX];
		FILE *out = stdout;

		np_funnel_build(&pr->a, &fn);
		/* No stage judged: UNKNOWN, never "OK" without evidence. */
		code = np_coverage_unknown(&pr->cov) ? NP_EXIT_UNKNOWN :
		       exit_for(np_report_worst(&pr->rep));
		if (code == NP_EXIT_UNKNOWN)
			unknown_reason(&pr->cov);
		v.exit_code = code;
		if (d.output) {
			out = np_atomic_open(d.output, tmp, sizeof(tmp));
			if (!out) {
				code = fail(&d, "cannot write %s: %s", d.output, strerror(errno));
				goto done;
			}
			ro.color = false;
		}
		if (d.nagios)
			code = np_render_doctor_nagios(stdout, &v);
		else if (d.prom)
			np_render_doctor_prom(out, &v, d.all_counters);
		else if (d.json)
			np_render_doctor_json(out, &v);
		else
			np_render_doctor_text(out, &v, &ro);
		if (d.output) {
			r = np_atomic_commit(out, tmp, d.output);
			if (r < 0)
				code = fail(&d, "cannot write %s: %s", d.output, strerror(-r));
		}
	}
done:
	np_runs_free(dr);
	free(dr);
	np_target_close(&tgt);
	return code;
}
