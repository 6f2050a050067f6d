/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The snapshot: everything the collectors read at one instant, as plain structs.
 * Collectors fill it and never print; checks read two of them and never do I/O.
 * Every value that a source may not report is NP_NA (or a has_ flag): never a fake 0.
 */
#ifndef NP_SNAPSHOT_H
#define NP_SNAPSHOT_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "cpuset.h"
#include "link_stats.h"
#include "nic.h"
#include "sockets.h"
#include "sysctl_registry.h"

/* Where each piece of data came from, so reports can say what was unavailable and why. */
enum np_source {
	NP_SRC_CPU_ONLINE,	/* /sys/devices/system/cpu/online */
	NP_SRC_SOFTNET,		/* /proc/net/softnet_stat */
	NP_SRC_SOFTIRQS,	/* /proc/softirqs */
	NP_SRC_INTERRUPTS,	/* /proc/interrupts */
	NP_SRC_IRQ_AFFINITY,	/* /proc/irq/N/{smp,effective}_affinity_list */
	NP_SRC_SNMP,		/* /proc/net/snmp */
	NP_SRC_NETSTAT,		/* /proc/net/netstat */
	NP_SRC_SOCKSTAT,	/* /proc/net/sockstat */
	NP_SRC_CONNTRACK,	/* /proc/net/stat/nf_conntrack */
	NP_SRC_MEMINFO,		/* /proc/meminfo */
	NP_SRC_SYSCTL,		/* /proc/sys/net/... */
	NP_SRC_NETDEV,		/* /sys/class/net/IF */
	NP_SRC_PCIE_LINK,	/* /sys/bus/pci/devices/BDF/{current,max}_link_* */
	NP_SRC_PCIE_CONFIG,	/* PCI config space (MPS/MRRS; root only) */
	NP_SRC_PROCESSES,	/* whether irqbalance runs: its unit, socket or pid file */
	/* The NIC side: netlink and ioctls (never under --root). */
	NP_SRC_ETHTOOL_DRVINFO,	/* ioctl ETHTOOL_GDRVINFO */
	NP_SRC_ETHTOOL_LINKMODES,
	NP_SRC_ETHTOOL_RINGS,
	NP_SRC_ETHTOOL_CHANNELS,
	NP_SRC_ETHTOOL_COALESCE,
	NP_SRC_ETHTOOL_FEATURES,
	NP_SRC_ETHTOOL_PAUSE,
	NP_SRC_ETHTOOL_STATS,	/* standard statistics groups */
	NP_SRC_ETHTOOL_RSS,
	NP_SRC_DRIVER_STATS,	/* ioctl ETHTOOL_GSTATS */
	NP_SRC_QSTATS,		/* netdev genl qstats (6.9+) */
	NP_SRC_RTNL_LINK,
	NP_SRC_RTNL_QDISC,
	NP_SRC_SOCK_DIAG,	/* NETLINK_SOCK_DIAG TCP/UDP dumps (live only) */
	NP_SRC__COUNT
};

enum np_src_status {
	NP_SRC_UNREAD = 0,	/* the collector did not run */
	NP_SRC_OK,
	NP_SRC_PARTIAL,		/* read, but some parts were missing or malformed */
	NP_SRC_ABSENT,		/* the file does not exist here (module not loaded, no device) */
	NP_SRC_DENIED,		/* permission denied: needs root */
	NP_SRC_MALFORMED,	/* present but not in any layout we know */
	NP_SRC_UNSUPPORTED,	/* the driver/device does not report it (EOPNOTSUPP) */
	NP_SRC_SKIPPED,		/* not applicable to this run (--root: no netlink) */
};

struct np_src {
	enum np_src_status status;
	int err;		/* positive errno, 0 if none */
	char detail[128];	/* a human reason: "needs root", "11-column layout", ... */
};

/* /proc/net/softnet_stat: one row per online CPU. Raw fields are 32-bit and wrap. */
struct np_softnet_row {
	int cpu;
	uint64_t processed, dropped, time_squeeze;
	/* NP_NA on the layouts that lack them: received_rps before 2.6.35, flow_limit_count
	 * before 3.11, backlog_len before 5.10, input/process_qlen before the 15-column one. */
	uint64_t received_rps, flow_limit_count;
	uint64_t backlog_len, input_qlen, process_qlen;
};

