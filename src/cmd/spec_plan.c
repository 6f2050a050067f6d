// SPDX-License-Identifier: GPL-2.0-only
/* `netpath plan`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "plan.h"
#include "cmd_args.h"
#include "commands.h"
#include "specs.h"
#pragma weak np_cmd_plan	/* specs.h: NULL where the commands are not linked */

static const struct np_opt plan_opts[] = {
	NP_OPT('p', "profile", "P",
	  "lan, long-haul, busy-server or low-latency (required)",
	  .man = "What the host serves: \\fBlan\\fR (a site's own network, about 1 ms), \\fBlong\\-haul\\fR\n"
		 "(transfers over tens of ms: bbr, fq, buffers for the BDP), \\fBbusy\\-server\\fR (many\n"
		 "clients on the Internet: queues, listen backlog, keepalive, RX rings and queues) or\n"
		 "\\fBlow\\-latency\\fR (no deep queues, short interrupt coalescing). Without \\fB\\-\\-rtt\\fR and\n"
		 "without live sockets to measure one, the profile's RTT is assumed (1, 50, 20 and 0.2 ms) and\n"
		 "the plan says so.",
	  .kind = NP_ARG_CHOICE, .words = NP_PROFILE_WORDS,
	  .hint = "lan, long-haul, busy-server, low-latency",
	  NP_TO(NP_DEST_CHOICE, struct plan_args, profile)),
	NP_OPT(NP_PLAN_ALL, "all", NULL,
	  "every interface that is up and carries traffic: one sysctl\n"
	  "file, a .link file and udev rule per NIC",
	  .man = "Plan for every interface that is up and has carried packets (as\n"
		 ".BR doctor \\-\\-all ):\n"
		 "the path and the sysctls are sized for the default route's interface, and each interface\n"
		 "gets its own .link file, udev rule and qdisc line. Give no interface with it. On the live\n"
		 "system each interface is sampled in turn over\n"
		 ".BR \\-\\-interval .",
	  NP_TO(NP_DEST_TRUE, struct plan_args, all)),
	NP_OPT(NP_PLAN_RTT, "rtt", "MS", "round-trip time of the path to plan for",
	  .man = "Round\\-trip time of the path to plan for, in milliseconds (default: measured from live\n"
		 "sockets, else the profile's).",
	  .kind = NP_ARG_NUMBER, .min = 0.001, .max = 100000, .hint = "milliseconds, > 0",
	  NP_TO(NP_DEST_DOUBLE, struct plan_args, rtt_ms)),
	NP_OPT(NP_PLAN_BANDWIDTH, "bandwidth", "RATE",
	  "path bandwidth, e.g. 10G, 500M (default: the link speed)",
	  .kind = NP_ARG_BANDWIDTH, .hint = "e.g. 10G, 500M, 100k",
	  NP_TO(NP_DEST_DOUBLE, struct plan_args, bw_bps)),
	NP_OPT('i', "interval", "SEC",
	  "live system: sample counters over SEC seconds (default 1;\n"
	  "0 = configuration only)",
	  .man = "On the live system, sample counters over \\fISEC\\fR seconds (default 1; 0 to 3600) so that\n"
		 "drops happening now (backlog, ring, squeeze) shape the plan.",
	  .kind = NP_ARG_NUMBER, .min = 0, .max = 3600, .hint = "seconds, 0 to 3600",
	  NP_TO(NP_DEST_DOUBLE, struct plan_args, interval)),
	NP_OPT(NP_PLAN_NETNS, "netns", "NS",
	  "plan for IFACE of network namespace NS (a name under\n"
	  "/run/netns, a path, or a PID; needs root), or with --root\n"
	  "for a sosreport's namespace NS",
	  .man = "Plan for an interface of network namespace\n"
		 ".I NS\n"
		 "(a name under /run/netns, a path to a namespace file, or a PID), entered as\n"
		 ".B doctor \\-\\-netns\n"
		 "enters it: the host\\-wide sysctls are read in the initial namespace first, and the plan\n"
		 "sets them in the host's file, the namespace's own ones for the namespace. Needs root.\n"
		 "With\n"
		 ".B \\-\\-root\n"
		 "a sosreport, the copies of what sos ran in namespace\n"
		 ".IR NS ,\n"
		 "as\n"
		 ".B doctor \\-\\-root \\-\\-netns\n"
		 "reads them; settings the report holds no copy of are named as not read, never\n"
		 "planned from a guess.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  NP_TO(NP_DEST_STRING, struct plan_args, netns)),
	NP_OPT(NP_PLAN_ROOT, "root", "PATH",
	  "plan for a capture, a sosreport or a copied /proc and /sys\n"
	  "(or an archive of one) instead of the live system",
	  .man = "Plan for another machine: a\n"
		 ".B netpath capture\n"
		 "file, a sosreport, or a tree holding proc/ and sys/ (or an archive of one), as\n"
		 ".BR doctor 's\n"
		 ".BR \\-\\-root .\n"
		 "Whether tcp_bbr and sch_fq are built in or modules is read from the tree's\n"
		 "lib/modules/RELEASE when it has one.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE,
	  NP_TO(NP_DEST_STRING, struct plan_args, root)),
	NP_OPT('j', "json", NULL, "JSON output (schema netpath/plan, version 1)",
	  NP_TO(NP_DEST_TRUE, struct plan_args, json)),
	NP_OPT('w', "write", "DIR",
	  "write the files under DIR (DIR/etc/sysctl.d/..., created as\n"
	  "needed), all or none; never into / or /etc, nor through a\n"
	  "symbolic link, nor into a directory others may write to",
	  .man = "Write the plan's files beneath \\fIDIR\\fR, as they would be installed\n"
		 "(\\fIDIR\\fR/etc/sysctl.d/90\\-netpath.conf, \\fIDIR\\fR/etc/systemd/network/10\\-netpath\\-IFACE.link,\n"
		 "\\fIDIR\\fR/etc/udev/rules.d/70\\-netpath\\-IFACE.rules, \\fIDIR\\fR/etc/modules\\-load.d/netpath.conf,\n"
		 "\\fIDIR\\fR/netpath\\-apply\\-now.sh). \\fIDIR\\fR is created (0755) when missing, as are the\n"
		 "directories beneath it. Refused, with nothing written: / and anything under /etc (netpath\n"
		 "never changes the system it reads); a \\fIDIR\\fR that is a symbolic link, however spelled\n"
		 "(\\fIlink\\fR, \\fIlink/\\fR and \\fIlink/.\\fR alike: name the directory itself);\n"
		 "a \\fIDIR\\fR, or a directory beneath it that the plan writes into, that is not owned by\n"
		 "root or by the user running netpath, or that its group or others may write to (a sticky\n"
		 "/tmp included); a symbolic link, directory or other non\\-file where a file of the plan\n"
		 "goes (never followed, never replaced). \\fIDIR\\fR is opened once and everything beneath\n"
		 "it is created from there one name at a time, so a link swapped in meanwhile cannot take\n"
		 "a file elsewhere. The plan\n"
		 "is written whole or not at all: every file is written and synced under a temporary name\n"
		 "beside its target first, then all are renamed into place; an existing regular file is\n"
		 "replaced. If any step fails, netpath removes its temporary files and the directories it\n"
		 "created, puts back the files it had already replaced, says what failed in one line and\n"
		 "exits 3: \\fIDIR\\fR is as it was. SIGINT and SIGTERM wait for that end. The summary goes\n"
		 "to standard output.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_DIR,
	  NP_TO(NP_DEST_STRING, struct plan_args, write)),
	NP_OPT('v', "verbose", NULL, "log to stderr (-vv: debug)",
	  NP_TO(NP_DEST_COUNT, struct plan_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this text"),
	{ 0 },
};

const struct np_cmd_spec np_plan_spec = {
	.name = "plan",
	.run = np_cmd_plan,
	.summary = "the persistent, commented tuning plan for a profile and path",
	.synopsis =
		"Usage: netpath plan [OPTIONS] --profile P [IFACE | --all]\n"
		"The configuration files an admin would install for IFACE (default: the interface "
		"of\n"
		"the default route) and the path it serves: sysctl.d, a systemd-networkd .link "
		"file or\n"
		"udev rule, modules-load.d, tc. Each line says why, when it does not matter, its "
		"cost\n"
		"and the value now; only lines that change something. Sized by doctor's own rules, "
		"and\n"
		"checked by judging the data again with the plan applied. Never applied.\n\n",
	.epilogue =
		"\nExit: 0 plan made, 3 could not plan (bad arguments, no such interface, a "
		"--write directory refused or the plan not written whole: nothing "
		"written then), with a one-line reason on stderr.\n",
	.list_options = true,
	.exact = true,
	.operands = { { "IFACE", NP_COMPLETE_IFACE } },
	.opts = plan_opts,
};
