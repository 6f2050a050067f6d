// SPDX-License-Identifier: GPL-2.0-only
/* `netpath doctor`'s options: getopt, --help, netpath(8) and the completion all read this. */
#include "conffile.h"
#include "doctor_run.h"
#include "commands.h"
#include "specs.h"
#pragma weak np_cmd_doctor	/* specs.h: NULL where the commands are not linked */

static const struct np_opt doctor_opts[] = {
	NP_OPT('i', "interval", "SEC",
	  "sample counters over SEC seconds (default 1; 0 = no sampling)",
	  .man = "Sampling interval in seconds (default 1; 0 to 3600).\n"
		 ".B 0\n"
		 "reports configuration and since\\-boot counters only.",
	  .kind = NP_ARG_NUMBER, .min = 0, .max = 3600, .hint = "seconds, 0 to 3600",
	  NP_TO(NP_DEST_DOUBLE, struct doctor_args, opt.interval)),
	NP_OPT(NP_DOCTOR_RTT, "rtt", "MS", "round-trip time for the bandwidth-delay-product checks",
	  .man = "Round\\-trip time of the paths that matter, in milliseconds. Feeds the bandwidth\\-delay\\-product\n"
		 "(BDP) checks. Without it, netpath says which RTT each buffer ceiling covers.",
	  .kind = NP_ARG_NUMBER, .min = 0.001, .max = 100000, .hint = "milliseconds, > 0",
	  NP_TO(NP_DEST_DOUBLE, struct doctor_args, opt.rtt_ms)),
	NP_OPT(NP_DOCTOR_BANDWIDTH, "bandwidth", "RATE",
	  "path bandwidth, e.g. 10G, 500M (default: the link speed)",
	  .man = "Path bandwidth in bits per second with an optional k, M, G or T suffix (10G, 500M). Default:\n"
		 "the link speed.",
	  .kind = NP_ARG_BANDWIDTH, .hint = "e.g. 10G, 500M, 100k",
	  NP_TO(NP_DEST_DOUBLE, struct doctor_args, opt.bandwidth_bps)),
	NP_OPT('j', "json", NULL, "JSON output (schema netpath/doctor, version 2)",
	  .man = "Print a JSON document (see\n"
		 ".BR OUTPUT ).\n"
		 "Errors are JSON objects too.",
	  NP_TO(NP_DEST_TRUE, struct doctor_args, json)),
	NP_OPT(NP_DOCTOR_FORMAT, "format", "FMT",
	  "text, json or prometheus (text format 0.0.4, for the\n"
	  "node_exporter textfile collector)",
	  .man = "Output format: \\fBtext\\fR (default), \\fBjson\\fR (same as \\fB\\-\\-json\\fR) or \\fBprometheus\\fR:\n"
		 "the Prometheus text exposition format 0.0.4 for node_exporter's textfile collector. Metrics are\n"
		 "named \\fBnetpath_*\\fR and form a bounded set. A device's own series (link, rings, channels,\n"
		 "queues, driver counters, qdiscs, \\fBnetpath_stack_device_info\\fR,\n"
		 "\\fBnetpath_device_check_severity\\fR) carry an \\fBinterface\\fR label, one per device of the\n"
		 "stack; host\\-wide ones (per\\-CPU softnet, netdev_*, rmem_max, tcp_mem/udp_mem and their usage,\n"
		 "conntrack_max) carry none and appear once, so one \\fB\\-\\-all\\fR file per host never counts them\n"
		 "twice; the run's verdict and the namespace's values carry none either. With \\fB\\-\\-netns\\fR\n"
		 "every series but the host\\-wide ones (left to the host's own run) carries \\fBnetns\\fR.\n"
		 "The series: per\\-stage packet and drop counters since boot\n"
		 "(\\fBnetpath_stage_packets_total\\fR, \\fBnetpath_stage_drops_total\\fR) and their rates over the\n"
		 "interval (\\fBnetpath_stage_*_per_second\\fR), one \\fBnetpath_check_severity\\fR gauge per check\n"
		 "(0 ok, 1 info, 2 warning, 3 critical; a check whose data was unavailable reports 0 and\n"
		 "\\fBnetpath_check_skipped\\fR 1), \\fBnetpath_status\\fR (the run's exit code: 0 ok, 1 warning,\n"
		 "2 critical, 3 unknown when no stage could be judged), \\fBnetpath_worst_severity\\fR (the worst\n"
		 "finding, 0 ok to 3 critical), \\fBnetpath_stage_judged\\fR per \\fBstage\\fR (1 judged, 0.5 partly,\n"
		 "0 not judged; absent where the stage does not apply), the values the checks compare\n"
		 "(ring and channel sizes, netdev_max_backlog, netdev_budget, tcp_mem/udp_mem thresholds and\n"
		 "usage in pages, rmem_max, tcp_rmem, conntrack, per\\-CPU softnet counters, per\\-queue counters,\n"
		 "qdisc drops) and driver counters summed by what they witness\n"
		 "(\\fBnetpath_nic_witness_total\\fR). Every raw driver counter\n"
		 "(\\fBnetpath_nic_driver_stat_total\\fR) only with \\fB\\-\\-all\\-counters\\fR.\n"
		 "Series absent from the output were not reported by the kernel or driver.",
	  .kind = NP_ARG_CHOICE, .words = "text json prometheus",
	  .hint = "text, json, prometheus"),
	NP_OPT(NP_DOCTOR_BRIEF, "brief", NULL,
	  "one line per stage (verdict, device, the worst finding), for\n"
	  "a quick look or a paste into a chat or ticket; text only",
	  .man = "One line per stage, at most 100 columns, as\n"
		 ".B ip \\-br\n"
		 "gives one per device: the stage, its verdict (OK, INFO, WARNING, CRITICAL; UNKNOWN when its\n"
		 "evidence could not be read, with the reason; PARTIAL when only part of it could and nothing\n"
		 "was found there; \\(lq\\-\\(rq where the stage does not apply), the device the worst finding is\n"
		 "about (\\(lq\\-\\(rq for the host's and the namespace's own values) and that finding's summary\n"
		 "with its numbers, cut to fit, and how many more the stage has. For a quick look, or a paste\n"
		 "into a chat or a ticket; the exit code is the report's. A text form: not with\n"
		 ".BR \\-\\-json ,\n"
		 ".B \\-\\-format json|prometheus\n"
		 "or\n"
		 ".B \\-\\-nagios\n"
		 "(an error, exit 3), whose consumers read every field anyway.",
	  NP_TO(NP_DEST_TRUE, struct doctor_args, brief)),
	NP_OPT('o', "output", "FILE",
	  "write the report to FILE atomically (a temporary file in the\n"
	  "same directory, renamed over FILE); FILE's directory must exist",
	  .man = "Write the report to \\fIFILE\\fR instead of standard output, atomically: the output goes to a\n"
		 "hidden temporary file in the same directory, which is flushed to disk and renamed over\n"
		 "\\fIFILE\\fR, so a reader sees the old file or the new one, never half of one. \\fIFILE\\fR's\n"
		 "directory must exist. netpath refuses (exit 3) to write through a symbolic link or over\n"
		 "anything that is not a regular file (such as /dev/null). On any failure \\fIFILE\\fR keeps its\n"
		 "previous content. This is the only file netpath writes.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE,
	  NP_TO(NP_DEST_STRING, struct doctor_args, output)),
	NP_OPT(NP_DOCTOR_EVERY, "every", "SEC",
	  "with -o: keep running and write the report again every SEC\n"
	  "seconds, with rates over the SEC since the one before",
	  .man = "Keep running and rewrite the\n"
		 ".B \\-o\n"
		 "file every\n"
		 ".I SEC\n"
		 "seconds (0.1 to 86400, fractions allowed) on a fixed cadence, for node_exporter's textfile\n"
		 "collector without a process start per report. The first report comes after\n"
		 ".B \\-\\-interval\n"
		 "as usual; each later one judges the rates over the time since the report before (each\n"
		 "device's latest sample becomes its earlier one), so no report waits for a sampling interval\n"
		 "of its own. A report that is late (a slow collector) moves the cadence on rather than\n"
		 "writing twice. When a device of the stack disappears, is created again (a new ifindex) or\n"
		 "gains or loses a member (a bond's, a bridge's port), when the default route moves to another\n"
		 "interface (no\n"
		 ".I IFACE\n"
		 "given), or with\n"
		 ".B \\-\\-all\n"
		 "when the set of busy interfaces changes, the devices are found again and that report judges\n"
		 "configuration and since\\-boot counters only. An interface that is gone, or with\n"
		 ".B \\-\\-all\n"
		 "no interface busy, makes the reports UNKNOWN until it is back (the reason said once on\n"
		 "standard error), so the file never keeps an earlier OK. The first report must be written\n"
		 "(a bad path is an error, exit 3); a later one that cannot be written is said on standard\n"
		 "error and tried again at the next, the file keeping the last report meanwhile. Needs\n"
		 ".BR \\-o ;\n"
		 "not with\n"
		 ".BR \\-\\-root ,\n"
		 ".B \\-\\-nagios\n"
		 "or\n"
		 ".BR \\-\\-timeout .\n"
		 "SIGTERM or SIGHUP ends it (a report being written is abandoned and its temporary file\n"
		 "removed; the file keeps the previous report): it says\n"
		 ".RB \\(lq \"netpath doctor: stopped by SIGTERM\" \\(rq\n"
		 "on standard error and exits 0 once the first report was written (its work is done:\n"
		 "a clean stop for systemd), 3 before it; SIGINT says so and dies by the signal. After\n"
		 ".B \\-\\-count\n"
		 "reports the exit code is the last report's.",
	  .kind = NP_ARG_NUMBER, .min = 0.1, .max = 86400, .hint = "seconds, 0.1 to 86400",
	  .needs = { { 'o', "--every rewrites a report file: name it with -o FILE" } },
	  .conflicts = { { NP_DOCTOR_ROOT, "--every samples the live system again and again: not with "
			   "--root" } },
	  NP_TO(NP_DEST_DOUBLE, struct doctor_args, every)),
	NP_OPT(NP_DOCTOR_COUNT, "count", "N",
	  "with --every: stop after N reports (default: until SIGTERM)",
	  .man = "With\n"
		 ".BR \\-\\-every :\n"
		 "stop after\n"
		 ".I N\n"
		 "reports (1 to 1000000000) and exit with the last one's code. Default: run until SIGTERM or\n"
		 "SIGINT.",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 1e9, .whole = true,
	  .hint = "a whole number, 1 to 1000000000",
	  .needs = { { NP_DOCTOR_EVERY, "--count needs --every (the reports of a repeating run)" } },
	  NP_TO(NP_DEST_LONG, struct doctor_args, count)),
	NP_OPT(NP_DOCTOR_NAGIOS, "nagios", NULL,
	  "Nagios/Icinga plugin output: one status line with perfdata,\n"
	  "exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN",
	  .man = "Nagios/Icinga plugin mode. Prints one status line\n"
		 ".RB \\(lq \"NETPATH OK|WARNING|CRITICAL|UNKNOWN \\- IFACE: ...\" \\(rq\n"
		 "naming the (up to three) worst findings with their numbers, then \\(lq|\\(rq and performance\n"
		 "data: the interval in seconds, drops per second at each stage (drop counters with unit\n"
		 "\\fBc\\fR when \\fB\\-\\-interval 0\\fR), softnet drops with the warning and critical thresholds of\n"
		 "softnet.backlog\\-drops, and the number of checks at each severity. Thresholds are Monitoring\n"
		 "Plugins ranges that alert where netpath does, at or above the level:\n"
		 "\\fB@1:\\fR, not \\fB1\\fR (which would mean above 1). When some stages could not\n"
		 "be judged the status line says how many were and names the others\n"
		 "(\\(lq; 1 of 10 stages judged (not judged: link, nic, ...)\\(rq). Following lines give every\n"
		 "warning and critical finding as\n"
		 ".RB \\(lq \"CRITICAL nic.missed [eth0 nic]: summary\" \\(rq:\n"
		 "the device is named for the link, PCIe, NIC and IRQ stages, for checks of an interface's own\n"
		 "values (a qdisc, an ingress hook) and for any device beneath the interface; the host's and\n"
		 "the namespace's findings (softnet backlog, sockets) give the stage alone. Exit 0 OK (info findings only), 1 WARNING, 2 CRITICAL,\n"
		 "3 UNKNOWN (could not diagnose, or no stage of the receive path could be judged; the reason is\n"
		 "on the status line).",
	  .conflicts = { { 'o', "--nagios prints its status to stdout for the monitoring system: "
			   "no -o" } },
	  NP_TO(NP_DEST_TRUE, struct doctor_args, nagios)),
	NP_OPT('t', "timeout", "SEC",
	  "give up after SEC seconds: UNKNOWN (exit 3) with a one-line\n"
	  "reason, as monitoring plugins do (default: no limit; with\n"
	  "--nagios the interval + 10 s)",
	  .man = "Give up after\n"
		 ".I SEC\n"
		 "seconds (1 to 3600, fractions allowed): exit 3 (UNKNOWN) with the line\n"
		 ".RB \\(lq \"NETPATH UNKNOWN \\- timed out after SEC s (\\-\\-timeout)\" \\(rq\n"
		 "on standard output with\n"
		 ".BR \\-\\-nagios ,\n"
		 "on standard error otherwise. With\n"
		 ".B \\-\\-nagios\n"
		 "or\n"
		 ".BR \\-\\-timeout ,\n"
		 "SIGTERM and SIGALRM (how monitoring systems end a plugin that runs too long) give the same\n"
		 "UNKNOWN line and exit 3. The\n"
		 ".B \\-o\n"
		 "temporary file and an unpacked archive are removed first; the\n"
		 ".B \\-o\n"
		 "file keeps its previous content. The timeout must exceed the interval.\n"
		 "Default: no limit, except with\n"
		 ".BR \\-\\-nagios ,\n"
		 "where a plugin must never hang: the interval plus 10 seconds (11 s with the default\n"
		 "interval of 1 s; 10 s with\n"
		 ".BR \\-\\-root ),\n"
		 "whose expiry says\n"
		 ".RB \\(lq \"NETPATH UNKNOWN \\- timed out after 11 s (the \\-\\-nagios default: ...)\" \\(rq.",
	  .kind = NP_ARG_NUMBER, .min = 1, .max = 3600, .hint = "seconds, 1 to 3600",
	  .conflicts = { { NP_DOCTOR_EVERY, "--timeout bounds one run: not with --every" } },
	  NP_TO(NP_DEST_DOUBLE, struct doctor_args, timeout)),
	NP_OPT(NP_DOCTOR_COLOR, "color", "WHEN", "auto, always or never (default auto)",
	  .man = ".BR auto \" (default: colour on a terminal unless \" NO_COLOR \" is set), \" always \" or \" never .",
	  .kind = NP_ARG_CHOICE, .words = "auto always never", .hint = "auto, always, never",
	  NP_TO(NP_DEST_CHOICE, struct doctor_args, color)),
	NP_OPT(NP_DOCTOR_NETNS, "netns", "NS",
	  "diagnose inside network namespace NS: a name (/run/netns/NS),\n"
	  "a path, or a PID (its /proc/PID/ns/net); needs root",
	  .man = "Diagnose inside another network namespace:\n"
		 ".I NS\n"
		 "is a name under /run/netns, a path to a namespace file, or a PID (its /proc/PID/ns/net).\n"
		 "netpath joins it and, in a mount namespace private to its own process, mounts a fresh sysfs so\n"
		 "that /sys/class/net shows that namespace's devices (as\n"
		 ".B ip netns exec\n"
		 "does). Needs root. The report says which values belong to the namespace (the interface,\n"
		 "IP/TCP/UDP counters, most net.ipv4 sysctls) and which are host\\-wide (softnet_stat, IRQs,\n"
		 "netdev_* and tcp_mem/udp_mem); each JSON finding carries a\n"
		 ".B scope\n"
		 "of\n"
		 ".BR interface \", \" netns \" or \" host .\n"
		 "A child namespace may lack files for the host\\-wide sysctls (the kernel registers\n"
		 "net.core.netdev_* and tcp_mem/udp_mem for the initial namespace only; rmem_max,\n"
		 "wmem_max, rmem_default, wmem_default, nf_conntrack_max/buckets and\n"
		 "tcp_allowed_congestion_control are read\\-only copies of the host's values on recent\n"
		 "kernels and absent on older ones), so\n"
		 ".B \\-\\-netns\n"
		 "reads them before it enters; run inside the namespace instead\n"
		 ".RB ( \"ip netns exec\" ,\n"
		 "a container) and the checks that need them are skipped.\n"
		 "With\n"
		 ".B \\-\\-root\n"
		 "of a sosreport,\n"
		 ".I NS\n"
		 "names one of the namespaces sos ran commands in: netpath reads that namespace's copies\n"
		 "(sos_commands/networking/namespaces/NS/ip_netns_exec_NS_* from sos 4.3,\n"
		 "ip_netns_exec_NS_* beside the host's before: netstat \\-s, nstat \\-zas, ss \\-peaonmi,\n"
		 "ip \\-d address show, ethtool \\-i/\\-k/\\-S, sysctl \\-a) and never the host's /proc/net,\n"
		 "/sys/class/net or command outputs in their place (softnet_stat and, without the\n"
		 "namespace's own sysctl \\-a, the host's sysctls aside). sos copies no interface counters\n"
		 "of a namespace: the link checks say so. An unknown\n"
		 ".I NS\n"
		 "is an error naming the namespaces the report has (exit status 3).",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_NETNS,
	  NP_TO(NP_DEST_STRING, struct doctor_args, netns)),
	NP_OPT(NP_DOCTOR_ROOT, "root", "PATH",
	  "read a capture, a sosreport or a copied /proc and /sys (or a\n"
	  "tar, tar.gz or tar.xz of one) instead of the live system",
	  .man = "Read another machine instead of the live system. PATH is a capture made by\n"
		 ".B netpath capture\n"
		 "(its archive, or the directory unpacked from it: its two samples give rates, and the NIC side\n"
		 "is replayed from the recorded kernel answers), a sosreport directory, a directory holding\n"
		 ".I proc/\n"
		 "and\n"
		 ".I sys/\n"
		 "copied by other means, or a\n"
		 ".IR .tar ,\n"
		 ".I .tar.gz\n"
		 "or\n"
		 ".I .tar.xz\n"
		 "archive of one of these, unpacked into a private directory (mode 0700; in memory when\n"
		 "TMPDIR is unset and the archive is at most 8 MiB: under $XDG_RUNTIME_DIR or /dev/shm, the\n"
		 "first that is a tmpfs with 128 MiB free and writable by the user alone or root's and sticky,\n"
		 "with 64 MiB in place of the 1 GiB disk cap below; otherwise, and again when that cap is\n"
		 "reached, under $TMPDIR or /tmp; removed\n"
		 "at exit and when a signal ends the run, SIGPIPE from a closed pipe included; only files, directories and symbolic links are\n"
		 "created, never through a link, and absolute or \"..\" member names, and names deeper than\n"
		 "64 components or longer than 4095 bytes, are refused). Archives come from elsewhere, so\n"
		 "unpacking has caps; at the first one reached it stops, removes what it unpacked and exits 3\n"
		 "naming the cap and its value:\n"
		 ".RS\n"
		 ".IP \\(bu 2\n"
		 "2 GiB of tar data once decompressed, the data of members not unpacked included (this bounds\n"
		 "the time a small compressed file can cost to a few seconds);\n"
		 ".IP \\(bu 2\n"
		 "200,000 members, whatever becomes of them;\n"
		 ".IP \\(bu 2\n"
		 "50,000 directories, those listed and those made as a member's parents;\n"
		 ".IP \\(bu 2\n"
		 "1 GiB of disk: each file's content in 4 KiB blocks, every file, directory and link at least\n"
		 "one.\n"
		 ".RE\n"
		 ".IP\n"
		 "A file bigger than 64 MiB, more than netpath reads from any file (a sosreport's journal), is\n"
		 "not written. A capture is under 1 MiB in about a thousand members; a full sosreport tens to a\n"
		 "few hundred MiB in tens of thousands of members and a few thousand directories. To read an\n"
		 "archive past a cap, unpack it (tar xf) and give the directory, which has no caps.\n"
		 ".IP\n"
		 "Every read stays beneath the tree: symbolic links cannot\n"
		 "escape it, with openat2(2) RESOLVE_BENEATH or, on kernels before 5.6, a component\\-by\\-component\n"
		 "resolver that refuses the same links. openat2's EAGAIN (a rename or mount anywhere on the host\n"
		 "during a lookup through \"..\", which every sysfs link holds) is asked again, then answered by\n"
		 "that resolver: a busy host gives the same verdicts as a quiet one.\n"
		 ".I PATH\n"
		 "itself may be a symbolic link (it is the user's choice), but nothing inside may send the reads\n"
		 "elsewhere: a capture's samples\n"
		 ".I s1/\n"
		 "and\n"
		 ".I s2/\n"
		 "must be directories of it, not symbolic links, and a tree's (or sample's)\n"
		 ".IR proc/ ,\n"
		 ".I sys/\n"
		 "and\n"
		 ".I run/\n"
		 "may be links only to places inside it (a sosreport's\n"
		 ".I sys\n"
		 "link to its own copy is fine). A tree that breaks either rule (say\n"
		 ".I s2\n"
		 "\\-> /, or\n"
		 ".I proc\n"
		 "\\-> /proc) is refused, exit 3, with a line naming the member: judged without it, the report\n"
		 "would describe another system under the capture's name. A path with neither proc/ nor sys/\n"
		 "inside is refused with a line saying so (\\(lqX.tar.gz: not a capture, sosreport or tree of\n"
		 "/proc and /sys: no proc/ or sys/ inside\\(rq). No sampling is possible on a copied tree, so the interval\n"
		 "is 0 (a netpath capture carries its own). A copied tree may hold only part of /proc and /sys: what it lacks is reported as\n"
		 "\\(lqnot in this capture\\(rq, the stages it cannot support as not judged, and the since\\-boot\n"
		 "counters it does hold are still judged (for example where each queue IRQ was served since\n"
		 "boot, from /proc/interrupts alone). The device's IRQs are found through its\n"
		 "device/msi_irqs or device/irq, else the /proc/irq/N handler names, else the names in\n"
		 "/proc/interrupts; a capture without sys/class/net takes the interface name as given.\n"
		 ".IP\n"
		 ".I PATH\n"
		 "may be a sosreport (or its .tar.xz ; a top directory holding sos_commands/, sos 3.x or 4.x). The\n"
		 "NIC side that a live run asks the kernel for is then read from the outputs sos kept:\n"
		 "driver, rings, channels, coalescing, features, pause, link modes and driver counters from\n"
		 "sos_commands/networking/ethtool_\\-i_IF, ethtool_\\-g_IF, ethtool_\\-l_IF, ethtool_\\-c_IF,\n"
		 "ethtool_\\-k_IF, ethtool_\\-a_IF, ethtool_\\-S_IF and ethtool_IF; MTU, state, kind and\n"
		 "interface counters from ip_\\-s_\\-d_link (ip_\\-s_link, ip_link on older sos; the carrier\n"
		 "changes from the transns column of ip_\\-s_\\-s_\\-d_link, as sos copies no carrier_changes file), the counters\n"
		 "its columns lack (CRC, frame and length errors) from the sys/class/net/IF/statistics/ files\n"
		 "sos copies beside it (3.9+; a device missing from the copied devices/virtual/net is then a\n"
		 "bus device); qdiscs from\n"
		 "tc_\\-s_qdisc_show; sysctls from sos_commands/kernel/sysctl_\\-a (sos copies no\n"
		 "/proc/sys/net); the CPU count from sos_commands/processor/lscpu and the PCIe link from\n"
		 "sos_commands/pci/lspci_\\-nnvv where sysfs lacks them; the SNMP and netstat counters from\n"
		 "sos_commands/networking/nstat_\\-zas (iproute2 nstat \\-zas or \\-az text), else netstat_\\-s\n"
		 "and netstat_\\-s_\\-6 (net\\-tools netstat \\-s, \\-su or \\-st text: every wording of\n"
		 "net\\-tools 1.60 to 2.10, each sentence mapped to its counter, \\(lqName: value\\(rq lines by\n"
		 "the kernel's name, other lines ignored; netstat leaves most zero counters out, and a\n"
		 "counter it did not print is reported as not in the text, never as zero) where\n"
		 "proc/net/snmp is absent, and sockstat's orphan, time\\-wait, alloc and in\\-use counts from\n"
		 "ss_\\-s (iproute2 ss \\-s, both its layouts; sos 4.9.2+) where proc/net/sockstat is absent\n"
		 "(ss prints no memory pages: tcp_mem and udp_mem usage stay unknown), and the sockets\n"
		 "themselves from ss_\\-peaonmi (sos 3.4+), or a pasted ss_\\-tmi, ss_\\-tmie, ss_\\-tnmi,\n"
		 "ss_\\-temoi (TCP) and ss_\\-uampi, ss_\\-unmp (UDP): each socket line and its skmem and\n"
		 "tcp_info fields (every layout of iproute2's ss, info lines indented, unindented or\n"
		 "mail\\-wrapped) go through the socket checks as a live dump's would, each finding saying\n"
		 "\\(lqfrom ss text\\(rq; a field ss did not print (skmem without \\-m, drops before the\n"
		 "d column, tcp_info without \\-i) is unknown, never zero, and counted in the source. The\n"
		 "copied /proc wins\n"
		 "when both are present. A pasted output can be judged the same way: put it under those names\n"
		 "in a directory holding sos_commands/networking/ and an empty proc/. Each source names the file it came\n"
		 "from; a file the sosreport lacks (sos before 3.7 ran no ethtool \\-l) leaves its source\n"
		 "unknown, never zero. The report's header, and the JSON\n"
		 ".B origin\n"
		 "object, give the sos version, host, kernel, time and what the sosreport lacks. RSS tables,\n"
		 "standard ethtool statistics and per\\-queue netdev statistics are in no sosreport. With\n"
		 ".BR \\-\\-netns ,\n"
		 "the namespace's copies are read instead (see there).",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE,
	  NP_TO(NP_DEST_STRING, struct doctor_args, root)),
	NP_OPT(NP_DOCTOR_BEFORE, "before", "PATH",
	  "with --root: an earlier capture of the same machine; rates are\n"
	  "computed between the two (netpath capture holds both in one file)",
	  .man = "With\n"
		 ".BR \\-\\-root :\n"
		 "an earlier capture of the same machine. Rates are computed between the two captures, using\n"
		 "their proc/uptime as timestamps; a capture without proc/uptime needs\n"
		 ".BR \\-\\-interval\\-of .",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE,
	  .needs = { { NP_DOCTOR_ROOT, "--before needs --root (two captures of the same machine)" } },
	  NP_TO(NP_DEST_STRING, struct doctor_args, before)),
	NP_OPT(NP_DOCTOR_AT, "at", "TIME",
	  "with --root DIR of 'netpath record': judge the window that\n"
	  "starts at TIME (\"2026-11-28 03:12\", ISO 8601, @UNIXSECONDS, -10min)",
	  .man = "With\n"
		 ".B \\-\\-root\n"
		 "naming the directory of\n"
		 ".BR netpath\\-record (8):\n"
		 "judge the window that starts at TIME, as a live\n"
		 ".B doctor \\-\\-interval\n"
		 "of the window's length would have judged it then: rates over the window, the configuration\n"
		 "in force at its end, every output format. TIME is local time as date(1) prints it\n"
		 "(\\fB2026\\-11\\-28 03:12\\fR, \\fB03:12:40\\fR), ISO 8601 with or without an offset,\n"
		 "\\fB@\\fIUNIXSECONDS\\fR, or before now (\\fB\\-10min\\fR, \\fB\\-2h\\fR, \\fByesterday\\fR). A window\n"
		 "the recording does not cover whole (the recorder was stopped, restarted or lost samples,\n"
		 "or the time is outside the recording, or the recorder started within the window) is not\n"
		 "judged: the run says which, and what of the window the recording covers, and exits 3\n"
		 "(UNKNOWN), never OK (netpath\\-record(8), \\(lqGaps\\(rq, says why not stage by stage).\n"
		 "A recording made with\n"
		 ".B \\-\\-drops\n"
		 "adds the window's top dropped flows (text: \\(lqTop dropped flows\\(rq; JSON:\n"
		 ".BR recorded_flows ).",
	  .kind = NP_ARG_STRING,
	  .needs = { { NP_DOCTOR_ROOT, "--at needs --root DIR (the directory of netpath record)" } },
	  .conflicts = { { NP_DOCTOR_BEFORE, "--at judges a window of one recording: not with "
			   "--before" },
			 { NP_DOCTOR_EVERY, "--at judges one past window: not with --every" } },
	  NP_TO(NP_DEST_STRING, struct doctor_args, at)),
	NP_OPT(NP_DOCTOR_WINDOW, "window", "SEC",
	  "with --at: the window's length in seconds (default: --interval, 1)",
	  .kind = NP_ARG_NUMBER, .min = 0.1, .max = 86400, .hint = "seconds, 0.1 to 86400",
	  .needs = { { NP_DOCTOR_AT, "--window needs --at (a window of a recording)" } },
	  NP_TO(NP_DEST_DOUBLE, struct doctor_args, window)),
	NP_OPT(NP_DOCTOR_INTERVAL_OF, "interval-of", "SEC",
	  "with --before: the seconds between the two captures, when\n"
	  "they carry no proc/uptime (or to override it)",
	  .man = "With\n"
		 ".BR \\-\\-before :\n"
		 "the seconds between the two captures, when they carry no proc/uptime (or to override it).\n"
		 ".B netpath capture\n"
		 "makes captures that need neither.",
	  .kind = NP_ARG_NUMBER, .min = 0.001, .max = 1e9, .hint = "seconds, > 0",
	  .needs = { { NP_DOCTOR_BEFORE, "--interval-of needs --before (the spacing of two captures)" } },
	  NP_TO(NP_DEST_DOUBLE, struct doctor_args, interval_of)),
	NP_OPT(NP_DOCTOR_SOCKETS, "sockets", "N",
	  "list the top N sockets per problem (full listeners, dropping UDP\n"
	  "sockets, buffer-limited and lossy TCP flows) with their owning\n"
	  "process, in text and JSON (0-16; default 0: a summary)",
	  .man = "List the top N sockets (0 to 16) per problem \\(em listeners with a full accept queue,\n"
		 "UDP sockets that drop, TCP flows limited at the tcp_rmem/tcp_wmem ceiling or by an\n"
		 "SO_RCVBUF/SO_SNDBUF size, long\\-RTT flows that retransmit \\(em with their owning process\n"
		 "(found through /proc/PID/fd, bounded), in text and JSON. By default a summary. Sockets are read\n"
		 "with sock_diag while streaming, so memory stays flat with hundreds of thousands of them; the\n"
		 "measured RTTs of established TCP sockets (p90 of their min RTT, loopback excluded, at least 10\n"
		 "sockets) feed the BDP checks when\n"
		 ".B \\-\\-rtt\n"
		 "is not given.",
	  .kind = NP_ARG_NUMBER, .min = 0, .max = 16, .whole = true,
	  .hint = "a whole number, 0 to 16",
	  NP_TO(NP_DEST_INT, struct doctor_args, sockets_top)),
	NP_OPT(NP_DOCTOR_ALL, "all", NULL,
	  "every interface that is up and carries traffic, each device\n"
	  "once (physical NICs shared by several stacks judged once)",
	  .man = "Judge every interface that is up and has carried packets (loopback left out, and the members of\n"
		 "a bond or bridge, which are judged beneath their master), in one report with one exit code.\n"
		 "Each device is judged once even when several stacks share it. Give no interface with it.\n"
		 "When more interfaces are busy than a report holds (32 devices), physical NICs are kept\n"
		 "first, then the others by name; the report says how many were left out.\n"
		 "Long options must be spelled out in full: an abbreviation is an error, so\n"
		 ".B \\-\\-all\n"
		 "never means\n"
		 ".BR \\-\\-all\\-counters .",
	  NP_TO(NP_DEST_TRUE, struct doctor_args, all)),
	NP_OPT(NP_DOCTOR_ALL_COUNTERS, "all-counters", NULL,
	  "JSON and prometheus: every driver counter, not only those\n"
	  "that witness loss",
	  .man = "In JSON and Prometheus, list every driver\\-private counter, not only those that witness a loss\n"
		 "or a throttle.",
	  NP_TO(NP_DEST_TRUE, struct doctor_args, all_counters)),
	NP_OPT(NP_DOCTOR_CONFIG, "config", "FILE",
	  "read only this settings file (default: " NP_CONFIG_PATH "\n"
	  "and its drop-ins, netpath.conf(5)); the command line overrides it",
	  .man = "Read settings from\n"
		 ".I FILE\n"
		 "alone, instead of\n"
		 ".I " NP_CONFIG_PATH "\n"
		 "and the other files of\n"
		 ".BR netpath.conf (5).\n"
		 "A missing\n"
		 ".I " NP_CONFIG_PATH "\n"
		 "is no error (there are simply no settings); a missing or unreadable\n"
		 ".I FILE\n"
		 "is (exit 3), and so is an\n"
		 ".I " NP_CONFIG_PATH "\n"
		 "that exists but cannot be read, or that someone other than its owner could change (see\n"
		 ".BR FILES ).\n"
		 ".B \\-\\-config /dev/null\n"
		 "reads no settings. Options on the command line override the file; see\n"
		 ".BR FILES .",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_FILE),
	NP_OPT(NP_DOCTOR_THRESHOLD, "threshold", "ID:warn=N,crit=N",
	  "override a check's thresholds, either level alone (units:\n"
	  "netpath explain ID); repeat for more checks",
	  .man = "Override the thresholds of check\n"
		 ".IR ID ,\n"
		 "either level alone\n"
		 ".RB ( \\-\\-threshold \" softnet.backlog\\-drops:crit=5000\" ).\n"
		 "Values are plain numbers, at least 0, in the unit the check documents\n"
		 ".RB ( \"netpath checks\" \", \" \"netpath explain\"\n"
		 ".IR ID );\n"
		 "a counter reaches a level when its rate over the interval is at or above it. Repeat the option\n"
		 "for more checks; a level given again replaces the earlier value, and the file's. An unknown\n"
		 "id, a check without thresholds (one that judges configuration), a level the check does not\n"
		 "have, or a warning level above the critical one is an error (exit 3).",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_THRESHOLD),
	NP_OPT(NP_DOCTOR_CHECK, "check", "ID,...",
	  "run only these checks: ids, globs (softnet.*, socket.tcp-*)\n"
	  "or stage names (softnet); replaces the file's check lines",
	  .man = "Run only these checks. Each item is a check id, a glob over ids\n"
		 ".RB ( softnet.* \", \" socket.tcp\\-* )\n"
		 "or a stage name\n"
		 ".RB ( softnet ,\n"
		 "the same as\n"
		 ".BR softnet.* ).\n"
		 "A pattern that matches no check is an error (exit 3). Replaces the file's\n"
		 ".B check\n"
		 "lines. Checks left out are reported with state\n"
		 ".B not_run\n"
		 "in JSON.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_IDLIST),
	NP_OPT(NP_DOCTOR_SKIP, "skip", "ID,...",
	  "do not run these checks (same patterns; wins over --check);\n"
	  "replaces the file's skip lines",
	  .man = "Do not run these checks (the same patterns); it wins over\n"
		 ".BR \\-\\-check .\n"
		 "Replaces the file's\n"
		 ".B skip\n"
		 "lines. A selection that leaves no check to run is an error.",
	  .kind = NP_ARG_STRING, .complete = NP_COMPLETE_IDLIST),
	NP_OPT('v', "verbose", NULL, "more evidence and every check's outcome (-vv: debug log)",
	  .man = "More evidence and the outcome of every check; twice for debug logging.",
	  NP_TO(NP_DEST_COUNT, struct doctor_args, opt.verbose)),
	NP_OPT('V', "version", NULL, "print netpath's version and exit (with --nagios: exit 3)",
	  .man = "Print\n"
		 ".RB \\(lq \"netpath VERSION\" \\(rq\n"
		 "on standard output and exit 0. With\n"
		 ".B \\-\\-nagios\n"
		 "the exit is 3 (UNKNOWN), as for\n"
		 ".BR \\-\\-help ,\n"
		 "which is what the Monitoring Plugins guidelines ask of a plugin: a check command that was\n"
		 "given either by mistake never shows OK."),
	NP_OPT('h', "help", NULL, "this text (with --nagios: exit 3)"),
	{ 0 },
};

const struct np_cmd_spec np_doctor_spec = {
	.name = "doctor",
	.run = np_cmd_doctor,
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
