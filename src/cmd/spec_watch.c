// SPDX-License-Identifier: GPL-2.0-only
/* `netpath watch`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "conffile.h"
#include "cmd_args.h"
#include "commands.h"
#include "specs.h"
#pragma weak np_cmd_watch	/* specs.h: NULL where the commands are not linked */

static const struct np_opt watch_opts[] = {
	NP_OPT('i', "interval", "SEC", "seconds between frames (default 1; 0.1 to 3600)",
	  .kind = NP_ARG_NUMBER, .min = 0.1, .max = 3600, .hint = "seconds, 0.1 to 3600",
	  NP_TO(NP_DEST_DOUBLE, struct watch_args, interval)),
	NP_OPT('n', "count", "N", "print N frames as plain text and exit (also on a terminal)",
	  .man = "Print N frames (plain text, or JSON lines with\n"
		 ".BR \\-\\-json ),\n"
		 "then exit 0.",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 1e9, .whole = true,
	  .hint = "a whole number of frames, >= 1",
	  NP_TO(NP_DEST_LONG, struct watch_args, count)),
	NP_OPT('b', "batch", NULL, "plain-text frames even on a terminal, until interrupted",
	  NP_TO(NP_DEST_TRUE, struct watch_args, batch)),
	NP_OPT('j', "json", NULL, "one JSON object per frame and line (schema netpath/watch, v1)",
	  NP_TO(NP_DEST_TRUE, struct watch_args, json)),
	NP_OPT(NP_WATCH_COLOR, "color", "WHEN",
	  "colours on the screen: auto, always or never (default auto)",
	  .kind = NP_ARG_CHOICE, .words = "auto always never", .hint = "auto, always, never",
	  NP_TO(NP_DEST_CHOICE, struct watch_args, color)),
	NP_OPT(NP_WATCH_WALK_EVERY, "socket-walk-every", "N",
	  "walk every TCP socket every N frames (default: N from the\n"
	  "walk's measured CPU, so a frame averages under 40 ms; 1 = every frame)",
	  .man = "Walk every TCP socket (the kernel's established hash, with each flow's\n"
		 "tcp_info) once every\n"
		 ".I N\n"
		 "frames; the frames between ask the kernel for listeners and UDP sockets only,\n"
		 "and judge established flows from the last walk, saying how old it is.\n"
		 "By default\n"
		 ".I N\n"
		 "follows the measured CPU of the last walk and of the frames between, so that a\n"
		 "frame's collection averages under 40 ms (1 while a walk costs less; at 200,000\n"
		 "sockets, about 10).\n"
		 ".B 1\n"
		 "walks on every frame.",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 600, .whole = true,
	  .hint = "a whole number of frames, 1 to 600",
	  NP_TO(NP_DEST_INT, struct watch_args, walk_every)),
	NP_OPT(NP_WATCH_NETNS, "netns", "NS",
	  "watch inside network namespace NS: a name (/run/netns/NS),\n"
	  "a path, or a PID (its /proc/PID/ns/net); needs root",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  NP_TO(NP_DEST_STRING, struct watch_args, netns)),
	NP_OPT(NP_WATCH_CONFIG, "config", "FILE",
	  "settings file (default " NP_CONFIG_PATH "\n"
	  "when it exists): the thresholds, checks, rtt and bandwidth doctor uses",
	  .man = "Read settings from\n"
		 ".I FILE\n"
		 "alone, instead of\n"
		 ".I " NP_CONFIG_PATH "\n"
		 "and the other files of\n"
		 ".BR netpath.conf (5),\n"
		 "the files\n"
		 ".B doctor\n"
		 "reads, by the same rules: its thresholds, check and skip lines, rtt and bandwidth apply\n"
		 "to the findings watch shows, so they agree with doctor's (its interval line is doctor's sampling interval, not watch's frame period).",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE),
	NP_OPT('v', "verbose", NULL, "log to stderr (-vv: debug); ignored on the full screen",
	  NP_TO(NP_DEST_COUNT, struct watch_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this text"),
	/* Refused with a reason (watch needs the live system) rather than as unknown. */
	NP_OPT(NP_WATCH_ROOT, "root", "DIR", "", .kind = NP_ARG_STRING, .undocumented = true),
	{ 0 },
};

const struct np_cmd_spec np_watch_spec = {
	.name = "watch",
	.run = np_cmd_watch,
	.summary = "live per-stage, per-CPU, per-queue rates of IFACE, like top",
	.synopsis =
		"Usage: netpath watch [OPTIONS] [IFACE]\n"
		"Live per-stage, per-CPU, per-queue and per-socket rates of IFACE's receive path\n"
		"(default: the interface of the default route), one frame per interval, with the\n"
		"findings of doctor.\n\n",
	.epilogue =
		"\nOn a terminal without --count, --batch or --json: a full-screen view (q quits).\n"
		"Otherwise frames go to stdout, --count N of them or until SIGINT/SIGTERM.\n"
		"Exit: 0 when done or interrupted, 3 could not watch (bad arguments, no such "
		"interface).\n",
	.list_options = true,
	.operands = { { "IFACE", NP_COMPLETE_IFACE } },
	.opts = watch_opts,
};
