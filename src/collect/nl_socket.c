// SPDX-License-Identifier: GPL-2.0-only
/* Netlink socket set-up shared by the generic netlink and sock_diag collectors. */
#include "nl_socket.h"
#include "log.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/netlink.h>

struct mnl_socket *np_nl_socket_open(int bus, int timeout_ms, const char *who, int *err)
{
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	struct mnl_socket *nl = mnl_socket_open2(bus, SOCK_CLOEXEC);
	int one = 1;

	if (!nl) {
		*err = -errno;
		return NULL;
	}
	/* Both best effort: pre-4.12 kernels have no extack and still answer; CAP_ACK only
	 * keeps the kernel from echoing our request back in every error. */
	if (mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one)) < 0)
		np_dbg("%s: NETLINK_EXT_ACK: %s", who, strerror(errno));
	if (mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one)) < 0)
		np_dbg("%s: NETLINK_CAP_ACK: %s", who, strerror(errno));
	if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		*err = -errno;
		mnl_socket_close(nl);
		return NULL;
	}
	return nl;
}
