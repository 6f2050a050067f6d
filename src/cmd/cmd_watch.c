// SPDX-License-Identifier: GPL-2.0-only
/* `netpath watch [IFACE]`: the receive path in motion, one frame of rates per interval. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
#include "termwidth.h"
#include "opts.h"
#include "specs.h"
#include "render_watch.h"
#include "walk_cadence.h"
#include "watch_tui.h"
#include "textenc.h"

/* Set by the handler, read by the loop: the handler does nothing else. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* The one way out of watch: a failure's reason on stderr (and as a JSON error object with
 * --json), then its exit code. */
static int finish(const struct watch_args *w, const struct np_status *st)
{
	np_report(st, "watch");
	if (np_failed(st) && w->json)
		np_render_watch_error_json(stdout, st->msg, NP_EXIT_UNKNOWN);
	return st->code;
}

/* The options without a destination in spec_watch.c. --root is no value to store but a refusal
 * with a reason (watch needs the live system), which the table cannot say; --config was read
 * by np_command_config_load(). */
static int refuse_option(void *arg, int id, const struct np_optval *v, struct np_status *st)
{
	(void)arg;
	(void)v;
	if (id == NP_WATCH_ROOT)
		return np_fail(st, "--root is not supported: watch needs the live system (use "
			       "'netpath doctor --root DIR' for a captured tree)");
	return 0;
}

static int parse_args(int argc, char **argv, struct watch_args *w, struct np_status *st)
{
	static const char *const json[] = { "--json", "-j", NULL };

	memset(w, 0, sizeof(*w));
	w->interval = 1;
	/* JSON errors need to know about --json before any other option is judged. */
	w->json = np_argv_has(argc, argv, json);
	w->opt.rtt_ms = NAN;
	w->opt.bandwidth_bps = NAN;
	if (np_command_config_load(&np_watch_spec, NP_WATCH_CONFIG, argc, argv, &w->cfg, &w->opt,
				   NULL, st) < 0 ||
	    np_opts_parse(&np_watch_spec, argc, argv, refuse_option, w, st) < 0)
		return -1;
	if (optind < argc)
		w->ifname = argv[optind++];
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s' (one interface at a time)",
				argv[optind]);
	return 0;
}

static void wall_time(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;
	char s[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	if (!gmtime_r(&ts.tv_sec, &tm) || strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm) == 0) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "%.20s.%03dZ", s, (int)(ts.tv_nsec / 1000000) % 1000);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: sleeps and getch() return early so the loop sees the flag at once.
	 * Installed before ncurses starts, which then leaves SIGINT/SIGTERM to us. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

struct watch_state {
	struct watch_args *w;
	const struct np_ctx *ctx;
	const char *ifname;
	struct np_watch_tui *tui;
	struct np_watch_session sess;
	struct np_snapshot snap[2];
	struct np_watch_frame frame[2];	/* the TUI redraws the last one on resize */
	double start;
	/* The full socket walk every N frames: when, and the sockets section of the last one,
	 * whose established flows the frames between carry (np_sockets_carry_flows). */
	struct np_walk_cadence cadence;
	struct np_sockets last_walk;
	bool have_walk;
	bool only_listeners;	/* the last collection found no TCP socket but listeners */
};

static double cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
		return NAN;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Whether the namespace has no TCP socket to walk but its listeners. After a listeners walk:
 * sockstat counts no other (its TCP and TCP6 inuse). After a full walk: it found none but
 * listeners, TIME_WAIT and embryonic ones (which nothing judges); the next collection then
 * asks for listeners and checks sockstat.
 */
static bool only_listeners(const struct watch_state *st, const struct np_snapshot *s)
{
	const struct np_sockets *k = &s->socks;
	uint64_t inuse;

	if (!np_src_ok(s, NP_SRC_SOCK_DIAG))
		return false;
	if (k->walk == NP_SOCK_WALK_FULL)
		return k->tcp_total == k->listeners + k->tcp_state[TCP_TIME_WAIT] +
				       k->tcp_state[NP_SOCK_TCP_STATES - 1];
	return np_collect_tcp_inuse(st->ctx, &inuse, NULL) == 0 && inuse <= k->listeners;
}

/*
 * One collection, walking every TCP socket when the cadence says so, else listeners and UDP
 * with the established flows of the last walk. Its CPU (user and system: the kernel's walk
 * is system time) feeds the cadence. A namespace whose only TCP sockets are listeners (the last
 * collection said so) skips the walk even when due: the established hash it would walk is the
 * host's, shared with every other namespace, and holds nothing of this one's.
 */
static int collect(struct watch_state *st, struct np_snapshot *s)
{
	bool full = np_walk_cadence_due(&st->cadence) && !st->only_listeners;
	double c0 = cpu_now();
	int r;

	r = np_collect_walk(st->ctx, st->ifname, np_socket_fold, s,
			    full ? NP_SOCK_WALK_FULL : NP_SOCK_WALK_LISTEN);
	st->only_listeners = only_listeners(st, s);
	np_walk_cadence_record(&st->cadence, full, cpu_now() - c0, s->t);
	if (!np_src_ok(s, NP_SRC_SOCK_DIAG))
		return r;
	if (!full && st->only_listeners) {
		s->socks.only_listeners = true;
		s->socks.flows_t = s->t;
	} else if (full) {
		st->last_walk = s->socks;
		st->have_walk = true;
	} else if (st->have_walk) {
		np_sockets_carry_flows(&s->socks, &st->last_walk);
	}
	return r;
}

