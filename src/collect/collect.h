/* SPDX-License-Identifier: GPL-2.0-only */
/* Collectors: the only code that reads the kernel. They fill a snapshot and never print. */
#ifndef NP_COLLECT_H
#define NP_COLLECT_H

#include "ctx.h"
#include "snapshot.h"

/*
 * Take one snapshot of everything about IFACE and the host. Returns 0 when anything useful
 * was read, -errno when nothing was (each source's outcome is in s->src[]). Each socket of the
 * namespace's sock_diag dump goes through fold as it streams (the checks' judgement,
 * checks/socket_fold.h: collectors do not judge); NULL asks for no socket, which the sock_diag
 * source then says ("not asked for by this command").
 */
int np_collect(const struct np_ctx *ctx, const char *ifname, np_sock_fold_fn *fold,
	       struct np_snapshot *s);
/* The same with the sockets of one kind of walk (sockets.h): watch's frames between full walks
 * ask for NP_SOCK_WALK_LISTEN. */
int np_collect_walk(const struct np_ctx *ctx, const char *ifname, np_sock_fold_fn *fold,
		    struct np_snapshot *s, enum np_sock_walk walk);
/* The first device of a sample of several: the host-wide sources into hs (the sample's host
 * snapshot, initialised or freed: it is freed first), the device's into s, which points at
 * hs. */
int np_collect_sample(const struct np_ctx *ctx, const char *ifname, np_sock_fold_fn *fold,
		      struct np_snapshot *s, struct np_host_snap *hs);
/*
 * The same without the namespace's sockets (sock_diag walks every socket): for the other
 * devices of a stack, whose runs judge no socket. With hs set (the sample's host snapshot,
 * read by np_collect_sample() at the same instant, which outlives s), the host-wide sources
 * are not read again: s points at hs and reads only the device's own. NULL: s's own.
 */
int np_collect_device(const struct np_ctx *ctx, const char *ifname, struct np_snapshot *s,
		      struct np_host_snap *hs);
/* The TCP sockets this namespace has in the kernel's listening and established hashes (all but
 * TIME_WAIT), from /proc/net/sockstat and sockstat6 (sock_count.c), and when tw is not NULL
 * sockstat's TIME_WAIT count, read with it. 0 or -errno. */
int np_collect_tcp_inuse(const struct np_ctx *ctx, uint64_t *inuse, uint64_t *tw);
/* The "PROTO: inuse N" value of a sockstat file (proto "TCP:" or "TCP6:"): 0, -ENOENT when the
 * line is absent, -EBADMSG when its value is not a number. */
int np_parse_tcp_inuse(const char *buf, const char *proto, uint64_t *out);

/* The interface of the IPv4 default route, else the IPv6 one. -ENOENT when there is none. */
int np_default_iface(const struct np_ctx *ctx, char *buf, size_t size);

/* 0 when IFACE is a valid name and exists under the root; -EINVAL (bad name), -ENODEV. */
int np_iface_check(const struct np_ctx *ctx, const char *ifname);

/* The pieces, each setting its own s->src[] entries. */
void np_collect_host(const struct np_ctx *ctx, struct np_snapshot *s);
void np_collect_softnet(const struct np_ctx *ctx, struct np_snapshot *s);
void np_collect_mib(const struct np_ctx *ctx, struct np_snapshot *s);
/* The namespace's keys into s->sysctl, the device's (its rp_filter) into s->dev_sysctl. */
void np_collect_sysctls(const struct np_ctx *ctx, struct np_snapshot *s);
/* Only the device's, s->hs->sysctl having been read by the sample's first device
 * (np_collect_sample); the source's verdict is the one a full read would give. */
void np_collect_device_sysctls(const struct np_ctx *ctx, struct np_snapshot *s);
/* Only the keys whose value is the host's (owner HOST: netdev_max_backlog, tcp_mem, rmem_max,
 * ...), which a child network namespace lacks or, on recent kernels, mirrors: read in the
 * initial namespace before --netns enters another. */
void np_collect_host_sysctls(const struct np_ctx *ctx, struct np_sysctls *out);
/*
 * Those keys as stand-in files (ctx->overlay, core/overlay.h) for a namespace that lacks them:
 * np_collect_sysctls() then reads them like its own, marked host-wide and counted as "read in
 * the initial namespace". _overlay: from np_collect_host_sysctls()'s table (its readable
 * keys); _load: from a capture's host_sysctls file ("key TAB value" lines, untrusted); _text:
 * that file's text, malloc'd. 0 or -ENOMEM.
 */
