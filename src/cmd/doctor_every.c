// SPDX-License-Identifier: GPL-2.0-only
/* `netpath doctor --every SEC -o FILE`: one process rewriting the report file on a cadence. */
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "clock.h"
#include "collect.h"
#include "doctor_run.h"
#include "log.h"

static bool same_tops(const struct doctor_tops *a, const struct doctor_tops *b)
{
	if (a->n != b->n || a->more != b->more)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->names[i], b->names[i]))
			return false;
	return true;
}

/*
 * One report of --every after the first: the latest snapshots become the earlier ones and one
 * more sample is taken, so the rates span the time since the last report. When a device is
 * gone or new (another ifindex, other members), the default route moved to another interface,
 * or --all finds another set of busy interfaces, the stack is discovered again and this report
 * has one sample (since-boot counters and configuration). An interface that is gone, or no
 * busy interface at all with --all, makes the report UNKNOWN: the file says so, never keeping
 * an earlier OK.
 */
static int next_report(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		       struct doctor_tops *t, struct np_status *st)
{
	const struct np_ctx *ctx = &tgt->ctx;
	struct doctor_tops now;
	bool rediscover;

	np_runs_advance(dr);
	np_runs_collect_again(dr, ctx);
	rediscover = np_runs_same_devices(dr) < 0;
	d->unknown_why[0] = '\0';
	if (d->all || !d->ifname) {
		if (np_doctor_find_tops(d, tgt, &now, st) < 0) {
			/* --all with nothing busy: judged on the interfaces it had, UNKNOWN. */
			/* cut to the field: st->msg is longer */
			snprintf(d->unknown_why, sizeof(d->unknown_why), "%.*s",
				 (int)sizeof(d->unknown_why) - 1, st->msg);
			st->msg[0] = '\0';
		} else if (!same_tops(&now, t)) {
			*t = now;
			for (size_t i = 0; i < t->n; i++)
				t->tops[i] = t->names[i];
			rediscover = true;
		}
	}
	if (!rediscover && !d->unknown_why[0])
		return np_doctor_judge(d, tgt, dr, dr->run[0].cur.t - dr->run[0].prev.t,
				       t->more, st);
	if (rediscover) {
		if (!d->was_unknown)
			np_warn("the devices of %s changed: found again; this report has one sample",
				t->n ? t->names[0] : "the stack");
		np_runs_free(dr);
		np_runs_discover(dr, ctx, t->tops, t->n);
	}
	for (size_t i = 0; i < t->n && !d->unknown_why[0]; i++)
		if (np_iface_check(ctx, t->tops[i]) < 0)
			snprintf(d->unknown_why, sizeof(d->unknown_why), "interface '%s' is gone",
				 t->tops[i]);
	if (d->was_unknown && !d->unknown_why[0])
		np_warn("%s is judged again; this report has one sample", t->names[0]);
	return np_doctor_judge(d, tgt, dr,
			       rediscover ? 0 : dr->run[0].cur.t - dr->run[0].prev.t, t->more, st);
}

/*
 * --every: one process keeps the -o file fresh (node_exporter's textfile collector) without a
 * process start per report. Reports follow a fixed cadence from the first one; a late one
 * moves it on instead of writing twice. The first report must be written (a bad -o path is an
 * error at start, as for one report); a later one that cannot be written is said on stderr
 * and the next one tries again, the file keeping the last report meanwhile. Running out of
 * memory ends the run.
 */
int np_doctor_every(struct doctor_args *d, struct np_target *tgt, struct np_dev_runs *dr,
		    struct np_status *st)
{
	struct doctor_tops t;
	double next;
	long done = 1;
	int r;

	if (np_doctor_diagnose(d, tgt, dr, &t, st) < 0)
		return -1;
	np_cleanup_service_done();
	next = np_mono_now() + d->every;
	while (!d->count || done < d->count) {
		double now;

		np_sleep_until(next, NULL);
		now = np_mono_now();
		next += d->every;
		if (next <= now)
			next = now + d->every;
		st->msg[0] = '\0';
		st->code = 0;
		r = next_report(d, tgt, dr, &t, st);
		done++;
		if (r == REPORT_UNWRITTEN && (!d->count || done < d->count))
			fprintf(stderr, "netpath doctor: %s (tried again in %g s)\n", st->msg,
				d->every);
		else if (r < 0)
			return -1;	/* the last report's failure: finish() says it */
	}
	return 0;
}

