/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --udp-steps: fixed-rate UDP steps after the TCP transfer, path sending and serve counting
 * (protocol: path_proto.h). The ladder: 10 Mbit/s doubling, up to twice the TCP rate measured
 * (at least two steps, at most NP_PATH_MAX_STEPS, never above 10 Gbit/s), 1 s each. Each
 * datagram starts with the test token's first 16 bytes: serve counts no other.
 */
#ifndef NP_PATH_UDP_H
#define NP_PATH_UDP_H

#include <sys/socket.h>

#include "path_proto.h"

#define NP_UDP_FIRST_BPS 10e6	/* the first step when the TCP rate is unknown */
#define NP_UDP_MAX_BPS 10e9
#define NP_UDP_STEP_S 1.0
#define NP_UDP_PAYLOAD 1200
#define NP_UDP_TAG 16

/* The rates of the ladder for a TCP rate: their count (fills rates[NP_PATH_MAX_STEPS]). */
size_t np_udp_ladder(double tcp_bps, double *rates);

/* path: every step of the ladder to peer's UDP port, each announced and then asked for its
 * count on the control connection; r->steps filled. 0, or -1 with err. */
int np_udp_steps_send(struct np_conn *ctrl, const struct sockaddr_storage *peer,
		      socklen_t plen, const uint8_t *tag, double tcp_bps,
		      struct np_path_result *r, char *err, size_t errlen);
/* serve: answer STEP lines until BYE, EOF or silence, counting tagged datagrams on the UDP
 * port of local. 0, or -1. */
int np_udp_steps_serve(struct np_conn *ctrl, const struct sockaddr_storage *local,
		       socklen_t llen, const uint8_t *tag, int lfd);

#endif
