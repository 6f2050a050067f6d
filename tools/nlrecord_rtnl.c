// SPDX-License-Identifier: GPL-2.0-only
/*
 * nlrecord_rtnl: records rtnetlink replies as raw message bytes for the unit tests, and writes
 * the hand-built replies this machine cannot produce. See tests/fixtures/netlink/README.md.
 *   nlrecord_rtnl link IFACE OUT      the RTM_GETLINK reply, as received
 *   nlrecord_rtnl qdisc IFACE OUT     the RTM_GETQDISC dump, every recv() through NLMSG_DONE
 *   nlrecord_rtnl badlink IFACE OUT   a RTM_GETLINK strict checking rejects (extended ack)
 *   nlrecord_rtnl peer IFINDEX NSID OUT  RTM_GETLINK of ifindex in namespace nsid (ours numbers
 *                                     it: IFLA_TARGET_NETNSID), as a veth's peer is asked
 *   nlrecord_rtnl nsid NSFILE OUT     RTM_GETNSID of the namespace file (NETNSA_FD)
 *   nlrecord_rtnl synth DIR           the hand-built fixtures, rtnl_*.bin
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/net_namespace.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "rtnl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define BUF (64 * 1024)
#define SEQ 4242	/* the seq of every hand-built message */
#define OPER_UP 6	/* IF_OPER_UP; <linux/if.h> clashes with <net/if.h> */

static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Send one request and save every byte of the reply as received. */
static int record(struct nl_msg *msg, int ifindex, const char *out)
{
	struct timeval tv = { .tv_sec = 2 };
	struct np_rtnl_stream st = { .ifindex = ifindex };
	struct np_rtnl r;
	unsigned char *buf = malloc(BUF), *all = NULL;
	size_t nall = 0;
	struct nl_sock *sk = nl_socket_alloc();
	int one = 1, rc = -1, fd;

	np_rtnl_init(&r);
	if (!buf || !sk || nl_connect(sk, NETLINK_ROUTE) < 0)
		goto out;
	nl_socket_disable_auto_ack(sk);
	fd = nl_socket_get_fd(sk);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_GET_STRICT_CHK, &one, sizeof(one));
	if (nl_send_auto(sk, msg) < 0)
		goto out;
	st.seq = nlmsg_hdr(msg)->nlmsg_seq;
	st.portid = nl_socket_get_local_port(sk);
	while (!st.done) {
		ssize_t n = recv(fd, buf, BUF, MSG_TRUNC);
		unsigned char *na;

		if (n <= 0 || n > BUF) {
			fprintf(stderr, "recv: %s\n", n < 0 ? strerror(errno) : "truncated");
			goto out;
		}
		na = realloc(all, nall + (size_t)n);
		if (!na)
			goto out;
		all = na;
		memcpy(all + nall, buf, (size_t)n);
		nall += (size_t)n;
		np_rtnl_parse_stream(buf, (size_t)n, &st, &r);
	}
	fprintf(stderr, "%s: %zu bytes, err %d, %zu qdiscs\n", out, nall, st.err, r.nqdisc);
	rc = write_file(out, all, nall);
out:
	np_rtnl_free(&r);
	nl_socket_free(sk);
	free(buf);
	free(all);
	return rc;
}

static struct nl_msg *getlink(const char *ifname, unsigned flags)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_flags = flags };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_REQUEST);

	nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO);
	nla_put_string(m, IFLA_IFNAME, ifname);
	return m;
}

static struct nl_msg *getpeer(int ifindex, int nsid)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_REQUEST);

	nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO);
	nla_put_s32(m, IFLA_TARGET_NETNSID, nsid);
	return m;
}

static struct nl_msg *getnsid(int fd)
{
	struct rtgenmsg g = { .rtgen_family = AF_UNSPEC };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETNSID, NLM_F_REQUEST);

	nlmsg_append(m, &g, sizeof(g), NLMSG_ALIGNTO);
	nla_put_u32(m, NETNSA_FD, (uint32_t)fd);
	return m;
}

static int record_qdisc(const char *ifname, const char *out)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = (int)if_nametoindex(ifname) };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP);
	int rc;

	nlmsg_append(m, &tcm, sizeof(tcm), NLMSG_ALIGNTO);
	rc = record(m, tcm.tcm_ifindex, out);
	nlmsg_free(m);
	return rc;
}

/* ---- hand-built replies ---- */

struct out {
	unsigned char *buf;
	size_t len;
};

/* Append a finished message (padded to NLMSG_ALIGN) and free it. */
static void put(struct out *o, struct nl_msg *m, unsigned flags)
{
	struct nlmsghdr *h = nlmsg_hdr(m);
	size_t n = NLMSG_ALIGN(h->nlmsg_len);

	h->nlmsg_seq = SEQ;
	h->nlmsg_pid = 0;
	h->nlmsg_flags |= flags;
	o->buf = realloc(o->buf, o->len + n);
	memset(o->buf + o->len, 0, n);
	memcpy(o->buf + o->len, h, h->nlmsg_len);
	o->len += n;
	nlmsg_free(m);
}

