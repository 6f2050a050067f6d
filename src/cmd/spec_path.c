// SPDX-License-Identifier: GPL-2.0-only
/* `netpath path` and `netpath serve`'s options: getopt, --help, netpath(8) and the completion
 * all read this. The protocol and its safety: path_proto.h, netpath-path(8). */
#include "cmd_args.h"
#include "commands.h"
#include "specs.h"
#pragma weak np_cmd_path	/* specs.h: NULL where the commands are not linked */
#pragma weak np_cmd_serve

static const struct np_opt path_opts[] = {
	NP_OPT(NP_PATH_KEY, "key", "FILE",
	  "the pre-shared key file (16 to 4096 bytes, mode 0600 or\n"
	  "0400, owned by you), the same as the server's",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE,
	  NP_TO(NP_DEST_STRING, struct path_args, key)),
	NP_OPT(NP_PATH_DURATION, "duration", "SEC",
	  "seconds of transfer (default 10; the server may grant less)",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 120, .hint = "seconds, 1 to 120",
	  NP_TO(NP_DEST_DOUBLE, struct path_args, duration)),
	NP_OPT(NP_PATH_STREAMS, "streams", "N", "parallel TCP streams (default 1)",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 16, .whole = true,
	  .hint = "a whole number, 1 to 16",
	  NP_TO(NP_DEST_INT, struct path_args, streams)),
	NP_OPT(NP_PATH_REVERSE, "reverse", NULL,
	  "the peer sends and this host receives",
	  NP_TO(NP_DEST_TRUE, struct path_args, reverse)),
	NP_OPT(NP_PATH_UDP_STEPS, "udp-steps", NULL,
	  "after the TCP transfer, fixed-rate UDP steps from this host\n"
	  "to PEER (1 s each, doubling from 10 Mbit/s; also with\n"
	  "--reverse) to find a policer",
	  NP_TO(NP_DEST_TRUE, struct path_args, udp_steps)),
	NP_OPT('j', "json", NULL, "JSON output (schema netpath/path)",
	  NP_TO(NP_DEST_TRUE, struct path_args, json)),
	NP_OPT(NP_PATH_NETNS, "netns", "NS",
	  "run in network namespace NS (a name under /run/netns, a\n"
	  "path, or a PID); needs root",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  NP_TO(NP_DEST_STRING, struct path_args, netns)),
	NP_OPT('v', "verbose", NULL, "log to stderr (-vv: debug)",
	  NP_TO(NP_DEST_COUNT, struct path_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this text"),
	{ 0 },
};

const struct np_cmd_spec np_path_spec = {
	.name = "path",
	.run = np_cmd_path,
	.summary = "a bounded test transfer to a netpath serve, and what limited it",
	.synopsis =
		"Usage: netpath path PEER[:PORT] --key FILE [OPTIONS]\n"
		"A TCP transfer of bounded duration to `netpath serve` on PEER (port 7878 by "
		"default), authenticated by a pre-shared key that never travels; tcp_info of the "
		"sending streams every 100 ms, both ends' doctor judgement over the transfer, and "
		"what limited it.\n\n",
	.epilogue =
		"\nExit: 0 the path itself (bottleneck, policer) or the application limited the "
		"transfer, 1 a host-side cause with a fix, 3 could not test (refused key, "
		"unreachable peer, bad arguments).\n",
	.list_options = true,
	.exact = true,
	.operands = { { "PEER", NP_COMPLETE_NONE } },
	.opts = path_opts,
};

static const struct np_opt serve_opts[] = {
	NP_OPT(NP_SERVE_LISTEN, "listen", "ADDR[:PORT]",
	  "the address to listen on (required: never all addresses);\n"
	  "port 7878 by default",
	  .kind = NP_ARG_STRING,
	  NP_TO(NP_DEST_STRING, struct serve_args, listen)),
	NP_OPT(NP_SERVE_KEY, "key", "FILE",
	  "the pre-shared key file (16 to 4096 bytes, mode 0600 or\n"
	  "0400, owned by you); required",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE,
	  NP_TO(NP_DEST_STRING, struct serve_args, key)),
	NP_OPT(NP_SERVE_ONCE, "once", NULL, "exit after one authenticated test",
	  NP_TO(NP_DEST_TRUE, struct serve_args, once)),
	NP_OPT(NP_SERVE_MAX_DURATION, "max-duration", "SEC",
	  "the longest test granted, by this host's clock (default 30)",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 120, .hint = "seconds, 1 to 120",
	  NP_TO(NP_DEST_DOUBLE, struct serve_args, max_duration)),
	NP_OPT(NP_SERVE_NETNS, "netns", "NS",
	  "serve in network namespace NS (a name under /run/netns, a\n"
	  "path, or a PID); needs root",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  NP_TO(NP_DEST_STRING, struct serve_args, netns)),
	NP_OPT('v', "verbose", NULL, "log to stderr (-vv: debug)",
	  NP_TO(NP_DEST_COUNT, struct serve_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this text"),
	{ 0 },
};

const struct np_cmd_spec np_serve_spec = {
	.name = "serve",
	.run = np_cmd_serve,
	.summary = "answer netpath path tests (authenticated, bounded, one at a time)",
	.synopsis =
		"Usage: netpath serve --listen ADDR[:PORT] --key FILE [OPTIONS]\n"
		"Answer `netpath path` tests on ADDR (TCP port 7878 by default, UDP on the same "
		"port for the UDP steps): a client must prove it holds the key; one test at a time, "
		"at most --max-duration seconds; each answered with this host's doctor judgement "
		"of the transfer. Reads the host, changes nothing.\n\n",
	.epilogue =
		"\nExit: 0 after one test with --once, or stopped by a signal; 3 could not start "
		"(no key, a key others can read, no --listen, the address in use).\n",
	.list_options = true,
	.exact = true,
	.opts = serve_opts,
};