struct np_softnet {
	unsigned ncols;		/* 9, 10, 11, 13 or 15 (or more on future kernels) */
	const char *layout;	/* "10 columns (kernels 2.6.35-3.10)": static text */
	char error[96];		/* why the file was refused: what was seen, for the report */
	bool cpu_from_column;	/* CPU ids from column 13, else mapped through cpu/online */
	size_t n;
	struct np_softnet_row *rows;
};

/* /proc/softirqs: NET_RX counts per CPU = how often net_rx_action ran there. */
struct np_softirqs {
	size_t n;
	int *cpu;
	uint64_t *net_rx, *net_tx;
};

enum np_irq_role { NP_IRQ_OTHER, NP_IRQ_RX, NP_IRQ_TX, NP_IRQ_TXRX };

struct np_irq_line {
	unsigned irq;
	char name[64];		/* the action name, e.g. "virtio2-input.0", "eth0-TxRx-3" */
	enum np_irq_role role;
	uint64_t total;		/* sum over CPUs */
	/*
	 * Per-column counts of /proc/interrupts (see np_interrupts.col_cpu), 32-bit as the kernel
	 * keeps them (kstat_irqs are unsigned int and wrap at 2^32; show_interrupts prints them
	 * as they are). Dense when cols is NULL: count[c] for the columns c < ncount, 0 beyond.
	 * Sparse when cols is set: only the nonzero columns, cols[k] ascending with count[k]
	 * (one allocation: cols lies in count's block). The parser keeps whichever is smaller: a
	 * queue IRQ pinned to one CPU is one nonzero cell of 4096. Read through np_irq_count()
	 * or np_irq_counts(), never count[] directly.
	 */
	uint32_t *count;
	uint32_t *cols;
	size_t ncount;
	bool has_affinity, has_effective;
	struct np_cpuset affinity, effective;
};

/* The count of line l in column col (0 for a column it has no count for); O(log n) sparse. */
uint32_t np_irq_count(const struct np_irq_line *l, size_t col);
/* All of line l's counts, dense, into out[0..ncols). */
void np_irq_counts(const struct np_irq_line *l, uint32_t *out, size_t ncols);
/* Store v[0..n) as line l's counts (replacing any), sparse or dense whichever is smaller;
 * values above 32 bits keep their low 32 (the kernel's counters have no more). -ENOMEM. */
int np_irq_set_counts(struct np_irq_line *l, const uint64_t *v, size_t n);

/* /proc/interrupts, kept only for the device's IRQs. */
struct np_interrupts {
	size_t ncols;
	int *col_cpu;		/* column -> CPU id (the "CPUn" header) */
	size_t n;
	struct np_irq_line *lines;
};

/* Column of each CPU id 0..ncpu_idx-1 in t (-1: none), malloc'd: a sample's columns matched to
 * another's in one pass (hotplug moves columns). NULL when out of memory. */
int *np_irq_cpu_columns(const struct np_interrupts *t, size_t ncpu_idx);

/* /proc/net/sockstat; mem values are in pages. */
struct np_sockstat {
	uint64_t sockets_used;
	uint64_t tcp_inuse, tcp_orphan, tcp_tw, tcp_alloc, tcp_mem;
	uint64_t udp_inuse, udp_mem;
	uint64_t frag_inuse, frag_memory;
};

struct np_meminfo {
	uint64_t mem_total;	/* bytes */
	uint64_t mem_available;	/* bytes */
	uint64_t page_size;	/* bytes */
	bool page_size_assumed;	/* --root tree without a hint: assumed 4096 */
};

#define NP_SYSCTL_VALS 4

struct np_sysctl {
	char key[96];		/* dotted, e.g. "net.ipv4.tcp_rmem" */
	char raw[128];		/* the file's text, whitespace collapsed */
	int nvals;		/* how many integers parsed from raw (0 for strings) */
	int64_t v[NP_SYSCTL_VALS];
	int err;		/* positive errno if unreadable (ENOENT: not on this kernel) */
	bool host_wide;		/* the host's value (owner HOST): a namespace may have no file */
};

/* A sysctl's text into *out: raw (whitespace collapsed to single spaces) and up to
 * NP_SYSCTL_VALS integers when the text is whitespace-separated integers; nvals = 0 for strings,
 * -ERANGE for an integer beyond int64 (raw kept). key and err are the caller's
 * (sysctl_value.c). */
