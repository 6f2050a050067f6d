// SPDX-License-Identifier: GPL-2.0-only
/* `netpath trace [IFACE]`: drop reasons by stage (BPF) beside doctor's counters, one window. */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "socket_fold.h"
#include "clock.h"
#include "collect.h"
#include "cmd_args.h"
#include "command_config.h"
#include "commands.h"
#include "ctx.h"
#include "funnel.h"
#include "log.h"
#include "target.h"
#include "opts.h"
#include "specs.h"
#include "render.h"
#include "trace.h"
#include "trace_ksyms.h"
#include "trace_model.h"
#include "trace_nfrule.h"
#include "termwidth.h"
#include "trace_render.h"
#include "trace_stack.h"
#include "xdp_attach.h"
#include "textenc.h"

/* The rtnl snapshot as it would be without netpath's own XDP counter. */
static void hide_own_xdp(struct np_snapshot *s, uint32_t own_id)
{
	if (own_id && s->rtnl.xdp_attached > 0 && s->rtnl.xdp_prog_id == own_id) {
		s->rtnl.xdp_attached = 0;
		s->rtnl.xdp_prog_id = 0;
	}
}

/* The command line (cmd_args.h: what the table stores) first, then what trace's own types
 * are filled with from it: the callback is handed the first and reaches the whole. */
struct trace_run {
	struct trace_args a;
	struct np_xdp_opts xdp_opt;
	struct np_trace_opts topt;
};

/* Set by SIGINT/SIGTERM; the wait loop polls it. Nothing else happens in the handler. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/*
 * The options without a destination in spec_trace.c: --host, --port and --proto are parsed by
 * trace's own parsers (src/trace, whose types the table cannot see) into its filter, each value
 * as it comes so that a bad one is refused in place; --config was read by
 * np_command_config_load().
 */
static int set_filter(void *arg, int id, const struct np_optval *v, struct np_status *st)
{
	struct trace_run *rn = arg;	/* the rows store into its first member, a */

	if (id == NP_TRACE_HOST && np_trace_filter_host(v->s, &rn->topt.filter) < 0)
		return np_fail(st, "invalid --host '%s' (an IPv4 or IPv6 address, optionally "
			       "/PREFIX)", v->s);
	if (id == NP_TRACE_PORT && np_trace_filter_port(v->s, &rn->topt.filter) < 0)
		return np_fail(st, "invalid --port '%s' (1 to 65535)", v->s);
	if (id == NP_TRACE_PROTO && np_trace_filter_proto(v->s, &rn->topt.filter) < 0)
		return np_fail(st, "invalid --proto '%s' (tcp, udp, icmp, icmp6, sctp, udplite or "
			       "0-255)", v->s);
	return 0;
}

static int parse_args(int argc, char **argv, struct trace_run *r, struct np_status *st)
{
	static const char *const json[] = { "--json", "-j", NULL };
	struct trace_args *t = &r->a;

	memset(r, 0, sizeof(*r));
	t->duration = 10;
	t->top = 5;
	t->json = np_argv_has(argc, argv, json);
	t->opt.rtt_ms = NAN;
	t->opt.bandwidth_bps = NAN;
	/* --xdp-mode and --xdp-accept-reset need --xdp: declared on their rows */
	if (np_command_config_load(&np_trace_spec, NP_TRACE_CONFIG, argc, argv, &t->cfg, &t->opt,
				   NULL, st) < 0 ||
	    np_opts_parse(&np_trace_spec, argc, argv, set_filter, r, st) < 0)
		return -1;
	if (optind < argc)
		t->ifname = argv[optind++];
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s' (one interface at a time)",
				argv[optind]);
	r->topt.by = (enum np_flow_by)t->by;
	r->topt.stacks = t->stacks;
	r->topt.arrivals = t->arrivals;
	r->topt.flows = t->top > 0;
	r->xdp_opt.mode = (enum np_xdp_mode)t->xdp_mode;
	r->xdp_opt.accept_reset = t->xdp_accept_reset;
	r->xdp_opt.top_sources = t->top;	/* --xdp: the top sources too; 0 counts none */
	return 0;
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

/* The window: attach, first snapshot, wait, read the maps, second snapshot, detach. 0 (st->code
 * the verdict) or -1 (st says why). */
