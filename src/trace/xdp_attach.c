// SPDX-License-Identifier: GPL-2.0-only
/* trace --xdp, the I/O part: read the device's XDP state, load the counter, hold it by a link. */
#include "xdp_attach.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <net/if.h>
#include <linux/if_link.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect.h"
#include "log.h"
#include "parse.h"
#include "snapshot.h"
#include "xdp_count.h"
#include "xdp_count.skel.h"

struct np_xdp_session {
	struct np_xdp_count *skel;
	int link_fd;		/* the only thing that keeps the program attached */
	int ifindex;
	size_t ncpu;
	int *cpu_ids;		/* i-th possible CPU -> CPU id */
	struct np_xdp_slot *vals;	/* NP_XDP_SLOTS * ncpu, reused by every read */
	size_t top_sources;	/* 0: sources not counted */
	struct np_xdp_info info;
};

/* Read a small sysfs file (live system only: the XDP hook exists only there). */
static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* Copy what fits (a driver name is short; a longer one is cut, never overflowed). */
static void copy_name(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Who drives IFNAME: ETHTOOL_GDRVINFO (what `ethtool -i` prints), else the sysfs device link,
 * else "loopback" for the loopback device (which answers neither). "" when nothing says.
 */
static void read_driver(struct np_snapshot *s, char *buf, size_t size)
{
	char path[PATH_MAX], link[PATH_MAX];
	unsigned long flags;
	ssize_t n;

	buf[0] = '\0';
	np_collect_ethtool_drvinfo(NULL, s);
	if (np_src_ok(s, NP_SRC_ETHTOOL_DRVINFO) && s->eth.driver[0]) {
		copy_name(buf, size, s->eth.driver);
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", s->ifname);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		copy_name(buf, size, strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
		return;
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", s->ifname);
	if (read_small(path, link, sizeof(link)) == 0 &&
	    sscanf(link, "%lx", &flags) == 1 && (flags & IFF_LOOPBACK))
		copy_name(buf, size, "loopback");
}

/* IFLA_XDP through the rtnl collector. 0 with the mode and id, or -errno with err filled. */
static int read_xdp_state(struct np_snapshot *s, int *attached, uint32_t *id, char *err,
			  size_t errlen)
{
	np_collect_rtnl(NULL, s);
	if (!np_src_ok(s, NP_SRC_RTNL_LINK)) {
		snprintf(err, errlen, "refusing to attach XDP to %s: could not read whether an XDP "
			 "program is attached there (%s)", s->ifname,
			 np_srcp(s, NP_SRC_RTNL_LINK)->detail);
		return -ENODATA;
	}
	*attached = s->rtnl.xdp_attached;
	*id = s->rtnl.xdp_prog_id;
	return 0;
}

/* The index -> CPU id map of per-CPU map values: the kernel copies them for each possible CPU
 * in order, so the i-th value belongs to the i-th CPU of cpu/possible. */
static int possible_cpus(struct np_xdp_session *x)
{
	struct np_cpuset set;
	char buf[4096];
	int n = libbpf_num_possible_cpus();
	size_t k = 0;

	if (n <= 0)
		return n < 0 ? n : -EINVAL;
	x->ncpu = (size_t)n;
	x->cpu_ids = calloc(x->ncpu, sizeof(*x->cpu_ids));
	x->vals = calloc(NP_XDP_SLOTS * x->ncpu, sizeof(*x->vals));
	if (!x->cpu_ids || !x->vals)
		return -ENOMEM;
	if (read_small("/sys/devices/system/cpu/possible", buf, sizeof(buf)) == 0 &&
	    np_parse_cpulist(buf, &set) == 0 && np_cpuset_count(&set) == x->ncpu) {
		for (unsigned c = 0; c < NP_MAX_CPUS && k < x->ncpu; c++)
			if (np_cpuset_has(&set, c))
				x->cpu_ids[k++] = (int)c;
		return 0;
	}
	for (k = 0; k < x->ncpu; k++)
		x->cpu_ids[k] = (int)k;
	return 0;
}

/* bpf_link for XDP came with 5.9; before, an attachment would outlive a killed process. */
static bool kernel_has_xdp_link(void)
{
	struct utsname u;
	unsigned maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return true;	/* cannot tell: let the kernel's answer speak */
	return maj > 5 || (maj == 5 && min >= 9);
}

/*
 * Attach through a bpf_link: the kernel refuses (EBUSY, EEXIST) when any program is already
 * attached in any mode, so even a program that appeared after our IFLA_XDP check is never
 * replaced. The link fd is O_CLOEXEC and never pinned: closing it, which the kernel does for
 * us when the process dies, detaches the program.
 */
static int attach(struct np_xdp_session *x, enum np_xdp_mode mode)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts,
		    .flags = mode == NP_XDP_MODE_NATIVE ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_SKB_MODE);
	int fd = bpf_link_create(bpf_program__fd(x->skel->progs.np_xdp_count), x->ifindex,
				 BPF_XDP, &opts);

	if (fd < 0)
		return fd == -1 ? -errno : fd;
	x->link_fd = fd;
	x->info.mode = mode;
	return 0;
}

