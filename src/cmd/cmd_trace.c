// SPDX-License-Identifier: GPL-2.0-only
/* `netpath trace [IFACE]`: drop reasons by stage (BPF) beside doctor's counters, one window. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "collect.h"
#include "commands.h"
#include "ctx.h"
#include "funnel.h"
#include "log.h"
#include "target.h"
#include "opts.h"
#include "render.h"
#include "trace.h"
#include "trace_ksyms.h"
#include "trace_model.h"
#include "trace_nfrule.h"
#include "trace_render.h"
#include "xdp_attach.h"

/* The rtnl snapshot as it would be without netpath's own XDP counter. */
static void hide_own_xdp(struct np_snapshot *s, uint32_t own_id)
{
	if (own_id && s->rtnl.xdp_attached > 0 && s->rtnl.xdp_prog_id == own_id) {
		s->rtnl.xdp_attached = 0;
		s->rtnl.xdp_prog_id = 0;
	}
}

static const char usage_text[] =
	"Usage: netpath trace [OPTIONS] [IFACE]\n"
	"Count the kernel's packet drops by reason (skb:kfree_skb, names from BTF) for packets\n"
	"that arrived on IFACE (default: the interface of the default route), beside doctor's\n"
	"counters over the same window, stage by stage. Attaches tracepoint programs only.\n\n"
	"  -d, --duration SEC     trace for SEC seconds (default 10; Ctrl-C ends early and\n"
	"                         still reports)\n"
	"  -j, --json             JSON output (schema netpath/trace, version 1)\n"
	"  -a, --all              also list benign frees (NOT_SPECIFIED, normal consumption)\n"
	"      --top N            the N busiest flows of each drop reason (default 5; 0 turns\n"
	"                         attribution off), counted in the kernel\n"
	"      --by KEY           key flows by flow (default: addresses, protocol, ports),\n"
	"                         src, dst or port (protocol and destination port)\n"
	"      --host ADDR        count only drops from or to ADDR (IPv4 or IPv6; ADDR/LEN\n"
	"                         for a prefix)\n"
	"      --port N           count only drops from or to port N\n"
	"      --proto P          count only drops of protocol P (tcp, udp, icmp, icmp6, sctp\n"
	"                         or a number); the filters combine, in the kernel\n"
	"      --netns NS         trace IFACE of network namespace NS: a name (/run/netns/NS),\n"
	"                         a path, or a PID\n"
	"      --xdp              also count packets and bytes per rx queue and CPU with an XDP\n"
	"                         program at the driver (never replaces an existing program;\n"
	"                         refused on drivers where attaching resets rings or the link)\n"
	"      --xdp-mode MODE    auto (native if the driver has it, else generic), native or\n"
	"                         generic (default auto)\n"
	"      --xdp-accept-reset attach even where that resets the NIC's rings or link,\n"
	"                         dropping traffic for a moment (mlx5, i40e, ixgbe, ...)\n"
	"  -v, --verbose          every finding and arrival row (-vv: debug log with libbpf's)\n"
	"  -h, --help             this text\n\n"
	"Needs root (or CAP_BPF and CAP_PERFMON) and a kernel with BTF.\n"
	"Exit: 0 no warning, 1 warning, 2 critical (worst of the drop reasons and doctor's\n"
	"findings; a reason is a warning from 1 drop/s, critical from 100 drops/s, benign\n"
	"reasons never count), 3 could not trace.\n";

struct trace_args {
	double duration;
	bool json, all;
	int verbose;
	const char *netns;
	const char *ifname;
	bool xdp;
	struct np_xdp_opts xdp_opt;
	unsigned int top;
	struct np_trace_opts topt;
};

