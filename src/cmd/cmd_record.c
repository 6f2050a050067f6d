// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath record: the flight recorder's process (record.h). Read-only on the host like doctor:
 * it samples at a fixed cadence until SIGTERM or SIGINT (a clean stop: the last block is
 * written) or --count; SIGKILL or a power cut loses at most the unwritten block (rec_store.h).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "collect.h"
#include "commands.h"
#include "log.h"
#include "rec_store.h"
#include "record.h"
#include "record_capture.h"
#include "record_drops.h"
#include "specs.h"
#include "trace.h"
#include "when.h"

#define DEFAULT_KEEP "7d"
#define DEFAULT_MAX_SIZE "1G"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static int parse_args(int argc, char **argv, struct record_args *a, struct np_status *st)
{
	char err[200];
	double keep;

	memset(a, 0, sizeof(*a));
	a->every = 1;
	a->keep = DEFAULT_KEEP;
	a->max_size = DEFAULT_MAX_SIZE;
	if (np_opts_parse(&np_record_spec, argc, argv, NULL, a, st) < 0)
		return -1;
	if (optind < argc)
		a->ifname = argv[optind++];
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s' (one interface, or --all)",
				argv[optind]);
	if (a->all && a->ifname)
		return np_fail(st, "--all records every interface: name none");
	if (!a->dir)
		return np_usage(st, "no recording directory: give --dir DIR");
	/* A tree replayed (benchmarks) has no live moment to capture, nor drops to trace. */
	if (a->root && (a->capture_on || a->drops || a->netns))
		return np_usage(st, "--root cannot go with --capture-on, --drops or --netns");
	if (np_parse_span(a->keep, &keep, err, sizeof(err)) < 0)
		return np_usage(st, "invalid --keep '%s' (%s)", a->keep, err);
	if (np_parse_size(a->max_size, &a->max_bytes, err, sizeof(err)) < 0)
		return np_usage(st, "invalid --max-size '%s' (%s)", a->max_size, err);
	/* Below a few blocks of one frame there is no history to speak of. */
	if (a->max_bytes < (1u << 20))
		return np_usage(st, "invalid --max-size '%s' (at least 1M)", a->max_size);
	a->keep_ns = (int64_t)(keep * 1e9);
	return 0;
}

/* The interfaces to record, as doctor will find them again in a configuration sample. */
static size_t pick_tops(const struct np_target *tgt, const struct record_args *a,
			char (*names)[IF_NAMESIZE], size_t *more)
{
	*more = 0;
	if (a->all)
		return np_collect_busy_ifaces(&tgt->ctx, names, NP_STACK_MAX, more);
	snprintf(names[0], IF_NAMESIZE, "%s", a->ifname ? a->ifname : tgt->ifname);
	return np_iface_check(&tgt->ctx, names[0]) == 0 ? 1 : 0;
}

static int64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct recorder {
	struct record_args a;
	struct np_target tgt;
	struct np_dev_runs *dr;
	struct np_rec_writer *w;
	struct np_record_state rs;
	struct np_record_trigger trig;
	char names[NP_STACK_MAX][IF_NAMESIZE];
	const char *tops[NP_STACK_MAX];
	size_t ntops;
	bool fresh;			/* dr holds one snapshot per device, just discovered */
	/* The devices were found again (re-created, members changed, back after being gone):
	 * their counters started over, so the next frame begins a new run of the store, which
	 * readers see as a restart: no rate spans it. */
	bool discont;
	struct np_rec_opts o;
	struct np_record_drops drops;	/* --drops: every recorded interface traced */
};

static int parse_trigger(struct recorder *R, struct np_status *st)
{
	char err[300];

	R->trig.every = R->a.capture_every > 0 ? R->a.capture_every : 600;
	if (R->a.capture_on &&
	    np_record_trigger_parse(&R->trig, R->a.capture_on, err, sizeof(err)) < 0)
		return np_usage(st, "invalid --capture-on: %s", err);
	return 0;
}

/* Find the devices (again): the interfaces named, their stacks. 0 or -ENODEV. */
static int discover(struct recorder *R)
{
	size_t more;

	np_runs_free(R->dr);
	R->ntops = pick_tops(&R->tgt, &R->a, R->names, &more);
	for (size_t i = 0; i < R->ntops; i++)
		R->tops[i] = R->names[i];
	if (!R->ntops)
		return -ENODEV;
	np_runs_discover(R->dr, &R->tgt.ctx, R->tops, R->ntops);
	R->discont = R->w != NULL;
	if (R->discont && R->a.drops) {
		char err[400];

		if (np_record_drops_follow(&R->drops, (const char (*)[IF_NAMESIZE])R->names,
					   R->ntops, err, sizeof(err)) < 0)
			np_warn("--drops: cannot trace again (%s): drops are not recorded", err);
	}
	R->fresh = true;
	return 0;
}

/* One sample into the store. 0; 1 when the devices are gone (nothing stored: a gap);
 * -errno when the recording cannot go on (st says why). */
