/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sockets section of the snapshot: what sock_diag showed about every TCP and UDP socket,
 * folded while the dump streams by. Its size is fixed whatever the socket count: counters and
 * histograms for the whole population, and short top-N lists (NP_SOCK_TOP) per problem.
 */
#ifndef NP_SOCKETS_H
#define NP_SOCKETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Entries kept per problem list. */
#define NP_SOCK_TOP 16
/* RTT histogram: NP_SOCK_RTT_SUB buckets per power of two of microseconds, from 1 µs to 2^32 µs
 * (71 minutes); bucket i holds [2^(i/SUB), 2^((i+1)/SUB)) µs, about 19% wide. */
#define NP_SOCK_RTT_SUB 4
#define NP_SOCK_RTT_BUCKETS (32 * NP_SOCK_RTT_SUB)
/* Congestion control names tracked separately; the rest are summed under "other". */
#define NP_SOCK_MAX_CC 8
/* TCP states as the kernel numbers them (TCP_ESTABLISHED 1 ... TCP_NEW_SYN_RECV 12). */
#define NP_SOCK_TCP_STATES 13
/* Fewer RTT samples than this are not a distribution worth deriving a BDP from. */
#define NP_SOCK_RTT_MIN_SAMPLES 10

/*
 * Which TCP sockets a collection asked sock_diag for. A full walk visits the kernel's
 * established hash, which is global unless the namespace was given its own
 * (tcp_child_ehash_entries): its cost follows every socket of the host, 0.3 s of CPU at 200,000.
 * A listeners walk visits the listening hash only (idiag_states = LISTEN makes inet_diag skip
 * the established one): its cost follows the listeners. UDP is dumped whole in both.
 */
enum np_sock_walk {
	NP_SOCK_WALK_FULL,
	NP_SOCK_WALK_LISTEN,
};

/* What the collector needs from the sysctls to classify a socket while streaming. NP_NA-free:
 * -1 when unknown, and the classifications that need the value are then not made. */
struct np_sock_limits {
	int64_t tcp_rmem[3], tcp_wmem[3];
	int64_t rmem_max, wmem_max;
	int moderate_rcvbuf;		/* tcp_moderate_rcvbuf, -1 unknown */
};

/* One socket as sock_diag describes it (the parser's output; one at a time, never stored). */
struct np_sock_rec {
	uint8_t family;			/* AF_INET, AF_INET6 */
	uint8_t protocol;		/* IPPROTO_TCP, IPPROTO_UDP */
	uint8_t state;			/* TCP_* numbering (UDP: 7 = unconnected, 1 = connected) */
	uint16_t sport, dport;		/* host byte order */
	uint8_t saddr[16], daddr[16];	/* IPv4 in the first 4 bytes */
	uint32_t inode, uid;
	uint64_t cookie;
	uint32_t rqueue, wqueue;	/* listener: accept queue length and its limit */
	bool has_mem;			/* INET_DIAG_SKMEMINFO */
	uint32_t mem[9];		/* SK_MEMINFO_RMEM_ALLOC .. _DROPS (missing = 0) */
	unsigned nmem;			/* how many the kernel sent */
	bool has_info;			/* INET_DIAG_INFO (tcp_info) */
	size_t info_len;		/* bytes the kernel sent: tells which fields exist */
	char cc[16];			/* INET_DIAG_CONG, "" if absent */
	bool has_bbr;
	uint64_t bbr_bw;		/* bytes/s */
	uint32_t bbr_min_rtt;		/* µs */
	/* tcp_info, the fields we use; 0 when the kernel's struct was too short to hold them. */
	uint8_t ca_state;
	uint32_t rtt, rttvar, min_rtt, rcv_rtt;	/* µs; min_rtt ~0U = no sample */
	uint32_t snd_cwnd, snd_mss, rcv_mss, rcv_ssthresh, rcv_space, snd_wnd, rcv_wnd;
	uint32_t total_retrans, segs_out, segs_in, lost, last_data_recv;
	uint64_t bytes_acked, bytes_received, bytes_sent, bytes_retrans;
	uint64_t delivery_rate, pacing_rate;	/* bytes/s */
	uint64_t busy_time, rwnd_limited, sndbuf_limited;	/* µs */
};

/* Offsets into np_sock_rec.mem (SK_MEMINFO_*). */
enum { NP_SKMEM_RMEM_ALLOC, NP_SKMEM_RCVBUF, NP_SKMEM_WMEM_ALLOC, NP_SKMEM_SNDBUF,
       NP_SKMEM_FWD_ALLOC, NP_SKMEM_WMEM_QUEUED, NP_SKMEM_OPTMEM, NP_SKMEM_BACKLOG,
       NP_SKMEM_DROPS, NP_SKMEM__COUNT };

