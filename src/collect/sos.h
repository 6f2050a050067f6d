/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A sosreport as a --root tree: sos copies part of /proc and /sys (no /proc/sys/net, no
 * queues/) and keeps the outputs of ethtool, ip, tc, sysctl -a, lscpu and lspci under
 * sos_commands/. These read what the live collectors would have asked the kernel from those
 * outputs (sos_nic.c) and say, per source, which file it came from or which one was missing.
 */
#ifndef NP_SOS_H
#define NP_SOS_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "origin.h"
#include "snapshot.h"

static inline bool np_ctx_is_sos(const struct np_ctx *ctx)
{
	return ctx->origin && ctx->origin->kind == NP_ORIGIN_SOSREPORT;
}

/* Right after np_ctx_open(): a --root whose top holds sos_commands/ is a sosreport. Fills
 * ctx->origin (kind, sos version, hostname, kernel, when it was taken, what it lacks); leaves a
 * plain tree or the live system as they are. */
void np_sos_detect(struct np_ctx *ctx);

/*
 * The output of one command sos ran, e.g. ("networking", "ethtool_-g_", "eth0"): tries
 * sos_commands/DIR/PREFIXIFNAME, then the sos 3.2-3.6 spelling of a stacked device
 * ("ethtool_-g_bond0.104_bond0", from "bond0.104@bond0"). *file gets the name found (or the one
 * looked for when none was). 0, -ENOENT or another negative errno; *buf is malloc'd.
 */
int np_sos_read(const struct np_ctx *ctx, const char *dir, const char *prefix, const char *ifname,
		char **buf, size_t *len, char *file, size_t fsize);

/* The first of several candidate files (sos versions name some commands differently):
 * names[] ends with NULL; *which gets the one read. */
int np_sos_read_first(const struct np_ctx *ctx, const char *const *names, char **buf, size_t *len,
		      const char **which);

/* MIB counters from sos_commands/networking/nstat_-zas, else netstat_-s (and netstat_-s_-6),
 * when the tree has no proc/net/snmp
 * (sos_mib.c); marks the snmp/netstat sources as read from it. */
void np_sos_mib_fallback(const struct np_ctx *ctx, struct np_snapshot *s);
/* sockstat's orphan, tw, alloc and inuse counts from sos_commands/networking/ss_-s when the
 * tree has no proc/net/sockstat (sos_sockstat.c); the source is partial (no mem pages). */
void np_sos_sockstat_fallback(const struct np_ctx *ctx, struct np_snapshot *s);

/* The sockets section from ss text (sos_ss.c): sos_commands/networking/ss_-peaonmi, or a pasted
 * ss_-tmi / ss_-tnmi / ss_-uampi... (the namespace's copy under --netns), each socket through
 * fold. False when the tree holds none (or the context is live): sock_diag's turn. */
bool np_sos_sockets(const struct np_ctx *ctx, np_sock_fold_fn *fold, struct np_snapshot *s);
/* --root SOSDIR --netns NS: check that the report holds copies for namespace NS and select it
 * (ctx->sos_netns: every read then sees that namespace's copies, core/sos_netns.c). -1 with a
 * one-line error naming the namespaces the report has when it does not, or when the tree is
 * not a sosreport. */
int np_sos_select_netns(struct np_ctx *ctx, const char *ns, char *err, size_t errlen);

/* The NIC side of a snapshot from the sosreport's command outputs: ethtool -i/-g/-l/-c/-k/-a/-S
 * and plain, ip -s -d link, tc -s qdisc show, lspci (PCIe link when sysfs lacks it), lscpu (CPU
 * count when sysfs lacks it). Called by np_collect_nic() for a sosreport. */
void np_collect_sos_nic(const struct np_ctx *ctx, struct np_snapshot *s);

/* sysctl -a's path inside a sosreport. */
#define NP_SOS_SYSCTL_A "sos_commands/kernel/sysctl_-a"

#endif
