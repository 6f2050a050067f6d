// SPDX-License-Identifier: GPL-2.0-only
/*
 * netpath capture: two samples of everything doctor reads for its target, an interval apart,
 * in one archive that `doctor --root FILE` (and diff) judge elsewhere. Every file is recorded
 * as the collectors read it through the root context, and every kernel answer as the netlink
 * and ioctl transports received it (fsrec.h, ktape.h): the capture holds what doctor read, no
 * more, no less. Read-only on the host like doctor.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npfloor.h"
#include "atomic_file.h"
#include "capture_sample.h"
#include "cleanup.h"
#include "clock.h"
#include "cmd_args.h"
#include "collect.h"
#include "commands.h"
#include "config.h"
#include "doctor_stack.h"
#include "log.h"
#include "opts.h"
#include "specs.h"
#include "root.h"
#include "tar.h"
#include "target.h"
#include "termwidth.h"
#include "text_wrap.h"

static int parse_args(int argc, char **argv, struct capture_args *a, struct np_status *st)
{
	memset(a, 0, sizeof(*a));
	a->interval = 1;
	/* Every row stores into a (spec_capture.c): no callback. */
	if (np_opts_parse(&np_capture_spec, argc, argv, NULL, a, st) < 0)
		return -1;
	if (optind < argc)
		a->ifname = argv[optind++];
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s' (one interface, or --all)",
				argv[optind]);
	if (a->all && a->ifname)
		return np_fail(st, "--all captures every interface: name none");
	if (!a->output)
		return np_fail(st, "no output file: give -o FILE");
	return 0;
}

/* The interfaces to record: as doctor will find them again in the capture. */
static size_t pick_tops(const struct np_ctx *ctx, const struct capture_args *a,
			char (*names)[IF_NAMESIZE], size_t *more)
{
	char route_if[IF_NAMESIZE];
	int have_route;

	*more = 0;
	/* The routes always: doctor --root CAPTURE --all, or naming another interface, still
	 * finds the default route's in the capture. */
	have_route = np_default_iface(ctx, route_if, sizeof(route_if)) == 0;
	if (a->all)
		return np_collect_busy_ifaces(ctx, names, NP_STACK_MAX, more);
	if (a->ifname)
		snprintf(names[0], IF_NAMESIZE, "%s", a->ifname);
	else if (have_route)
		snprintf(names[0], IF_NAMESIZE, "%s", route_if);
	else
		return 0;
	return np_iface_check(ctx, names[0]) == 0 ? 1 : 0;
}

/*
 * One sample: everything doctor reads, recorded, then written beneath sN/. The first sample
 * discovers the devices (stacks included), the second reads them again, as doctor does.
 */
static int sample(struct np_target *tgt, const struct capture_args *a, struct np_dev_runs *dr,
		  int n, struct np_tar_out *tar, char (*names)[IF_NAMESIZE], size_t *ntops,
		  struct np_capture_stats *ss)
{
	struct np_capture_session cs;
	const char *tops[NP_STACK_MAX];
	char uptime[64];
	size_t more;
	int err = np_capture_begin(tgt, &cs);

	if (err)
		return err;
	/* The instant of the sample (its proc/uptime) and how the target is found again. */
	np_read_str(&tgt->ctx, NP_PROC, "uptime", uptime, sizeof(uptime));
	*ntops = pick_tops(&tgt->ctx, a, names, &more);
	for (size_t i = 0; i < *ntops; i++)
		tops[i] = names[i];
	if (*ntops && n == 1)
		np_runs_discover(dr, &tgt->ctx, tops, *ntops);
	else if (*ntops)
		np_runs_collect_again(dr, &tgt->ctx);
	err = np_capture_end(tgt, &cs, tar, n == 1 ? "s1" : "s2", (int64_t)time(NULL), ss);
	np_dbg("capture: sample %d: %zu files, %zu read errors, %zu bytes, %zu kernel exchanges",
	       n, ss->members, ss->errors, ss->bytes, ss->exchanges);
	return err;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - np_floor(s)) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The one summary line on stderr, wrapped at the terminal's width like all text. */