int np_parse_sysctl_value(const char *text, struct np_sysctl *out);

struct np_sysctls {
	size_t n, cap;
	struct np_sysctl *e;
	/* e[0..in_order) are the registry's rows 0.. in its order (np_sysctl_add keeps the count):
	 * a lookup by id reads its row there instead of scanning; keys are unique in the
	 * registry, so no earlier entry can hold the same key and the answer is the scan's. */
	size_t in_order;
	/* How the namespace's table read (np_collect_sysctls): kept so that a device's run that
	 * shares the table can say what its own read would have said. */
	int nok, ndenied, nborrowed;
};

struct np_rxq {
	bool has_rps;
	struct np_cpuset rps_cpus;
	uint64_t rps_flow_cnt;
};

struct np_txq {
	bool has_xps;
	struct np_cpuset xps_cpus;
};

/* Lower devices kept per device: a bond of 16 members, a bridge of 64 ports. */
#define NP_MAX_LOWER 64

/* /sys/class/net/IF */
struct np_netdev {
	char name[IF_NAMESIZE];
	uint64_t ifindex, mtu, tx_queue_len;
	uint64_t speed_mbps;		/* NP_NA: unknown (-1) or not reported; for a virtual
					 * device, the speed of the physical device(s) beneath */
	uint64_t nominal_speed_mbps;	/* a virtual device's own made-up speed (veth 10000) */
	char speed_from[IF_NAMESIZE];	/* virtual device: the lower device the speed is of */
	char duplex[16];		/* "full", "half"; "" = not reported (sysfs's "unknown" too) */
	char operstate[16];
	int carrier;			/* 1 carrier, 0 none, -1 unknown (unreadable when down) */
	int admin_up;			/* IFF_UP from flags: 1, 0, or -1 unknown */
	uint64_t carrier_changes, carrier_up, carrier_down;
	int64_t threaded;		/* -1 not reported, 0/1/2 */
	uint64_t gro_flush_timeout, napi_defer_hard_irqs;
	bool has_device;		/* a device/ link: a physical (or para-virtual) NIC */
	/* 1 virtual (veth, bridge, bond, vlan, tun, lo), 0 physical, -1 unknown: a capture
	 * that lacks the device/ link proves nothing, so there it takes positive evidence. */
	int is_virtual;
	char kind_hint[16];		/* sysfs evidence of the kind: "bond", "bridge", "tun",
					 * "team", "loopback", "vlan"; "" none */
	char driver[32];		/* from device/driver; "" for virtual devices */
	char bus_id[32];		/* PCI BDF of the device (or its virtio parent), "" if none */
	int64_t numa_node;		/* -1 unknown */
	bool has_local_cpus;
	struct np_cpuset local_cpus;
	struct np_link_stats stats;	/* statistics/ */
	/* The stack: the devices this one is built on (lower_* links: VLAN/macvlan parent, bond
	 * and team members, bridge ports) and the one it belongs to (master: bond, bridge). */
	size_t n_lower;
	char lower[NP_MAX_LOWER][IF_NAMESIZE];
	char master[IF_NAMESIZE];
	size_t n_rxq, n_txq;
	struct np_rxq *rxq;
	struct np_txq *txq;
};

/* PCIe link of the NIC; speeds in MT/s (2.5 GT/s = 2500), sizes in bytes. */
struct np_pcie {
	char bdf[32];
	uint64_t cur_speed, max_speed, cur_width, max_width;
	uint64_t mps, mps_supported, mrrs;
	uint64_t aer_correctable, aer_nonfatal, aer_fatal;	/* totals of the aer_dev_* files */
};

struct np_host {
	char kernel[64];		/* kernel/osrelease */
	uint64_t hz_hint;		/* NP_NA; budget_usecs default depends on HZ */
	int irqbalance;			/* -1 unknown, 0 not running, 1 running */
	unsigned ncpu_online;		/* 0: unknown (nothing in the data says it) */
	const char *ncpu_from;		/* where the count came from: "cpu/online", ... */
	struct np_cpuset online;
};

/*
 * Which sources are host-wide (read once per sample, whatever the device): their statuses
 * live in the host snapshot, the others' in the device's. np_srcp()/np_src_ok()/np_src_set()
 * route by this one table, so callers name a source and never say where it is kept.
 * NP_SRC_SYSCTL is the device's: its verdict is over the namespace's table and the device's
 * own keys together (collect_sysctl.c), so two devices of one sample may differ.
 */
