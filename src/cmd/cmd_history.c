// SPDX-License-Identifier: GPL-2.0-only
/* netpath history: a recording's drops per second by stage (history.h). Read-only. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "finding.h"
#include "history.h"
#include "log.h"
#include "specs.h"
#include "termwidth.h"
#include "textenc.h"
#include "when.h"

static int parse_args(int argc, char **argv, struct history_args *a, double *since,
		      double *until, struct np_status *st)
{
	double now = (double)time(NULL);
	char err[200];

	memset(a, 0, sizeof(*a));
	a->worst = 5;
	a->json = np_argv_has(argc, argv, (const char *const[]){ "--json", "-j", NULL });
	if (np_opts_parse(&np_history_spec, argc, argv, NULL, a, st) < 0)
		return -1;
	if (optind < argc)
		return np_usage(st, "unexpected argument '%s'", argv[optind]);
	if (!a->root)
		return np_usage(st, "no recording: give --root DIR (the directory of netpath "
				"record)");
	*since = -INFINITY;
	*until = INFINITY;
	if (a->since && np_parse_when(a->since, now, since, err, sizeof(err)) < 0)
		return np_usage(st, "invalid --since '%s' (%s)", a->since, err);
	if (a->until && np_parse_when(a->until, now, until, err, sizeof(err)) < 0)
		return np_usage(st, "invalid --until '%s' (%s)", a->until, err);
	if (*since >= *until)
		return np_usage(st, "--since must be before --until");
	return 0;
}

int np_cmd_history(int argc, char **argv)
{
	struct np_status st = { 0 };
	struct history_args a;
	struct np_history h = { 0 };
	double since, until;

	if (parse_args(argc, argv, &a, &since, &until, &st) < 0)
		return np_finish(&st, "history", a.json);
	np_log_set_verbosity(a.verbose);
	np_text_grouping(!a.json);
	h.stages = a.stage ? 1u << np_stage_from_name(a.stage) : (1u << NP_STAGE__COUNT) - 1;
	if (np_history_scan(&a, since, until, &h, &st) == 0) {
		if (a.json)
			np_render_history_json(stdout, &h);
		else
			np_render_history_text(stdout, &h, np_term_width(stdout),
					       !np_text_cols_ascii_on());
		if (fflush(stdout) != 0)
			np_fail(&st, "cannot write the output");
	}
	np_history_free(&h);
	return np_finish(&st, "history", a.json);
}
