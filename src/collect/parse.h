/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pure parsers: text (or bytes) in, snapshot structs out. No I/O, so the unit tests feed them
 * fixtures and the fuzzers feed them garbage. All return 0 or a negative errno:
 * -EINVAL/-EBADMSG for content in no layout we know, -ENOMEM. Outputs the caller owns are freed
 * with np_snapshot_free() (or the matching free of the member).
 */
#ifndef NP_PARSE_H
#define NP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* "0-3,8,10-11" (also "" = empty set, trailing newline allowed). */
int np_parse_cpulist(const char *s, struct np_cpuset *out);
/* Hex mask in comma-separated 32-bit groups, most significant first: "ff,00000001". */
int np_parse_cpumask(const char *s, struct np_cpuset *out);

/* /proc/net/softnet_stat in every layout (11, 13, 15+ columns). Without a CPU column (11),
 * row i is the i-th CPU of 'online' (NULL: row i is CPU i). */
int np_parse_softnet(const char *buf, size_t len, const struct np_cpuset *online,
		     struct np_softnet *out);

/* /proc/softirqs: NET_RX and NET_TX rows per CPU column. */
int np_parse_softirqs(const char *buf, size_t len, struct np_softirqs *out);

/* /proc/interrupts, keeping only the lines that match the filter: an IRQ number in irqs[], or
 * an action name containing one of names[]. Empty filter keeps nothing. */
struct np_irq_filter {
	const unsigned *irqs;
	size_t nirqs;
	const char *const *names;
	size_t nnames;
	/* Optional: a row is also kept when this says so (the IRQ collector's own rules). */
	bool (*match)(unsigned irq, const char *name, const void *arg);
	const void *arg;
};
int np_parse_interrupts(const char *buf, size_t len, const struct np_irq_filter *f,
			struct np_interrupts *out);
/* The same a line at a time, for a file streamed in pieces: begin, each line (header first),
 * then end with the first error seen (0 if none), which frees everything on failure and
 * returns the outcome. */
struct np_irq_parse {
	const struct np_irq_filter *f;
	struct np_interrupts *out;
	size_t cap;
	uint64_t *scratch;		/* one row's counts; NULL until the header is read */
};
void np_irq_parse_begin(struct np_irq_parse *p, const struct np_irq_filter *f,
			struct np_interrupts *out);
int np_irq_parse_line(struct np_irq_parse *p, const char *line, size_t len);
int np_irq_parse_end(struct np_irq_parse *p, int err);
/* Classify an IRQ action name: "eth0-TxRx-3" TXRX, "virtio2-input.0" RX, "mlx5_comp3@pci:..." TXRX,
 * "eth0-rx-1" RX, "eth0-tx-1"/"virtio2-output.0" TX, "virtio2-config"/"eth0" OTHER. */
enum np_irq_role np_irq_role_from_name(const char *name);

/* /proc/net/snmp and /proc/net/netstat (header/value line pairs, "Tcp:" ... ) into nstat-style
 * names: "TcpExtListenOverflows", "UdpRcvbufErrors". Negative values (Tcp MaxConn -1) are stored
 * as NP_NA. Also accepts /proc/net/snmp6 ("Ip6InReceives  123" lines). */
int np_parse_mib(const char *buf, size_t len, struct np_counters *out);
/* The same, parsed straight into out, which is left unsorted in the files' order: for a table
 * that is then indexed rather than sorted (np_counters_index). Failures as np_parse_mib's.
 * Reserving room is the caller's (np_mib_bound). */
int np_parse_mib_unsorted(const char *buf, size_t len, struct np_counters *out);
/* How many counters a MIB file of len bytes can hold at most: what to reserve before parsing. */
size_t np_mib_bound(size_t len);

/* /proc/net/dev into each interface's rx_packets (out->read set). -EINVAL: no interface line. */
int np_parse_proc_net_dev(const char *buf, size_t len, struct np_ifrx *out);

/* iproute2 `nstat -zas`/`nstat -az` text (sos: nstat_-zas): "UdpRcvbufErrors 1953207 0.0" lines into
 * the same names as np_parse_mib. -EINVAL when no counter line, -EBADMSG when some line is not one. */
int np_parse_nstat_text(const char *buf, size_t len, struct np_counters *out);

/* net-tools `netstat -s` text (also -su, -st, -s -6; sos: netstat_-s, netstat_-s_-6): each
 * sentence net-tools ever printed, and "Name: value" lines, into the same names. *sections gets
 * which kinds of section the text held (a -su text has no Tcp or TcpExt). Unknown lines are
 * skipped; -EINVAL when no counter was read. */
#define NP_NETSTAT_S_SNMP 1u	/* Ip, Icmp, Tcp, Udp ... (/proc/net/snmp, snmp6) */
#define NP_NETSTAT_S_EXT 2u	/* TcpExt, IpExt, MPTcpExt (/proc/net/netstat) */
int np_parse_netstat_s(const char *buf, size_t len, struct np_counters *out, unsigned *sections);

/* /proc/net/sockstat (mem in pages). */
int np_parse_sockstat(const char *buf, size_t len, struct np_sockstat *out);
/* iproute2 `ss -s` text (sos: ss_-s): orphan, tw, alloc and inuse counts into the sockstat
 * fields; mem stays NP_NA (ss does not print it). Same return values as np_parse_sockstat. */
int np_parse_ss_s(const char *buf, size_t len, struct np_sockstat *out);

/* /proc/net/stat/nf_conntrack: header line of names, one hex row per CPU; summed by name. */
int np_parse_conntrack_stat(const char *buf, size_t len, struct np_counters *out);

/* /proc/meminfo: MemTotal and MemAvailable, converted to bytes. page_size untouched. */
int np_parse_meminfo(const char *buf, size_t len, struct np_meminfo *out);

/* np_parse_sysctl_value() is the model's (snapshot.h): a pure conversion of the text. */

/* sysfs PCIe link speed: "8.0 GT/s PCIe", "8 GT/s", "2.5 GT/s" -> MT/s; "Unknown" -> -EINVAL. */
int np_parse_pcie_speed(const char *s, uint64_t *mts);

/* PCI config space bytes: walk the capability list from 0x34 (with a loop guard) to the PCI
 * Express capability and fill mps, mps_supported and mrrs (bytes). -ENOENT without that cap,
 * -EINVAL when truncated (an unprivileged read shows only 64 bytes). */
int np_parse_pci_config(const uint8_t *cfg, size_t len, struct np_pcie *out);

/* /proc/net/route and /proc/net/ipv6_route: the interface of the default route with the lowest
 * metric (ties: first seen). -ENOENT when there is none. */
int np_parse_route_default(const char *buf, size_t len, char *ifname, size_t size);
int np_parse_ipv6_route_default(const char *buf, size_t len, char *ifname, size_t size);

/* depmod's modules.builtin or modules.dep text: is relpath ("kernel/net/ipv4/tcp_bbr") listed,
 * as .ko or a compressed .ko.{xz,zst,gz}, in a line's first field? 1 yes, 0 no, -EINVAL for an
 * empty relpath. Bytes of any kind are accepted (a NUL just fails to match). */
int np_parse_kmod_listed(const char *buf, size_t len, const char *relpath);

#endif
