/* SPDX-License-Identifier: GPL-2.0-only */
/* A libmnl socket set up the way every netpath netlink conversation needs it. */
#ifndef NETPATH_NL_SOCKET_H
#define NETPATH_NL_SOCKET_H

#include <libmnl/libmnl.h>

/* Open and bind a socket on BUS (NETLINK_GENERIC, NETLINK_SOCK_DIAG, ...) with extended
 * acks, capped acks and a receive timeout of timeout_ms, so no reply can hang the caller.
 * Returns NULL with *err = -errno. who names the caller in debug messages. */
struct mnl_socket *np_nl_socket_open(int bus, int timeout_ms, const char *who, int *err);

#endif