/* Set by SIGINT/SIGTERM; the wait loop polls it. Nothing else happens in the handler. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int fail(const struct trace_args *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(const struct trace_args *t, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "netpath trace: %s\n", msg);
	if (t->json)
		np_render_error_json(stdout, "trace", msg, NP_EXIT_UNKNOWN);
	return NP_EXIT_UNKNOWN;
}

enum { OPT_NETNS = 256, OPT_XDP, OPT_XDP_MODE, OPT_XDP_ACCEPT_RESET, OPT_TOP, OPT_BY, OPT_HOST,
       OPT_PORT, OPT_PROTO };

/* Returns -1 to go on, else the exit code (+100 for --help). */
static int parse_args(int argc, char **argv, struct trace_args *t)
{
	static const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "netns", required_argument, NULL, OPT_NETNS },
		{ "xdp", no_argument, NULL, OPT_XDP },
		{ "xdp-mode", required_argument, NULL, OPT_XDP_MODE },
		{ "xdp-accept-reset", no_argument, NULL, OPT_XDP_ACCEPT_RESET },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "by", required_argument, NULL, OPT_BY },
		{ "host", required_argument, NULL, OPT_HOST },
		{ "port", required_argument, NULL, OPT_PORT },
		{ "proto", required_argument, NULL, OPT_PROTO },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	memset(t, 0, sizeof(*t));
	t->duration = 10;
	t->top = 5;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "-j") == 0)
			t->json = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:javh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (np_parse_number(optarg, 0.1, 86400, &t->duration) < 0)
				return fail(t, "invalid --duration '%s' (seconds, 0.1 to 86400)",
					    optarg);
			break;
		case 'j':
			t->json = true;
			break;
		case 'a':
			t->all = true;
			break;
		case OPT_NETNS:
			t->netns = optarg;
			break;
		case OPT_XDP:
			t->xdp = true;
			break;
		case OPT_XDP_MODE:
			if (np_xdp_mode_parse(optarg, &t->xdp_opt.mode) < 0)
				return fail(t, "invalid --xdp-mode '%s' (auto, native, generic)",
					    optarg);
			break;
		case OPT_XDP_ACCEPT_RESET:
			t->xdp_opt.accept_reset = true;
			break;
		case OPT_TOP: {
			double n;

			if (np_parse_number(optarg, 0, 1000, &n) < 0 || n != (unsigned int)n)
				return fail(t, "invalid --top '%s' (flows per reason, 0 to 1000)",
					    optarg);
			t->top = (unsigned int)n;
			break;
		}
		case OPT_BY:
			if (np_trace_by_parse(optarg, &t->topt.by) < 0)
				return fail(t, "invalid --by '%s' (flow, src, dst, port)", optarg);
			break;
		case OPT_HOST:
			if (np_trace_filter_host(optarg, &t->topt.filter) < 0)
				return fail(t, "invalid --host '%s' (an IPv4 or IPv6 address, "
					    "optionally /PREFIX)", optarg);
			break;
		case OPT_PORT:
			if (np_trace_filter_port(optarg, &t->topt.filter) < 0)
				return fail(t, "invalid --port '%s' (1 to 65535)", optarg);
			break;
		case OPT_PROTO:
			if (np_trace_filter_proto(optarg, &t->topt.filter) < 0)
				return fail(t, "invalid --proto '%s' (tcp, udp, icmp, icmp6, sctp, "
					    "udplite or 0-255)", optarg);
			break;
		case 'v':
			t->verbose++;
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
		t->ifname = argv[optind++];
	if (optind < argc)
		return fail(t, "unexpected argument '%s' (one interface at a time)", argv[optind]);
	t->topt.flows = t->top > 0;
	if (!t->xdp && (t->xdp_opt.mode != NP_XDP_MODE_AUTO || t->xdp_opt.accept_reset))
		return fail(t, "--xdp-mode and --xdp-accept-reset go with --xdp");
	return -1;
}

/* SIGINT/SIGTERM end the window early, from attach to report: a Ctrl-C during a collection
 * (sock_diag dumps can take seconds) still gets the report the usage text promises. */
