// SPDX-License-Identifier: GPL-2.0-only
/* procfs collectors: host facts, softnet/softirqs, MIB counters, sockstat, conntrack, meminfo. */
#include "collect.h"
#include "parse.h"
#include "sos.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Read a whole file and hand it to a parser; records the source's outcome. */
static int read_parse(const struct np_ctx *ctx, enum np_tree t, const char *path,
		      struct np_snapshot *s, enum np_source id,
		      int (*parse)(const char *, size_t, void *), void *out)
{
	char *buf;
	size_t len;
	int r = np_read_file(ctx, t, path, &buf, &len);

	if (r == 0) {
		r = parse(buf, len, out);
		free(buf);
	}
	np_src_set(s, id, r, NULL);
	return r;
}

static int parse_softirqs_cb(const char *b, size_t n, void *o) { return np_parse_softirqs(b, n, o); }
static int parse_mib_cb(const char *b, size_t n, void *o) { return np_parse_mib(b, n, o); }
static int parse_sockstat_cb(const char *b, size_t n, void *o) { return np_parse_sockstat(b, n, o); }
static int parse_meminfo_cb(const char *b, size_t n, void *o) { return np_parse_meminfo(b, n, o); }
static int parse_ct_cb(const char *b, size_t n, void *o) { return np_parse_conntrack_stat(b, n, o); }

/* systemd runs irqbalance in a cgroup of its own: a non-empty cgroup.procs answers with one
 * read (cgroup v2, and the "unified" and "systemd" hierarchies of a v1/hybrid host). */
static bool irqbalance_in_cgroup(const struct np_ctx *ctx)
{
	static const char *const procs[] = {
		"fs/cgroup/system.slice/irqbalance.service/cgroup.procs",
		"fs/cgroup/unified/system.slice/irqbalance.service/cgroup.procs",
		"fs/cgroup/systemd/system.slice/irqbalance.service/cgroup.procs",
	};
	char pid[32];

	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++)
		if (np_read_str(ctx, NP_SYS, procs[i], pid, sizeof(pid)) > 0 &&
		    isdigit((unsigned char)pid[0]))
			return true;
	return false;
}

static bool is_irqbalance(const struct np_ctx *ctx, unsigned pid)
{
	char path[32], comm[32];

	snprintf(path, sizeof(path), "%u/comm", pid);
	return np_read_str(ctx, NP_PROC, path, comm, sizeof(comm)) > 0 &&
	       strcmp(comm, "irqbalance") == 0;
}

/* irqbalance 1.5 and later (the file-based UI socket, Aug 2018) listen on
 * /run/irqbalance/irqbalance<PID>.sock when that directory exists (its systemd unit makes it:
 * RuntimeDirectory=). A killed daemon leaves its socket behind, so the PID must still be an
 * irqbalance process. 1 found, 0 the directory holds no live one, -1 no such directory. */
static int irqbalance_socket(const struct np_ctx *ctx)
{
	struct dirent *de;
	int found = 0, seen = 0;
	DIR *d;

	if (np_opendir(ctx, NP_RUN, "irqbalance", &d) < 0)
		return -1;
	while ((de = readdir(d)) && !found && ++seen <= 64) {
		char tail[8] = "";
		unsigned pid;

		if (sscanf(de->d_name, "irqbalance%u%7s", &pid, tail) != 2 ||
		    strcmp(tail, ".sock") != 0)
			continue;
		found = is_irqbalance(ctx, pid);
	}
	closedir(d);
	return found;
}

/* The pid file sysvinit and upstart scripts start it with (--pid=/var/run/irqbalance.pid:
 * RHEL 6, Ubuntu 14.04 and 16.04 in the process lists of sosreports). /var/run is /run on
 * current distributions; on RHEL 6 it is a directory of its own, read on the live host only.
 * A pid file whose process is gone or is not irqbalance says nothing. */
static bool irqbalance_pidfile(const struct np_ctx *ctx)
{
	char pid[32];

	if (np_read_str(ctx, NP_RUN, "irqbalance.pid", pid, sizeof(pid)) <= 0 &&
	    np_read_str(ctx, NP_ROOTFS, "var/run/irqbalance.pid", pid, sizeof(pid)) <= 0)
		return false;
	return isdigit((unsigned char)pid[0]) && is_irqbalance(ctx, (unsigned)strtoul(pid, NULL, 10));
}

