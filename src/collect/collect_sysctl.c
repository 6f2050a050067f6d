// SPDX-License-Identifier: GPL-2.0-only
/* sysctl collector: the receive-path knobs under /proc/sys/net (and vm), read by name. */
#include "collect.h"
#include "parse.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Everything the checks may consult. A key missing on this kernel is recorded (ENOENT), not
 * an error: e.g. netdev_budget_usecs appeared in 4.12, conntrack keys need nf_conntrack. */
static const char *const keys[] = {
	"net.core.netdev_max_backlog",
	"net.core.netdev_budget",
	"net.core.netdev_budget_usecs",
	"net.core.dev_weight",
	"net.core.flow_limit_cpu_bitmap",
	"net.core.flow_limit_table_len",
	"net.core.rps_sock_flow_entries",
	"net.core.rmem_max",
	"net.core.wmem_max",
	"net.core.rmem_default",
	"net.core.wmem_default",
	"net.core.optmem_max",
	"net.core.somaxconn",
	"net.core.default_qdisc",
	"net.core.busy_poll",
	"net.core.busy_read",
	"net.core.gro_normal_batch",
	"net.ipv4.tcp_rmem",
	"net.ipv4.tcp_wmem",
	"net.ipv4.tcp_mem",
	"net.ipv4.udp_mem",
	"net.ipv4.udp_rmem_min",
	"net.ipv4.udp_wmem_min",
	"net.ipv4.tcp_moderate_rcvbuf",
	"net.ipv4.tcp_adv_win_scale",
	"net.ipv4.tcp_window_scaling",
	"net.ipv4.tcp_timestamps",
	"net.ipv4.tcp_sack",
	"net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_available_congestion_control",
	"net.ipv4.tcp_allowed_congestion_control",
	"net.ipv4.tcp_slow_start_after_idle",
	"net.ipv4.tcp_mtu_probing",
	"net.ipv4.tcp_notsent_lowat",
	"net.ipv4.tcp_ecn",
	"net.ipv4.tcp_keepalive_time",
	"net.ipv4.tcp_max_syn_backlog",
	"net.ipv4.tcp_syncookies",
	"net.ipv4.tcp_no_metrics_save",
	"net.ipv4.ip_forward",
	"net.ipv4.ipfrag_high_thresh",
	"net.ipv4.ipfrag_low_thresh",
	"net.ipv4.ipfrag_time",
	"net.ipv4.conf.all.rp_filter",
	"net.ipv4.conf.default.rp_filter",
	"net.netfilter.nf_conntrack_count",
	"net.netfilter.nf_conntrack_max",
	"net.netfilter.nf_conntrack_buckets",
	/* The reserve atomic allocations draw on: drivers refill RX rings in softirq context
	 * (nic.alloc-failures suggests doubling it). */
	"vm.min_free_kbytes",
};

/* "net.core.x" -> "sys/net/core/x". An interface name may itself hold dots (eth0.100), so the
 * per-interface keys pass their path explicitly. */
static void key_to_path(const char *key, char *path, size_t size)
{
	size_t j = (size_t)snprintf(path, size, "sys/");

	for (size_t i = 0; key[i] && j + 1 < size; i++)
		path[j++] = key[i] == '.' ? '/' : key[i];
	path[j < size ? j : size - 1] = '\0';
}

static int read_one(const struct np_ctx *ctx, struct np_snapshot *s, const char *key,
		    const char *path)
{
	struct np_sysctl *e = np_sysctl_add(&s->sysctl, key);
	char text[256];
	int r;

	if (!e)
		return -ENOMEM;
	r = np_read_str(ctx, NP_PROC, path, text, sizeof(text));
	if (r >= 0)
		r = np_parse_sysctl_value(text, e);
	e->err = r < 0 ? -r : 0;
	return r;
}

void np_collect_sysctls(const struct np_ctx *ctx, struct np_snapshot *s)
{
	char key[96], path[128];
	int nok = 0, ndenied = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int r;

		key_to_path(keys[i], path, sizeof(path));
		r = read_one(ctx, s, keys[i], path);
		nok += r >= 0;
		ndenied += r == -EACCES || r == -EPERM;
	}
	if (s->ifname[0]) {
		snprintf(key, sizeof(key), "net.ipv4.conf.%s.rp_filter", s->ifname);
		snprintf(path, sizeof(path), "sys/net/ipv4/conf/%s/rp_filter", s->ifname);
		nok += read_one(ctx, s, key, path) >= 0;
	}
	if (nok)
		np_src_set(s, NP_SRC_SYSCTL, 0, NULL);
	else
		np_src_set(s, NP_SRC_SYSCTL, ndenied ? -EACCES : -ENOENT, NULL);
	if (nok && ndenied) {
		s->src[NP_SRC_SYSCTL].status = NP_SRC_PARTIAL;
		snprintf(s->src[NP_SRC_SYSCTL].detail, sizeof(s->src[0].detail),
			 "%d keys unreadable (permission denied)", ndenied);
	}
}
