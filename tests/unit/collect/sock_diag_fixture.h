/* SPDX-License-Identifier: GPL-2.0-only */
/* The inet_diag tests' fixture: the recording VM's buffer limits, recorded dumps fed to the
 * stream, and hand-built socket replies. Include after cmocka.h. */
#ifndef NP_TEST_SOCK_DIAG_FIXTURE_H
#define NP_TEST_SOCK_DIAG_FIXTURE_H

#include <stdint.h>
#include "fixture_load.h"
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include "json_writer.h"
#include "render_sockets.h"
#include "snapshot.h"
#include "sock_diag.h"
#include "socket_fold.h"

/* The fixtures' namespace: tcp_rmem/tcp_wmem/rmem_max as the recording VM had them. */
static const struct np_sock_limits lim = {
	{ 4096, 131072, 33554432 }, { 4096, 16384, 4194304 }, 4194304, 4194304, 1,
};

/* tests/fixtures/netlink/NAME (fixture_load.h). */
static inline unsigned char *load(const char *name, size_t *len)
{
	return fixture_load("netlink", name, len);
}

/* Feed a whole recorded dump (the recorder's seq is in its first message). */
static inline struct np_sockets *feed_file(const char *name, uint8_t proto, struct np_sockets *k)
{
	size_t len;
	unsigned char *b = load(name, &len);
	struct np_sock_diag_stream st = { .socks = k, .lim = &lim, .fold = np_socket_fold, .protocol = proto,
					  .seq = ((const struct nlmsghdr *)b)->nlmsg_seq };

	assert_int_equal(np_sock_diag_feed(&st, b, len), 0);	/* ends with NLMSG_DONE */
	assert_int_equal(st.bad, 0);
	free(b);
	np_sockets_finish(k);
	return k;
}

static inline struct np_sockets *new_socks(void)
{
	struct np_sockets *k = malloc(sizeof(*k));

	assert_non_null(k);
	np_sockets_init(k);
	return k;
}

#endif
