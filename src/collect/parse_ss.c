// SPDX-License-Identifier: GPL-2.0-only
/*
 * iproute2 `ss` socket lists (parse_ss.h). The layouts, from misc/ss.c's history (iproute2 git):
 *   - a socket line "[Netid] State Recv-Q Send-Q Local:Port Peer:Port [extras]": Netid only
 *     when more than one kind was asked for (-a, -tu, sos's -peaonmi); listeners show the
 *     accept queue and its limit as Recv-Q/Send-Q; IPv6 as "[::1]:22" since 4.13 (aba9c23a,
 *     2017), "::1:22" before; the IPv6 wildcard as "*", IPv4's as "0.0.0.0" ("*" in old
 *     versions); "%ifname" before the port; service names instead of ports without -n;
 *   - -e/-o/-p extras on the same line or the next: "timer:(...)", "uid:N", "ino:N",
 *     "sk:cookie", "users:((...))", "cgroup:...", "fwmark:0x..", "<->";
 *   - -m: "skmem:(r,rb,t,tb,f,w,o,bl[,d])" since 3.4 (910b0397, 2012), d since 4.7 (6df9c7a0,
 *     2016, kernels with SK_MEMINFO_DROPS); "mem:(r,w,f,t)" before 3.4 and on kernels
 *     without INET_DIAG_SKMEMINFO, without the buffer sizes;
 *   - -i: on a tab-indented line (one line since the column renderer, wrapped at 80 columns
 *     by older ss on a terminal, by mailers in pastes, unindented in some tools' captures):
 *     the cc name, "rtt:%g/%g" ms, "minrtt:%g" (4.6), "cwnd:N", "bytes_acked/received:N"
 *     (4.2), "retrans:cur/total", "busy:Nms", "rwnd_limited:Nms(P%)", "sndbuf_limited:..."
 *     (4.10), "snd_wnd:N" (5.18), "rcv_wnd:N" (6.6), "delivery_rate 1.2Mbps" (rates as
 *     "%.3gk/M/G/T" bps since 5.7, 8142c762; "%.1fK/M/G" before; plain "%.0f" with -n on some);
 *     ss leaves out most fields that are zero (lastrcv, busy, retrans, bytes_*).
 * Any line that does not start a socket belongs to the socket before it: its tokens are read
 * by name, so a line wrapped between tokens still parses; a token cut in two is not a known
 * field and is skipped. Unknown tokens are ignored, a known one with a bad value is counted.
 */
#include "parse_ss.h"
#include "parse_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

enum kind { K_NONE, K_TCP, K_UDP, K_GUESS, K_OTHER };

struct cur {
	enum kind kind;
	bool open, info, mem, drops, old_mem;
	struct np_sock_rec r;
};

static const struct { const char *name; uint8_t state; } states[] = {
	{ "ESTAB", 1 }, { "SYN-SENT", 2 }, { "SYN-RECV", 3 }, { "FIN-WAIT-1", 4 },
	{ "FIN-WAIT-2", 5 }, { "TIME-WAIT", 6 }, { "UNCONN", 7 }, { "CLOSE-WAIT", 8 },
	{ "LAST-ACK", 9 }, { "LISTEN", 10 }, { "CLOSING", 11 }, { "NEW-SYN-RECV", 12 },
	{ "BOUND-INACTIVE", 7 },
};

/* Netids of the kinds we do not judge (ss.c's tables over the years). */
static const char *const other_netids[] = {
	"raw", "u_str", "u_dgr", "u_seq", "nl", "p_raw", "p_dgr", "dccp", "sctp", "tipc",
	"v_str", "v_dgr", "v_seq", "xdp", "mptcp", "icmp", "icmp6", "u_sp", "???",
};

/* Linux congestion control modules, printed bare on the info line. */
static const char *const ccs[] = {
	"cubic", "reno", "bbr", "bbr2", "bbr3", "dctcp", "htcp", "westwood", "bic", "vegas",
	"illinois", "hybla", "highspeed", "scalable", "lp", "veno", "yeah", "nv", "cdg", "prague",
};

static int state_of(const char *t, size_t tl)
{
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (np_tok_eq(t, tl, states[i].name))
			return states[i].state;
	return -1;
}