struct np_overlay;
int np_host_sysctls_overlay(const struct np_sysctls *h, struct np_overlay *o);
int np_host_sysctls_load(struct np_overlay *o, const char *text, size_t len);
int np_host_sysctls_text(const struct np_overlay *o, char **text, size_t *len);
void np_collect_netdev(const struct np_ctx *ctx, struct np_snapshot *s);
/* dev.stats: the rtnetlink stats64 when np_collect_nic() got them, else sysfs statistics/. */
void np_collect_netdev_stats(const struct np_ctx *ctx, struct np_snapshot *s);
void np_collect_irqs(const struct np_ctx *ctx, struct np_snapshot *s);
void np_collect_pcie(const struct np_ctx *ctx, struct np_snapshot *s);

/* The NIC side (netlink and ioctls: the live system, or a capture's recorded answers; ctx may
 * be NULL for the live system without recording. Marked skipped under other --root trees):
 * driver info and private stats over SIOCETHTOOL, link modes/rings/channels/coalescing/features/
 * pause/standard stats/RSS over ethtool generic netlink (ioctl fallbacks on old kernels),
 * rtnetlink link stats64/XDP/qdiscs, netdev per-queue stats. */
void np_collect_nic(const struct np_ctx *ctx, struct np_snapshot *s);
void np_collect_ethtool_drvinfo(const struct np_ctx *ctx, struct np_snapshot *s);	/* ethtool_ioctl.c */
void np_collect_ethtool_nl(const struct np_ctx *ctx, struct np_snapshot *s);		/* ethtool_nl.c */
void np_collect_ethtool_fallbacks(const struct np_ctx *ctx, struct np_snapshot *s);	/* ethtool_ioctl.c */
void np_collect_driver_stats(const struct np_ctx *ctx, struct np_snapshot *s);		/* ethtool_ioctl.c */
void np_collect_rtnl(const struct np_ctx *ctx, struct np_snapshot *s);			/* rtnl.c */
void np_collect_qstats(const struct np_ctx *ctx, struct np_snapshot *s);			/* netdev_qstats.c */
/* Every TCP and UDP socket of the namespace over sock_diag, folded into s->socks (sock_diag.c;
 * after the sysctls, which classify buffers). Skipped under --root. */
void np_collect_sockets(const struct np_ctx *ctx, np_sock_fold_fn *fold, struct np_snapshot *s);
/* The same for one kind of walk (sockets.h): NP_SOCK_WALK_LISTEN asks for TCP listeners and UDP
 * only, without walking the established hash (watch's frames between full walks). */
void np_collect_sockets_walk(const struct np_ctx *ctx, np_sock_fold_fn *fold,
			     struct np_snapshot *s, enum np_sock_walk walk);
/* The same into a socket section as np_snapshot_init() left it, not cleared again (~14 KB:
 * collect.c's walk comes right after the snapshot's initialisation). */
void np_collect_sockets_walk_fresh(const struct np_ctx *ctx, np_sock_fold_fn *fold,
				   struct np_snapshot *s, enum np_sock_walk walk);

/* tcp_bbr and sch_fq of kernel release (the snapshot's host.kernel) under the root's
 * lib/modules/RELEASE (modules.builtin, modules.dep, else the module files): NP_KMOD_UNKNOWN
 * with the reason in out->from when that cannot be read (most captures). */
struct np_kmods;
void np_collect_kmods(const struct np_ctx *ctx, const char *release, struct np_kmods *out);

/* A name the kernel could have given an interface (dev_valid_name, no control bytes): names
 * read from directory entries of a --root tree are checked before they are used or shown. */
bool np_ifname_ok(const char *name);

/* --all: the interfaces that are up and have carried packets, loopback and the members of a
 * bond or bridge left out (their master covers them). Returns how many names were written;
 * *more: how many beyond max were left out. */
size_t np_collect_busy_ifaces(const struct np_ctx *ctx, char (*names)[IF_NAMESIZE], size_t max,
			      size_t *more);

/* The live machine's identity (uname, hostname, page size); empty fields where unknown. */
struct np_identity {
	char hostname[256];
	char release[65], machine[65];
	long page_size;		/* 0: unknown */
};
void np_collect_identity(struct np_identity *id);

/*
 * Which namespace our nsid (a veth peer's IFLA_LINK_NETNSID) numbers, asked with RTM_GETNSID:
 * 1 the one open at start_fd (where netpath started, before --netns; -1 none), 0 the one named
 * name under /run/netns, -1 unknown (name ""). Live only.
 */
int np_collect_netns_of_nsid(const struct np_ctx *ctx, int nsid, int start_fd, char *name,
			     size_t size);

/* "class/net/IF/device" or its PCI parent (virtio): where msi_irqs, numa_node and the PCIe
 * files live. Empty string when the interface has no PCI device. */
int np_pci_dir(const struct np_ctx *ctx, const char *ifname, char *buf, size_t size);

#endif