static int one_frame(struct recorder *R, struct np_status *st)
{
	struct np_rec_sample s = { 0 };
	uint64_t digest;
	char err[400];
	int r;

	if (!R->fresh) {
		bool had = R->dr->n > 0;

		if (had) {
			np_runs_advance(R->dr);
			np_runs_collect_again(R->dr, &R->tgt.ctx);
		}
		/* Gone before (nothing to read again), or changed now. */
		if (!had || np_runs_same_devices(R->dr) < 0) {
			if (had)
				np_warn("the devices of %s changed: found again", R->names[0]);
			if (discover(R) < 0)
				return 1;
		}
	}
	R->fresh = false;
	digest = np_record_digest(R->dr);
	if (!R->rs.have_digest || digest != R->rs.digest) {
		r = np_record_config(&R->rs, &R->tgt, R->tops, R->ntops, &R->a);
		if (r < 0)
			return np_fail(st, "cannot record the configuration: %s", strerror(-r)), r;
		R->rs.digest = digest;
		R->rs.have_digest = true;
		np_dbg("record: configuration %u: %zu bytes", R->rs.configs, R->rs.config_len);
	}
	s.wall_ns = wall_ns();
	if (np_record_counters(&R->rs, R->dr) < 0 ||
	    np_record_drops_add(&R->drops, &R->rs.nc, s.wall_ns) < 0)
		return np_fail(st, "out of memory"), -ENOMEM;
	{
		const struct np_dev_run *p = &R->dr->run[0];
		double t = (p->have_cur ? p->cur.t : p->prev.t);

		s.mono_ns = (int64_t)(t * 1e9);
	}
	s.v = R->rs.nc.v;
	s.n = R->rs.nc.n;
	s.names = R->rs.nc.n ? R->rs.nc.names : NULL;
	s.names_len = R->rs.nc.names_len;
	s.config = R->rs.config;
	s.config_len = R->rs.config_len;
	if (R->discont) {
		np_rec_writer_close(R->w);
		R->w = NULL;
		if (np_rec_writer_open(&R->o, &R->w, err, sizeof(err)) < 0)
			return np_fail(st, "%s", err), -EIO;
		R->discont = false;
	}
	r = np_rec_writer_append(R->w, &s, err, sizeof(err));
	if (r < 0)
		return np_fail(st, "%s", err), r;
	if (r == 1)
		fprintf(stderr, "netpath record: %s\n", err);
	{
		const struct np_dev_run *p = &R->dr->run[0];

		np_record_trigger_tick(&R->trig, &R->tgt, R->dr,
				       p->have_cur ? p->cur.t - p->prev.t : 0, R->tops, R->ntops,
				       &R->a);
	}
	return 0;
}

static void catch_stops(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a stop cuts the sleep short. */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int run(struct recorder *R, struct np_status *st)
{
	char err[400];
	long done = 0;
	double next;
	bool gone = false;
	int r;

	if (discover(R) < 0)
		return np_fail(st, "%s", R->a.all ? "no interface is up and carrying traffic" :
			       "the interface is gone");
	R->o = (struct np_rec_opts){
		.dir = R->a.dir, .interval_ms = (uint32_t)(R->a.every * 1000 + 0.5),
		.keep_ns = R->a.keep_ns, .max_bytes = R->a.max_bytes,
	};
	if (R->a.drops && np_record_drops_start(&R->drops, (const char (*)[IF_NAMESIZE])R->names,
						 R->ntops, err, sizeof(err)) < 0)
		return np_fail(st, "--drops: %s", err);
	if (np_rec_writer_open(&R->o, &R->w, err, sizeof(err)) < 0)
		return np_fail(st, "%s", err);
	np_info("recording %s every %g s into %s", R->names[0], R->a.every, R->a.dir);
	next = np_mono_now();
	while (!stop_signal && (!R->a.count || done < R->a.count)) {
		double now;

		r = one_frame(R, st);
		if (r < 0)
			break;
		if (r == 1 && !gone)
			np_warn("%s is gone: nothing is recorded until it is back", R->names[0]);
		else if (r == 0 && gone)
			np_warn("%s is back: recorded again", R->names[0]);
		gone = r == 1;
		done++;
		if (R->a.count && done >= R->a.count)
			break;
		next += R->a.every;
		now = np_mono_now();
		if (next <= now)	/* late (a busy host): move the cadence on, never catch up */
			next = now + R->a.every;
		np_sleep_until(next, &stop_signal);
	}
	np_rec_writer_close(R->w);
	R->w = NULL;
	if (!np_failed(st) && stop_signal)
		np_info("stopped by signal %d after %ld samples", (int)stop_signal, done);
	return np_failed(st) ? -1 : 0;
}

int np_cmd_record(int argc, char **argv)
{
	struct np_status st = { 0 };
	struct recorder *R = calloc(1, sizeof(*R));

	if (!R) {
		np_fail(&st, "out of memory");
		return np_finish(&st, "record", false);
	}
	if (parse_args(argc, argv, &R->a, &st) < 0 || parse_trigger(R, &st) < 0)
		goto out;
	np_log_set_verbosity(R->a.verbose);
	catch_stops();
	{
		struct np_target_spec spec = {
			.cmd = "record", .netns = R->a.netns, .root = R->a.root,
			.ifname = R->a.all ? NULL : R->a.ifname, .any_iface = R->a.all,
		};
		char why[400];

		if (np_target_open(&R->tgt, &spec, why, sizeof(why)) < 0) {
			np_fail(&st, "%s", why);
			goto out;
		}
	}
	R->dr = calloc(1, sizeof(*R->dr));
	if (!R->dr)
		np_fail(&st, "out of memory");
	else
		run(R, &st);
	if (R->dr)
		np_runs_free(R->dr);
	free(R->dr);
	np_record_drops_stop(&R->drops);
	np_record_trigger_close(&R->trig);
	np_record_state_free(&R->rs);
	np_target_close(&R->tgt);
out:
	free(R);
	return np_finish(&st, "record", false);
}
