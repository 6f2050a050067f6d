// SPDX-License-Identifier: GPL-2.0-only
/* `netpath trace`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "specs.h"

static const struct np_opt trace_opts[] = {
	NP_OPT('d', "duration", "SEC",
	  "trace for SEC seconds (default 10; Ctrl-C ends early and\n"
	  "still reports)",
	  .kind = NP_ARG_NUMBER, .min = 0.1, .max = 86400, .hint = "seconds, 0.1 to 86400"),
	NP_OPT('j', "json", NULL, "JSON output (schema netpath/trace, version 1)"),
	NP_OPT('a', "all", NULL, "also list benign frees (NOT_SPECIFIED, normal consumption)"),
	NP_OPT(NP_TRACE_NETNS, "netns", "NS",
	  "trace IFACE of network namespace NS: a name (/run/netns/NS),\n"
	  "a path, or a PID",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS),
	NP_OPT(NP_TRACE_XDP, "xdp", NULL,
	  "also count packets and bytes per rx queue and CPU with an XDP\n"
	  "program at the driver (never replaces an existing program;\n"
	  "refused on drivers where attaching resets rings or the link)"),
	NP_OPT(NP_TRACE_XDP_MODE, "xdp-mode", "MODE",
	  "auto (native if the driver has it, else generic), native or\n"
	  "generic (default auto)",
	  /* the order of enum np_xdp_mode */
	  .kind = NP_ARG_CHOICE, .words = "auto native generic",
	  .hint = "auto, native, generic"),
	NP_OPT(NP_TRACE_XDP_ACCEPT_RESET, "xdp-accept-reset", NULL,
	  "attach even where that resets the NIC's rings or link,\n"
	  "dropping traffic for a moment (mlx5, i40e, ixgbe, ...)"),
	NP_OPT('v', "verbose", NULL, "every finding and arrival row (-vv: debug log with libbpf's)"),
	NP_OPT('h', "help", NULL, "this text"),
	{ 0 },
};

const struct np_cmd_spec np_trace_spec = {
	.name = "trace",
	.summary = "drops by kernel reason along the receive path of IFACE (BPF)",
	.synopsis =
		"Usage: netpath trace [OPTIONS] [IFACE]\n"
		"Count the kernel's packet drops by reason (skb:kfree_skb, names from BTF) for "
		"packets\n"
		"that arrived on IFACE (default: the interface of the default route), beside "
		"doctor's\n"
		"counters over the same window, stage by stage. Attaches tracepoint programs only."
		"\n\n",
	.epilogue =
		"\nNeeds root (or CAP_BPF and CAP_PERFMON) and a kernel with BTF.\n"
		"Exit: 0 no warning, 1 warning, 2 critical (worst of the drop reasons and doctor's\n"
		"findings; a reason is a warning from 1 drop/s, critical from 100 drops/s, benign\n"
		"reasons never count), 3 could not trace.\n",
	.list_options = true,
	.operands = { { "IFACE", NP_COMPLETE_IFACE } },
	.opts = trace_opts,
};
