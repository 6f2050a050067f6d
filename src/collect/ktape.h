/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel tape: what the kernel answered to netpath's netlink requests and ioctls, recorded
 * by `netpath capture` and replayed by `doctor --root CAPTURE`, so the NIC side (rings,
 * channels, coalescing, RSS, driver counters, link stats64, qdiscs, sockets) is judged offline
 * by the same collectors and parsers as live.
 *
 * An exchange is one request and the reply as the transport received it: the chunks of each
 * recv() in order, then the transport's final error (0 when the reply ended by itself, e.g.
 * -ETIMEDOUT, -EOPNOTSUPP from an ioctl). Replay finds the first unused exchange with the same
 * bus and request (netlink sequence numbers and port ids zeroed) and hands its chunks back with
 * the sequence number of the request being replayed.
 *
 * The file form (kernel.tape in a capture's sample) is little-endian:
 *   "NPKTAPE1" then per exchange: u32 bus, u32 flags, i32 err, u32 req_len, req,
 *   u32 nchunks, then per chunk u32 len, bytes.
 * np_ktape_load() is the parser of that untrusted file (fuzz_ktape).
 */
#ifndef NP_KTAPE_H
#define NP_KTAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum np_ktape_bus {
	NP_KT_GENL = 1,		/* ethtool netlink, netdev qstats, genl control */
	NP_KT_RTNL = 2,		/* links, qdiscs */
	NP_KT_SOCK_DIAG = 3,	/* TCP and UDP socket dumps */
	NP_KT_ETHTOOL_IOCTL = 4,	/* SIOCETHTOOL: request = ifname[16] + the command buffer */
	NP_KT_NFNETLINK = 5,	/* nftables rules (trace, live only: never on a capture yet) */
	NP_KT__MAX = 5,
};

#define NP_KTAPE_CAPPED 1u	/* flags: the reply was longer than the capture keeps */

/* Sizes a tape may have: a capture is read on another machine and must not exhaust it. */
#define NP_KTAPE_MAX_EXCHANGES 4096u
#define NP_KTAPE_MAX_CHUNK (256u * 1024)
/* The socket dumps of one sample are kept up to this many bytes; the rest is left out and the
 * exchange marked capped (a busy server's million sockets would be hundreds of MiB). */
#define NP_KTAPE_SOCK_BYTES (16u << 20)

struct np_ktape_chunk {
	uint8_t *p;
	uint32_t len;
};

struct np_ktape_xchg {
	uint32_t bus;
	uint32_t flags;
	int32_t err;
	uint8_t *req;
	uint32_t req_len;
	struct np_ktape_chunk *chunk;
	uint32_t nchunks;
	bool used;		/* replay: already handed out */
};

struct np_ktape {
	bool recording;
	struct np_ktape_xchg *x;
	size_t n, cap;
	struct np_ktape_xchg *open;	/* recording: the exchange under way */
	uint64_t sock_bytes;		/* recording: socket-dump bytes kept so far */
	uint64_t sock_cap;		/* recording: ... at most (0: NP_KTAPE_SOCK_BYTES) */
	unsigned capped;		/* exchanges cut short at the cap */
};

/* Replay state of one exchange. */
struct np_ktape_play {
	struct np_ktape_xchg *x;
	uint32_t next;
};

void np_ktape_init(struct np_ktape *t, bool recording);
void np_ktape_free(struct np_ktape *t);
/* Replay: which exchanges have answered so far (malloc'd, t->n flags; NULL without memory or
 * exchanges), and put back, so that the same sample collected again from this tape is
 * answered as before (history judges many windows on one replayed configuration). */
bool *np_ktape_used(const struct np_ktape *t);
void np_ktape_set_used(struct np_ktape *t, const bool *used);

/* Recording. A failed allocation drops the exchange (the tape then lacks it: replay reports
 * the request as not captured), never the live collection. */
void np_ktape_begin(struct np_ktape *t, enum np_ktape_bus bus, const void *req, size_t len);
void np_ktape_chunk(struct np_ktape *t, const void *buf, size_t len);
void np_ktape_end(struct np_ktape *t, int err);

/* Replay: 0 and *p set, or -ENOENT when the capture holds no such request (unused). */
int np_ktape_find(struct np_ktape *t, enum np_ktape_bus bus, const void *req, size_t len,
		  struct np_ktape_play *p);
/*
 * The next chunk into buf: its length (> 0); netlink buses get every message's nlmsg_seq set
 * to seq and nlmsg_pid to 0. When the chunks are used up: the recorded final error, or
 * -ENODATA when the reply simply ends there. A capped netlink dump ends with an NLMSG_DONE made
 * here. -EMSGSIZE when a chunk exceeds size.
 */
ssize_t np_ktape_next(struct np_ktape_play *p, void *buf, size_t size, uint32_t seq);
/* For ioctls: the recorded buffer after the call into buf (exactly size bytes recorded, else
 * -EBADMSG) and the call's result. */
int np_ktape_ioctl(struct np_ktape_play *p, void *buf, size_t size);

/* The file form. save: malloc'd. load: 0, or -EBADMSG (truncated, too large, bad magic). */
int np_ktape_save(const struct np_ktape *t, char **buf, size_t *len);
int np_ktape_load(struct np_ktape *t, const void *buf, size_t len);

#endif
