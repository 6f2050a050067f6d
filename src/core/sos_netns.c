// SPDX-License-Identifier: GPL-2.0-only
/*
 * A sosreport seen from one of its network namespaces (--root SOSDIR --netns NS). sos copies
 * the host's /proc/net, /sys/class/net and command outputs, and runs a few commands again in
 * each namespace ("ip netns exec NS CMD", sos/report/plugins/networking.py): since sos 4.3
 * (2021) into sos_commands/networking/namespaces/NS/ip_netns_exec_NS_CMD, from 3.4 to 4.2
 * beside the host's as sos_commands/networking/ip_netns_exec_NS_CMD. Which ones: netstat -s,
 * nstat -zas (4.2+), ss -peaonmi, ip -d address show, ethtool -i/-k/-S IF (4.x), sysctl -a
 * (4.5.4+). Every read goes through here, so every collector reads the namespace's copy by
 * the host's name, and never the host's own: its per-namespace /proc/net files and sysfs
 * interfaces are hidden, a host command output without a namespace copy is absent. The
 * exceptions are host-wide by nature: /proc/net/softnet_stat (per CPU, the same in every
 * namespace) and sysctl -a when the namespace has no copy (the report says so).
 */
#include "ctx.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define NET_DIR "sos_commands/networking/"

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

int np_sos_netns_path(const struct np_ctx *ctx, enum np_tree t, const char *path, unsigned try,
		      char *out, size_t size)
{
	const char *ns = ctx->sos_netns, *name;
	int n;

	if (t == NP_PROC)
		return starts(path, "net/") && strcmp(path, "net/softnet_stat") ? -ENOENT : 0;
	if (t == NP_SYS)
		return starts(path, "class/net") || strstr(path, "/net/") ? -ENOENT : 0;
	if (t != NP_TOP)
		return 0;
	if (!strcmp(path, "sos_commands/kernel/sysctl_-a")) {
		name = "sysctl_-a";	/* the namespace's, else the host's global values */
		if (try == 2)
			return 0;
	} else if (starts(path, NET_DIR)) {
		name = path + strlen(NET_DIR);
		if (starts(name, "namespaces/") || starts(name, "ip_netns_exec_") ||
		    !strcmp(name, "ip_netns") || !name[0])
			return 0;
		/* ip links: the namespace has only "ip -d address show" (no counters). */
		if (starts(name, "ip_-s") || !strcmp(name, "ip_link") || starts(name, "ip_-d_addr") ||
		    !strcmp(name, "ip_address"))
			name = "ip_-d_address_show";
	} else {
		return 0;
	}
	if (try > 1)
		return -ENOENT;
	if (try == 0)
		n = snprintf(out, size, NET_DIR "namespaces/%s/ip_netns_exec_%s_%s", ns, ns, name);
	else
		n = snprintf(out, size, NET_DIR "ip_netns_exec_%s_%s", ns, name);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 1;
}