static bool in_list(const char *t, size_t tl, const char *const *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (np_tok_eq(t, tl, l[i]))
			return true;
	return false;
}

/* "34.249", "0.008", "4.29497e+06" (%g), in thousandths: ms -> µs, Mbps -> Kbps. */
static bool milli(const char *t, size_t tl, uint64_t *v)
{
	uint64_t ip = 0, frac = 0, scale = 1000;
	size_t i = 0;
	unsigned nd = 0;
	int e = 0;

	while (i < tl && t[i] >= '0' && t[i] <= '9' && nd < 15) {
		ip = ip * 10 + (uint64_t)(t[i++] - '0');
		nd++;
	}
	if (!nd)
		return false;
	if (i < tl && t[i] == '.') {
		i++;
		for (unsigned k = 0; i < tl && t[i] >= '0' && t[i] <= '9'; i++, k++)
			if (k < 3) {
				frac = frac * 10 + (uint64_t)(t[i] - '0');
				scale /= 10;
			}
		frac *= scale;
	}
	if (i + 1 < tl && t[i] == 'e' && (t[i + 1] == '+' || t[i + 1] == '-')) {
		bool neg = t[i + 1] == '-';

		for (i += 2; i < tl && t[i] >= '0' && t[i] <= '9' && e < 100; i++)
			e = e * 10 + (t[i] - '0');
		if (neg)
			e = -e;
	}
	if (i != tl || e > 12 || e < -6)
		return false;
	*v = ip * 1000 + frac;
	for (; e > 0; e--) {
		if (*v > UINT64_MAX / 10)
			return false;
		*v *= 10;
	}
	for (; e < 0; e++)
		*v /= 10;
	return true;
}

static bool u32_of(const char *t, size_t tl, uint32_t *v)
{
	uint64_t x;

	if (!np_tok_u64(t, tl, &x) || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	return true;
}

/* "452.4Kbps", "452kbps", "682000000bps", "1.72Gbps", "1.2Tbps" (sprint_bw) into bytes/s. */
static bool rate(const char *t, size_t tl, uint64_t *bytes)
{
	uint64_t m, mul = 1;

	if (tl < 4 || memcmp(t + tl - 3, "bps", 3))
		return false;
	tl -= 3;
	if (tl && t[tl - 1] && strchr("KkMGT", t[tl - 1])) {
		mul = t[tl - 1] == 'M' ? 1000000ull : t[tl - 1] == 'G' ? 1000000000ull :
		      t[tl - 1] == 'T' ? 1000000000000ull : 1000;
		tl--;
	}
	if (!milli(t, tl, &m) || m / 1000 > UINT64_MAX / 8 / mul)
		return false;
	*bytes = m / 8 * mul / 1000;
	return true;
}

/* "Nms" (busy:) and "Nms(P%)" (rwnd_limited:, sndbuf_limited:) into µs. */
static bool ms_share(const char *t, size_t tl, uint64_t *us)
{
	size_t n = 0;
	uint64_t v;

	while (n < tl && t[n] >= '0' && t[n] <= '9')
		n++;
	if (n + 2 > tl || t[n] != 'm' || t[n + 1] != 's' || (n + 2 < tl && t[n + 2] != '('))
		return false;
	if (!np_tok_u64(t, n, &v) || v > UINT64_MAX / 1000)
		return false;
	*us = v * 1000;
	return true;
}

/* skmem:(r0,rb131072,t0,tb16384,f0,w0,o0,bl0,d0): the values by their letters. */
static bool skmem(const char *t, size_t tl, struct np_sock_rec *r, unsigned *n)
{
	static const char *const keys[NP_SKMEM__COUNT] = { "r", "rb", "t", "tb", "f", "w", "o",
							   "bl", "d" };
	size_t i = 0;
	unsigned k = 0;

	if (tl < 2 || t[0] != '(' || t[tl - 1] != ')')
		return false;
	t++;
	tl -= 2;
	while (i < tl && k < NP_SKMEM__COUNT) {
		size_t s = i, kl = strlen(keys[k]), e;

		while (i < tl && t[i] != ',')
			i++;
		e = i++;
		if (e - s <= kl || memcmp(t + s, keys[k], kl) || !u32_of(t + s + kl, e - s - kl,
									  &r->mem[k]))
			return false;
		k++;
	}
	if (i < tl || k < 7)
		return false;
	*n = k;
	return true;
}

/* "bbr:(bw:1.2Mbps,mrtt:0.1,pacing_gain:2.88672,cwnd_gain:2.88672)" */
static void bbr(const char *t, size_t tl, struct np_sock_rec *r)
{
	size_t i = 1;

	if (tl < 2 || t[0] != '(')
		return;
	while (i < tl) {
		size_t s = i;
		uint64_t v;

		while (i < tl && t[i] != ',' && t[i] != ')')
			i++;
		if (i - s > 3 && !memcmp(t + s, "bw:", 3) && rate(t + s + 3, i - s - 3, &v)) {
			r->bbr_bw = v;
			r->has_bbr = true;
		} else if (i - s > 5 && !memcmp(t + s, "mrtt:", 5) && milli(t + s + 5, i - s - 5, &v) &&
			   v <= UINT32_MAX) {
			r->bbr_min_rtt = (uint32_t)v;
		}
		i++;
	}
}

/* "1.2.3.4:80", "[2001:db8::1]:443", "::1:22", "*:53", "127.0.0.53%lo:53" */
static bool address(const char *t, size_t tl, uint8_t *family, uint8_t *addr, uint16_t *port)
{
	char a[INET6_ADDRSTRLEN + 2];
	const char *c = NULL;
	size_t al;
	uint64_t p;

	for (size_t i = tl; i > 0; i--)
		if (t[i - 1] == ':') {
			c = t + i - 1;
			break;
		}
	if (!c)
		return false;
	al = (size_t)(c - t);
	*port = np_tok_u64(c + 1, tl - al - 1, &p) && p <= 65535 ? (uint16_t)p : 0;
	for (size_t i = 0; i < al; i++)
		if (t[i] == '%')
			al = i;	/* the interface scope: not part of the address */
	if (al >= 2 && t[0] == '[' && t[al - 1] == ']') {
		t++;
		al -= 2;
	}
	if (al == 1 && t[0] == '*')
		return true;	/* wildcard: family from the other side, address zero */
	if (!al || al >= sizeof(a))
		return false;
	memcpy(a, t, al);
	a[al] = '\0';
	if (inet_pton(AF_INET, a, addr) == 1) {
		*family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, a, addr) == 1) {
		*family = AF_INET6;
		return true;
	}
	return false;
}

