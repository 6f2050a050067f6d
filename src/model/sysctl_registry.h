/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every sysctl netpath reads, declared once. The collector reads exactly these rows; checks,
 * plan, renderers and diff ask by id (NP_SYSCTL_TCP_RMEM), so a key nobody collects cannot be
 * asked for: it does not compile. Columns:
 *   id     NP_SYSCTL_<id>
 *   key    the dotted name (sysctl -a; /proc/sys/ with '/' for '.')
 *   unit   what the value counts
 *   files  EVERY: the file exists in every network namespace; INIT: in the initial one only
 *          (the kernel registers it for init_net: under --netns its value is read in the
 *          initial namespace before entering, see collect/overlay)
 *   owner  NETNS: each namespace has its own value; HOST: one value for the host, which a
 *          child namespace shows read-only or not at all. plan sets a HOST key in the host's
 *          file, never a container's.
 *   stage  the stage whose checks judge it (netpath diff lists it there); expanded by
 *          checks/ only, where the stage vocabulary lives
 * Checked on 6.18 in a child namespace: rmem_max, wmem_max, rmem_default, wmem_default,
 * nf_conntrack_max, nf_conntrack_buckets and tcp_allowed_congestion_control are 0444 mirrors
 * of the host's values (older kernels have no file there: the collector borrows every HOST
 * key under --netns); vm.* is not namespaced at all. The order is the collector's, which every
 * output listing keys follows.
 */
#ifndef NP_SYSCTL_REGISTRY_H
#define NP_SYSCTL_REGISTRY_H