/* Who a socket in a top list is. */
struct np_sock_id {
	uint8_t family, state;
	uint16_t sport, dport;
	uint8_t saddr[16], daddr[16];
	uint32_t inode;
	uint64_t cookie;
	int32_t pid;			/* owning process (np_sockets_map_owners), -1 unknown */
	char comm[16];
};

/* A listener whose accept queue is full or nearly so, or that dropped connections. */
struct np_sock_listener {
	struct np_sock_id id;
	uint32_t queued, limit;		/* accept queue now and min(backlog, somaxconn) */
	uint64_t drops;			/* SK_MEMINFO_DROPS: listen drops since it was created;
					 * NP_NA-style UINT64_MAX when not reported */
};

/* A UDP socket that dropped datagrams (or whose queue is full now). */
struct np_sock_udp {
	struct np_sock_id id;
	uint64_t drops;			/* since the socket was created */
	uint32_t rmem_alloc, rcvbuf;	/* bytes (truesize) */
};

/* A TCP flow whose buffer limits it. */
enum {
	NP_SOCKF_RCV_LIMITED = 1 << 0,	/* receives a full window per RTT (rcv_space vs rcvbuf) */
	NP_SOCKF_SND_LIMITED = 1 << 1,	/* sndbuf_limited >= 10% of busy time */
	NP_SOCKF_RWND_LIMITED = 1 << 2,	/* the peer's window: rwnd_limited >= 10% of busy time */
	NP_SOCKF_RCVBUF_MAX = 1 << 3,	/* rcvbuf at tcp_rmem[2] */
	NP_SOCKF_SNDBUF_MAX = 1 << 4,	/* sndbuf at tcp_wmem[2] */
	NP_SOCKF_RCVBUF_PINNED = 1 << 5,	/* rcvbuf looks set by SO_RCVBUF (socket_fold.c) */
	NP_SOCKF_SNDBUF_PINNED = 1 << 6,	/* sndbuf looks set by SO_SNDBUF */
};

struct np_sock_flow {
	struct np_sock_id id;
	unsigned flags;			/* NP_SOCKF_* */
	char cc[16];
	uint32_t rtt_us, min_rtt_us;
	uint32_t rcvbuf, sndbuf, rcv_space, rmem_alloc;
	uint32_t total_retrans, segs_out;
	uint64_t bytes_received, bytes_acked, bytes_retrans;
	uint64_t delivery_rate;		/* bytes/s */
	uint64_t busy_us, rwnd_limited_us, sndbuf_limited_us;
};

/* Per congestion control algorithm, over established TCP sockets. */
struct np_sock_cc {
	char name[16];			/* "" for the "other" row */
	uint64_t sockets, retrans, segs_out, bytes_sent, bytes_retrans;
	uint64_t long_rtt;		/* of them with min_rtt >= 20 ms */
};

/* A top-N list: kept entries (best first) and how many qualified in all. */
#define NP_SOCK_LIST(type, name) \
	struct { uint32_t n; uint64_t total; type e[NP_SOCK_TOP]; } name

