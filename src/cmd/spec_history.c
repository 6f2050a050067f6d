// SPDX-License-Identifier: GPL-2.0-only
/* `netpath history`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "history.h"
#include "commands.h"
#include "specs.h"

#pragma weak np_cmd_history	/* specs.h: NULL where the commands are not linked */

static const struct np_opt history_opts[] = {
	NP_OPT(NP_HISTORY_ROOT, "root", "DIR", "the directory of netpath record",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_DIR,
	  NP_TO(NP_DEST_STRING, struct history_args, root)),
	NP_OPT(NP_HISTORY_SINCE, "since", "TIME",
	  "from TIME (\"2026-11-28 03:00\", ISO 8601, @UNIXSECONDS, -2h;\n"
	  "default: the recording's start)",
	  .kind = NP_ARG_STRING, NP_TO(NP_DEST_STRING, struct history_args, since)),
	NP_OPT(NP_HISTORY_UNTIL, "until", "TIME", "until TIME (default: now)",
	  .kind = NP_ARG_STRING, NP_TO(NP_DEST_STRING, struct history_args, until)),
	NP_OPT(NP_HISTORY_STAGE, "stage", "STAGE",
	  "only this stage (link, pcie, nic, irq, softnet, ingress, ip,\n"
	  "transport, socket, congestion)",
	  .kind = NP_ARG_CHOICE,
	  .words = "link pcie nic irq softnet ingress ip transport socket congestion",
	  .hint = "a stage: link, pcie, nic, irq, softnet, ingress, ip, transport, socket, congestion",
	  NP_TO(NP_DEST_STRING, struct history_args, stage)),
	NP_OPT(NP_HISTORY_WORST, "worst", "N",
	  "list the N worst seconds and minutes with the check that\n"
	  "would have fired (default 5; 0 for none)",
	  .kind = NP_ARG_NUMBER, .min = 0, .max = 100, .whole = true, .hint = "0 to 100",
	  NP_TO(NP_DEST_LONG, struct history_args, worst)),
	NP_OPT('j', "json", NULL, "JSON output (schema netpath/history, version 1)",
	  NP_TO(NP_DEST_TRUE, struct history_args, json)),
	NP_OPT('v', "verbose", NULL, "say what is being read",
	  NP_TO(NP_DEST_COUNT, struct history_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this help"),
	{ 0 },
};

const struct np_cmd_spec np_history_spec = {
	.name = "history",
	.summary = "drops per second by stage over a span of a recording",
	.synopsis =
		"Usage: netpath history --root DIR [--since TIME] [--until TIME] [OPTIONS]\n"
		"Drops per second at each stage of the receive path over a span of a recording\n"
		"of 'netpath record': one row per stage, then the worst seconds and minutes\n"
		"with the check doctor would have raised (doctor judges any of them whole:\n"
		"see netpath-record(8)).\n"
		"\n",
	.epilogue = "\nExit status: 0 read, 3 could not read the recording (the reason on stderr).\n",
	.list_options = true,
	.exact = true,
	.opts = history_opts,
	.run = np_cmd_history,
};
