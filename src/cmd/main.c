// SPDX-License-Identifier: GPL-2.0-only
/* netpath: find where received packets are lost or throttled, explain why, say what to change. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "opts.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "doctor", np_cmd_doctor, "walk the receive path of IFACE and report bottlenecks" },
	{ "checks", np_cmd_checks, "list every check (the catalogue)" },
	{ "explain", np_cmd_explain, "the reference text of one check" },
	{ "trace", np_cmd_trace, "drops by kernel reason along the receive path of IFACE (BPF)" },
	{ "capture", np_cmd_capture, "record what doctor reads into one file, for --root elsewhere" },
	{ "watch", np_cmd_watch, "live per-stage, per-CPU, per-queue rates of IFACE, like top" },
	{ "diff", np_cmd_diff, "what changed between two captures (settings, findings), by stage" },
};

static void usage(FILE *out)
{
	fputs("Usage: netpath COMMAND [OPTIONS]\n\nCommands:\n", out);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
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
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return commands[i].fn(argc - 1, argv + 1);
		fprintf(stderr, "netpath: unknown command '%s' (try 'netpath --help')\n", argv[1]);
		return NP_EXIT_UNKNOWN;
	}
	/* "netpath --json" and plain "netpath" mean doctor on the default interface. */
	return np_cmd_doctor(argc, argv);
}