/*
 * irqbalance rewrites IRQ affinity every 10 s; knowing it runs explains "my pinning came back".
 * 1 running, 0 not, -1 unknown; *how says which signal answered. A few reads, whatever the
 * number of processes: its systemd unit's cgroup (any version run as irqbalance.service), its
 * socket (1.5+, in /run/irqbalance), its pid file (the sysvinit and upstart scripts). On a
 * systemd host (/run/systemd/system, as sd_booted() tests) none of them means it does not run:
 * a hand-started 1.5+ without /run/irqbalance binds a nameless abstract socket and is missed.
 * Elsewhere (a container, OpenRC, a hand start) "not running" could only come from reading every
 * process's name, a cost that grows with the host's process count: netpath says "unknown".
 */
static int find_irqbalance(const struct np_ctx *ctx, const char **how)
{
	int r;

	*how = "systemd unit";
	if (irqbalance_in_cgroup(ctx))
		return 1;
	*how = "socket in /run/irqbalance";
	r = irqbalance_socket(ctx);
	if (r >= 0)
		return r;
	*how = "pid file";
	if (irqbalance_pidfile(ctx))
		return 1;
	*how = "systemd host, no irqbalance unit or socket";
	if (np_exists(ctx, NP_RUN, "systemd/system"))
		return 0;
	*how = NULL;
	return -1;
}

void np_collect_host(const struct np_ctx *ctx, struct np_snapshot *s)
{
	const char *how;
	char buf[4096];
	int r;

	np_read_str(ctx, NP_PROC, "sys/kernel/osrelease", s->hs->host.kernel,
		    sizeof(s->hs->host.kernel));
	r = np_read_str(ctx, NP_SYS, "devices/system/cpu/online", buf, sizeof(buf));
	if (r >= 0)
		r = np_parse_cpulist(buf, &s->hs->host.online);
	np_src_set(s, NP_SRC_CPU_ONLINE, r, NULL);
	s->hs->host.ncpu_online = r == 0 ? np_cpuset_count(&s->hs->host.online) : 0;
	s->hs->host.ncpu_from = r == 0 ? "cpu/online" : NULL;

	r = find_irqbalance(ctx, &how);
	s->hs->host.irqbalance = r;
	np_src_set(s, NP_SRC_PROCESSES, r < 0 ? -ENOENT : 0,
		   r < 0 ? "no systemd, irqbalance socket or pid file (processes are not scanned)" : how);

	read_parse(ctx, NP_PROC, "meminfo", s, NP_SRC_MEMINFO, parse_meminfo_cb, &s->hs->mem);
	if (ctx->live) {
		long ps = sysconf(_SC_PAGESIZE);

		s->hs->mem.page_size = ps > 0 ? (uint64_t)ps : 4096;
		s->hs->mem.page_size_assumed = ps <= 0;
	} else if (ctx->page_size) {
		s->hs->mem.page_size = ctx->page_size;	/* a capture's META says it */
		s->hs->mem.page_size_assumed = false;
	} else {
		/* A captured tree does not say its page size; x86_64 and most arm64 use 4 KiB. */
		s->hs->mem.page_size = 4096;
		s->hs->mem.page_size_assumed = true;
	}
}

void np_collect_softnet(const struct np_ctx *ctx, struct np_snapshot *s)
{
	const struct np_cpuset *online =
		np_src_ok(s, NP_SRC_CPU_ONLINE) ? &s->hs->host.online : NULL;
	char *buf;
	size_t len;
	int r = np_read_file(ctx, NP_PROC, "net/softnet_stat", &buf, &len);

	if (r == 0) {
		r = np_parse_softnet(buf, len, online, &s->hs->softnet);
		free(buf);
	}
	np_src_set(s, NP_SRC_SOFTNET, r, r == -EINVAL ? s->hs->softnet.error : r == 0 ?
		   s->hs->softnet.layout : NULL);
	if (r == 0 && !s->hs->host.ncpu_online) {
		/* One row per online CPU: the count, and the CPUs themselves on 5.10+. */
		s->hs->host.ncpu_online = (unsigned)s->hs->softnet.n;
		s->hs->host.ncpu_from = "/proc/net/softnet_stat rows";
		for (size_t i = 0; i < s->hs->softnet.n; i++)
			if (s->hs->softnet.rows[i].cpu >= 0)
				np_cpuset_set(&s->hs->host.online,
					      (unsigned)s->hs->softnet.rows[i].cpu);
	}

	read_parse(ctx, NP_PROC, "softirqs", s, NP_SRC_SOFTIRQS, parse_softirqs_cb,
		   &s->hs->softirqs);
}

