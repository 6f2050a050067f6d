// SPDX-License-Identifier: GPL-2.0-only
/* `netpath checks` and `netpath explain ID`: the reference, straight from the check table. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "opts.h"
#include "render.h"

static int parse_json_flag(int argc, char **argv, const char *usage, bool *json)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	*json = false;
	optind = 1;
	while ((c = getopt_long(argc, argv, "jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			*json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return NP_EXIT_OK + 100;
		default:
			fputs(usage, stderr);
			return NP_EXIT_UNKNOWN;
		}
	}
	return -1;
}

int np_cmd_checks(int argc, char **argv)
{
	bool json;
	int r = parse_json_flag(argc, argv, "Usage: netpath checks [--json]\n", &json);

	if (r >= 0)
		return r >= 100 ? r - 100 : r;
	if (optind < argc) {
		fprintf(stderr, "netpath checks: unexpected argument '%s'\n", argv[optind]);
		return NP_EXIT_UNKNOWN;
	}
	if (json)
		np_render_checks_json(stdout);
	else
		np_render_checks_text(stdout);
	return NP_EXIT_OK;
}

int np_cmd_explain(int argc, char **argv)
{
	const struct np_check *c;
	bool json;
	int r = parse_json_flag(argc, argv, "Usage: netpath explain [--json] CHECK-ID\n", &json);

	if (r >= 0)
		return r >= 100 ? r - 100 : r;
	if (optind + 1 != argc) {
		fputs("Usage: netpath explain [--json] CHECK-ID   (ids: netpath checks)\n", stderr);
		return NP_EXIT_UNKNOWN;
	}
	c = np_check_find(argv[optind]);
	if (!c) {
		fprintf(stderr, "netpath explain: no check '%s' (list them with 'netpath checks')\n",
			argv[optind]);
		if (json)
			np_render_error_json(stdout, "explain", "no such check", NP_EXIT_UNKNOWN);
		return NP_EXIT_UNKNOWN;
	}
	if (json)
		np_render_explain_json(stdout, c);
	else
		np_render_explain_text(stdout, c);
	return NP_EXIT_OK;
}
