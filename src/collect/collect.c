// SPDX-License-Identifier: GPL-2.0-only
/* One snapshot: run every collector in a fixed order and timestamp it. */
#include "clock.h"
#include "collect.h"
#include "parse.h"
#include "sos.h"
#include "strjoin.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A captured tree's instant: the first field of its /proc/uptime, so two captures of one
 * machine can be compared with --before. False when the capture has none. */
static bool tree_uptime(const struct np_ctx *ctx, double *t)
{
	char buf[64];

	*t = 0;
	if (np_read_str(ctx, NP_PROC, "uptime", buf, sizeof(buf)) < 0 || sscanf(buf, "%lf", t) != 1 ||
	    !(*t >= 0)) {
		*t = 0;
		return false;
	}
	return true;
}

int np_iface_check(const struct np_ctx *ctx, const char *ifname)
{
	char path[64];
	size_t len = strlen(ifname);

	/* Same rules as the kernel's dev_valid_name(). */
	if (len == 0 || len >= IF_NAMESIZE || strcmp(ifname, ".") == 0 || strcmp(ifname, "..") == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (ifname[i] == '/' || ifname[i] == ':' || ifname[i] == ' ' || ifname[i] == '\t' ||
		    ifname[i] == '\n')
			return -EINVAL;
	np_strjoin(path, sizeof(path), "class/net/", ifname);
	return np_exists(ctx, NP_SYS, path) ? 0 : -ENODEV;
}

int np_default_iface(const struct np_ctx *ctx, char *buf, size_t size)
{
	static const char *const files[] = { "net/route", "net/ipv6_route" };
	int err = -ENOENT;

	for (size_t i = 0; i < 2; i++) {
		char *text;
		size_t len;
		int r = np_read_file(ctx, NP_PROC, files[i], &text, &len);

		if (r < 0) {
			err = r;
			continue;
		}
		r = i == 0 ? np_parse_route_default(text, len, buf, size)
			   : np_parse_ipv6_route_default(text, len, buf, size);
		free(text);
		if (r == 0)
			return 0;
		err = r;
	}
	return err;
}

/*
 * The CPU count when cpu/online is absent (captures, sosreports): the CPUs that
 * /proc/interrupts has columns for, else the cpuN lines of /proc/stat. softnet_stat rows
 * were already counted by its collector. Left 0 (unknown) when nothing says it.
 */
static void cpu_count_from_data(const struct np_ctx *ctx, struct np_snapshot *s)
{
	char *buf, *p;
	size_t len;
	unsigned n = 0;

	/* softnet_stat rows before 5.10 are the online CPUs in order: without cpu/online the
	 * interrupt columns name them (a capture with CPU 6 offline has rows 0-5, 7). */
	if (!np_src_ok(s, NP_SRC_CPU_ONLINE) && s->hs->softnet.n &&
	    !s->hs->softnet.cpu_from_column &&
	    s->hs->softnet.n == s->irqs.ncols) {
		memset(&s->hs->host.online, 0, sizeof(s->hs->host.online));
		for (size_t i = 0; i < s->hs->softnet.n; i++) {
			s->hs->softnet.rows[i].cpu = s->irqs.col_cpu[i];
			if (s->irqs.col_cpu[i] >= 0 && s->irqs.col_cpu[i] < NP_MAX_CPUS)
				np_cpuset_set(&s->hs->host.online, (unsigned)s->irqs.col_cpu[i]);
		}
	}
	if (s->hs->host.ncpu_online)
		return;
	for (size_t c = 0; c < s->irqs.ncols; c++)
		if (s->irqs.col_cpu[c] >= 0 && s->irqs.col_cpu[c] < NP_MAX_CPUS) {
			np_cpuset_set(&s->hs->host.online, (unsigned)s->irqs.col_cpu[c]);
			n++;
		}
	if (n) {
		s->hs->host.ncpu_online = n;
		s->hs->host.ncpu_from = "/proc/interrupts columns";
		return;
	}
	if (np_read_file(ctx, NP_PROC, "stat", &buf, &len) < 0)
		return;
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned cpu;

		/* "cpuN ..." lines; "cpu  ..." (the sum over CPUs) has no digit after "cpu". */
		if (strncmp(p, "cpu", 3) == 0 && isdigit((unsigned char)p[3]) &&
		    sscanf(p + 3, "%u", &cpu) == 1 && cpu < NP_MAX_CPUS) {
			np_cpuset_set(&s->hs->host.online, cpu);
			n++;
		}
	}
	free(buf);
	if (n) {
		s->hs->host.ncpu_online = n;
		s->hs->host.ncpu_from = "/proc/stat";
	}
}

