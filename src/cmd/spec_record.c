// SPDX-License-Identifier: GPL-2.0-only
/* `netpath record`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "record.h"
#include "commands.h"
#include "specs.h"

#pragma weak np_cmd_record	/* specs.h: NULL where the commands are not linked */

static const struct np_opt record_opts[] = {
	NP_OPT('d', "dir", "DIR",
	  "the recording's directory (created 0700; refused when others\n"
	  "can write to it or another recorder holds it)",
	  .man = "The recording's directory: created mode 0700 when missing (its parent must exist),\n"
		 "refused when group or others can write to it, when another user owns it, and when\n"
		 "another recorder holds it. Segment files are 0600.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_DIR,
	  NP_TO(NP_DEST_STRING, struct record_args, dir)),
	NP_OPT('e', "every", "SEC", "seconds between samples (default 1, 0.1 to 3600)",
	  .kind = NP_ARG_NUMBER, .min = 0.1, .max = 3600, .hint = "seconds, 0.1 to 3600",
	  NP_TO(NP_DEST_DOUBLE, struct record_args, every)),
	NP_OPT(NP_RECORD_KEEP, "keep", "SPAN",
	  "evict samples older than SPAN (7d, 36h, 90min; default 7d)",
	  .kind = NP_ARG_STRING, NP_TO(NP_DEST_STRING, struct record_args, keep)),
	NP_OPT(NP_RECORD_MAX_SIZE, "max-size", "SIZE",
	  "evict the oldest samples past SIZE on disk (500M, 2G;\n"
	  "default 1G)",
	  .kind = NP_ARG_STRING, NP_TO(NP_DEST_STRING, struct record_args, max_size)),
	NP_OPT(NP_RECORD_ALL, "all", NULL,
	  "every interface that is up and carrying traffic when the\n"
	  "recorder starts (found again when one goes or comes back)",
	  NP_TO(NP_DEST_TRUE, struct record_args, all)),
	NP_OPT(NP_RECORD_NETNS, "netns", "NS",
	  "record inside network namespace NS (a name under\n"
	  "/run/netns, a path, or a PID); needs root",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  NP_TO(NP_DEST_STRING, struct record_args, netns)),
	NP_OPT(NP_RECORD_DROPS, "drops", NULL,
	  "also count the kernel's drops by reason, as netpath trace does\n"
	  "(its tracepoint program; needs root or CAP_BPF+CAP_PERFMON)",
	  .man = "Also count the kernel's packet drops by reason (skb:kfree_skb, kernels 5.17 and later),\n"
		 "with the tracepoint program of\n"
		 ".B netpath trace\n"
		 "(opt\\-in like trace: read\\-only, attached through links the process owns, gone when it\n"
		 "exits however it exits), on every recorded interface (with\n"
		 ".BR \\-\\-all ,\n"
		 "one program per interface, each counting the drops of the packets that arrived on its\n"
		 "interface, by ifindex; each program's maps take about 1 MB of kernel memory plus\n"
		 "84 KiB per possible CPU). Each reason's count, summed over the interfaces, is a counter of\n"
		 "the frame (\\fBdrops/\\fIREASON\\fR; with several interfaces each one's too,\n"
		 "\\fBifdrops/\\fIIFNAME\\fB/\\fIREASON\\fR); history names the top reason of the worst\n"
		 "seconds and minutes, and its JSON gives each second's reasons. An interface created\n"
		 "again under the recorder (same name, new ifindex) is traced again, its counts from\n"
		 "zero in the new run of the store.\n"
		 ".IP\n"
		 "The top flows per minute: each dropped packet's flow (addresses, ports, protocol, drop\n"
		 "reason, as\n"
		 ".B netpath trace\n"
		 "counts them) is counted in the kernel, and when a wall\\-clock minute ends the recorder\n"
		 "takes that minute's flows out of the map and keeps the 10 that dropped most, with their\n"
		 "interface, in the frames: the size is bounded (at most 10 flows a minute, 82 counters a\n"
		 "frame that change once a minute), and the map, emptied every minute, holds up to 4096\n"
		 "distinct flows a minute (a flow beyond that is counted for its reason, not listed). Drops\n"
		 "whose reason is NOT_SPECIFIED (mostly ordinary frees) have no flows, as in trace.\n"
		 ".B doctor \\-\\-at\n"
		 "lists the top flows of the minutes its window touches (text: \\(lqTop dropped flows\\(rq;\n"
		 "JSON:\n"
		 ".BR recorded_flows ),\n"
		 "and history each worst minute's (JSON:\n"
		 ".BR top_flows ).\n"
		 "A minute's flows are stored when the next minute begins: the minute in progress when the\n"
		 "recorder stops has none. Its cost per dropped packet is trace's with\n"
		 ".B \\-\\-top\n"
		 "(bench/README.md, benchmark 6). Needs root (or CAP_BPF and CAP_PERFMON).",
	  NP_TO(NP_DEST_TRUE, struct record_args, drops)),
	NP_OPT(NP_RECORD_CAPTURE_ON, "capture-on", "WHAT",
	  "when a check fires at WHAT (warning, critical, or a check id or\n"
	  "pattern), write a whole capture of that moment beside the\n"
	  "recording (DIR/capture-TIME.tar.gz)",
	  .man = "When a check fires at WHAT \\(em a severity,\n"
		 ".B warning\n"
		 "or\n"
		 ".BR critical ,\n"
		 "or a check id or pattern as\n"
		 ".B \\-\\-check\n"
		 "takes them (it fires at warning or worse) \\(em write a whole\n"
		 ".B netpath capture\n"
		 "of that moment beside the recording, \\fIDIR\\fB/capture\\-\\fITIME\\fB.tar.gz\\fR (mode 0600):\n"
		 "the tick it fired and the next one, each read once more with every file and kernel answer\n"
		 "kept, so the cadence does not stop. The checks then run every sample (their cost is in\n"
		 "bench/README.md); at most one capture per\n"
		 ".BR \\-\\-capture\\-every ,\n"
		 "and the newest 20 are kept.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_CHECK,
	  NP_TO(NP_DEST_STRING, struct record_args, capture_on)),
	NP_OPT(NP_RECORD_CAPTURE_EVERY, "capture-every", "SEC",
	  "at most one capture per SEC seconds (default 600)",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 1e7, .hint = "seconds, >= 1",
	  .needs = { { NP_RECORD_CAPTURE_ON, "--capture-every needs --capture-on (when to capture)" } },
	  NP_TO(NP_DEST_DOUBLE, struct record_args, capture_every)),
	/* For bench/record_cost.sh: read a generated tree every tick as if it were a live host. */
	NP_OPT(NP_RECORD_ROOT, "root", "TREE", "", .kind = NP_ARG_STRING, .undocumented = true,
	  NP_TO(NP_DEST_STRING, struct record_args, root)),
	NP_OPT('c', "count", "N", "stop after N samples (default: until SIGTERM)",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 1e12, .whole = true, .hint = "a count, >= 1",
	  NP_TO(NP_DEST_LONG, struct record_args, count)),
	NP_OPT('v', "verbose", NULL, "say what is being recorded",
	  NP_TO(NP_DEST_COUNT, struct record_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this help"),
	{ 0 },
};

const struct np_cmd_spec np_record_spec = {
	.name = "record",
	.summary = "keep a per-second history of the receive path (flight recorder)",
	.synopsis =
		"Usage: netpath record [IFACE | --all] --dir DIR [OPTIONS]\n"
		"Sample every counter doctor turns into a rate, every SEC seconds, and the\n"
		"configuration whenever it changes, into DIR, until stopped (SIGTERM, SIGINT).\n"
		"Read it with 'netpath history' and doctor's window of a recording\n"
		"(netpath-record(8)).\n"
		"\n",
	.epilogue = "\nExit status: 0 stopped by a signal or after --count, 3 could not record (the\n"
		    "reason on stderr).\n",
	.list_options = true,
	.exact = true,
	.operands = { { "IFACE", NP_COMPLETE_IFACE } },
	.opts = record_opts,
	.run = np_cmd_record,
};