static void summary(const struct capture_args *a, size_t ntops, double dt,
		    const struct np_capture_stats *ss)
{
	char raw[1024], safe[NP_SANITIZED_SIZE(sizeof(raw))];

	snprintf(raw, sizeof(raw), "netpath capture: %s: %zu interface%s, 2 samples %.1f s "
		 "apart, %zu + %zu files, %zu + %zu kernel answers%s", a->output, ntops,
		 ntops == 1 ? "" : "s", dt, ss[0].members, ss[1].members, ss[0].exchanges,
		 ss[1].exchanges, ss[0].capped || ss[1].capped ? " (socket dumps capped)" : "");
	np_sanitize(raw, safe, sizeof(safe));
	np_wrap_line(stderr, safe, strlen(safe), np_term_width(stderr));
}

int np_cmd_capture(int argc, char **argv)
{
	char names[NP_STACK_MAX][IF_NAMESIZE], tmp[4200];
	struct np_capture_stats ss[2] = { 0 };
	struct capture_args a;
	struct np_target tgt;
	struct np_dev_runs *dr;
	struct np_tar_out *tar;
	size_t ntops = 0, n2 = 0;
	double t0, dt = 0;
	struct np_status st = { 0 };
	FILE *out;
	int r, err = 0;

	if (parse_args(argc, argv, &a, &st) < 0)
		return np_finish(&st, "capture", false);
	np_log_set_verbosity(a.verbose);
	np_cleanup_signals("capture", false);
	{
		struct np_target_spec spec = {
			.cmd = "capture", .netns = a.netns, .ifname = a.all ? NULL : a.ifname,
			.any_iface = a.all,
		};
		char why[400];

		if (np_target_open(&tgt, &spec, why, sizeof(why)) < 0) {
			np_fail(&st, "%s", why);
			return np_finish(&st, "capture", false);
		}
	}
	if (!a.ifname && !a.all)
		a.ifname = tgt.ifname;
	dr = calloc(1, sizeof(*dr));
	out = dr ? np_atomic_open_mode(a.output, tmp, sizeof(tmp), 0600) : NULL;
	if (!out) {
		np_fail(&st, "cannot write %s: %s", a.output, strerror(dr ? errno : ENOMEM));
		goto done;
	}
	fflush(out);
	tar = np_tar_out_open(fileno(out), !a.plain, &err);
	if (!tar) {
		np_atomic_abort(out, tmp);
		np_fail(&st, "cannot write %s: %s", a.output, strerror(-err));
		goto done;
	}
	t0 = np_mono_now();
	err = sample(&tgt, &a, dr, 1, tar, names, &ntops, &ss[0]);
	if (!err && !ntops)
		err = -ENODEV;
	if (!err) {
		sleep_seconds(a.interval);
		dt = np_mono_now() - t0;
		err = sample(&tgt, &a, dr, 2, tar, names, &n2, &ss[1]);
	}
	if (!err && n2 != ntops)
		err = -ENODEV;		/* an interface went away between the samples */
	{
		const char *ifs[NP_STACK_MAX];
		struct np_capture_meta m = {
			.ifs = ifs, .nifs = ntops, .all = a.all, .netns = a.netns,
			.interval = dt, .nsamples = 2, .ss = ss, .now = (int64_t)time(NULL),
		};

		for (size_t i = 0; i < ntops; i++)
			ifs[i] = names[i];
		if (!err)
			err = np_capture_meta_write(tar, &m);
	}
	r = np_tar_out_close(tar);
	if (!err)
		err = r;
	if (err) {
		np_atomic_abort(out, tmp);
		np_fail(&st, err == -ENODEV ? "%s: %s" : "cannot write %s: %s", a.output,
			 err == -ENODEV ? (a.all ? "no interface is up and carrying traffic"
				    : "the interface disappeared while sampling") : strerror(-err));
		goto done;
	}
	r = np_atomic_commit(out, tmp, a.output);
	if (r < 0) {
		np_fail(&st, "cannot write %s: %s", a.output, strerror(-r));
		goto done;
	}
	summary(&a, ntops, dt, ss);
done:
	if (dr)
		np_runs_free(dr);
	free(dr);
	np_target_close(&tgt);
	return np_finish(&st, "capture", false);
}
