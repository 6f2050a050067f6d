// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NIC side of a snapshot from a sosreport: what the live collectors ask over ethtool
 * netlink, SIOCETHTOOL and rtnetlink, read instead from the outputs of the same questions that
 * sos asked with ethtool, ip and tc. Each source says which file it came from, or which file
 * the sosreport lacked (ABSENT, never a zero), or that the driver did not support it.
 */
#include "sos.h"
#include "collect.h"
#include "sos_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void src(struct np_snapshot *s, enum np_source id, enum np_src_status st, int err,
		const char *fmt, ...)
{
	va_list ap;

	np_srcp(s, id)->status = st;
	np_srcp(s, id)->err = err < 0 ? -err : err;
	va_start(ap, fmt);
	vsnprintf(np_srcp(s, id)->detail, sizeof(np_srcp(s, id)->detail), fmt, ap);
	va_end(ap);
}

/* A parser's verdict on FILE as the source's status. */
static void verdict(struct np_snapshot *s, enum np_source id, int r, const char *file,
		    const char *what)
{
	switch (r) {
	case 0:
		src(s, id, NP_SRC_OK, 0, "from sosreport %s", file);
		break;
	case -EBADMSG:
		src(s, id, NP_SRC_PARTIAL, r, "from sosreport %s (some lines unreadable)", file);
		break;
	case -EOPNOTSUPP:
		src(s, id, NP_SRC_UNSUPPORTED, r, "driver does not report %s (sosreport %s)", what,
		    file);
		break;
	case -ENODEV:
		src(s, id, NP_SRC_ABSENT, r, "ethtool found no such device (sosreport %s)", file);
		break;
	case -EPERM:
		src(s, id, NP_SRC_DENIED, r, "sos's command was refused (sosreport %s)", file);
		break;
	case -ENODATA:
		src(s, id, NP_SRC_ABSENT, r, "sosreport %s is empty (the command failed)", file);
		break;
	case -ENOENT:
		src(s, id, NP_SRC_ABSENT, r, "the sosreport has no %s", file);
		break;
	case -ENOMEM:
		src(s, id, NP_SRC_ABSENT, r, "out of memory reading %s", file);
		break;
	default:
		src(s, id, NP_SRC_MALFORMED, r, "sosreport %s: not in a layout netpath knows", file);
		break;
	}
}

typedef int (*ethtool_parse_fn)(const char *buf, size_t len, struct np_snapshot *s);

static int p_drvinfo(const char *b, size_t n, struct np_snapshot *s)
{
	return np_parse_ethtool_i(b, n, &s->eth);
}

static int p_rings(const char *b, size_t n, struct np_snapshot *s)
{
	return np_parse_ethtool_g(b, n, &s->eth.rings);
}

static int p_channels(const char *b, size_t n, struct np_snapshot *s)
{
	return np_parse_ethtool_l(b, n, &s->eth.channels);
}

static int p_coalesce(const char *b, size_t n, struct np_snapshot *s)
{
	return np_parse_ethtool_c(b, n, &s->eth.coalesce);
}

static int p_features(const char *b, size_t n, struct np_snapshot *s)
{
	return np_parse_ethtool_k(b, n, &s->eth.features);
}

static int p_pause(const char *b, size_t n, struct np_snapshot *s)
{
	return np_parse_ethtool_a(b, n, &s->eth.pause);
}

static int p_drv_stats(const char *b, size_t n, struct np_snapshot *s)
{
	return np_parse_ethtool_S(b, n, &s->eth.drv_stats);
}

static int p_settings(const char *b, size_t n, struct np_snapshot *s)
{
	int link, r = np_parse_ethtool_settings(b, n, &s->eth.link, &link);

	/* The sysfs collector's carrier is better evidence; sos copies no carrier file. */
	if (s->dev.carrier < 0 && link >= 0)
		s->dev.carrier = link;
	return r;
}