static int flush(struct out *o, const char *dir, const char *name, size_t cut)
{
	char path[1024];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = write_file(path, o->buf, cut ? cut : o->len);
	free(o->buf);
	o->buf = NULL;
	o->len = 0;
	return rc;
}

/* Stats field i = base + i, so a test can tell every field (and its offset) apart. */
static struct nl_msg *newlink(int ifindex, const char *name, size_t stats_len, uint64_t base)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex,
				 .ifi_flags = IFF_UP | IFF_RUNNING };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWLINK, 0);
	uint64_t st[25];

	for (size_t i = 0; i < 25; i++)
		st[i] = base + i;
	nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO);
	nla_put_string(m, IFLA_IFNAME, name);
	nla_put_u32(m, IFLA_TXQLEN, 10000);
	nla_put_u8(m, IFLA_OPERSTATE, OPER_UP);
	nla_put_u32(m, IFLA_MTU, 9000);
	if (stats_len)
		nla_put(m, IFLA_STATS64, (int)stats_len, st);
	return m;
}

static void put_xdp(struct nl_msg *m, uint8_t mode, uint32_t id, uint32_t drv, uint32_t skb)
{
	struct nlattr *x = nla_nest_start(m, IFLA_XDP);

	nla_put_u8(m, IFLA_XDP_ATTACHED, mode);
	if (id)
		nla_put_u32(m, IFLA_XDP_PROG_ID, id);
	if (drv)
		nla_put_u32(m, IFLA_XDP_DRV_PROG_ID, drv);
	if (skb)
		nla_put_u32(m, IFLA_XDP_SKB_PROG_ID, skb);
	nla_nest_end(m, x);
}

/* The wire layouts of struct tc_stats (36 bytes used) and gnet_stats_{basic,queue}. */
static void put_stats(struct nl_msg *m, bool legacy, bool v2, uint64_t bytes, uint64_t pkts,
		      uint32_t drops, uint32_t over, uint32_t requeues, uint32_t qlen,
		      uint32_t backlog)
{
	if (legacy) {
		unsigned char ts[40] = { 0 };
		uint32_t p32 = (uint32_t)pkts;

		memcpy(ts, &bytes, 8);
		memcpy(ts + 8, &p32, 4);
		memcpy(ts + 12, &drops, 4);
		memcpy(ts + 16, &over, 4);
		memcpy(ts + 28, &qlen, 4);
		memcpy(ts + 32, &backlog, 4);
		nla_put(m, TCA_STATS, sizeof(ts), ts);
	}
	if (v2) {
		struct nlattr *n = nla_nest_start(m, TCA_STATS2);
		unsigned char b[16] = { 0 };
		uint32_t q[5] = { qlen, backlog, drops, requeues, over };
		uint32_t p32 = (uint32_t)pkts;

		memcpy(b, &bytes, 8);
		memcpy(b + 8, &p32, 4);
		nla_put(m, TCA_STATS_BASIC, sizeof(b), b);
		nla_put_u64(m, TCA_STATS_PKT64, pkts);
		nla_put(m, TCA_STATS_QUEUE, sizeof(q), q);
		nla_nest_end(m, n);
	}
}

static struct nl_msg *newqdisc(int ifindex, const char *kind, uint32_t handle, uint32_t parent)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex,
			     .tcm_handle = handle, .tcm_parent = parent };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWQDISC, 0);

	nlmsg_append(m, &tcm, sizeof(tcm), NLMSG_ALIGNTO);
	nla_put_string(m, TCA_KIND, kind);
	return m;
}

static struct nl_msg *done_msg(int err)
{
	struct nl_msg *m = nlmsg_alloc_simple(NLMSG_DONE, 0);

	nlmsg_append(m, &err, sizeof(err), NLMSG_ALIGNTO);
	return m;
}