static int run(const struct trace_run *rn, const struct np_ctx *ctx, const char *ifname,
	       struct np_status *st)
{
	const struct trace_args *t = &rn->a;
	struct np_snapshot prev, cur;
	struct np_options opt = { .rtt_ms = t->opt.rtt_ms, .bandwidth_bps = t->opt.bandwidth_bps,
				  .verbose = t->verbose };
	struct np_analysis a = { 0 };
	struct np_trace_summary sum;
	struct np_trace_raw raw;
	struct np_tracer *tr;
	struct np_report rep = { 0 };
	struct np_funnel fn;
	struct np_ksyms ks;
	struct np_trace_stacks stacks = { 0 };
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
	r = np_trace_start(ifname, &rn->topt, &tr, err, sizeof(err));
	if (r < 0)
		return np_fail(st, "%s", err);
	catch_stop(true);
	/* XDP after the tracepoints (their failure costs nothing), before the window opens: a
	 * ring reset that the user accepted stays out of the counts. */
	if (t->xdp) {
		r = np_xdp_start(ifname, (int)if_nametoindex(ifname), &rn->xdp_opt, &xs, err,
				 sizeof(err));
		if (r < 0) {
			catch_stop(false);
			np_trace_stop(tr);
			return np_fail(st, "%s", err);
		}
	}
	have_nf = np_nfrules_collect(&nf_start) == 0;
	memset(&nf_end, 0, sizeof(nf_end));
	t0 = np_mono_now();
	have_prev = np_collect(ctx, ifname, np_socket_fold, &prev) == 0;
	wait_window(t0, t->duration);
	have_nf = have_nf && np_nfrules_collect(&nf_end) == 0;
	if (have_nf)
		np_nfrule_compare(&nf_start, &nf_end, &nf_rep);
	r = np_trace_read(tr, &raw);
	if (xs)
		have_xdp = np_xdp_read(xs, &xc) == 0;
	dt = np_mono_now() - t0;
	have_cur = np_collect(ctx, ifname, np_socket_fold, &cur) == 0;
	/* Our own counter is not the user's XDP program: hide it from the checks so
	 * ingress.xdp-attached reports only what was there without netpath. */
	if (xs) {
		hide_own_xdp(&prev, np_xdp_session_info(xs)->program_id);
		hide_own_xdp(&cur, np_xdp_session_info(xs)->program_id);
	}
	if (r < 0) {
		code = np_fail(st, "cannot read the BPF maps: %s", strerror(-r));
		goto out_snap;
	}
	/* A device deleted (or replaced: a new ifindex under the same name) during the window
	 * took its packets with it: its silence is not "no drop", so say so and give up. */
	if (if_nametoindex(ifname) != ifindex) {
		code = np_fail(st, "interface %s vanished during the window (deleted or moved to "
			    "another namespace): the counts cover only part of it", ifname);
		goto out_raw;
	}
	load_ksyms(ctx, &raw, &ks);
	r = np_trace_summarize(&raw, np_trace_names(tr), &ks, dt, t->all, &sum);
	if (r == 0 && np_trace_stacks_build(&raw, np_trace_names(tr), &ks, NP_TRACE_STACKS_SHOWN,
					    &stacks) < 0) {
		np_trace_summary_free(&sum);
		r = -ENOMEM;
	}
	np_ksyms_free(&ks);
	if (r == 0 && np_trace_attribute(&sum, &raw, t->top) < 0) {
		np_trace_summary_free(&sum);
		r = -ENOMEM;
	}
	if (r < 0) {
		code = np_fail(st, "out of memory");
		goto out_raw;
	}
	if (have_prev && have_cur && cur.t > prev.t) {
		opt.interval = cur.t - prev.t;
		a.prev = &prev;
		a.cur = &cur;
		a.dt = opt.interval;
		a.opt = &opt;
		a.ovr = &t->cfg.ovr;
		np_analysis_derive(&a);
		/* The settings file's thresholds and check/skip lines, as doctor judges. */
		analyzed = np_analyze(&a, &rep, np_selection_want, (void *)&t->cfg.sel) == 0;
		if (analyzed)
			np_funnel_build(&a, &fn);
	}
	{
		enum np_severity worst = np_trace_worst(&sum);
		struct np_trace_view v = {
			.ifname = ifname, .netns = t->netns,
			.netns_inum = np_trace_netns_inum(tr), .attach = raw.attach,
			.has_reason = raw.has_reason, .gro_attached = raw.gro_attached,
			.filter = &rn->topt.filter,
			.interrupted = stop_requested != 0, .sum = &sum, .raw = &raw,
			.a = analyzed ? &a : NULL, .r = analyzed ? &rep : NULL,
			.funnel = analyzed ? &fn : NULL,
			.xdp = have_xdp ? np_xdp_session_info(xs) : NULL,
			.xdp_counts = have_xdp ? &xc : NULL,
			.nfrules = have_nf ? &nf_rep : NULL,
			.stacks = &stacks,
		};

		if (analyzed && np_report_worst(&rep) > worst)
			worst = np_report_worst(&rep);
		st->code = exit_for(worst);
		v.exit_code = st->code;
		code = 0;
		if (t->json)
			np_render_trace_json(stdout, &v);
		else {
			/* Wrapped at stdout's width into h: ASCII under a non-UTF-8 locale. */
			FILE *h = np_text_stream(stdout);

			np_render_trace_text(h, &v, t->verbose, np_term_width(stdout));
			np_text_stream_done(h, stdout);
		}
		if (xs && !have_xdp)
			np_warn("the XDP counters could not be read");
		if (!analyzed)
			np_warn("doctor's counters could not be read: the table shows drop reasons "
				"only");
	}
	np_trace_summary_free(&sum);
	np_report_free(&rep);
out_raw:
	np_trace_stacks_free(&stacks);
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
	struct np_status st = { 0 };
	struct trace_run r;
	const struct trace_args *t = &r.a;
	struct np_target tgt;

	if (parse_args(argc, argv, &r, &st) < 0)
		return np_finish(&st, "trace", t->json);
	np_log_set_verbosity(t->verbose);
	np_command_config_say(&t->cfg);
	np_text_grouping(!t->json);	/* the locale's digit groups in text only */
	{
		/* The namespace before anything is opened: the device, /proc/net, /sys and
		 * /proc/self/ns/net (the namespace the programs match) must all be its own. */
		struct np_target_spec spec = { .cmd = "trace", .netns = t->netns, .ifname = t->ifname };
		char err[400];

		if (np_target_open(&tgt, &spec, err, sizeof(err)) < 0) {
			np_fail(&st, "%s", err);
			return np_finish(&st, "trace", t->json);
		}
	}
	run(&r, &tgt.ctx, tgt.ifname, &st);
	np_target_close(&tgt);
	return np_finish(&st, "trace", t->json);
}