/* sockets: false for none, else walk says which (sockets.h). hs: the sample's host snapshot,
 * NULL for s's own; read says whether the host-wide sources are read into it (else it holds
 * them already: np_collect_device()). */
static int collect(const struct np_ctx *ctx, const char *ifname, struct np_snapshot *s,
		   np_sock_fold_fn *fold, bool sockets, enum np_sock_walk walk,
		   struct np_host_snap *hs, bool read)
{
	int ok = 0;

	if (hs) {
		if (read)
			np_host_snap_free(hs);
		np_snapshot_init_in(s, hs);
	} else {
		np_snapshot_init(s);
	}
	s->captured = !np_ctx_faithful(ctx);
	if (ctx->live) {
		s->t = np_mono_now();
		s->t_known = true;
	} else {
		s->t_known = tree_uptime(ctx, &s->t);
	}
	np_strjoin(s->ifname, sizeof(s->ifname), ifname);

	if (!read) {
		/* The host-wide sources were read by the sample's first device, whose final values
		 * (cpu_count_from_data()'s included) the device's collectors read (pcie). */
		np_collect_device_sysctls(ctx, s);
	} else {
		np_collect_host(ctx, s);	/* online CPUs first: softnet's old layout needs them */
		np_collect_softnet(ctx, s);
		np_collect_mib(ctx, s);
		np_collect_sysctls(ctx, s);
	}
	np_collect_netdev(ctx, s);
	np_collect_irqs(ctx, s);
	np_collect_pcie(ctx, s);
	np_collect_nic(ctx, s);
	np_collect_netdev_stats(ctx, s);	/* after rtnetlink, whose stats64 it reuses */
	if (sockets) {
		if (!np_sos_sockets(ctx, fold, s))
			/* s->socks as the initialisation above left it (np_sos_sockets()
			 * leaves it so when it declines) */
			np_collect_sockets_walk_fresh(ctx, fold, s, walk);
	} else {
		np_srcp(s, NP_SRC_SOCK_DIAG)->status = NP_SRC_SKIPPED;
		snprintf(np_srcp(s, NP_SRC_SOCK_DIAG)->detail, sizeof(np_srcp(s, 0)->detail),
			 "the namespace's sockets are judged once, on the interface named");
	}
	/* It writes the host snapshot (softnet rows' CPUs): only its reader does. */
	if (read)
		cpu_count_from_data(ctx, s);

	for (int i = 0; i < NP_SRC__COUNT; i++)
		ok |= np_src_ok(s, (enum np_source)i);
	return ok ? 0 : -ENOENT;
}

int np_collect(const struct np_ctx *ctx, const char *ifname, np_sock_fold_fn *fold,
	       struct np_snapshot *s)
{
	return collect(ctx, ifname, s, fold, true, NP_SOCK_WALK_FULL, NULL, true);
}

int np_collect_walk(const struct np_ctx *ctx, const char *ifname, np_sock_fold_fn *fold,
		    struct np_snapshot *s, enum np_sock_walk walk)
{
	return collect(ctx, ifname, s, fold, true, walk, NULL, true);
}

int np_collect_sample(const struct np_ctx *ctx, const char *ifname, np_sock_fold_fn *fold,
		      struct np_snapshot *s, struct np_host_snap *hs)
{
	return collect(ctx, ifname, s, fold, true, NP_SOCK_WALK_FULL, hs, true);
}

int np_collect_device(const struct np_ctx *ctx, const char *ifname, struct np_snapshot *s,
		      struct np_host_snap *hs)
{
	return collect(ctx, ifname, s, NULL, false, NP_SOCK_WALK_FULL, hs, hs == NULL);
}