#define NP_SRC_HOST_MASK                                                                     \
	((1u << NP_SRC_CPU_ONLINE) | (1u << NP_SRC_SOFTNET) | (1u << NP_SRC_SOFTIRQS) |       \
	 (1u << NP_SRC_SNMP) | (1u << NP_SRC_NETSTAT) | (1u << NP_SRC_SOCKSTAT) |             \
	 (1u << NP_SRC_CONNTRACK) | (1u << NP_SRC_MEMINFO) | (1u << NP_SRC_PROCESSES))
#define NP_SRC_HOST_N 9
_Static_assert(NP_SRC__COUNT <= 32, "NP_SRC_HOST_MASK is one 32-bit word");
_Static_assert(__builtin_popcount(NP_SRC_HOST_MASK) == NP_SRC_HOST_N, "NP_SRC_HOST_N");

static inline bool np_src_host_wide(enum np_source id)
{
	return (unsigned)id < NP_SRC__COUNT && (NP_SRC_HOST_MASK >> id) & 1u;
}

/* A host-wide source's slot in np_host_snap.src: how many host-wide ids come before it. */
static inline unsigned np_src_host_slot(enum np_source id)
{
	return (unsigned)__builtin_popcount(NP_SRC_HOST_MASK & ((1u << id) - 1u));
}

/* A device source's slot in np_snapshot.dev_src: its id less the host-wide ids before it. */
static inline unsigned np_src_dev_slot(enum np_source id)
{
	return (unsigned)id - np_src_host_slot(id);
}

/*
 * The host-wide part of a sample: the same for every device judged at that instant, read once
 * and owned by the sample (a device stack's runs, doctor_stack.h) or, for a lone snapshot, by
 * the snapshot itself (np_snapshot.own_hs). Device snapshots point at it and never free it.
 */
/* /proc/net/dev: every interface of the namespace and its rx_packets, so the loss ledger
 * (checks/ledger.h) can tell whether the interface judged is IP's only source. */
#define NP_IFRX_MAX 64
struct np_ifrx {
	bool read;		/* the file was read and parsed */
	size_t n, more;		/* more: interfaces beyond NP_IFRX_MAX, not kept */
	struct {
		char name[16];
		uint64_t rx_packets;
	} e[NP_IFRX_MAX];
};

struct np_host_snap {
	struct np_src src[NP_SRC_HOST_N];	/* by np_src_host_slot(): read through np_srcp() */
	struct np_host host;
	struct np_softnet softnet;
	struct np_softirqs softirqs;
	struct np_counters mib;		/* snmp + netstat, nstat names: "TcpExtListenOverflows" */
	struct np_counters conntrack;	/* /proc/net/stat/nf_conntrack summed over CPUs, by header */
	struct np_sockstat sockstat;
	struct np_meminfo mem;
	struct np_sysctls sysctl;	/* the namespace's keys */
	struct np_ifrx ifrx;		/* /proc/net/dev's rx_packets per interface */
};

struct np_snapshot {
	double t;			/* CLOCK_MONOTONIC seconds when the snapshot was taken */
	bool t_known;			/* false: a capture without proc/uptime (no instant) */
	bool captured;			/* read from a --root tree, not the running kernel */
	char ifname[IF_NAMESIZE];
	/* The device's sources (the host-wide ones are in hs->src), by np_src_dev_slot(): read
	 * through np_srcp(). */
	struct np_src dev_src[NP_SRC__COUNT - NP_SRC_HOST_N];

	/*
	 * The sample's host snapshot: &own_hs for a lone snapshot (np_snapshot_init, np_collect),
	 * the sample's when several devices are read at one instant (np_snapshot_init_in,
	 * np_collect_device). A lone snapshot points into itself: move it only through its
	 * functions, never by struct assignment.
	 */
	struct np_host_snap *hs;
	struct np_interrupts irqs;
	struct np_sysctls dev_sysctl;	/* the device's own (net.ipv4.conf.IF.rp_filter) */
	struct np_netdev dev;
	struct np_pcie pcie;
	struct np_ethtool eth;
	struct np_rtnl rtnl;
	struct np_sockets socks;	/* sock_diag, aggregated (sockets.h) */
	/* Last: a sample's device snapshot never touches it, so its 4 KB lie at the end of the
	 * struct rather than between the fields every collection writes (a page less each). */
	struct np_host_snap own_hs;
};

