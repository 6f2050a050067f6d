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
#include "suggest.h"
#include "termwidth.h"
#include "text_wrap.h"
#include "textenc.h"

static void usage(FILE *out)
{
	struct np_wrap_stream w;
	FILE *h = np_text_stream(out);	/* wrapped first, then ASCII under a non-UTF-8 locale */
	FILE *o = np_wrap_open(&w, h, np_term_width(out));

	fputs("Usage: netpath COMMAND [OPTIONS]\n\nCommands:\n", o);
	for (size_t i = 0; i < NP_CMD__COUNT; i++)
		fprintf(o, "  %-8s %s\n", np_cmd_specs[i]->name, np_cmd_specs[i]->summary);
	fputs("\nRun 'netpath help COMMAND' (or 'netpath COMMAND --help') for its options; see\n"
	      "netpath(8). 'netpath --version' prints the version.\n"
	      "Without a command, netpath runs 'doctor'.\n", o);
	np_wrap_close(&w);
	np_text_stream_done(h, out);
}

/* The command called name, or -1. */
static int find_command(const char *name)
{
	for (size_t i = 0; i < NP_CMD__COUNT; i++)
		if (strcmp(name, np_cmd_specs[i]->name) == 0)
			return (int)i;
	return -1;
}

/* A usage error before any command: one line (with the closest command's name when one is
 * close: "did you mean 'doctor'?") and the hint, as the commands' own (status.h); with
 * --nagios a status line too, since a monitoring system shows only stdout. who is "netpath"
 * or "netpath help". */
static int unknown_command(int argc, char **argv, const char *who, const char *word)
{
	static const char *const nagios[] = { "--nagios", NULL };
	char name[NP_SANITIZED_SIZE(64)], line[400];
	struct np_suggest sg;

	np_suggest_init(&sg, word);
	for (size_t i = 0; i < NP_CMD__COUNT; i++)
		np_suggest_add(&sg, np_cmd_specs[i]->name);
	snprintf(line, sizeof(line), "unknown command '%s'%s%s%s",
		 np_sanitize(word, name, sizeof(name)), np_suggest_best(&sg) ? " (did you mean '" : "",
		 np_suggest_best(&sg) ? np_suggest_best(&sg) : "", np_suggest_best(&sg) ? "'?)" : "");
	fprintf(stderr, "%s: %s\nTry 'netpath --help'.\n", who, line);
	if (np_argv_has(argc, argv, nagios))
		np_render_nagios_unknown(stdout, line);
	return NP_EXIT_UNKNOWN;
}

/* `netpath help [COMMAND]`: the general usage, or that command's --help (as git help). */
static int help(int argc, char **argv)
{
	int c;

	if (argc < 3) {
		usage(stdout);
		return NP_EXIT_OK;
	}
	c = find_command(argv[2]);
	if (c < 0)
		return unknown_command(argc, argv, "netpath help", argv[2]);
	if (argc > 3) {
		char name[NP_SANITIZED_SIZE(64)];

		fprintf(stderr, "netpath help: unexpected argument '%s' (one command at a time)\n"
			"Try 'netpath --help'.\n", np_sanitize(argv[3], name, sizeof(name)));
		return NP_EXIT_UNKNOWN;
	}
	np_opts_help(np_cmd_specs[c], stdout, np_term_width(stdout));
	return NP_EXIT_OK;
}

int main(int argc, char **argv)
{
	static const char *const nagios[] = { "--nagios", NULL };
	/* "netpath --version --nagios" is doctor's plugin mode: UNKNOWN, as doctor's own. */
	int told = np_argv_has(argc, argv, nagios) ? NP_EXIT_UNKNOWN : NP_EXIT_OK;

	/* Queried, never set: the parsers stay in the C locale (textenc.h). First, so that the
	 * usage and --help text below go out as the locale's character set allows too. */
	np_text_locale_init();
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return told;
	}
	if (argc >= 2 && strcmp(argv[1], "help") == 0)
		return help(argc, argv);
	if (argc >= 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0)) {
		printf("netpath %s\n", NETPATH_VERSION);
		return told;
	}
	if (argc >= 2 && argv[1][0] != '-') {
		int c = find_command(argv[1]);

		return c >= 0 ? np_cmd_specs[c]->run(argc - 1, argv + 1) :
				unknown_command(argc, argv, "netpath", argv[1]);
	}
	/* "netpath --json" and plain "netpath" mean doctor on the default interface. */
	return np_cmd_doctor(argc, argv);
}