static void attach_error(int err, const char *ifname, const char *driver,
			 enum np_xdp_mode mode, char *buf, size_t len)
{
	const char *m = np_xdp_mode_name(mode);

	if (err == -EPERM || err == -EACCES)
		snprintf(buf, len, "cannot attach XDP to %s: permission denied (needs root, or "
			 "CAP_BPF with CAP_NET_ADMIN)", ifname);
	else if ((err == -EINVAL || err == -ENOTSUP) && !kernel_has_xdp_link())
		snprintf(buf, len, "cannot attach XDP to %s: this kernel cannot hold XDP through a "
			 "bpf_link (Linux 5.9 or later needed), and without one the program would "
			 "outlive netpath if it were killed", ifname);
	else if (err == -EOPNOTSUPP)
		/* No ndo_bpf, or a configuration the driver rules out (virtio_net while the host
		 * does receive offloads). */
		snprintf(buf, len, "cannot attach XDP to %s: the %s driver refused %s mode (it has "
			 "no %s XDP, or not in its current configuration); --xdp-mode generic may "
			 "work", ifname, driver[0] ? driver : "device's", m, m);
	else if (err == -ERANGE || err == -E2BIG)
		snprintf(buf, len, "cannot attach XDP to %s in %s mode: the MTU is too large for "
			 "XDP on this driver (%s)", ifname, m, strerror(-err));
	else if (!strcmp(driver, "veth") && err == -EINVAL)
		snprintf(buf, len, "cannot attach XDP to %s in %s mode: %s (veth needs at least "
			 "as many rx queues as its peer has tx queues)", ifname, m, strerror(-err));
	else
		snprintf(buf, len, "cannot attach XDP to %s in %s mode: %s", ifname, m,
			 strerror(-err));
}

/* The mode and id the kernel reports now: a cross-check that what we attached is ours. */
static void verify(struct np_xdp_session *x, struct np_snapshot *s)
{
	struct bpf_prog_info pi;
	uint32_t len = sizeof(pi), id = 0;
	int attached = -1, want = x->info.mode == NP_XDP_MODE_NATIVE ? XDP_ATTACHED_DRV :
				  XDP_ATTACHED_SKB;
	char e[512];

	memset(&pi, 0, sizeof(pi));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(x->skel->progs.np_xdp_count), &pi, &len) == 0)
		x->info.program_id = pi.id;
	if (read_xdp_state(s, &attached, &id, e, sizeof(e)) == 0 &&
	    (id != x->info.program_id || attached != want))
		np_warn("xdp: %s reports program %u in mode %d after attaching program %u",
			s->ifname, id, attached, x->info.program_id);
}

static void notes(struct np_xdp_session *x, const struct np_xdp_plan *p)
{
	x->info.acknowledged = p->acknowledged;
	snprintf(x->info.notes, sizeof(x->info.notes), "%s%s%s%s",
		 p->acknowledged ? "accepted with --xdp-accept-reset: " : "", p->msg,
		 p->msg[0] ? ". " : "", np_xdp_mode_explain(x->info.mode));
}

static int start(struct np_xdp_session *x, struct np_snapshot *s, const struct np_xdp_opts *o,
		 char *err, size_t errlen)
{
	struct np_xdp_plan_in in = { .ifname = s->ifname, .driver = x->info.driver,
				     .mode = o->mode, .accept_reset = o->accept_reset };
	struct np_xdp_plan plan;
	enum np_xdp_mode tried;
	int attached, ret;
	uint32_t id;

	read_driver(s, x->info.driver, sizeof(x->info.driver));
	/* LRO and hardware GRO decide what generic mode costs (ethtool netlink; the ioctl
	 * before 5.6). */
	np_collect_ethtool_nl(NULL, s);
	np_collect_ethtool_fallbacks(NULL, s);
	in.lro = s->eth.features.lro;
	in.gro_hw = s->eth.features.gro_hw;
	ret = read_xdp_state(s, &attached, &id, err, errlen);
	if (ret)
		return ret;
	ret = np_xdp_check_existing(s->ifname, attached, id, err, errlen);
	if (ret)
		return ret;
	ret = np_xdp_plan(&in, &plan);
	if (ret) {
		snprintf(err, errlen, "%s", plan.msg);
		return ret;
	}
	ret = possible_cpus(x);
	if (ret) {
		snprintf(err, errlen, "cannot size the XDP counters: %s", strerror(-ret));
		return ret;
	}
	x->skel = np_xdp_count__open();
	if (x->skel) {
		x->skel->rodata->sources_on = o->top_sources > 0;
		x->top_sources = o->top_sources;
		ret = np_xdp_count__load(x->skel);
		if (ret) {
			np_xdp_count__destroy(x->skel);
			x->skel = NULL;
			errno = -ret;
		}
	}
	if (!x->skel) {
		ret = -errno;
		snprintf(err, errlen, "cannot load the XDP counter: %s%s", strerror(-ret),
			 ret == -EPERM ? " (needs root, or CAP_BPF with CAP_NET_ADMIN)" : "");
		return ret;
	}
	tried = plan.first;
	ret = attach(x, tried);
	if (ret == -EOPNOTSUPP && plan.fallback == NP_XDP_MODE_GENERIC) {
		np_dbg("xdp: %s has no native XDP, trying generic mode", s->ifname);
		tried = NP_XDP_MODE_GENERIC;
		ret = attach(x, tried);
	}
	if (ret == -EBUSY || ret == -EEXIST) {
		/* Someone attached a program since we looked: name it, leave it. */
		if (read_xdp_state(s, &attached, &id, err, errlen) == 0 &&
		    np_xdp_check_existing(s->ifname, attached, id, err, errlen))
			return -EEXIST;
		snprintf(err, errlen, "%s already has an XDP program attached (the kernel said "
			 "%s): netpath never replaces another program and left it untouched",
			 s->ifname, strerror(-ret));
		return -EEXIST;
	}
	if (ret) {
		attach_error(ret, s->ifname, x->info.driver, tried, err, errlen);
		return ret;
	}
	verify(x, s);
	notes(x, &plan);
	return 0;
}

