// SPDX-License-Identifier: GPL-2.0-only
/* netpath: find where received packets are lost or throttled, explain why, say what to change. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "opts.h"
#include "specs.h"

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

int main(int argc, char **argv)
{
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
		fprintf(stderr, "netpath: unknown command '%s' (try 'netpath --help')\n", argv[1]);
		return NP_EXIT_UNKNOWN;
	}
	/* "netpath --json" and plain "netpath" mean doctor on the default interface. */
	return np_cmd_doctor(argc, argv);
}
