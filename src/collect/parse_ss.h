/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * iproute2's socket list text (`ss -tmi`, `ss -tmie`, `ss -tnmi`, `ss -uampi`, sosreport's
 * `ss -peaonmi`, pasted or mail-wrapped) into the records sock_diag gives the live collector
 * (sockets.h), one socket at a time, so that the same fold (the socket checks' judgement) runs
 * on it. Pure: the sosreport collector (sos_ss.c) reads the file, the tests and the fuzzer feed
 * text. What ss did not print stays unknown: no skmem means has_mem false, no tcp_info fields
 * means has_info false, skmem without "d" means nmem 8 (drops not reported, as with a kernel
 * that does not send them), and the counts below say how many sockets lacked each.
 */
#ifndef NP_PARSE_SS_H
#define NP_PARSE_SS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sockets.h"

/* What the text held, for the source's detail line. */
struct np_ss_list_stats {
	uint64_t tcp, udp;		/* sockets handed to the callback */
	uint64_t other;			/* unix, netlink, packet, raw, mptcp...: not ours, skipped */
	uint64_t no_mem;		/* TCP/UDP sockets without skmem:() (ss without -m) */
	uint64_t old_mem;		/* ... of them with the pre-2.6.34 mem:(r,w,f,t) only */
	uint64_t no_drops;		/* skmem without d (ss or kernel before SK_MEMINFO_DROPS) */
	uint64_t tcp_no_info;		/* established TCP without tcp_info fields (ss without -i) */
	uint64_t bad;			/* known fields whose value did not parse (kept unknown) */
	uint64_t lines;			/* lines read */
};

typedef void (*np_ss_rec_fn)(const struct np_sock_rec *r, void *arg);

/*
 * Walk the text: fn gets each TCP and UDP socket once its lines are complete. proto: the
 * protocol of socket lines without a Netid column (ss -t / ss -u print none), IPPROTO_TCP or
 * IPPROTO_UDP, or 0 to tell from the state and fields (UNCONN is UDP, tcp_info fields are TCP,
 * the rest TCP). At most max_sockets are handed over (0: no limit); the rest are counted in
 * *st only. 0 when at least one socket line was read, -EINVAL when none was (not ss text).
 */
int np_parse_ss_list(const char *buf, size_t len, uint8_t proto, uint64_t max_sockets,
		     np_ss_rec_fn fn, void *arg, struct np_ss_list_stats *st);

#endif
