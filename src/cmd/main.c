// SPDX-License-Identifier: GPL-2.0-only
/* netpath: find where received packets are lost or throttled, explain why, say what to change. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "log.h"
#include "optable.h"
#include "opts.h"
#include "render_monitor.h"
#include "specs.h"
#include "textenc.h"

/* What runs each command; names, summaries and options are in its spec (specs.h). */
static int (*const run[NP_CMD__COUNT])(int argc, char **argv) = {
	[NP_CMD_DOCTOR] = np_cmd_doctor,
	[NP_CMD_CHECKS] = np_cmd_checks,
	[NP_CMD_EXPLAIN] = np_cmd_explain,
	[NP_CMD_TRACE] = np_cmd_trace,
	[NP_CMD_CAPTURE] = np_cmd_capture,
	[NP_CMD_WATCH] = np_cmd_watch,
	[NP_CMD_DIFF] = np_cmd_diff,
	[NP_CMD_PLAN] = np_cmd_plan,
};

static void usage(FILE *out)
{
	fputs("Usage: netpath COMMAND [OPTIONS]\n\nCommands:\n", out);
	for (size_t i = 0; i < NP_CMD__COUNT; i++)
		fprintf(out, "  %-8s %s\n", np_cmd_specs[i]->name, np_cmd_specs[i]->summary);
	fputs("\nRun 'netpath COMMAND --help' for its options; see netpath(8).\n"
	      "Without a command, netpath runs 'doctor'.\n", out);
}

/* A usage error before any command: one line and the hint, as the commands' own (status.h);
 * with --nagios a status line too, since a monitoring system shows only stdout. */
static int unknown_command(int argc, char **argv)
{
	static const char *const nagios[] = { "--nagios", NULL };
	char name[NP_SANITIZED_SIZE(64)], line[400];

	snprintf(line, sizeof(line), "unknown command '%s'",
		 np_sanitize(argv[1], name, sizeof(name)));
	fprintf(stderr, "netpath: %s\nTry 'netpath --help'.\n", line);
	if (np_argv_has(argc, argv, nagios))
		np_render_nagios_unknown(stdout, line);
	return NP_EXIT_UNKNOWN;
}

int main(int argc, char **argv)
{
	/* Queried, never set: the parsers stay in the C locale (textenc.h). */
	np_text_locale_init();
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "help") == 0)) {
		usage(stdout);
		return NP_EXIT_OK;
	}
	if (argc >= 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)) {
		printf("netpath %s\n", NETPATH_VERSION);
		return NP_EXIT_OK;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		for (size_t i = 0; i < NP_CMD__COUNT; i++)
			if (strcmp(argv[1], np_cmd_specs[i]->name) == 0)
				return run[i](argc - 1, argv + 1);
		return unknown_command(argc, argv);
	}
	/* "netpath --json" and plain "netpath" mean doctor on the default interface. */
	return np_cmd_doctor(argc, argv);
}