/*
 * doctor's MIB table (ctx.mib_by_name): the three files read first, so that the table is
 * reserved once for all of them and each is parsed straight into it, in the files' order;
 * then indexed. Parsing into a table per file and appending it copied 38 KB of entries.
 * The reservation stops at MIB_RESERVE_MAX entries: the bound counts 4 bytes a counter where
 * real files spend ~20, and 2,000 entries (150 KB) would be a mmap and munmap of their own
 * rather than heap; a kernel has ~400-500 of these counters (402 on 6.x here), and a table
 * that outgrows the reservation doubles.
 */
#define MIB_RESERVE_MAX 1024

static void collect_mib_by_name(const struct np_ctx *ctx, struct np_snapshot *s)
{
	static const struct {
		const char *path;
		int src;	/* its source's verdict, or -1: snmp6 is IPv6's, absent without it */
	} f[] = {
		{ "net/snmp", NP_SRC_SNMP }, { "net/netstat", NP_SRC_NETSTAT }, { "net/snmp6", -1 },
	};
	char *buf[3];
	size_t len[3], bound = 0;
	int r[3];

	for (size_t i = 0; i < 3; i++) {
		r[i] = np_read_file(ctx, NP_PROC, f[i].path, &buf[i], &len[i]);
		bound += r[i] == 0 ? np_mib_bound(len[i]) : 0;
	}
	/* No memory now: each parse reserves its own share, or fails alone. */
	(void)np_counters_reserve(&s->hs->mib, bound < MIB_RESERVE_MAX ? bound : MIB_RESERVE_MAX);
	for (size_t i = 0; i < 3; i++) {
		if (r[i] == 0) {
			r[i] = np_parse_mib_unsorted(buf[i], len[i], &s->hs->mib);
			free(buf[i]);
		}
		if (f[i].src >= 0)
			np_src_set(s, (enum np_source)f[i].src, r[i], NULL);
	}
}

void np_collect_mib(const struct np_ctx *ctx, struct np_snapshot *s)
{
	if (ctx->mib_by_name) {
		collect_mib_by_name(ctx, s);
	} else {
		char *buf;
		size_t len;

		read_parse(ctx, NP_PROC, "net/snmp", s, NP_SRC_SNMP, parse_mib_cb, &s->hs->mib);
		read_parse(ctx, NP_PROC, "net/netstat", s, NP_SRC_NETSTAT, parse_mib_cb,
			   &s->hs->mib);
		/* IPv6 counters live in the same table (Ip6..., Udp6...); absent without IPv6. */
		if (np_read_file(ctx, NP_PROC, "net/snmp6", &buf, &len) == 0) {
			np_parse_mib(buf, len, &s->hs->mib);
			free(buf);
		}
	}
	/* Every interface's rx_packets: the loss ledger's test of who else feeds IP. */
	{
		char *buf;
		size_t len;

		if (np_read_file(ctx, NP_PROC, "net/dev", &buf, &len) == 0) {
			np_parse_proc_net_dev(buf, len, &s->hs->ifrx);
			free(buf);
		}
	}
	np_sos_mib_fallback(ctx, s);	/* only where proc/net/snmp is absent */
	if (ctx->mib_by_name)
		np_counters_index(&s->hs->mib);
	else
		np_counters_sort(&s->hs->mib);
	read_parse(ctx, NP_PROC, "net/sockstat", s, NP_SRC_SOCKSTAT, parse_sockstat_cb,
		   &s->hs->sockstat);
	np_sos_sockstat_fallback(ctx, s);	/* only where proc/net/sockstat is absent */
	read_parse(ctx, NP_PROC, "net/stat/nf_conntrack", s, NP_SRC_CONNTRACK, parse_ct_cb,
		   &s->hs->conntrack);
	if (np_srcp(s, NP_SRC_CONNTRACK)->status == NP_SRC_ABSENT && !s->captured)
		snprintf(np_srcp(s, NP_SRC_CONNTRACK)->detail, sizeof(np_srcp(s, 0)->detail),
			 "nf_conntrack not loaded");
	np_counters_sort(&s->hs->conntrack);
}
