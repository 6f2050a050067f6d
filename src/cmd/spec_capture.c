// SPDX-License-Identifier: GPL-2.0-only
/* `netpath capture`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "cmd_args.h"
#include "commands.h"
#include "specs.h"
#pragma weak np_cmd_capture	/* specs.h: NULL where the commands are not linked */

static const struct np_opt capture_opts[] = {
	NP_OPT('o', "output", "FILE",
	  "the archive to write (a gzip-compressed tar, mode 0600: it\n"
	  "names processes and addresses); written atomically",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE,
	  NP_TO(NP_DEST_STRING, struct capture_args, output)),
	NP_OPT('i', "interval", "SEC", "seconds between the two samples (default 1, 0.1 to 3600)",
	  .kind = NP_ARG_NUMBER, .min = 0.1, .max = 3600, .hint = "seconds, 0.1 to 3600",
	  NP_TO(NP_DEST_DOUBLE, struct capture_args, interval)),
	NP_OPT(NP_CAPTURE_ALL, "all", NULL, "every interface that is up and carrying traffic",
	  NP_TO(NP_DEST_TRUE, struct capture_args, all)),
	NP_OPT(NP_CAPTURE_NETNS, "netns", "NS",
	  "capture inside network namespace NS (a name under\n"
	  "/run/netns, a path, or a PID); needs root",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  NP_TO(NP_DEST_STRING, struct capture_args, netns)),
	NP_OPT(NP_CAPTURE_PLAIN, "no-compress", NULL, "a plain tar",
	  NP_TO(NP_DEST_TRUE, struct capture_args, plain)),
	NP_OPT('v', "verbose", NULL, "say what is being recorded",
	  NP_TO(NP_DEST_COUNT, struct capture_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this help"),
	{ 0 },
};

const struct np_cmd_spec np_capture_spec = {
	.name = "capture",
	.run = np_cmd_capture,
	.summary = "record what doctor reads into one file, for --root elsewhere",
	.synopsis =
		"Usage: netpath capture [IFACE | --all] -o FILE [OPTIONS]\n"
		"Record two samples of everything 'netpath doctor' reads for IFACE (default: the\n"
		"interface of the default route), INTERVAL seconds apart, into one archive that\n"
		"'netpath doctor' and 'netpath diff' judge on another machine.\n"
		"\n",
	.epilogue = "\nExit status: 0 written, 3 not written (the reason on stderr).\n",
	.list_options = true,
	.exact = true,
	.operands = { { "IFACE", NP_COMPLETE_IFACE } },
	.opts = capture_opts,
};