/* One token of an info or extras line ("name:value", or a bare word and its value). */
static void field(struct cur *c, const char *t, size_t tl, const char *next, size_t nl,
		  bool *used_next, struct np_ss_list_stats *st)
{
	struct np_sock_rec *r = &c->r;
	const char *colon = memchr(t, ':', tl);
	size_t kl = colon ? (size_t)(colon - t) : tl, vl = colon ? tl - kl - 1 : 0;
	const char *v = colon ? colon + 1 : NULL;
	uint64_t x = 0;
	bool ok = true, info = true;

#define KEY(s) (kl == sizeof(s) - 1 && !memcmp(t, s, kl))
	if (!colon) {
		if (in_list(t, tl, ccs, sizeof(ccs) / sizeof(ccs[0])) && tl < sizeof(r->cc)) {
			memcpy(r->cc, t, tl);
			r->cc[tl] = '\0';
		} else if ((np_tok_eq(t, tl, "delivery_rate") || np_tok_eq(t, tl, "pacing_rate")) &&
			   next) {
			const char *sl = memchr(next, '/', nl);	/* "pacing_rate 6.2Mbps/12Mbps" */

			*used_next = true;
			ok = rate(next, sl ? (size_t)(sl - next) : nl, &x);
			if (ok && t[0] == 'd')
				r->delivery_rate = x;
			else if (ok)
				r->pacing_rate = x;
		} else {
			info = false;	/* ts, sack, app_limited, send, <->, ... */
		}
	} else if (KEY("skmem")) {
		unsigned n;

		info = false;
		memset(r->mem, 0, sizeof(r->mem));
		ok = skmem(v, vl, r, &n);
		if (ok) {
			c->mem = r->has_mem = true;
			r->nmem = n;
			c->drops = n > NP_SKMEM_DROPS;
		}
	} else if (KEY("mem")) {
		info = false;
		c->old_mem = true;
	} else if (KEY("ino")) {
		info = false;
		ok = u32_of(v, vl, &r->inode);
	} else if (KEY("uid")) {
		info = false;
		ok = u32_of(v, vl, &r->uid);
	} else if (KEY("rtt")) {
		const char *sl = memchr(v, '/', vl);
		uint64_t y = 0;

		ok = sl && milli(v, (size_t)(sl - v), &x) && milli(sl + 1, vl - (size_t)(sl - v) - 1,
								   &y) && x <= UINT32_MAX && y <= UINT32_MAX;
		if (ok) {
			r->rtt = (uint32_t)x;
			r->rttvar = (uint32_t)y;
		}
	} else if (KEY("minrtt") || KEY("rcv_rtt")) {
		ok = milli(v, vl, &x) && x <= UINT32_MAX;
		if (ok && t[0] == 'm')
			r->min_rtt = (uint32_t)x;
		else if (ok)
			r->rcv_rtt = (uint32_t)x;
	} else if (KEY("retrans")) {
		const char *sl = memchr(v, '/', vl);

		ok = sl && u32_of(sl + 1, vl - (size_t)(sl - v) - 1, &r->total_retrans);
	} else if (KEY("busy") || KEY("rwnd_limited") || KEY("sndbuf_limited")) {
		ok = ms_share(v, vl, &x);
		if (ok)
			*(KEY("busy") ? &r->busy_time : KEY("rwnd_limited") ? &r->rwnd_limited :
			  &r->sndbuf_limited) = x;
	} else if (KEY("bytes_acked") || KEY("bytes_received") || KEY("bytes_sent") ||
		   KEY("bytes_retrans")) {
		ok = np_tok_u64(v, vl, &x);
		if (ok)
			*(KEY("bytes_acked") ? &r->bytes_acked : KEY("bytes_received") ?
			  &r->bytes_received : KEY("bytes_sent") ? &r->bytes_sent :
			  &r->bytes_retrans) = x;
	} else if (KEY("bbr")) {
		bbr(v, vl, r);
	} else {
		static const char *const u32s[] = { "mss", "rcvmss", "cwnd", "rcv_space",
			"rcv_ssthresh", "segs_out", "segs_in", "lost", "lastrcv", "snd_wnd", "rcv_wnd" };
		uint32_t *dst[] = { &r->snd_mss, &r->rcv_mss, &r->snd_cwnd, &r->rcv_space,
			&r->rcv_ssthresh, &r->segs_out, &r->segs_in, &r->lost, &r->last_data_recv,
			&r->snd_wnd, &r->rcv_wnd };
		size_t i = 0;

		while (i < sizeof(u32s) / sizeof(u32s[0]) && !(kl == strlen(u32s[i]) &&
							      !memcmp(t, u32s[i], kl)))
			i++;
		if (i < sizeof(u32s) / sizeof(u32s[0]))
			ok = u32_of(v, vl, dst[i]);
		else
			info = KEY("rto") || KEY("wscale") || KEY("ato") || KEY("ssthresh");
	}
#undef KEY
	if (!ok)
		st->bad++;
	else if (info)
		c->info = true;
}

