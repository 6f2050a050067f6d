// SPDX-License-Identifier: GPL-2.0-only
/* trace's arrivals from the counter the kernel keeps anyway: one RTM_GETLINK for the traced
 * device before the window and one after. A BPF program on net:netif_receive_skb costs tens
 * of ns on every received packet (bench/results/trace_cost.md); this costs two requests. */
#include "trace_rxcount.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

struct rx_ctx {
	uint64_t rx_packets;
	int found;
};

static int attr_cb(const struct nlattr *a, void *data)
{
	struct rx_ctx *c = data;
	struct rtnl_link_stats64 st;

	if (mnl_attr_get_type(a) != IFLA_STATS64 ||
	    mnl_attr_get_payload_len(a) < offsetof(struct rtnl_link_stats64, rx_bytes))
		return MNL_CB_OK;
	/* The payload is 4-byte aligned: copy before reading the 64-bit fields. */
	memset(&st, 0, sizeof(st));
	memcpy(&st, mnl_attr_get_payload(a), sizeof(st) < mnl_attr_get_payload_len(a) ?
	       sizeof(st) : mnl_attr_get_payload_len(a));
	c->rx_packets = st.rx_packets;
	c->found = 1;
	return MNL_CB_OK;
}

static int msg_cb(const struct nlmsghdr *nlh, void *data)
{
	if (nlh->nlmsg_type != RTM_NEWLINK)
		return MNL_CB_OK;
	return mnl_attr_parse(nlh, sizeof(struct ifinfomsg), attr_cb, data);
}

int np_trace_rx_packets(int ifindex, uint64_t *out)
{
	char buf[32768];	/* one link message; VF details are not asked for */
	struct mnl_socket *nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	struct rx_ctx c = { 0, 0 };
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	unsigned int seq = (unsigned int)time(NULL), port;
	int r = -EIO;
	ssize_t n;

	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto out;
	}
	port = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = ifindex;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out;
	}
	/* One reply: the link message, or an error (the device went away: -ENODEV). */
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0) {
		r = -errno;
		goto out;
	}
	if (mnl_cb_run(buf, (size_t)n, seq, port, msg_cb, &c) < 0) {
		r = errno ? -errno : -EIO;
		goto out;
	}
	if (c.found) {
		*out = c.rx_packets;
		r = 0;
	} else {
		r = -ENODATA;	/* a kernel without IFLA_STATS64 (before 2.6.35) */
	}
out:
	mnl_socket_close(nl);
	return r;
}