static void catch_stop(bool on)
{
	struct sigaction sa = { .sa_handler = on ? on_signal : SIG_DFL };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Sleep until the window ends or a signal asks to stop, in slices so the flag is seen. */
static void wait_window(double t0, double duration)
{
	double left;

	while (!stop_requested && (left = t0 + duration - np_mono_now()) > 0) {
		double s = left < 0.2 ? left : 0.2;
		struct timespec ts = { 0, (long)(s * 1e9) };

		nanosleep(&ts, NULL);
	}
}

/* kallsyms only when some drop is keyed by location: it is a 10 MB read. */
static void load_ksyms(const struct np_ctx *ctx, const struct np_trace_raw *raw,
		       struct np_ksyms *k)
{
	char *buf;
	size_t len;
	bool need = false;

	memset(k, 0, sizeof(*k));
	for (size_t i = 0; i < raw->ndrops; i++)
		need |= raw->drops[i].location != 0;
	if (!need || np_read_file(ctx, NP_PROC, "kallsyms", &buf, &len) < 0)
		return;
	if (np_ksyms_parse(buf, len, k) < 0)
		np_dbg("trace: /proc/kallsyms has no addresses (kptr_restrict): locations "
		       "stay hex");
	free(buf);
}

static int exit_for(enum np_severity worst)
{
	return worst == NP_SEV_CRITICAL ? NP_EXIT_CRITICAL :
	       worst == NP_SEV_WARNING ? NP_EXIT_WARNING : NP_EXIT_OK;
}

/* The window: attach, first snapshot, wait, read the maps, second snapshot, detach. */
static int run(const struct trace_args *t, const struct np_ctx *ctx, const char *ifname)
{
	struct np_snapshot prev, cur;
	struct np_options opt = { .rtt_ms = NAN, .bandwidth_bps = NAN, .verbose = t->verbose };
	struct np_analysis a = { 0 };
	struct np_trace_summary sum;
	struct np_trace_raw raw;
	struct np_tracer *tr;
	struct np_report rep = { 0 };
	struct np_funnel fn;
	struct np_ksyms ks;
	struct np_xdp_session *xs = NULL;
	struct np_xdp_counts xc = { 0 };
	bool have_xdp = false;
	/* Netfilter drop-rule counters at both ends of the window: the rule behind
	 * NETFILTER_DROP. Read-only; bounded in time and size (nfrules.h). */
	struct np_nfrules nf_start, nf_end;
	struct np_nfrule_report nf_rep;
	bool have_nf;
	bool have_prev, have_cur = false, analyzed = false;
	char err[512];
	double t0, dt;
	unsigned int ifindex;
	int r, code;

	ifindex = if_nametoindex(ifname);
	r = np_trace_start(ifname, &t->topt, &tr, err, sizeof(err));
	if (r < 0)
		return fail(t, "%s", err);
	catch_stop(true);
	/* XDP after the tracepoints (their failure costs nothing), before the window opens: a
	 * ring reset that the user accepted stays out of the counts. */
	if (t->xdp) {
		r = np_xdp_start(ifname, (int)if_nametoindex(ifname), &t->xdp_opt, &xs, err,
				 sizeof(err));
		if (r < 0) {
			catch_stop(false);
			np_trace_stop(tr);
			return fail(t, "%s", err);
		}
	}
	have_nf = np_nfrules_collect(&nf_start) == 0;
	memset(&nf_end, 0, sizeof(nf_end));
	t0 = np_mono_now();
	have_prev = np_collect(ctx, ifname, &prev) == 0;
	wait_window(t0, t->duration);
	have_nf = have_nf && np_nfrules_collect(&nf_end) == 0;
	if (have_nf)
		np_nfrule_compare(&nf_start, &nf_end, &nf_rep);
	r = np_trace_read(tr, &raw);
	if (xs)
		have_xdp = np_xdp_read(xs, &xc) == 0;
	dt = np_mono_now() - t0;
	have_cur = np_collect(ctx, ifname, &cur) == 0;
	/* Our own counter is not the user's XDP program: hide it from the checks so
	 * ingress.xdp-attached reports only what was there without netpath. */
	if (xs) {
		hide_own_xdp(&prev, np_xdp_session_info(xs)->program_id);
		hide_own_xdp(&cur, np_xdp_session_info(xs)->program_id);
	}
	if (r < 0) {
		code = fail(t, "cannot read the BPF maps: %s", strerror(-r));
		goto out_snap;
	}
	/* A device deleted (or replaced: a new ifindex under the same name) during the window
	 * took its packets with it: its silence is not "no drop", so say so and give up. */
	if (if_nametoindex(ifname) != ifindex) {
		code = fail(t, "interface %s vanished during the window (deleted or moved to "
			    "another namespace): the counts cover only part of it", ifname);
		goto out_raw;
	}
	load_ksyms(ctx, &raw, &ks);
	r = np_trace_summarize(&raw, np_trace_names(tr), &ks, dt, t->all, &sum);
	np_ksyms_free(&ks);
	if (r == 0 && np_trace_attribute(&sum, &raw, t->top) < 0) {
		np_trace_summary_free(&sum);
		r = -ENOMEM;
	}
	if (r < 0) {
		code = fail(t, "out of memory");
		goto out_raw;
	}
	if (have_prev && have_cur && cur.t > prev.t) {
		opt.interval = cur.t - prev.t;
		a.prev = &prev;
		a.cur = &cur;
		a.dt = opt.interval;
		a.opt = &opt;
		np_analysis_derive(&a);
		analyzed = np_analyze(&a, &rep, NULL, NULL) == 0;
		if (analyzed)
			np_funnel_build(&a, &fn);
	}
	{
		enum np_severity worst = np_trace_worst(&sum);
		struct np_trace_view v = {
			.ifname = ifname, .netns = t->netns,
			.netns_inum = np_trace_netns_inum(tr), .attach = raw.attach,
			.has_reason = raw.has_reason, .gro_attached = raw.gro_attached,
			.filter = &t->topt.filter,
			.interrupted = stop_requested != 0, .sum = &sum, .raw = &raw,
			.a = analyzed ? &a : NULL, .r = analyzed ? &rep : NULL,
			.funnel = analyzed ? &fn : NULL,
			.xdp = have_xdp ? np_xdp_session_info(xs) : NULL,
			.xdp_counts = have_xdp ? &xc : NULL,
			.nfrules = have_nf ? &nf_rep : NULL,
		};

		if (analyzed && np_report_worst(&rep) > worst)
			worst = np_report_worst(&rep);
		code = exit_for(worst);
		v.exit_code = code;
		if (t->json)
			np_render_trace_json(stdout, &v);
		else
			np_render_trace_text(stdout, &v, t->verbose);
		if (xs && !have_xdp)
			np_warn("the XDP counters could not be read");
		if (!analyzed)
			np_warn("doctor's counters could not be read: the table shows drop reasons "
				"only");
	}
	np_trace_summary_free(&sum);
	np_report_free(&rep);
out_raw:
	np_trace_raw_free(&raw);
out_snap:
	np_xdp_counts_free(&xc);
	np_nfrules_free(&nf_start);
	np_nfrules_free(&nf_end);
	np_xdp_stop(xs);
	np_trace_stop(tr);
	catch_stop(false);
	/* np_collect() initialises the snapshot first: free it whether or not it succeeded. */
	np_snapshot_free(&prev);
	np_snapshot_free(&cur);
	return code;
}

int np_cmd_trace(int argc, char **argv)
{
	struct trace_args t;
	struct np_target tgt;
	int r;

	r = parse_args(argc, argv, &t);
	if (r >= 0)
		return r >= 100 ? r - 100 : r;
	np_log_set_verbosity(t.verbose);
	{
		/* The namespace before anything is opened: the device, /proc/net, /sys and
		 * /proc/self/ns/net (the namespace the programs match) must all be its own. */
		struct np_target_spec spec = { .cmd = "trace", .netns = t.netns, .ifname = t.ifname };
		char err[400];

		if (np_target_open(&tgt, &spec, err, sizeof(err)) < 0)
			return fail(&t, "%s", err);
	}
	r = run(&t, &tgt.ctx, tgt.ifname);
	np_target_close(&tgt);
	return r;
}