static void finish(struct cur *c, uint8_t proto, uint64_t max, np_ss_rec_fn fn, void *arg,
		   struct np_ss_list_stats *st)
{
	struct np_sock_rec *r = &c->r;

	if (!c->open || c->kind == K_OTHER)
		goto out;
	if (c->kind == K_GUESS)
		c->kind = proto == IPPROTO_UDP ? K_UDP : proto == IPPROTO_TCP ? K_TCP :
			  c->info || r->state != 7 ? K_TCP : K_UDP;
	r->protocol = c->kind == K_UDP ? IPPROTO_UDP : IPPROTO_TCP;
	if (r->protocol == IPPROTO_UDP) {
		r->state = r->state == 7 ? 7 : 1;
		st->udp++;
	} else {
		st->tcp++;
	}
	if (!c->mem) {
		st->no_mem++;
		st->old_mem += c->old_mem;
	} else if (!c->drops) {
		st->no_drops++;
	}
	if (r->protocol == IPPROTO_TCP && c->info) {
		r->has_info = true;	/* info_len stays 0: no kernel struct; fields ss left out
					 * read 0, as for a kernel too old to send them */
	}
	st->tcp_no_info += r->protocol == IPPROTO_TCP && r->state == 1 && !c->info;
	if (!max || st->tcp + st->udp <= max)
		fn(r, arg);
out:
	memset(c, 0, sizeof(*c));
}