static const struct {
	enum np_source id;
	const char *prefix;
	const char *what;
	ethtool_parse_fn parse;
} ethtool_reads[] = {
	{ NP_SRC_ETHTOOL_DRVINFO, "ethtool_-i_", "driver info", p_drvinfo },
	{ NP_SRC_ETHTOOL_LINKMODES, "ethtool_", "link modes", p_settings },
	{ NP_SRC_ETHTOOL_RINGS, "ethtool_-g_", "rings", p_rings },
	{ NP_SRC_ETHTOOL_CHANNELS, "ethtool_-l_", "channels", p_channels },
	{ NP_SRC_ETHTOOL_COALESCE, "ethtool_-c_", "coalescing", p_coalesce },
	{ NP_SRC_ETHTOOL_FEATURES, "ethtool_-k_", "features", p_features },
	{ NP_SRC_ETHTOOL_PAUSE, "ethtool_-a_", "pause settings", p_pause },
	{ NP_SRC_DRIVER_STATS, "ethtool_-S_", "statistics", p_drv_stats },
};

static void ethtool(const struct np_ctx *ctx, struct np_snapshot *s)
{
	for (size_t i = 0; i < sizeof(ethtool_reads) / sizeof(ethtool_reads[0]); i++) {
		char file[128], *buf;
		size_t len;
		int r = np_sos_read(ctx, "networking", ethtool_reads[i].prefix, s->ifname, &buf,
				    &len, file, sizeof(file));

		if (r == 0)
			r = ethtool_reads[i].parse(buf, len, s);
		free(buf);
		verdict(s, ethtool_reads[i].id, r, file, ethtool_reads[i].what);
	}
	if (!s->dev.driver[0] && np_src_ok(s, NP_SRC_ETHTOOL_DRVINFO))
		snprintf(s->dev.driver, sizeof(s->dev.driver), "%s", s->eth.driver);
	if (!np_has(s->dev.speed_mbps) && np_has(s->eth.link.speed_mbps))
		s->dev.speed_mbps = s->eth.link.speed_mbps;
	if (!s->dev.duplex[0] && s->eth.link.duplex >= 0)
		snprintf(s->dev.duplex, sizeof(s->dev.duplex), "%s",
			 s->eth.link.duplex ? "full" : "half");
	/* What no sos version collects: said as such, not as an empty answer. */
	src(s, NP_SRC_ETHTOOL_STATS, NP_SRC_ABSENT, ENOENT,
	    "sos does not run ethtool -S --all-groups (standard statistics)");
	src(s, NP_SRC_ETHTOOL_RSS, NP_SRC_ABSENT, ENOENT,
	    "sos does not run ethtool -x (RSS indirection table)");
	src(s, NP_SRC_QSTATS, NP_SRC_ABSENT, ENOENT,
	    "sos does not collect netdev per-queue statistics");
}

/* ip -s -d link: the file name changed with sos versions (see tests/fixtures/sos/README.md). */
static const char *const ip_link_files[] = {
	"sos_commands/networking/ip_-s_-d_link",	/* 3.5+ */
	"sos_commands/networking/ip_-s_-s_-d_link",	/* some distributions' 4.x */
	"sos_commands/networking/ip_-s_link",		/* 3.3-3.4 */
	"sos_commands/networking/ip_link",		/* 3.0-3.2 (no counters) */
	"sos_commands/networking/ip_-d_address",	/* MTU, qdisc and kind, no counters */
	"sos_commands/networking/ip_address",
	NULL,
};

