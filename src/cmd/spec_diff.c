// SPDX-License-Identifier: GPL-2.0-only
/* `netpath diff`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "cmd_args.h"
#include "commands.h"
#include "specs.h"
#pragma weak np_cmd_diff	/* specs.h: NULL where the commands are not linked */

static const struct np_opt diff_opts[] = {
	NP_OPT(NP_DIFF_LIVE, "live", NULL,
	  "AFTER is the running system (read-only), sampled over\n"
	  "--interval",
	  NP_TO(NP_DEST_TRUE, struct diff_args, live)),
	NP_OPT('i', "interval", "SEC",
	  "with --live: sample the running system over SEC seconds\n"
	  "(default 1; 0 = configuration and since-boot counters only)",
	  .kind = NP_ARG_NUMBER, .min = 0, .max = 3600, .hint = "seconds, 0 to 3600",
	  .needs = { { NP_DIFF_LIVE, "--interval needs --live (a captured tree is one instant)" } },
	  NP_TO(NP_DEST_DOUBLE, struct diff_args, interval)),
	NP_OPT(NP_DIFF_NETNS, "netns", "NS",
	  "with --live: the running system of network namespace NS (a\n"
	  "name under /run/netns, a path, or a PID); needs root",
	  .man = "With\n"
		 ".BR \\-\\-live :\n"
		 "AFTER is the running system of network namespace\n"
		 ".I NS\n"
		 "(a name under /run/netns, a path to a namespace file, or a PID), entered as\n"
		 ".B doctor \\-\\-netns\n"
		 "enters it: the host\\-wide sysctls (netdev_*, tcp_mem, udp_mem, ...) are read in the\n"
		 "initial namespace first, so they compare with BEFORE's. Run inside a namespace instead\n"
		 ".RB ( \"ip netns exec\" ),\n"
		 "those the namespace does not show are counted as not comparable, not listed as\n"
		 "changed. Needs root.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  .needs = { { NP_DIFF_LIVE, "--netns needs --live (a captured tree is not a namespace)" } },
	  NP_TO(NP_DEST_STRING, struct diff_args, netns)),
	NP_OPT(NP_DIFF_ROOT, "root", "DIR",
	  "compare two windows of a recording of netpath record (--at\n"
	  "and --to) instead of BEFORE and AFTER",
	  .man = "Compare two windows of a recording of\n"
		 ".BR netpath\\-record (8)\n"
		 "instead of BEFORE and AFTER: the one at\n"
		 ".B \\-\\-at\n"
		 "and the one at\n"
		 ".BR \\-\\-to ,\n"
		 "each judged as\n"
		 ".B doctor \\-\\-at\n"
		 "judges it, with the moments the configuration changed in between. IFACE, if given, is the\n"
		 "only operand.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_DIR,
	  .needs = { { NP_DIFF_AT, "--root needs --at and --to (the two moments of the recording)" },
		     { NP_DIFF_TO, "--root needs --at and --to (the two moments of the recording)" } },
	  .conflicts = { { NP_DIFF_LIVE, "--root compares two moments of a recording: not with "
			   "--live" } },
	  NP_TO(NP_DEST_STRING, struct diff_args, root)),
	NP_OPT(NP_DIFF_AT, "at", "TIME", "with --root: the earlier moment (as doctor --at takes it)",
	  .kind = NP_ARG_STRING, .needs = { { NP_DIFF_ROOT, "--at needs --root DIR (a recording)" } },
	  NP_TO(NP_DEST_STRING, struct diff_args, at)),
	NP_OPT(NP_DIFF_TO, "to", "TIME", "with --root: the later moment",
	  .kind = NP_ARG_STRING, .needs = { { NP_DIFF_ROOT, "--to needs --root DIR (a recording)" } },
	  NP_TO(NP_DEST_STRING, struct diff_args, to)),
	NP_OPT(NP_DIFF_WINDOW, "window", "SEC",
	  "with --root: each window's length in seconds (default 1)",
	  .kind = NP_ARG_NUMBER, .min = 0.1, .max = 86400, .hint = "seconds, 0.1 to 86400",
	  .needs = { { NP_DIFF_ROOT, "--window needs --root DIR (a recording)" } },
	  NP_TO(NP_DEST_DOUBLE, struct diff_args, window)),
	NP_OPT('j', "json", NULL, "JSON output (schema netpath/diff, version 1)",
	  NP_TO(NP_DEST_TRUE, struct diff_args, json)),
	NP_OPT('o', "output", "FILE",
	  "write the result to FILE atomically (a temporary file in the\n"
	  "same directory, renamed over FILE)",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE,
	  NP_TO(NP_DEST_STRING, struct diff_args, output)),
	NP_OPT(NP_DIFF_COLOR, "color", "WHEN", "auto, always or never (default auto)",
	  .kind = NP_ARG_CHOICE, .words = "auto always never", .hint = "auto, always, never",
	  NP_TO(NP_DEST_CHOICE, struct diff_args, color)),
	NP_OPT('v', "verbose", NULL, "log to stderr (-vv: debug)",
	  NP_TO(NP_DEST_COUNT, struct diff_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this text"),
	{ 0 },
};

const struct np_cmd_spec np_diff_spec = {
	.name = "diff",
	.run = np_cmd_diff,
	.summary = "what changed between two captures (settings, findings), by stage",
	.synopsis =
		"Usage: netpath diff [OPTIONS] BEFORE AFTER [IFACE]\n"
		"       netpath diff --live [OPTIONS] BEFORE [IFACE]\n"
		"       netpath diff --root DIR --at T1 --to T2 [IFACE]\n"
		"What changed between two captures of the same machine, in receive-path order: "
		"settings\n"
		"old -> new, findings resolved, new, better or worse, stages judged on one side "
		"only,\n"
		"and the drop funnels side by side when both sides were sampled. BEFORE and AFTER "
		"are\n"
		"captures (netpath capture files), sosreports, or trees holding proc/ and sys/ (or\n"
		"archives of them); IFACE defaults to AFTER's\n"
		"default-route interface.\n\n",
	.epilogue =
		"\nExit: AFTER's verdict: 0 no warning, 1 warning, 2 critical, 3 could not "
		"diagnose (also bad arguments, with a one-line reason on stderr).\n",
	.list_options = true,
	.exact = true,
	/* BEFORE and AFTER: captures, sosreports or trees (or archives of them): files or
	 * directories, which the file completion offers both */
	.operands = { { "BEFORE", NP_COMPLETE_FILE }, { "AFTER", NP_COMPLETE_FILE },
		      { "IFACE", NP_COMPLETE_IFACE } },
	.opts = diff_opts,
};
