// SPDX-License-Identifier: GPL-2.0-only
/*
 * What one inet_diag dump of TCP/IPv4 costs the kernel, by what it asks for (bench/
 * sockdiag_walk_cost.sh): every state with watch's full extensions, every state without
 * extensions, LISTEN only, and every state with a bytecode filter that rejects every socket or
 * keeps one source port. Prints CPU (user + system, getrusage) per dump and replies per dump.
 * Usage: sockdiag_walk_cost MODE REPS   (MODE: full noext listen reject port PORT)
 */
#include <libmnl/libmnl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static double cpu(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec +
	       r.ru_stime.tv_usec / 1e6;
}

static long nmsg;

static int cb(const struct nlmsghdr *n, void *d)
{
	(void)n;
	(void)d;
	nmsg++;
	return MNL_CB_OK;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	const char *mode = argc > 1 ? argv[1] : "full";
	int reps = argc > 2 ? atoi(argv[2]) : 5;
	unsigned port = argc > 3 ? (unsigned)atoi(argv[3]) : 2000;
	struct mnl_socket *nl = mnl_socket_open(NETLINK_SOCK_DIAG);
	double t0;

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("sock_diag");
		return 1;
	}
	t0 = cpu();
	for (int r = 0; r < reps; r++) {
		struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
		struct inet_diag_req_v2 *req;
		int ret;

		nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		nlh->nlmsg_seq = (unsigned)r + 1;
		req = mnl_nlmsg_put_extra_header(nlh, sizeof(*req));
		req->sdiag_family = AF_INET;
		req->sdiag_protocol = IPPROTO_TCP;
		req->idiag_states = ~0u;
		req->idiag_ext = 1 << (INET_DIAG_INFO - 1) | 1 << (INET_DIAG_CONG - 1) |
				 1 << (INET_DIAG_SKMEMINFO - 1) | 1 << (INET_DIAG_VEGASINFO - 1);
		if (!strcmp(mode, "noext")) {
			req->idiag_ext = 0;
		} else if (!strcmp(mode, "listen")) {
			req->idiag_states = 1u << TCP_LISTEN;
			req->idiag_ext = 1 << (INET_DIAG_SKMEMINFO - 1);
		} else if (!strcmp(mode, "reject") || !strcmp(mode, "port")) {
			/* sport == P: yes -> the end (accept), no -> past the end (reject). For
			 * "reject" P is 1, which no socket here has. */
			struct inet_diag_bc_op ops[2] = {
				{ INET_DIAG_BC_S_EQ, 8, 12 },
				{ 0, 0, (unsigned short)(!strcmp(mode, "port") ? port : 1) },
			};

			mnl_attr_put(nlh, INET_DIAG_REQ_BYTECODE, sizeof(ops), ops);
		} else if (strcmp(mode, "full")) {
			fprintf(stderr, "unknown mode %s\n", mode);
			return 2;
		}
		if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
			perror("send");
			return 1;
		}
		while ((ret = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0) {
			ret = mnl_cb_run(buf, (size_t)ret, (unsigned)r + 1, 0, cb, NULL);
			if (ret <= 0)
				break;
		}
		if (ret < 0) {
			perror("dump");
			return 1;
		}
	}
	printf("%s %.3f %ld\n", mode, (cpu() - t0) * 1000 / reps, nmsg / reps);
	return 0;
}
