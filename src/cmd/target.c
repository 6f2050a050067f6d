// SPDX-License-Identifier: GPL-2.0-only
/* Namespace, tree and interface: the common start of doctor, watch and trace. */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect.h"
#include "netns.h"
#include "sos.h"

/* Host-wide keys from the initial namespace; a failure only loses those keys (the checks say
 * "not reported"), never the run. */
static void read_host_sysctls(struct np_target *t)
{
	struct np_sysctls h = { 0 };
	struct np_ctx host;

	if (np_ctx_open(&host, NULL) < 0)
		return;
	np_collect_host_sysctls(&host, &h);
	/* The files stand in for the namespace's missing ones (ctx.overlay). */
	t->has_host_files = h.n > 0;
	np_host_sysctls_overlay(&h, &t->host_files);
	free(h.e);
	t->start_ns_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	np_ctx_close(&host);
}

static int resolve_iface(struct np_target *t, const struct np_target_spec *spec, char *err,
			 size_t errlen)
{
	const char *root = spec->root;
	int r;

	if (spec->ifname) {
		snprintf(t->ifname, sizeof(t->ifname), "%s", spec->ifname);
		r = np_iface_check(&t->ctx, spec->ifname);
		if (r == -EINVAL) {
			snprintf(err, errlen, "invalid interface name '%.64s'", spec->ifname);
			return -1;
		}
	} else if (t->root.capture && t->root.interfaces[0]) {
		/* A capture names what it was taken of: its first interface. */
		snprintf(t->ifname, sizeof(t->ifname), "%.*s", (int)strcspn(t->root.interfaces, " "),
			 t->root.interfaces);
		r = np_iface_check(&t->ctx, t->ifname);
	} else {
		if (np_default_iface(&t->ctx, t->ifname, sizeof(t->ifname)) < 0) {
			snprintf(err, errlen, "no default route to pick an interface from; name one "
				 "(netpath %s IFACE)", spec->cmd);
			return -1;
		}
		r = np_iface_check(&t->ctx, t->ifname);
	}
	/* A capture without sys/class/net (only /proc was copied) cannot confirm the name: take
	 * it as given; the stages that need sysfs then say they were not judged. */
	if (r == -ENODEV && !t->ctx.live && !np_exists(&t->ctx, NP_SYS, "class/net"))
		r = 0;
	if (r < 0) {
		snprintf(err, errlen, "no such interface '%s'%s%s", t->ifname, root ? " under " : "",
			 root ? root : "");
		return -1;
	}
	return 0;
}

int np_target_open(struct np_target *t, const struct np_target_spec *spec, char *err,
		   size_t errlen)
{
	int r;

	/* All but the root's path buffers (16 KB of the 19): see np_root_clear. */
	memset(t, 0, offsetof(struct np_target, root));
	np_root_clear(&t->root);
	memset((char *)t + offsetof(struct np_target, root) + sizeof(t->root), 0,
	       sizeof(*t) - offsetof(struct np_target, root) - sizeof(t->root));
	t->ctx.proc_fd = t->ctx.sys_fd = t->ctx.top_fd = t->ctx.run_fd = -1;
	t->start_ns_fd = -1;
	if (spec->netns && !spec->root) {
		read_host_sysctls(t);
		/* Before anything else is opened: /proc/net, /sys and every socket must be the
		 * namespace's. */
		if (np_netns_enter(spec->netns, t->netns_path, sizeof(t->netns_path), err,
				   errlen) < 0) {
			np_target_close(t);
			return -1;
		}
	}
	if (spec->root) {
		if (np_root_resolve(&t->root, spec->root, err, errlen) < 0) {
			np_target_close(t);
			return -1;
		}
		r = np_root_ctx_open(&t->ctx, &t->root, t->root.dir);
	} else {
		r = np_ctx_open(&t->ctx, NULL);
	}
	if (r < 0) {
		if (spec->root)
			snprintf(err, errlen, "cannot open %s: %s", spec->root, strerror(-r));
		else
			snprintf(err, errlen, "cannot open /proc or /sys: %s", strerror(-r));
		np_target_close(t);
		return -1;
	}
	if (t->has_host_files)
		t->ctx.overlay = &t->host_files;
	/* A sosreport's namespace: its copies of what sos ran there (sos_netns.c). */
	if (spec->netns && spec->root && np_sos_select_netns(&t->ctx, spec->netns, err, errlen) < 0) {
		np_target_close(t);
		return -1;
	}
	if (!spec->any_iface && resolve_iface(t, spec, err, errlen) < 0) {
		np_target_close(t);
		return -1;
	}
	return 0;
}

void np_target_close(struct np_target *t)
{
	np_root_ctx_close(&t->ctx);
	np_root_release(&t->root);
	np_overlay_free(&t->host_files);
	t->has_host_files = false;
	if (t->start_ns_fd >= 0)
		close(t->start_ns_fd);
	t->start_ns_fd = -1;
}

int np_sample_ctx_open(struct np_ctx *ctx, const struct np_root *root, const char *dir)
{
	return np_root_ctx_open(ctx, root, dir);
}
