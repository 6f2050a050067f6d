/* SPDX-License-Identifier: GPL-2.0-only */
/* What doctor, watch and trace open before they collect: the namespace (--netns), the tree
 * (live or --root) and the interface (named, or the default route's). */
#ifndef NETPATH_TARGET_H
#define NETPATH_TARGET_H

#include <net/if.h>
#include <stddef.h>

#include "ctx.h"
#include "overlay.h"
#include "root.h"
#include "snapshot.h"
#include "stack.h"

struct np_target {
	struct np_ctx ctx;
	/* --root: what it named (a tree, a capture, a sosreport, an archive unpacked). A
	 * capture's first sample is root.before. */
	struct np_root root;
	/* --netns: the host-wide sysctls (netdev_max_backlog, tcp_mem, ...), read in the initial
	 * namespace before entering, since a child namespace has no such files; ctx.overlay
	 * points here when they were read. */
	struct np_overlay host_files;
	bool has_host_files;
	char ifname[IF_NAMESIZE];
	char netns_path[256];
	/* --netns: the namespace netpath started in, opened before entering, so that a veth
	 * whose peer lives there can say so (RTM_GETNSID); -1 without --netns. */
	int start_ns_fd;
};

struct np_target_spec {
	const char *cmd;	/* "doctor": named in the hint when no default route exists */
	const char *netns;	/* --netns NS or NULL */
	const char *root;	/* --root DIR or NULL (live) */
	const char *ifname;	/* IFACE or NULL (the default route's) */
	bool any_iface;		/* --all: no interface to resolve */
};

/* Returns 0, or -1 with a one-line reason in err and nothing left open. Entering a namespace
 * is for the whole process: call it before anything else is opened. */
int np_target_open(struct np_target *t, const struct np_target_spec *spec, char *err,
		   size_t errlen);
void np_target_close(struct np_target *t);

/* Another sample of a --root tree (a capture's first, or --before's), opened as the target's own
 * context is: with the checks' socket fold. Close it with np_root_ctx_close(). 0 or -errno. */
int np_sample_ctx_open(struct np_ctx *ctx, const struct np_root *root, const char *dir);

#endif