/* A socket line: [Netid] State Recv-Q Send-Q Local Peer. False if l is not one. */
static bool socket_line(struct cur *c, const char *l, size_t ll, size_t *i)
{
	const char *t, *tk[5];
	size_t tl, tkl[5], j = *i;
	enum kind kind = K_GUESS;
	uint64_t rq, sq;
	int state;

	if (!np_tok_next(l, ll, &j, &t, &tl))
		return false;
	if (np_tok_eq(t, tl, "tcp") || np_tok_eq(t, tl, "udp") ||
	    in_list(t, tl, other_netids, sizeof(other_netids) / sizeof(other_netids[0]))) {
		kind = t[0] == 't' && t[1] == 'c' ? K_TCP : tl == 3 && t[0] == 'u' && t[1] == 'd' ?
		       K_UDP : K_OTHER;
		if (!np_tok_next(l, ll, &j, &t, &tl))
			return false;
	}
	state = state_of(t, tl);
	if (state < 0)
		return false;
	for (int k = 0; k < 4; k++)
		if (!np_tok_next(l, ll, &j, &tk[k], &tkl[k]))
			return false;
	if (!np_tok_u64(tk[0], tkl[0], &rq) || !np_tok_u64(tk[1], tkl[1], &sq))
		return false;
	memset(c, 0, sizeof(*c));
	c->open = true;
	c->kind = kind;
	c->r.state = (uint8_t)state;
	c->r.rqueue = rq > UINT32_MAX ? UINT32_MAX : (uint32_t)rq;
	c->r.wqueue = sq > UINT32_MAX ? UINT32_MAX : (uint32_t)sq;
	if (kind != K_OTHER) {
		uint8_t fl = 0, fp = 0;

		/* A local or peer address that is not one (unix paths, a cut line): not ours. */
		if (!address(tk[2], tkl[2], &fl, c->r.saddr, &c->r.sport) ||
		    !address(tk[3], tkl[3], &fp, c->r.daddr, &c->r.dport))
			c->kind = K_OTHER;
		c->r.family = fl ? fl : fp ? fp : AF_INET;
		if (fl && fp && fl != fp)
			c->kind = K_OTHER;
	}
	*i = j;
	return true;
}

int np_parse_ss_list(const char *buf, size_t len, uint8_t proto, uint64_t max_sockets,
		     np_ss_rec_fn fn, void *arg, struct np_ss_list_stats *st)
{
	struct cur c;
	const char *l;
	size_t ll, pos = 0;
	bool any = false;

	memset(st, 0, sizeof(*st));
	memset(&c, 0, sizeof(c));
	if (!buf)
		return -EINVAL;
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		const char *t, *n = NULL;
		size_t i = 0, tl, nl = 0;
		bool have;

		st->lines++;
		if (memchr(l, '\0', ll))
			break;	/* binary: the text ends here */
		if (ll && l[0] != ' ' && l[0] != '\t') {
			struct cur next;

			if (socket_line(&next, l, ll, &i)) {
				finish(&c, proto, max_sockets, fn, arg, st);
				c = next;
				any = true;
			}
		}
		if (!c.open || c.kind == K_OTHER)
			continue;
		have = np_tok_next(l, ll, &i, &t, &tl);
		while (have) {
			bool used = false;
			size_t j = i;

			if (np_tok_next(l, ll, &j, &n, &nl) == false)
				n = NULL;
			field(&c, t, tl, n, nl, &used, st);
			if (used) {
				i = j;
				have = np_tok_next(l, ll, &i, &t, &tl);
			} else if (n) {
				t = n;
				tl = nl;
				i = j;
			} else {
				have = false;
			}
		}
	}
	finish(&c, proto, max_sockets, fn, arg, st);
	return any ? 0 : -EINVAL;
}
