// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz the inet_diag dump walker and message parser (tcp_info of any size, SK_MEMINFO, CC,
 * BBR info), folding every socket into the sockets section as the collector does. */
#include <netinet/in.h>
#include <linux/inet_diag.h>

#include "fuzz.h"
#include "sock_diag.h"
#include "sockets.h"
#include "socket_fold.h"

static const struct np_sock_limits lim = {
	.tcp_rmem = { 4096, 131072, 6291456 },
	.tcp_wmem = { 4096, 16384, 4194304 },
	.rmem_max = 212992,
	.wmem_max = 212992,
	.moderate_rcvbuf = 1,
};

static void feed(const char *buf, size_t len, uint8_t protocol, uint16_t type, uint32_t seq)
{
	static struct np_sockets k;	/* large: keep it off the stack */
	struct np_sock_diag_stream st = { .socks = &k, .lim = &lim, .fold = np_socket_fold, .protocol = protocol,
					  .msg_type = type, .seq = seq };
	int ret;

	np_sockets_init(&k);
	ret = np_sock_diag_feed(&st, buf, len);
	FUZZ_CHECK(ret <= 1 && ret >= -4095);
	FUZZ_CHECK(strnlen(st.errmsg, sizeof(st.errmsg)) < sizeof(st.errmsg));
	np_sockets_finish(&k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_copy(data, size);
	uint32_t seq = 0;

	if (size >= sizeof(struct nlmsghdr))
		seq = ((const struct nlmsghdr *)(const void *)buf)->nlmsg_seq;
	feed(buf, size, IPPROTO_TCP, 0, seq);
	feed(buf, size, IPPROTO_TCP, TCPDIAG_GETSOCK, seq);	/* the one-walk TCP dump */
	feed(buf, size, IPPROTO_UDP, 0, seq);
	free(buf);
	return 0;
}
