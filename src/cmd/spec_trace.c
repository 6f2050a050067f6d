// SPDX-License-Identifier: GPL-2.0-only
/* `netpath trace`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "conffile.h"
#include "cmd_args.h"
#include "commands.h"
#include "specs.h"
#pragma weak np_cmd_trace	/* specs.h: NULL where the commands are not linked */

static const struct np_opt trace_opts[] = {
	NP_OPT('d', "duration", "SEC",
	  "trace for SEC seconds (default 10; Ctrl-C ends early and\n"
	  "still reports)",
	  .man = "Length of the window in seconds (default 10; 0.1 to 86400).",
	  .kind = NP_ARG_NUMBER, .min = 0.1, .max = 86400, .hint = "seconds, 0.1 to 86400",
	  NP_TO(NP_DEST_DOUBLE, struct trace_args, duration)),
	NP_OPT('j', "json", NULL, "JSON output (schema netpath/trace, version 1)",
	  NP_TO(NP_DEST_TRUE, struct trace_args, json)),
	NP_OPT('a', "all", NULL, "also list benign frees (NOT_SPECIFIED, normal consumption)",
	  .man = "Also list the benign frees: NOT_SPECIFIED (with the function that freed them), normal\n"
		 "consumption, duplicates.",
	  NP_TO(NP_DEST_TRUE, struct trace_args, all)),
	NP_OPT(NP_TRACE_TOP, "top", "N",
	  "the N busiest flows of each drop reason (default 5; 0 turns\n"
	  "attribution off), counted in the kernel",
	  .man = "The N busiest flows of each drop reason (default 5, up to 1000), and with\n"
		 ".B \\-\\-xdp\n"
		 "the N busiest source addresses; 0 turns the flow and source counting off in the kernel.",
	  .kind = NP_ARG_NUMBER, .min = 0, .max = 1000, .whole = true,
	  .hint = "flows per reason, 0 to 1000",
	  NP_TO(NP_DEST_INT, struct trace_args, top)),
	NP_OPT(NP_TRACE_BY, "by", "KEY",
	  "key flows by flow (default: addresses, protocol, ports),\n"
	  "src, dst or port (protocol and destination port)",
	  .kind = NP_ARG_CHOICE, .words = "flow src dst port", .hint = "flow, src, dst, port",
	  NP_TO(NP_DEST_CHOICE, struct trace_args, by)),
	NP_OPT(NP_TRACE_HOST, "host", "ADDR",
	  "count only drops from or to ADDR (IPv4 or IPv6; ADDR/LEN\n"
	  "for a prefix)",
	  .kind = NP_ARG_STRING,
	  .hint = "an IPv4 or IPv6 address, optionally /PREFIX"),
	NP_OPT(NP_TRACE_PORT, "port", "N", "count only drops from or to port N",
	  .kind = NP_ARG_STRING, .hint = "1 to 65535"),
	NP_OPT(NP_TRACE_PROTO, "proto", "P",
	  "count only drops of protocol P (tcp, udp, icmp, icmp6, sctp\n"
	  "or a number); the filters combine, in the kernel",
	  .kind = NP_ARG_STRING, .hint = "tcp, udp, icmp, icmp6, sctp, udplite or 0-255"),
	NP_OPT(NP_TRACE_STACK, "stack", NULL,
	  "also count the kernel stack of every drop and show the\n"
	  "busiest (bpf_get_stackid: costs an unwind per drop)",
	  .man = "Also record the kernel stack of every drop counted (after the filters) and show the\n"
		 "five busiest stacks with their reasons, symbolised from /proc/kallsyms like the drop\n"
		 "locations, innermost frame first, the BPF program and tracepoint frames above the drop left\n"
		 "out. The stacks are kept in a BPF stack map of 1024 distinct stacks of up to 32 frames\n"
		 "(256 KiB); a drop whose stack the map cannot take (full, or two stacks with the same hash)\n"
		 "is counted as \"without a stack\", never lost. The cost is one unwind of the kernel stack\n"
		 "per counted drop (bpf_get_stackid: ORC or frame pointers on x86), paid only for drops of\n"
		 "the traced device and only with this option: see bench/results/trace_attribution_cost.md\n"
		 "for the measured ns per drop. Without it the maps are created with one entry and never\n"
		 "touched.",
	  NP_TO(NP_DEST_TRUE, struct trace_args, stacks)),
	NP_OPT(NP_TRACE_ARRIVALS, "arrivals", NULL,
	  "count arrivals per rx queue and CPU with a BPF program on\n"
	  "every received packet (default: the device's rx_packets)",
	  .man = "Count the arrivals per rx queue and CPU, before GRO and after, with BPF programs on\n"
		 "net:napi_gro_receive_entry and net:netif_receive_skb: one run on every packet the device\n"
		 "receives (55-70 ns each on a 2-CPU Xeon VM, see bench/results/trace_cost.md). Without it,\n"
		 "trace runs no program per packet and takes the arrivals from the device's rx_packets\n"
		 "counter (what\n"
		 ".B ip \\-s link\n"
		 "shows), read before and after the window: one total, no rows per queue or CPU.",
	  NP_TO(NP_DEST_TRUE, struct trace_args, arrivals)),
	NP_OPT(NP_TRACE_NETNS, "netns", "NS",
	  "trace IFACE of network namespace NS: a name (/run/netns/NS),\n"
	  "a path, or a PID",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  NP_TO(NP_DEST_STRING, struct trace_args, netns)),
	NP_OPT(NP_TRACE_XDP, "xdp", NULL,
	  "also count packets and bytes per rx queue and CPU with an XDP\n"
	  "program at the driver (never replaces an existing program;\n"
	  "refused on drivers where attaching resets rings or the link)",
	  .man = "Also load a counter at the driver's XDP hook, the earliest point in the stack: packets\n"
		 "and bytes per rx queue and per CPU, and per source address (IPv4 and IPv6, behind at most\n"
		 "one VLAN tag): the busiest\n"
		 ".B \\-\\-top\n"
		 "sources are listed, the others summed as \"other sources\", frames without an IP source\n"
		 "(ARP, LLDP) apart. Sources are counted in the kernel in a preallocated per\\-CPU hash of\n"
		 "4096 addresses (64 KiB per possible CPU), summed over the CPUs by netpath; when it is\n"
		 "full, the frames of further sources are counted as \"not keyed\" in the other sources and\n"
		 "the report says so, never silently. The program only reads the frame's headers,\n"
		 "bounds\\-checked, and passes every frame. netpath never replaces or detaches\n"
		 "an XDP program that is already attached: it refuses with exit 3 and names the program's id.\n"
		 "The counter is held only through a BPF link owned by the process and never pinned, so the\n"
		 "kernel removes it when netpath exits for any reason, SIGKILL included. On drivers where\n"
		 "attaching XDP rebuilds rings or resets the device (mlx5_core, i40e, ixgbe, igb, igc, bnxt_en,\n"
		 "ice, ena, e1000e, virtio_net, and any driver netpath does not know) it refuses unless\n"
		 ".B \\-\\-xdp\\-accept\\-reset\n"
		 "is given, and says in plain words what would happen.",
	  NP_TO(NP_DEST_TRUE, struct trace_args, xdp)),
	NP_OPT(NP_TRACE_XDP_MODE, "xdp-mode", "MODE",
	  "auto (native if the driver has it, else generic), native or\n"
	  "generic (default auto)",
	  .man = "Native mode runs in the driver's receive poll before any skb exists and sees every\n"
		 "frame that reached the rx ring; NIC and port drops before the ring stay in the nic stage.\n"
		 "Generic mode runs in the stack after GRO and RPS, counts one merged skb once, and linearizes\n"
		 "each skb for the program, which costs CPU; it also turns LRO and hardware GRO off for good\n"
		 ".RB ( \"ethtool \\-K IF lro on rx\\-gro\\-hw on\"\n"
		 "restores them), which is why it needs the acknowledgement when they are on.\n"
		 ".B auto\n"
		 "is native when the driver has it, else generic.",
	  /* the order of enum np_xdp_mode */
	  .kind = NP_ARG_CHOICE, .words = "auto native generic",
	  .hint = "auto, native, generic",
	  .needs = { { NP_TRACE_XDP, "--xdp-mode and --xdp-accept-reset go with --xdp" } },
	  NP_TO(NP_DEST_CHOICE, struct trace_args, xdp_mode)),
	NP_OPT(NP_TRACE_XDP_ACCEPT_RESET, "xdp-accept-reset", NULL,
	  "attach even where that resets the NIC's rings or link,\n"
	  "dropping traffic for a moment (mlx5, i40e, ixgbe, ...)",
	  .man = "Accept the disruption described by the refusal; JSON records it as\n"
		 ".BR \"\"\"acknowledged\"\": true\" .",
	  .needs = { { NP_TRACE_XDP, "--xdp-mode and --xdp-accept-reset go with --xdp" } },
	  NP_TO(NP_DEST_TRUE, struct trace_args, xdp_accept_reset)),
	NP_OPT(NP_TRACE_CONFIG, "config", "FILE",
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
		 "to the findings trace beside its drop counts shows, so they agree with doctor's (its interval line is doctor's).",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE),
	NP_OPT('v', "verbose", NULL, "every finding and arrival row (-vv: debug log with libbpf's)",
	  NP_TO(NP_DEST_COUNT, struct trace_args, verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit"),
	NP_OPT('h', "help", NULL, "this text"),
	{ 0 },
};

const struct np_cmd_spec np_trace_spec = {
	.name = "trace",
	.run = np_cmd_trace,
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
		"Exit: 0 no warning, 1 warning, 2 critical (worst of the drop reasons and doctor's "
		"findings; a reason is a warning from 1 drop/s, critical from 100 drops/s, benign "
		"reasons never count), 3 could not trace.\n",
	.list_options = true,
	.operands = { { "IFACE", NP_COMPLETE_IFACE } },
	.opts = trace_opts,
};
