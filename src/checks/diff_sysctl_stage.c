// SPDX-License-Identifier: GPL-2.0-only
/* netpath diff: which stage a sysctl belongs to (the stage whose checks judge it). */
#include "diff.h"

#include <string.h>

/* The sysctls doctor reads (collect_sysctl.c), each under the stage whose checks judge it. */
static const struct {
	const char *key;
	enum np_stage stage;
} sysctl_stage[] = {
	{ "net.core.netdev_max_backlog", NP_STAGE_SOFTNET },
	{ "net.core.netdev_budget", NP_STAGE_SOFTNET },
	{ "net.core.netdev_budget_usecs", NP_STAGE_SOFTNET },
	{ "net.core.dev_weight", NP_STAGE_SOFTNET },
	{ "net.core.flow_limit_cpu_bitmap", NP_STAGE_SOFTNET },
	{ "net.core.flow_limit_table_len", NP_STAGE_SOFTNET },
	{ "net.core.rps_sock_flow_entries", NP_STAGE_SOFTNET },
	{ "net.core.busy_poll", NP_STAGE_SOFTNET },
	{ "net.core.busy_read", NP_STAGE_SOFTNET },
	{ "net.core.gro_normal_batch", NP_STAGE_SOFTNET },
	{ "net.netfilter.nf_conntrack_max", NP_STAGE_INGRESS },
	{ "net.netfilter.nf_conntrack_buckets", NP_STAGE_INGRESS },
	{ "net.ipv4.ip_forward", NP_STAGE_IP },
	{ "net.ipv4.ipfrag_high_thresh", NP_STAGE_IP },
	{ "net.ipv4.ipfrag_low_thresh", NP_STAGE_IP },
	{ "net.ipv4.ipfrag_time", NP_STAGE_IP },
	{ "net.ipv4.conf.all.rp_filter", NP_STAGE_IP },
	{ "net.ipv4.conf.default.rp_filter", NP_STAGE_IP },
	{ "net.ipv4.tcp_window_scaling", NP_STAGE_TRANSPORT },
	{ "net.ipv4.tcp_timestamps", NP_STAGE_TRANSPORT },
	{ "net.ipv4.tcp_sack", NP_STAGE_TRANSPORT },
	{ "net.ipv4.tcp_ecn", NP_STAGE_TRANSPORT },
	{ "net.ipv4.tcp_syncookies", NP_STAGE_TRANSPORT },
	{ "net.ipv4.tcp_no_metrics_save", NP_STAGE_TRANSPORT },
	{ "net.core.rmem_max", NP_STAGE_SOCKET },
	{ "net.core.wmem_max", NP_STAGE_SOCKET },
	{ "net.core.rmem_default", NP_STAGE_SOCKET },
	{ "net.core.wmem_default", NP_STAGE_SOCKET },
	{ "net.core.optmem_max", NP_STAGE_SOCKET },
	{ "net.core.somaxconn", NP_STAGE_SOCKET },
	{ "net.ipv4.tcp_max_syn_backlog", NP_STAGE_SOCKET },
	{ "net.ipv4.tcp_max_orphans", NP_STAGE_SOCKET },
	{ "net.ipv4.tcp_rmem", NP_STAGE_SOCKET },
	{ "net.ipv4.tcp_wmem", NP_STAGE_SOCKET },
	{ "net.ipv4.tcp_mem", NP_STAGE_SOCKET },
	{ "net.ipv4.udp_mem", NP_STAGE_SOCKET },
	{ "net.ipv4.udp_rmem_min", NP_STAGE_SOCKET },
	{ "net.ipv4.udp_wmem_min", NP_STAGE_SOCKET },
	{ "net.ipv4.tcp_moderate_rcvbuf", NP_STAGE_SOCKET },
	{ "net.ipv4.tcp_adv_win_scale", NP_STAGE_SOCKET },
	{ "net.core.default_qdisc", NP_STAGE_CONGESTION },
	{ "net.ipv4.tcp_congestion_control", NP_STAGE_CONGESTION },
	{ "net.ipv4.tcp_available_congestion_control", NP_STAGE_CONGESTION },
	{ "net.ipv4.tcp_allowed_congestion_control", NP_STAGE_CONGESTION },
	{ "net.ipv4.tcp_slow_start_after_idle", NP_STAGE_CONGESTION },
	{ "net.ipv4.tcp_mtu_probing", NP_STAGE_CONGESTION },
	{ "net.ipv4.tcp_notsent_lowat", NP_STAGE_CONGESTION },
	{ "net.ipv4.tcp_keepalive_time", NP_STAGE_CONGESTION },	/* congestion.keepalive */
	/* The reserve drivers refill RX rings from (nic.alloc-failures). */
	{ "vm.min_free_kbytes", NP_STAGE_NIC },
};

enum np_stage np_diff_sysctl_stage(const char *key, bool *listed)
{
	size_t n = strlen(key);

	*listed = true;
	for (size_t i = 0; i < sizeof(sysctl_stage) / sizeof(sysctl_stage[0]); i++)
		if (strcmp(key, sysctl_stage[i].key) == 0)
			return sysctl_stage[i].stage;
	/* net.ipv4.conf.IFACE.rp_filter: the interface's own (its name may hold dots). */
	if (strncmp(key, "net.ipv4.conf.", 14) == 0 && n > 24 &&
	    strcmp(key + n - 10, ".rp_filter") == 0)
		return NP_STAGE_IP;
	*listed = false;
	if (strncmp(key, "net.core.", 9) == 0)
		return NP_STAGE_SOFTNET;
	if (strncmp(key, "net.netfilter.", 14) == 0)
		return NP_STAGE_INGRESS;
	if (strncmp(key, "net.ipv4.tcp_", 13) == 0)
		return NP_STAGE_TRANSPORT;
	if (strncmp(key, "net.ipv4.ip", 11) == 0 || strncmp(key, "net.ipv4.conf.", 14) == 0)
		return NP_STAGE_IP;
	return NP_STAGE_SOCKET;
}

