// SPDX-License-Identifier: GPL-2.0-only
/* `netpath doctor [IFACE]`: options, the target, one report or --every's, the exit code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "commands.h"
#include "deadline.h"
#include "doctor_run.h"
#include "log.h"
#include "render_monitor.h"
#include "textenc.h"

/* The one way out of doctor: a failure's reason on stderr (and as a JSON error object with
 * --json, or a Nagios UNKNOWN line with --nagios), then its exit code. */
static int finish(const struct doctor_args *d, const struct np_status *st)
{
	if (np_failed(st) && d->nagios && !d->json)
		np_render_nagios_unknown(stdout, st->msg);
	return np_finish(st, "doctor", d->json);
}

int np_cmd_doctor(int argc, char **argv)
{
	struct np_status st = { 0 };
	struct np_dev_runs *dr;
	struct doctor_args d;
	struct np_target tgt;

	if (np_doctor_parse_args(argc, argv, &d, &st) < 0)
		return finish(&d, &st);
	np_log_set_verbosity(d.opt.verbose);
	np_command_config_say(&d.cfg);
	/* Digits grouped as the locale says in text only (the report and --brief, both human
	 * text): JSON, Prometheus and the Nagios line read the same everywhere. */
	np_text_grouping(!d.json && !d.prom && !d.nagios);
	/* Before the deadline, which then takes SIGTERM over (monitoring runs: its own line). */
	np_cleanup_signals("doctor", d.every > 0);
	/* Monitoring runs are bounded, and end UNKNOWN when the monitoring system ends them. */
	if (d.nagios || d.timeout > 0) {
		struct np_deadline_msgs m;

		np_deadline_format(&m, "doctor", d.nagios && !d.json, d.timeout);
		if (d.timeout_default)
			snprintf(m.timeout, sizeof(m.timeout), "NETPATH UNKNOWN - timed out after "
				 "%g s (the --nagios default: the interval + %d s; set --timeout)\n",
				 d.timeout, NAGIOS_TIMEOUT_EXTRA);
		if (np_deadline_arm(&m, d.nagios && !d.json ? 1 : 2, d.timeout) < 0) {
			np_fail(&st, "cannot arm --timeout: %s", strerror(errno));
			return finish(&d, &st);
		}
	}
	if (d.at) {
		dr = calloc(1, sizeof(*dr));
		if (!dr)
			np_fail(&st, "out of memory");
		else
			np_doctor_at(&d, dr, &st);
		if (dr)
			np_runs_free(dr);
		free(dr);
		return finish(&d, &st);
	}
	{
		struct np_target_spec spec = {
			.cmd = "doctor", .netns = d.netns, .root = d.root,
			.ifname = d.all ? NULL : d.ifname, .any_iface = d.all,
		};
		char err[400];

		if (np_target_open(&tgt, &spec, err, sizeof(err)) < 0) {
			np_fail(&st, "%s", err);
			return finish(&d, &st);
		}
	}
	/* The checks and every renderer read MIB counters by name only. */
	tgt.ctx.mib_by_name = true;
	dr = calloc(1, sizeof(*dr));
	if (!dr)
		np_fail(&st, "out of memory");
	else if (d.every > 0)
		np_doctor_every(&d, &tgt, dr, &st);
	else {
		struct doctor_tops t;

		np_doctor_diagnose(&d, &tgt, dr, &t, &st);
	}
	if (dr)
		np_runs_free(dr);
	free(dr);
	np_target_close(&tgt);
	return finish(&d, &st);
}
