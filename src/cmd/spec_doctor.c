// SPDX-License-Identifier: GPL-2.0-only
/* `netpath doctor`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "specs.h"

static const struct np_opt doctor_opts[] = {
	NP_OPT('i', "interval", "SEC",
	  "sample counters over SEC seconds (default 1; 0 = no sampling)",
	  .kind = NP_ARG_NUMBER, .min = 0, .max = 3600, .hint = "seconds, 0 to 3600"),
	NP_OPT(NP_DOCTOR_RTT, "rtt", "MS", "round-trip time for the bandwidth-delay-product checks",
	  .kind = NP_ARG_NUMBER, .min = 0.001, .max = 100000, .hint = "milliseconds, > 0"),
	NP_OPT(NP_DOCTOR_BANDWIDTH, "bandwidth", "RATE",
	  "path bandwidth, e.g. 10G, 500M (default: the link speed)",
	  .kind = NP_ARG_BANDWIDTH, .hint = "e.g. 10G, 500M, 100k"),
	NP_OPT('j', "json", NULL, "JSON output (schema netpath/doctor, version 2)"),
	NP_OPT(NP_DOCTOR_FORMAT, "format", "FMT",
	  "text, json or prometheus (text format 0.0.4, for the\n"
	  "node_exporter textfile collector)",
	  .kind = NP_ARG_CHOICE, .words = "text json prometheus",
	  .hint = "text, json, prometheus"),
	NP_OPT('o', "output", "FILE",
	  "write the report to FILE atomically (a temporary file in the\n"
	  "same directory, renamed over FILE); FILE's directory must exist",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE),
	NP_OPT(NP_DOCTOR_NAGIOS, "nagios", NULL,
	  "Nagios/Icinga plugin output: one status line with perfdata,\n"
	  "exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN"),
	NP_OPT(NP_DOCTOR_COLOR, "color", "WHEN", "auto, always or never (default auto)",
	  .kind = NP_ARG_CHOICE, .words = "auto always never", .hint = "auto, always, never"),
	NP_OPT(NP_DOCTOR_NETNS, "netns", "NS",
	  "diagnose inside network namespace NS: a name (/run/netns/NS),\n"
	  "a path, or a PID (its /proc/PID/ns/net); needs root",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS),
	NP_OPT(NP_DOCTOR_ROOT, "root", "DIR", "read DIR/proc and DIR/sys instead of the live system",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_DIR),
	NP_OPT(NP_DOCTOR_BEFORE, "before", "DIR",
	  "with --root: an earlier capture of the same machine; rates are\n"
	  "computed between the two (tools/capture-tree.sh makes captures)",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_DIR),
	NP_OPT(NP_DOCTOR_INTERVAL_OF, "interval-of", "SEC",
	  "with --before: the seconds between the two captures, when\n"
	  "they carry no proc/uptime (or to override it)",
	  .kind = NP_ARG_NUMBER, .min = 0.001, .max = 1e9, .hint = "seconds, > 0"),
	NP_OPT(NP_DOCTOR_SOCKETS, "sockets", "N",
	  "list the top N sockets per problem (full listeners, dropping UDP\n"
	  "sockets, buffer-limited and lossy TCP flows) with their owning\n"
	  "process, in text and JSON (0-16; default 0: a summary)",
	  .kind = NP_ARG_NUMBER, .min = 0, .max = 16, .whole = true,
	  .hint = "a whole number, 0 to 16"),
	NP_OPT(NP_DOCTOR_ALL, "all", NULL,
	  "every interface that is up and carries traffic, each device\n"
	  "once (physical NICs shared by several stacks judged once)"),
	NP_OPT(NP_DOCTOR_ALL_COUNTERS, "all-counters", NULL,
	  "JSON and prometheus: every driver counter, not only those\n"
	  "that witness loss"),
	NP_OPT(NP_DOCTOR_CONFIG, "config", "FILE",
	  "settings file (default /etc/netpath.conf when it exists);\n"
	  "the command line overrides it",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE),
	NP_OPT(NP_DOCTOR_THRESHOLD, "threshold", "ID:warn=N,crit=N",
	  "override a check's thresholds, either level alone (units:\n"
	  "netpath explain ID); repeat for more checks",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_THRESHOLD),
	NP_OPT(NP_DOCTOR_CHECK, "check", "ID,...",
	  "run only these checks: ids, globs (softnet.*, socket.tcp-*)\n"
	  "or stage names (softnet); replaces the file's check lines",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_IDLIST),
	NP_OPT(NP_DOCTOR_SKIP, "skip", "ID,...",
	  "do not run these checks (same patterns; wins over --check);\n"
	  "replaces the file's skip lines",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_IDLIST),
	NP_OPT('v', "verbose", NULL, "more evidence and every check's outcome (-vv: debug log)"),
	NP_OPT('h', "help", NULL, "this text"),
	{ 0 },
};

const struct np_cmd_spec np_doctor_spec = {
	.name = "doctor",
	.summary = "walk the receive path of IFACE and report bottlenecks",
	.synopsis =
		"Usage: netpath doctor [OPTIONS] [IFACE]\n"
		"Walk the receive path of IFACE (default: the interface of the default route).\n\n",
	.epilogue = "\nExit: 0 no warning, 1 warning, 2 critical, 3 could not diagnose.\n",
	.list_options = true,
	.exact = true,
	.operands = { { "IFACE", NP_COMPLETE_IFACE } },
	.opts = doctor_opts,
};
