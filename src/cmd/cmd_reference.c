// SPDX-License-Identifier: GPL-2.0-only
/* `netpath checks` and `netpath explain ID`: the reference, straight from the check table. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd_args.h"
#include "commands.h"
#include "log.h"
#include "opts.h"
#include "render.h"
#include "selection.h"
#include "specs.h"
#include "termwidth.h"
#include "textenc.h"

int np_cmd_checks(int argc, char **argv)
{
	struct np_status st = { 0 };
	struct reference_args ra = { 0 };

	if (np_opts_parse(&np_checks_spec, argc, argv, NULL, &ra, &st) < 0)
		return np_finish(&st, "checks", ra.json);
	if (optind < argc) {
		np_usage(&st, "unexpected argument '%s'", argv[optind]);
		return np_finish(&st, "checks", ra.json);
	}
	if (ra.json)
		np_render_checks_json(stdout);
	else {
		/* Wrapped at stdout's width into h, which writes ASCII under a non-UTF-8 locale. */
		FILE *h = np_text_stream(stdout);

		np_render_checks_text(h, np_term_width(stdout));
		np_text_stream_done(h, stdout);
	}
	return NP_EXIT_OK;
}

int np_cmd_explain(int argc, char **argv)
{
	struct np_status st = { 0 };
	const struct np_check *c;
	struct reference_args ra = { 0 };

	if (np_opts_parse(&np_explain_spec, argc, argv, NULL, &ra, &st) < 0)
		return np_finish(&st, "explain", ra.json);
	if (optind >= argc) {
		np_usage(&st, "name one check: netpath explain CHECK-ID (ids: netpath checks)");
		return np_finish(&st, "explain", ra.json);
	}
	if (optind + 1 < argc) {
		np_usage(&st, "unexpected argument '%s' (one check at a time)", argv[optind + 1]);
		return np_finish(&st, "explain", ra.json);
	}
	/* Not a check: the loss ledger under doctor's funnel has its reference here too. */
	if (!strcmp(argv[optind], "ledger")) {
		if (ra.json)
			np_render_ledger_explain_json(stdout);
		else {
			FILE *h = np_text_stream(stdout);

			np_render_ledger_explain_text(h, np_term_width(stdout));
			np_text_stream_done(h, stdout);
		}
		return NP_EXIT_OK;
	}
	c = np_check_find(argv[optind]);
	if (!c) {
		char name[NP_SANITIZED_SIZE(64)];

		const char *best = np_check_suggest(argv[optind], false, false);

		/* The name as given, but never raw control bytes on a terminal. */
		fprintf(stderr, "netpath explain: no check '%s' (%s%s%slist them with 'netpath "
			"checks')\n", np_sanitize(argv[optind], name, sizeof(name)),
			best ? "did you mean '" : "", best ? best : "", best ? "'? " : "");
		if (ra.json)
			np_render_error_json(stdout, "explain", "no such check", NP_EXIT_UNKNOWN);
		return NP_EXIT_UNKNOWN;
	}
	if (ra.json)
		np_render_explain_json(stdout, c);
	else {
		/* Wrapped at stdout's width into h, which writes ASCII under a non-UTF-8 locale. */
		FILE *h = np_text_stream(stdout);

		np_render_explain_text(h, c, np_term_width(stdout));
		np_text_stream_done(h, stdout);
	}
	return NP_EXIT_OK;
}