void np_host_snap_init(struct np_host_snap *h);
/* Frees h's arrays and leaves it initialised (np_host_snap_init). */
void np_host_snap_free(struct np_host_snap *h);
/* A lone snapshot: its host-wide sections are its own (own_hs). */
void np_snapshot_init(struct np_snapshot *s);
/* A device's snapshot of a sample whose host snapshot is hs (which outlives it; not touched). */
void np_snapshot_init_in(struct np_snapshot *s, struct np_host_snap *hs);
/* Frees what s owns: its device's parts and own_hs, never a sample's host snapshot. */
void np_snapshot_free(struct np_snapshot *s);
/* The same for a snapshot no longer used: not initialised again afterwards (clearing ~25 KB
 * that is about to be dropped was 1% of a doctor pass); only np_snapshot_init*() or a collect
 * makes it a snapshot again. */
void np_snapshot_release(struct np_snapshot *s);
const char *np_source_name(enum np_source id);
const char *np_src_status_name(enum np_src_status st);
/* Source id's outcome, wherever it is kept (the host snapshot or the device's). */
static inline struct np_src *np_src_mut(struct np_snapshot *s, enum np_source id)
{
	return np_src_host_wide(id) ? &s->hs->src[np_src_host_slot(id)]
				    : &s->dev_src[np_src_dev_slot(id)];
}
static inline const struct np_src *np_src_get(const struct np_snapshot *s, enum np_source id)
{
	return np_src_host_wide(id) ? &s->hs->src[np_src_host_slot(id)]
				    : &s->dev_src[np_src_dev_slot(id)];
}
#define np_srcp(s, id)                                                                       \
	_Generic((s), const struct np_snapshot *: np_src_get, default: np_src_mut)(s, id)
static inline bool np_src_ok(const struct np_snapshot *s, enum np_source id)
{
	const struct np_src *src = np_src_get(s, id);

	return src->status == NP_SRC_OK || src->status == NP_SRC_PARTIAL;
}
/* Record a source's outcome from a negative errno (0 = ok) with an optional detail. */
void np_src_set(struct np_snapshot *s, enum np_source id, int err, const char *detail);

/* A virtual device (veth, bridge, bond, vlan, tun, lo)? Unknown in a capture without the
 * evidence (is_virtual -1) counts as not virtual; snapshots built by hand (tests) that set
 * only has_device keep meaning what it says. */
static inline bool np_dev_is_virtual(const struct np_snapshot *s)
{
	return s->dev.is_virtual == 1 ||
	       (s->dev.is_virtual < 0 && !s->captured && !s->dev.has_device);
}

/* Sysctls by registry id (sysctl_registry.h): a key nobody collects cannot be asked for.
 * Lookups return NULL / 0 with *ok false when the key was not read or not numeric. */
const struct np_sysctl *np_sysctl_find(const struct np_snapshot *s, enum np_sysctl_id id);
int64_t np_sysctl_int(const struct np_snapshot *s, enum np_sysctl_id id, int idx, bool *ok);
const char *np_sysctl_str(const struct np_snapshot *s, enum np_sysctl_id id);
/* A sysctl vector with at least n integers (tcp_rmem, tcp_mem, ...) into v[0..n); false when
 * it was not read or holds fewer. */
bool np_sysctl_vec(const struct np_snapshot *s, enum np_sysctl_id id, int n, int64_t *v);
/* The device's own key (NP_SYSCTL_DEV_RP_FILTER_FMT, formatted with the interface's name). */
int64_t np_sysctl_dev_int(const struct np_snapshot *s, const char *fmt, bool *ok);
/* By dotted key, in the namespace's table then the device's: for code that walks the tables
 * (diff) rather than asking for a fact. */
const struct np_sysctl *np_sysctl_find_key(const struct np_snapshot *s, const char *key);
/* The driver's name: ethtool's drvinfo, else the sysfs device/driver link ("" if neither). */
const char *np_snapshot_driver(const struct np_snapshot *s);
struct np_sysctl *np_sysctl_add(struct np_sysctls *t, const char *key);

static inline uint64_t np_mib(const struct np_snapshot *s, const char *name)
{
	return np_counters_get(&s->hs->mib, name);
}


#endif