int np_xdp_start(const char *ifname, int ifindex, const struct np_xdp_opts *o,
		 struct np_xdp_session **out, char *err, size_t errlen)
{
	struct np_xdp_session *x = calloc(1, sizeof(*x));
	struct np_snapshot *s = calloc(1, sizeof(*s));
	int ret;

	*out = NULL;
	if (!x || !s) {
		free(x);
		free(s);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	x->link_fd = -1;
	x->ifindex = ifindex;
	np_snapshot_init(s);
	snprintf(s->ifname, sizeof(s->ifname), "%s", ifname);
	if (!ifname[0] || strlen(ifname) >= IF_NAMESIZE || ifindex <= 0) {
		snprintf(err, errlen, "no such interface: %s", ifname);
		ret = -ENODEV;
	} else {
		ret = start(x, s, o, err, errlen);
	}
	np_snapshot_free(s);
	free(s);
	if (ret) {
		np_xdp_stop(x);
		return ret;
	}
	*out = x;
	return 0;
}

const struct np_xdp_info *np_xdp_session_info(const struct np_xdp_session *x)
{
	return &x->info;
}

/* Every key of the per-source map with its per-CPU values, and the misc slots. */
static int read_sources(struct np_xdp_session *x, struct np_xdp_sources *out)
{
	int fd = bpf_map__fd(x->skel->maps.np_xdp_sources);
	int mfd = bpf_map__fd(x->skel->maps.np_xdp_src_misc);
	struct np_xdp_src_key *keys = calloc(NP_XDP_MAX_SOURCES, sizeof(*keys));
	struct np_xdp_slot *vals = calloc(NP_XDP_MAX_SOURCES * x->ncpu, sizeof(*vals));
	struct np_xdp_slot *misc = calloc(NP_XDP_SRC__COUNT * x->ncpu, sizeof(*misc));
	struct np_xdp_src_key cur, next;
	size_t n = 0;
	int r = 0;

	if (!keys || !vals || !misc) {
		r = -ENOMEM;
		goto out;
	}
	for (uint32_t k = 0; k < NP_XDP_SRC__COUNT; k++)
		if (bpf_map_lookup_elem(mfd, &k, &misc[k * x->ncpu])) {
			r = -errno;
			goto out;
		}
	/* The program is detached: the keys no longer change while they are walked. */
	while (n < NP_XDP_MAX_SOURCES && bpf_map_get_next_key(fd, n ? &cur : NULL, &next) == 0) {
		cur = next;
		if (bpf_map_lookup_elem(fd, &cur, &vals[n * x->ncpu])) {
			r = -errno;
			goto out;
		}
		keys[n++] = cur;
	}
	r = np_xdp_sources_fold(keys, vals, n, x->ncpu, misc, x->top_sources, out);
out:
	free(keys);
	free(vals);
	free(misc);
	return r;
}

int np_xdp_read(struct np_xdp_session *x, struct np_xdp_counts *out)
{
	int fd = bpf_map__fd(x->skel->maps.np_xdp_counts), r;

	memset(out, 0, sizeof(*out));
	/* Stop counting first: the per-queue and per-source maps are read one after the other,
	 * and a frame counted in between would make them disagree. Detaching now is what exit
	 * would do a moment later. */
	if (x->link_fd >= 0) {
		close(x->link_fd);
		x->link_fd = -1;
	}
	for (uint32_t k = 0; k < NP_XDP_SLOTS; k++)
		if (bpf_map_lookup_elem(fd, &k, &x->vals[k * x->ncpu]))
			return -errno;
	r = np_xdp_counts_fold(x->vals, NP_XDP_SLOTS, x->cpu_ids, x->ncpu, out);
	if (r == 0 && x->top_sources) {
		r = read_sources(x, &out->sources);
		if (r)
			np_xdp_counts_free(out);
	}
	return r;
}

void np_xdp_stop(struct np_xdp_session *x)
{
	if (!x)
		return;
	if (x->link_fd >= 0)
		close(x->link_fd);	/* the last reference: the kernel detaches the program */
	np_xdp_count__destroy(x->skel);
	free(x->cpu_ids);
	free(x->vals);
	free(x);
}