struct np_sockets {
	/* Population. */
	uint64_t tcp_total, tcp_v4, tcp_v6;
	uint64_t tcp_state[NP_SOCK_TCP_STATES];
	uint64_t udp_total, udp_v4, udp_v6;
	uint64_t udp_drops;		/* sum of SK_MEMINFO_DROPS over UDP sockets */
	uint64_t udp_with_drops;	/* UDP sockets with drops > 0 */
	uint64_t listeners, listen_full, listen_near;	/* near: queue >= 3/4 of the limit */
	uint64_t listen_drops;		/* sum of listeners' SK_MEMINFO_DROPS */
	uint64_t listen_v6;		/* of the listeners, IPv6 ones */
	uint64_t no_info;		/* established TCP sockets without tcp_info */
	/* Established TCP, loopback excluded: RTT distributions (µs buckets). */
	uint64_t rtt_n, min_rtt_n;
	uint32_t rtt_hist[NP_SOCK_RTT_BUCKETS], min_rtt_hist[NP_SOCK_RTT_BUCKETS];
	/* Established TCP: time shares (µs, sums over sockets since each was created). */
	uint64_t busy_us, rwnd_limited_us, sndbuf_limited_us;
	uint64_t rcv_limited, snd_limited, rwnd_limited;	/* sockets per NP_SOCKF_ class */
	uint64_t rcvbuf_max, rcvbuf_pinned, sndbuf_max, sndbuf_pinned;	/* of the limited */
	/* Congestion control in use. */
	uint32_t ncc;
	struct np_sock_cc cc[NP_SOCK_MAX_CC + 1];	/* the last row is "other" */
	/* Problem lists, worst first. */
	NP_SOCK_LIST(struct np_sock_listener, listen);	/* full/near queues or drops */
	NP_SOCK_LIST(struct np_sock_udp, udp);		/* drops, or queue at rcvbuf */
	NP_SOCK_LIST(struct np_sock_flow, ceiling);	/* limited at tcp_rmem[2]/wmem[2] */
	NP_SOCK_LIST(struct np_sock_flow, pinned);	/* limited with SO_RCVBUF/SO_SNDBUF */
	NP_SOCK_LIST(struct np_sock_flow, lossy);	/* long RTT, >= 1% retransmitted */
	/* Derived by np_sockets_finish(): percentiles in ms (NAN without samples). */
	double rtt_p50_ms, rtt_p90_ms, rtt_p99_ms;
	double min_rtt_p50_ms, min_rtt_p90_ms, min_rtt_p99_ms;
	char rtt_source[64];		/* "measured (p90 of N TCP sockets)" */
	unsigned bad;			/* messages that did not parse */
	/* Where the TCP sockets other than listeners come from: this collection's full walk,
	 * or (flows_carried) an earlier one's, copied by np_sockets_carry_flows(). */
	enum np_sock_walk walk;		/* what this collection asked sock_diag for */
	/* A listeners walk that saw every TCP socket there is: sockstat counts no TCP socket of
	 * the namespace but these listeners (TIME_WAIT aside), so no flow was left unwalked. */
	bool only_listeners;
	bool flows_carried;
	double flows_t;			/* monotonic time of that full walk; NAN: none yet */
	bool owners_mapped;		/* np_sockets_map_owners ran */
};

/* Flow thresholds of the fold's classification (checks reuse them in their texts). */
#define NP_SOCK_LONG_RTT_US 20000u	/* the lossy list: min RTT from 20 ms */
#define NP_SOCK_LOSSY_PERMILLE 10u	/* ... and >= 1% of segments retransmitted */
#define NP_SOCK_MIN_SEGS 1000u		/* fewer segments make a loss rate meaningless */
#define NP_SOCK_LIMITED_PCT 10u		/* limited for >= 10% of the busy time */

void np_sockets_init(struct np_sockets *k);
/* The same on a k already all zero (a snapshot's, just cleared whole): only the fields that do
 * not start at 0. Its ~14 KB were cleared twice per snapshot (issue #35). */
void np_sockets_init_zeroed(struct np_sockets *k);
/* Folds one socket into the section while a dump streams in: counts, histograms and the top
 * lists of the sockets it judges at risk. The judgement is the checks' (np_socket_fold); the
 * collector calls whichever fold the command gave it, once per dump message. */
typedef void np_sock_fold_fn(struct np_sockets *k, const struct np_sock_rec *r,
			     const struct np_sock_limits *lim);
/*
 * After a listeners walk (cur->walk == NP_SOCK_WALK_LISTEN): copy into cur everything about TCP
 * sockets that are not listeners from walk, the section of the last full walk (state counts,
 * RTT histograms and percentiles, congestion control rows, time shares, the flow lists), and
 * mark cur->flows_carried with walk's flows_t. Listeners and UDP stay cur's own. A walk that
 * is itself not full carries nothing.
 */
void np_sockets_carry_flows(struct np_sockets *cur, const struct np_sockets *walk);
/* After the dump: percentiles and the RTT source text. */
void np_sockets_finish(struct np_sockets *k);
/* The q-quantile (0..1) of a histogram in ms, NAN when empty. */
double np_sockets_quantile_ms(const uint32_t *hist, uint64_t n, double q);
/* Histogram bucket of an RTT in µs. */
unsigned np_sockets_rtt_bucket(uint32_t us);
/* Loopback (127/8, ::1, ::ffff:127/104) or a socket to one of its own addresses. */
bool np_sock_is_local(uint8_t family, const uint8_t *saddr, const uint8_t *daddr);
/* "192.0.2.1:80", "[2001:db8::1]:443" */
const char *np_sock_addr_str(uint8_t family, const uint8_t *addr, uint16_t port, char *buf,
			     unsigned size);
/* An entry of prev's list with the same inode and port, NULL if none (interval deltas). */
const struct np_sock_udp *np_sockets_find_udp(const struct np_sockets *k, uint32_t inode,
					      uint16_t port);
const struct np_sock_listener *np_sockets_find_listener(const struct np_sockets *k,
							uint32_t inode, uint16_t port);

#endif
