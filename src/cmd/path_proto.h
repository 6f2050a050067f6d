/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protocol of netpath serve and netpath path (doc/netpath-path-protocol.md says the same
 * for admins). One TCP port (default 7878) carries the control connection and the data
 * connections; the UDP steps use the same port number over UDP. Every message on the control
 * connection is one line of text (at most NP_WIRE_LINE_MAX bytes, ending in '\n').
 *
 *   path -> serve  HELLO netpath-path/1 CN              CN: 32 random bytes (getrandom), hex
 *   serve -> path  CHALLENGE SN PS                      SN: serve's nonce; PS = HMAC(K,
 *                                                       "netpath-path/1 server" CN SN)
 *                  (or "BUSY ..." and close: a test is running)
 *   path checks PS (a wrong one: the key was refused, exit 3), then
 *   path -> serve  AUTH PC                              PC = HMAC(K, "netpath-path/1 client"
 *                                                       SN CN); wrong: "DENIED ..." and close
 *   path -> serve  TEST duration=D streams=N reverse=R udp=U
 *   serve -> path  OK duration=D' streams=N' ...       capped at serve's limits
 *   path opens N data connections to the same port, each starting with the line
 *                  DATA T I                             T = HMAC(K, "netpath-path/1 data" CN
 *                                                       SN), hex; I = 0..N-1
 *                  serve closes any connection whose first line is not that at once
 *   serve -> path  START                                once all N are in (within 5 s)
 *   then the sender (path; serve with reverse=1) writes for D' seconds on every stream,
 *   sampling tcp_info every 100 ms, and closes them; serve stops reading or writing at D' +
 *   a few seconds by its own clock whatever path does.
 *   serve -> path  REPORT ... END                       its end (report lines: path_wire.c);
 *                                                       with reverse=1 its samples too
 *   with udp=1, for each step k (path_udp.c):
 *   path -> serve  STEP k RATE                          then ~1 s of datagrams to the UDP port,
 *                                                       each starting with T's first 16 bytes
 *   serve -> path  GOT k DATAGRAMS BYTES                what it counted for step k
 *   path -> serve  BYE
 *
 * Neither side ever sends the key. Both read with a deadline: a silent peer is an error after
 * NP_PROTO_TIMEOUT_MS (longer only while a transfer is expected to run).
 */
#ifndef NP_PATH_PROTO_H
#define NP_PATH_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "path_key.h"
#include "path_wire.h"
#include "sha256.h"

#define NP_PATH_PORT 7878
#define NP_PROTO_TIMEOUT_MS 5000
#define NP_PROTO_VERSION "netpath-path/1"
#define NP_PROTO_NONCE 32

/* A control or data connection with its buffered input. */
struct np_conn {
	int fd;
	size_t n;
	char buf[NP_WIRE_LINE_MAX];
};

/* "ADDR", "ADDR:PORT", "[V6]:PORT" or a V6 address alone into *ss: 0, or -1 with err.
 * numeric: refuse host names (serve listens only where told). */
int np_proto_addr(const char *s, bool numeric, struct sockaddr_storage *ss, socklen_t *len,
		  char *err, size_t errlen);
/* "ADDR:PORT" of ss ("[V6]:PORT"). */
void np_proto_addr_str(const struct sockaddr_storage *ss, char *buf, size_t len);

/* A TCP connection to ss within timeout_ms: the fd, or -errno. */
int np_proto_connect(const struct sockaddr_storage *ss, socklen_t len, int timeout_ms);
/* One line (without '\n') into line within timeout_ms: 1, 0 at EOF, -1 with errno
 * (ETIMEDOUT, EMSGSIZE for an overlong line, or the socket's). */
int np_conn_line(struct np_conn *c, char *line, size_t cap, int timeout_ms);
/* All of buf within timeout_ms: 0, or -1 with errno. */
int np_proto_send(int fd, const void *buf, size_t len, int timeout_ms);
int np_proto_sendf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Random bytes from getrandom(2): 0 or -1. */
int np_proto_random(void *buf, size_t len);
/* hex of n bytes into out (2n+1), and back: 0 or -1. */
void np_hex(const uint8_t *b, size_t n, char *out);
int np_unhex(const char *s, uint8_t *b, size_t n);
/* HMAC(K, label || a || b). */
void np_proto_mac(const struct np_path_key *k, const char *label, const uint8_t *a,
		  const uint8_t *b, uint8_t out[NP_SHA256_LEN]);

#endif