static const char *base(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* ifindex of NAME in the same output ("master bond0" -> its index), 0 if not there. */
static int index_of(const char *buf, size_t len, const char *name)
{
	struct np_ip_link l;
	int r;

	if (!name[0])
		return 0;
	r = np_parse_ip_link(buf, len, name, &l);
	return r == 0 || r == -EBADMSG ? l.ifindex : 0;
}

static void ip_link(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct np_ip_link l, cand;
	const char *which = NULL, *first = NULL;
	char *buf = NULL;
	size_t len = 0;
	int r = -ENOENT;

	/* The first file that has the interface with counters; else the first that has it. */
	for (size_t i = 0; ip_link_files[i]; i++) {
		char *b;
		size_t n;
		int e = np_read_file(ctx, NP_TOP, ip_link_files[i], &b, &n);

		if (e == -ENOENT)
			continue;
		if (!first)
			first = ip_link_files[i];
		if (e == 0)
			e = np_parse_ip_link(b, n, s->ifname, &cand);
		if ((e == 0 || e == -EBADMSG) && (!buf || cand.has_stats)) {
			free(buf);
			buf = b;
			len = n;
			l = cand;
			r = e;
			which = ip_link_files[i];
			if (cand.has_stats)
				break;
			continue;
		}
		free(b);
		if (!buf && !which) {
			r = e;
			which = ip_link_files[i];
		}
	}
	if (!first) {
		src(s, NP_SRC_RTNL_LINK, NP_SRC_ABSENT, ENOENT,
		    "the sosreport has no ip -s -d link (nor ip link / ip address)");
		return;
	}
	if (!buf) {
		if (r == -ENOENT)
			src(s, NP_SRC_RTNL_LINK, NP_SRC_ABSENT, ENOENT, "%s is not in sosreport %s",
			    s->ifname, base(which));
		else
			verdict(s, NP_SRC_RTNL_LINK, r, base(which), "link");
		return;
	}
	s->rtnl.mtu = l.mtu;
	s->rtnl.txqlen = l.qlen;
	snprintf(s->rtnl.operstate, sizeof(s->rtnl.operstate), "%s", l.operstate);
	snprintf(s->rtnl.kind, sizeof(s->rtnl.kind), "%s", l.kind);
	s->rtnl.master = index_of(buf, len, l.master);
	s->rtnl.link = index_of(buf, len, l.parent);
	s->rtnl.xdp_attached = l.xdp;
	if (l.has_stats) {
		s->rtnl.has_stats64 = true;
		s->rtnl.stats64 = l.stats;
	}
	/* What sysfs would have said, where sos did not copy it. */
	if (!np_has(s->dev.mtu))
		s->dev.mtu = l.mtu;
	if (!np_has(s->dev.tx_queue_len))
		s->dev.tx_queue_len = l.qlen;
	if (!np_has(s->dev.ifindex) && l.ifindex > 0)
		s->dev.ifindex = (uint64_t)l.ifindex;
	if (!s->dev.operstate[0])
		snprintf(s->dev.operstate, sizeof(s->dev.operstate), "%s", l.operstate);
	if (s->dev.admin_up < 0)
		s->dev.admin_up = l.admin_up;
	if (s->dev.carrier < 0)
		s->dev.carrier = l.carrier;
	/* sos copies no carrier_changes file; ip -s -s prints it as "transns". */
	if (!np_has(s->dev.carrier_changes))
		s->dev.carrier_changes = l.carrier_changes;
	if (!s->dev.master[0])
		snprintf(s->dev.master, sizeof(s->dev.master), "%s", l.master);
	if (s->dev.is_virtual < 0 && l.kind[0]) {
		s->dev.is_virtual = 1;
		snprintf(s->dev.kind_hint, sizeof(s->dev.kind_hint), "%s", l.kind);
	}
	/* sos copies little of sysfs (3.9+: flags and statistics/; older: nothing): without
	 * ifindex or MTU the sysfs collector calls the device unreadable. ip link says both. */
	if (!np_src_ok(s, NP_SRC_NETDEV) && np_has(l.mtu)) {
		char path[64];

		if (!s->dev.name[0])
			snprintf(s->dev.name, sizeof(s->dev.name), "%s", s->ifname);
		snprintf(path, sizeof(path), "class/net/%s/statistics", s->ifname);
		if (np_exists(ctx, NP_SYS, path))
			src(s, NP_SRC_NETDEV, NP_SRC_PARTIAL, 0,
			    "sysfs partly copied by sos (statistics/, flags): MTU and state from "
			    "sosreport %s", base(which));
		else
			src(s, NP_SRC_NETDEV, NP_SRC_PARTIAL, 0,
			    "sysfs not copied by sos: MTU, state and counters from sosreport %s",
			    base(which));
	}
	if (r == -EBADMSG)
		src(s, NP_SRC_RTNL_LINK, NP_SRC_PARTIAL, EBADMSG,
		    "from sosreport %s (some lines unreadable)", base(which));
	else if (!l.has_stats)
		src(s, NP_SRC_RTNL_LINK, NP_SRC_PARTIAL, 0,
		    "from sosreport %s: no counters in it", base(which));
	else
		src(s, NP_SRC_RTNL_LINK, NP_SRC_OK, 0, "from sosreport %s", base(which));
	free(buf);
}

static void qdiscs(const struct np_ctx *ctx, struct np_snapshot *s)
{
	static const char file[] = "tc_-s_qdisc_show";
	char path[64], *buf;
	size_t len, n0 = s->rtnl.nqdisc;
	int r;

	snprintf(path, sizeof(path), "sos_commands/networking/%s", file);
	r = np_read_file(ctx, NP_TOP, path, &buf, &len);
	if (r == 0) {
		r = np_parse_tc_qdisc(buf, len, s->ifname, &s->rtnl);
		free(buf);
	}
	if ((r == 0 || r == -EBADMSG) && s->rtnl.nqdisc == n0) {
		/* Every interface has a qdisc line in tc's output, "noqueue" included. */
		src(s, NP_SRC_RTNL_QDISC, NP_SRC_ABSENT, ENOENT, "%s is not in sosreport %s",
		    s->ifname, file);
		return;
	}
	verdict(s, NP_SRC_RTNL_QDISC, r == -E2BIG ? -EBADMSG : r, file, "qdiscs");
}

/* lspci: the PCIe link of the NIC when sysfs (which sos does not copy for PCI) lacks it. */
static void pcie(const struct np_ctx *ctx, struct np_snapshot *s)
{
	static const char *const files[] = {
		"sos_commands/pci/lspci_-nnvv", "sos_commands/pci/lspci_-nvv", NULL };
	const char *bdf = s->eth.bus_info[0] ? s->eth.bus_info : s->dev.bus_id, *which;
	struct np_pcie p = s->pcie;
	char *buf;
	size_t len;
	int r;

	if (np_src_ok(s, NP_SRC_PCIE_LINK))
		return;
	if (!bdf[0] || !strchr(bdf, ':'))
		return;	/* not a PCI device (or unknown): the sysfs verdict stands */
	r = np_sos_read_first(ctx, files, &buf, &len, &which);
	if (r == 0) {
		r = np_parse_lspci_link(buf, len, bdf, &p);
		free(buf);
	}
	if (r == -ENOENT && !np_exists(ctx, NP_TOP, which)) {
		src(s, NP_SRC_PCIE_LINK, NP_SRC_ABSENT, ENOENT, "the sosreport has no lspci -nnvv");
		return;
	}
	if (r == -ENOENT) {
		src(s, NP_SRC_PCIE_LINK, NP_SRC_ABSENT, ENOENT,
		    "%s has no PCI Express link in sosreport %s", bdf, base(which));
		return;
	}
	if (r == 0 || r == -EBADMSG) {
		s->pcie = p;
		snprintf(s->pcie.bdf, sizeof(s->pcie.bdf), "%.31s", bdf);
		if (np_has(p.mps) && !np_src_ok(s, NP_SRC_PCIE_CONFIG))
			src(s, NP_SRC_PCIE_CONFIG, NP_SRC_OK, 0, "from sosreport %s", base(which));
	}
	verdict(s, NP_SRC_PCIE_LINK, r, base(which), "a PCIe link");
}

/* lscpu: the CPU count when sos did not copy /sys/devices/system/cpu/online (sos 3.x). */
static void cpus(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct np_cpuset *online;
	unsigned n = 0;
	char *buf;
	size_t len;

	if (np_src_ok(s, NP_SRC_CPU_ONLINE))
		return;
	if (np_read_file(ctx, NP_TOP, "sos_commands/processor/lscpu", &buf, &len) < 0)
		return;
	online = malloc(sizeof(*online));
	if (online && np_parse_lscpu(buf, len, &n, online) >= -EBADMSG && n) {
		s->hs->host.online = *online;
		s->hs->host.ncpu_online = n;
		s->hs->host.ncpu_from = "sosreport lscpu";
	}
	free(online);
	free(buf);
}

void np_collect_sos_nic(const struct np_ctx *ctx, struct np_snapshot *s)
{
	np_rtnl_free(&s->rtnl);
	ethtool(ctx, s);
	ip_link(ctx, s);
	qdiscs(ctx, s);
	pcie(ctx, s);
	cpus(ctx, s);
	if (!s->hs->host.kernel[0] && ctx->origin && ctx->origin->kernel[0])
		snprintf(s->hs->host.kernel, sizeof(s->hs->host.kernel), "%.63s",
			 ctx->origin->kernel);
}