#define NP_SYSCTLS(X) \
	X(NETDEV_MAX_BACKLOG, "net.core.netdev_max_backlog", "packets", INIT, HOST, SOFTNET) \
	X(NETDEV_BUDGET, "net.core.netdev_budget", "packets", INIT, HOST, SOFTNET) \
	X(NETDEV_BUDGET_USECS, "net.core.netdev_budget_usecs", "usec", INIT, HOST, SOFTNET) \
	X(DEV_WEIGHT, "net.core.dev_weight", "packets", INIT, HOST, SOFTNET) \
	X(FLOW_LIMIT_CPU_BITMAP, "net.core.flow_limit_cpu_bitmap", "bitmap", INIT, HOST, SOFTNET) \
	X(FLOW_LIMIT_TABLE_LEN, "net.core.flow_limit_table_len", "entries", INIT, HOST, SOFTNET) \
	X(RPS_SOCK_FLOW_ENTRIES, "net.core.rps_sock_flow_entries", "entries", INIT, HOST, SOFTNET) \
	X(RMEM_MAX, "net.core.rmem_max", "bytes", EVERY, HOST, SOCKET) \
	X(WMEM_MAX, "net.core.wmem_max", "bytes", EVERY, HOST, SOCKET) \
	X(RMEM_DEFAULT, "net.core.rmem_default", "bytes", EVERY, HOST, SOCKET) \
	X(WMEM_DEFAULT, "net.core.wmem_default", "bytes", EVERY, HOST, SOCKET) \
	X(OPTMEM_MAX, "net.core.optmem_max", "bytes", EVERY, NETNS, SOCKET) \
	X(SOMAXCONN, "net.core.somaxconn", "connections", EVERY, NETNS, SOCKET) \
	X(DEFAULT_QDISC, "net.core.default_qdisc", "name", INIT, HOST, CONGESTION) \
	X(BUSY_POLL, "net.core.busy_poll", "usec", INIT, HOST, SOFTNET) \
	X(BUSY_READ, "net.core.busy_read", "usec", INIT, HOST, SOFTNET) \
	X(GRO_NORMAL_BATCH, "net.core.gro_normal_batch", "packets", INIT, HOST, SOFTNET) \
	X(TCP_RMEM, "net.ipv4.tcp_rmem", "bytes", EVERY, NETNS, SOCKET) \
	X(TCP_WMEM, "net.ipv4.tcp_wmem", "bytes", EVERY, NETNS, SOCKET) \
	X(TCP_MEM, "net.ipv4.tcp_mem", "pages", INIT, HOST, SOCKET) \
	X(UDP_MEM, "net.ipv4.udp_mem", "pages", INIT, HOST, SOCKET) \
	X(UDP_RMEM_MIN, "net.ipv4.udp_rmem_min", "bytes", EVERY, NETNS, SOCKET) \
	X(UDP_WMEM_MIN, "net.ipv4.udp_wmem_min", "bytes", EVERY, NETNS, SOCKET) \
	X(TCP_MODERATE_RCVBUF, "net.ipv4.tcp_moderate_rcvbuf", "bool", EVERY, NETNS, SOCKET) \
	X(TCP_ADV_WIN_SCALE, "net.ipv4.tcp_adv_win_scale", "number", EVERY, NETNS, SOCKET) \
	X(TCP_WINDOW_SCALING, "net.ipv4.tcp_window_scaling", "bool", EVERY, NETNS, TRANSPORT) \
	X(TCP_TIMESTAMPS, "net.ipv4.tcp_timestamps", "mode", EVERY, NETNS, TRANSPORT) \
	X(TCP_SACK, "net.ipv4.tcp_sack", "bool", EVERY, NETNS, TRANSPORT) \
	X(TCP_CONGESTION_CONTROL, "net.ipv4.tcp_congestion_control", "name", EVERY, NETNS, CONGESTION) \
	X(TCP_AVAILABLE_CONGESTION_CONTROL, "net.ipv4.tcp_available_congestion_control", "names", EVERY, NETNS, CONGESTION) \
	X(TCP_ALLOWED_CONGESTION_CONTROL, "net.ipv4.tcp_allowed_congestion_control", "names", EVERY, HOST, CONGESTION) \
	X(TCP_SLOW_START_AFTER_IDLE, "net.ipv4.tcp_slow_start_after_idle", "bool", EVERY, NETNS, CONGESTION) \
	X(TCP_MTU_PROBING, "net.ipv4.tcp_mtu_probing", "mode", EVERY, NETNS, CONGESTION) \
	X(TCP_NOTSENT_LOWAT, "net.ipv4.tcp_notsent_lowat", "bytes", EVERY, NETNS, CONGESTION) \
	X(TCP_ECN, "net.ipv4.tcp_ecn", "mode", EVERY, NETNS, TRANSPORT) \
	X(TCP_KEEPALIVE_TIME, "net.ipv4.tcp_keepalive_time", "seconds", EVERY, NETNS, CONGESTION) \
	X(TCP_MAX_SYN_BACKLOG, "net.ipv4.tcp_max_syn_backlog", "connections", EVERY, NETNS, SOCKET) \
	X(TCP_MAX_ORPHANS, "net.ipv4.tcp_max_orphans", "sockets", INIT, HOST, SOCKET) \
	X(TCP_SYNCOOKIES, "net.ipv4.tcp_syncookies", "mode", EVERY, NETNS, TRANSPORT) \
	X(TCP_NO_METRICS_SAVE, "net.ipv4.tcp_no_metrics_save", "bool", EVERY, NETNS, TRANSPORT) \
	X(IP_FORWARD, "net.ipv4.ip_forward", "bool", EVERY, NETNS, IP) \
	X(IPV6_CONF_ALL_FORWARDING, "net.ipv6.conf.all.forwarding", "bool", EVERY, NETNS, IP) \
	X(IPFRAG_HIGH_THRESH, "net.ipv4.ipfrag_high_thresh", "bytes", EVERY, NETNS, IP) \
	X(IPFRAG_LOW_THRESH, "net.ipv4.ipfrag_low_thresh", "bytes", EVERY, NETNS, IP) \
	X(IPFRAG_TIME, "net.ipv4.ipfrag_time", "seconds", EVERY, NETNS, IP) \
	X(CONF_ALL_RP_FILTER, "net.ipv4.conf.all.rp_filter", "mode", EVERY, NETNS, IP) \
	X(CONF_DEFAULT_RP_FILTER, "net.ipv4.conf.default.rp_filter", "mode", EVERY, NETNS, IP) \
	X(NF_CONNTRACK_COUNT, "net.netfilter.nf_conntrack_count", "entries", EVERY, NETNS, INGRESS) \
	X(NF_CONNTRACK_MAX, "net.netfilter.nf_conntrack_max", "entries", EVERY, HOST, INGRESS) \
	X(NF_CONNTRACK_BUCKETS, "net.netfilter.nf_conntrack_buckets", "buckets", EVERY, HOST, INGRESS) \
	X(MIN_FREE_KBYTES, "vm.min_free_kbytes", "KiB", EVERY, HOST, NIC)

enum np_sysctl_id {
#define NP_SYSCTL_ENUM(id, key, unit, files, owner, stage) NP_SYSCTL_##id,
	NP_SYSCTLS(NP_SYSCTL_ENUM)
#undef NP_SYSCTL_ENUM
	NP_SYSCTL__COUNT
};

/* The device's own key, one per interface and namespace. */
#define NP_SYSCTL_DEV_RP_FILTER_FMT "net.ipv4.conf.%s.rp_filter"

enum np_sysctl_files { NP_SYSCTL_FILES_EVERY, NP_SYSCTL_FILES_INIT };
enum np_sysctl_owner { NP_SYSCTL_OWNER_NETNS, NP_SYSCTL_OWNER_HOST };

struct np_sysctl_def {
	const char *key;
	const char *unit;
	enum np_sysctl_files files;
	enum np_sysctl_owner owner;
};

extern const struct np_sysctl_def np_sysctl_defs[NP_SYSCTL__COUNT];

static inline const struct np_sysctl_def *np_sysctl_def(enum np_sysctl_id id)
{
	return &np_sysctl_defs[id];
}

/* The id of a dotted key, or -1 when netpath does not read it. */
int np_sysctl_id_of(const char *key);

#endif