/* One frame from snapshots prev and cur: analysis, report, funnel, model, output. */
static int one_frame(struct watch_state *st, const struct np_snapshot *prev,
		     const struct np_snapshot *cur, struct np_watch_frame *f)
{
	struct np_options opt = { .interval = st->w->interval, .rtt_ms = st->w->opt.rtt_ms,
				  .bandwidth_bps = st->w->opt.bandwidth_bps };
	struct np_analysis a = { .prev = prev, .cur = cur, .dt = cur->t - prev->t, .opt = &opt,
				 .ovr = &st->w->cfg.ovr };
	struct np_report rep;
	struct np_funnel fn;
	int r;

	np_analysis_derive(&a);
	/* The settings file's thresholds and check/skip lines, as doctor judges. */
	if (np_analyze(&a, &rep, np_selection_want, &st->w->cfg.sel) < 0)
		return -ENOMEM;
	np_funnel_build(&a, &fn);
	r = np_watch_frame_build(f, &st->sess, &a, &rep, &fn);
	np_report_free(&rep);
	if (r < 0)
		return r;
	if (f->walk.known) {
		f->walk.adaptive = !st->cadence.fixed;
		f->walk.every = st->cadence.every;
		f->walk.walk_cpu_ms = st->cadence.full_cpu_s * 1000;
		f->walk.frame_cpu_ms = st->cadence.cheap_cpu_s * 1000;
	}
	f->elapsed = cur->t - st->start;
	wall_time(f->time, sizeof(f->time));
	if (st->tui)
		np_watch_tui_draw(st->tui, f);
	else if (st->w->json)
		np_render_watch_json(stdout, f);
	else {
		/* Wrapped at stdout's width, measured each frame (resizes), into h: ASCII under a
		 * non-UTF-8 locale. */
		FILE *h = np_text_stream(stdout);

		np_render_watch_text(h, f, np_term_width(stdout));
		np_text_stream_done(h, stdout);
	}
	fflush(stdout);
	return 0;
}

/* Collect, wait, collect, render, until the count, q or a signal. 0 or -errno. */
static int run(struct watch_state *st)
{
	struct watch_args *w = st->w;
	unsigned long k;
	int cur = 0, code = 0, r;
	double base;

	np_walk_cadence_init(&st->cadence, w->walk_every, NP_WALK_BUDGET_S);
	if (collect(st, &st->snap[0]) < 0)
		return -ENOENT;
	base = st->start = st->snap[0].t;
	for (k = 1; !w->count || k <= w->count; k++) {
		double deadline = base + (double)k * w->interval;
		int next = !cur;

		/* Behind schedule (a slow collection or a suspended process): start a new grid
		 * rather than catch up with a burst of short frames. */
		if (deadline < np_mono_now()) {
			base = np_mono_now() - (double)k * w->interval;
			deadline = base + (double)k * w->interval;
		}
		if (st->tui ? np_watch_tui_wait(st->tui, deadline, &stop_requested) :
			      (np_sleep_until(deadline, &stop_requested), stop_requested))
			break;
		np_snapshot_free(&st->snap[next]);
		r = collect(st, &st->snap[next]);
		/* A signal during the collection interrupted its reads: no half-read frame. */
		if (stop_requested)
			break;
		if (r < 0 || np_iface_check(st->ctx, st->ifname) < 0) {
			code = r < 0 ? -ENOENT : -ENODEV;
			break;
		}
		/* The frame drawn last stays alive until this one replaces it on the screen. */
		np_watch_frame_free(&st->frame[next]);
		if (one_frame(st, &st->snap[cur], &st->snap[next], &st->frame[next]) < 0) {
			code = -ENOMEM;
			break;
		}
		cur = next;
	}
	return code;
}

int np_cmd_watch(int argc, char **argv)
{
	struct np_status st = { 0 };
	struct watch_state ws = { 0 };
	struct watch_args w;
	struct np_target tgt;
	const char *ifname;
	int r;

	if (parse_args(argc, argv, &w, &st) < 0)
		return finish(&w, &st);
	np_log_set_verbosity(w.verbose);
	np_command_config_say(&w.cfg);
	np_text_grouping(!w.json);	/* the locale's digit groups in text only */
	{
		struct np_target_spec spec = { .cmd = "watch", .netns = w.netns, .ifname = w.ifname };
		char err[400];

		if (np_target_open(&tgt, &spec, err, sizeof(err)) < 0) {
			np_fail(&st, "%s", err);
			return finish(&w, &st);
		}
	}
	ifname = tgt.ifname;
	stop_requested = 0;
	install_signals();
	ws.w = &w;
	ws.ctx = &tgt.ctx;
	ws.ifname = ifname;
	if (!w.json && !w.batch && !w.count && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
		ws.tui = np_watch_tui_open(ifname, w.interval,
					   np_color_enabled(w.color, stdout));
		if (!ws.tui)
			np_say("netpath watch: cannot drive this terminal (TERM=%s); printing "
			       "plain frames", getenv("TERM") ? getenv("TERM") : "");
	}
	if (ws.tui) {
		/* Anything on stderr would scribble over the screen. */
		np_log_set_level(NP_LOG_ERR);
		np_watch_tui_draw(ws.tui, NULL);
	}
	r = run(&ws);
	/* The terminal first: every message below must land on a normal screen. */
	np_watch_tui_close(ws.tui);
	for (int i = 0; i < 2; i++) {
		np_watch_frame_free(&ws.frame[i]);
		np_snapshot_free(&ws.snap[i]);
	}
	np_watch_session_free(&ws.sess);
	np_target_close(&tgt);
	if (r == -ENOENT)
		np_fail(&st, "nothing under /proc or /sys was readable");
	else if (r == -ENODEV)
		np_fail(&st, "interface '%s' disappeared", ifname);
	else if (r < 0)
		np_fail(&st, "out of memory");
	return finish(&w, &st);
}