static int synth(const char *dir)
{
	struct out o = { 0 };
	struct nl_msg *m;
	int rc = 0;

	/* A 4.x kernel: IFLA_STATS64 ends at tx_compressed, so no rx_nohandler. */
	m = newlink(7, "eth9", NP_RTNL_STATS64_BASE, 1000);
	put_xdp(m, XDP_ATTACHED_NONE, 0, 0, 0);
	put(&o, m, 0);
	rc |= flush(&o, dir, "rtnl_link_old184.bin", 0);

	/* A native XDP program, id 42, as an mlx5 or i40e with xdp-loader attached would show. */
	m = newlink(7, "eth9", NP_RTNL_STATS64_OTHERHOST, 2000);
	put_xdp(m, XDP_ATTACHED_DRV, 42, 0, 0);
	put(&o, m, 0);
	rc |= flush(&o, dir, "rtnl_link_xdp_drv.bin", 0);

	/* Native and generic programs at once: only the per-mode ids are sent. */
	m = newlink(7, "eth9", NP_RTNL_STATS64_NOHANDLER, 3000);
	put_xdp(m, XDP_ATTACHED_MULTI, 0, 42, 7);
	put(&o, m, 0);
	rc |= flush(&o, dir, "rtnl_link_xdp_multi.bin", 0);

	/* A reply cut short: nlmsg_len promises more than the 100 bytes that arrived. */
	m = newlink(7, "eth9", NP_RTNL_STATS64_OTHERHOST, 4000);
	put(&o, m, 0);
	rc |= flush(&o, dir, "rtnl_link_truncated.bin", 100);

	/* A whole message whose last attribute (IFLA_STATS64) claims more than is left. */
	m = newlink(7, "eth9", 0, 0);
	{
		struct nlattr bad = { .nla_len = 208, .nla_type = IFLA_STATS64 };

		nlmsg_append(m, &bad, sizeof(bad), NLMSG_ALIGNTO);
	}
	put(&o, m, 0);
	rc |= flush(&o, dir, "rtnl_link_badattr.bin", 0);

	/*
	 * An mq root with four fq children that dropped 10/20/30/40 packets (mq's own numbers are
	 * the sum of its children, as the kernel reports them), a clsact, a qdisc of another
	 * interface the filter must drop, a message for another request, then NLMSG_DONE.
	 */
	m = newqdisc(7, "mq", 0x80010000, TC_H_ROOT);
	put_stats(m, true, true, 400000, 4000, 100, 0, 4, 0, 0);
	put(&o, m, NLM_F_MULTI);
	for (uint32_t i = 1; i <= 4; i++) {
		m = newqdisc(7, "fq", (0x8001 + i) << 16, 0x80010000 | i);
		put_stats(m, true, true, 100000, 1000, 10 * i, 5 * i, 1, i, 1514 * i);
		put(&o, m, NLM_F_MULTI);
	}
	m = newqdisc(7, "clsact", 0xffff0000, TC_H_CLSACT);
	put_stats(m, true, true, 600, 6, 3, 0, 0, 0, 0);
	put(&o, m, NLM_F_MULTI);
	m = newqdisc(8, "pfifo_fast", 0, TC_H_ROOT);
	put_stats(m, true, true, 1, 1, 99, 0, 0, 0, 0);
	put(&o, m, NLM_F_MULTI);
	m = newqdisc(7, "noqueue", 0, TC_H_ROOT);
	put_stats(m, true, true, 1, 1, 77, 0, 0, 0, 0);
	put(&o, m, NLM_F_MULTI);
	{
		/* Patch the last message's seq: a stale reply to an earlier request. */
		struct nlmsghdr *last = NULL;
		size_t off = 0;

		while (off < o.len) {
			last = (struct nlmsghdr *)(o.buf + off);
			off += NLMSG_ALIGN(last->nlmsg_len);
		}
		last->nlmsg_seq = SEQ - 1;
	}
	put(&o, done_msg(0), NLM_F_MULTI);
	rc |= flush(&o, dir, "rtnl_qdisc_mq4fq.bin", 0);

	/* A kernel without TCA_STATS2 (or a qdisc that only fills the legacy struct). */
	m = newqdisc(7, "pfifo", 0x10000, TC_H_ROOT);
	put_stats(m, true, false, 123456, 789, 12, 3, 0, 2, 3028);
	put(&o, m, NLM_F_MULTI);
	put(&o, done_msg(0), NLM_F_MULTI);
	rc |= flush(&o, dir, "rtnl_qdisc_legacy.bin", 0);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct nl_msg *m;
	int rc;

	if (argc == 3 && strcmp(argv[1], "synth") == 0)
		return synth(argv[2]);
	if (argc == 5 && strcmp(argv[1], "peer") == 0) {
		m = getpeer(atoi(argv[2]), atoi(argv[3]));
		rc = record(m, 0, argv[4]);
		nlmsg_free(m);
		return rc ? 1 : 0;
	}
	if (argc == 4 && strcmp(argv[1], "nsid") == 0) {
		int fd = open(argv[2], O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		m = getnsid(fd);
		rc = record(m, 0, argv[3]);
		nlmsg_free(m);
		close(fd);
		return rc ? 1 : 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: nlrecord_rtnl link|qdisc|badlink IFACE OUT | peer IFINDEX "
			"NSID OUT | nsid NSFILE OUT | synth DIR\n");
		return 2;
	}
	if (strcmp(argv[1], "qdisc") == 0)
		return record_qdisc(argv[2], argv[3]) ? 1 : 0;
	if (strcmp(argv[1], "link") == 0)
		m = getlink(argv[2], 0);
	else if (strcmp(argv[1], "badlink") == 0)
		m = getlink(argv[2], IFF_UP);	/* ifi_flags must be 0 in a strict GETLINK */
	else
		return 2;
	rc = record(m, 0, argv[3]);
	nlmsg_free(m);
	return rc ? 1 : 0;
}
