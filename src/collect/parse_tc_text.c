// SPDX-License-Identifier: GPL-2.0-only
/*
 * `tc -s qdisc show` text: the qdiscs of one interface with their counters. Tested against
 * iproute2 6.1 (Debian 12) and the layout tc has printed since 3.x:
 *   qdisc mq 0: dev eth0 root
 *    Sent 652580 bytes 8624 pkt (dropped 0, overlimits 0 requeues 0)
 *    backlog 0b 0p requeues 0
 *   qdisc fq_codel 0: dev eth0 parent :1 limit 10240p flows 1024 ...
 *   qdisc ingress ffff: dev eth0 parent ffff:fff1 ----------------
 * Kind-specific lines (fq_codel's "maxpacket ...", fq's "flows ...") are skipped. The backlog is
 * printed with a unit ("0b", "12Kb", "1.5Mb", 1024-based).
 */
#include "sos_text.h"
#include "parse_util.h"
#include "text_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TC_ROOT		0xFFFFFFFFu	/* TC_H_ROOT */
#define TC_INGRESS	0xFFFFFFF1u	/* TC_H_INGRESS (clsact sits there too) */
#define MAX_QDISCS	4096		/* as the rtnetlink collector's cap */

/* "8001:" or "0:" (handle), ":1", "1:2", "ffff:fff1" (parent): major:minor in hex. */
static bool tc_handle(struct np_slice v, uint32_t *out)
{
	const char *c = memchr(v.p, ':', v.n);
	uint32_t maj = 0, min = 0;

	if (!c)
		return false;
	for (const char *p = v.p; p < c; p++) {
		int d = np_hex_digit(*p);

		if (d < 0 || maj > 0xFFF)
			return false;
		maj = maj << 4 | (uint32_t)d;
	}
	for (const char *p = c + 1; p < v.p + v.n; p++) {
		int d = np_hex_digit(*p);

		if (d < 0 || min > 0xFFF)
			return false;
		min = min << 4 | (uint32_t)d;
	}
	*out = maj << 16 | min;
	return true;
}

/* "0b", "1514b", "12Kb", "1.5Mb", "2Gb" -> bytes. */
static bool tc_size(const char *t, size_t tl, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, fdiv = 1, mul = 1;
	size_t i = 0;

	if (tl < 2 || t[tl - 1] != 'b')
		return false;
	tl--;
	if (tl && (t[tl - 1] == 'K' || t[tl - 1] == 'M' || t[tl - 1] == 'G')) {
		mul = t[tl - 1] == 'K' ? 1024 : t[tl - 1] == 'M' ? 1024 * 1024 : 1024 * 1024 * 1024;
		tl--;
	}
	if (!tl)
		return false;
	for (; i < tl && t[i] != '.'; i++) {
		if (t[i] < '0' || t[i] > '9' || whole > UINT64_MAX / 10 / mul)
			return false;
		whole = whole * 10 + (uint64_t)(t[i] - '0');
	}
	if (i < tl)
		for (i++; i < tl; i++) {
			if (t[i] < '0' || t[i] > '9' || fdiv >= 1000000)
				return false;
			frac = frac * 10 + (uint64_t)(t[i] - '0');
			fdiv *= 10;
		}
	*out = whole * mul + frac * mul / fdiv;
	return true;
}

/* "qdisc KIND HANDLE dev IF root|parent X|ingress ...": false when it is another interface's. */
static int qdisc_line(const char *l, size_t ll, const char *ifname, struct np_qdisc *q)
{
	size_t i = 0;
	const char *t;
	size_t tl;
	bool dev_ok = false, have_handle = false;

	memset(q, 0, sizeof(*q));
	q->bytes = q->packets = q->drops = q->overlimits = q->requeues = NP_NA;
	q->backlog = q->qlen = NP_NA;
	if (!np_tok_next(l, ll, &i, &t, &tl) || !np_tok_eq(t, tl, "qdisc"))
		return -EINVAL;
	if (!np_tok_next(l, ll, &i, &t, &tl))
		return -EINVAL;
	np_slice_copy(q->kind, sizeof(q->kind), (struct np_slice){ t, tl });
	if (!np_tok_next(l, ll, &i, &t, &tl) || !tc_handle((struct np_slice){ t, tl }, &q->handle))
		return -EINVAL;
	have_handle = true;
	while (np_tok_next(l, ll, &i, &t, &tl)) {
		if (np_tok_eq(t, tl, "dev")) {
			if (!np_tok_next(l, ll, &i, &t, &tl))
				return -EINVAL;
			dev_ok = np_slice_eq((struct np_slice){ t, tl }, ifname);
		} else if (np_tok_eq(t, tl, "root")) {
			q->parent = TC_ROOT;
		} else if (np_tok_eq(t, tl, "ingress")) {
			q->parent = TC_INGRESS;
		} else if (np_tok_eq(t, tl, "parent")) {
			if (!np_tok_next(l, ll, &i, &t, &tl) ||
			    !tc_handle((struct np_slice){ t, tl }, &q->parent))
				return -EINVAL;
		}
	}
	q->root = q->parent == TC_ROOT;
	q->ingress = q->parent == TC_INGRESS;
	return have_handle && dev_ok ? 0 : -ENOENT;
}

/* " Sent 652580 bytes 8624 pkt (dropped 0, overlimits 0 requeues 0)" and
 * " backlog 0b 0p requeues 0". Words are read pairwise: a value follows or precedes its name. */
static bool stats_line(const char *l, size_t ll, struct np_qdisc *q, unsigned *bad)
{
	size_t i = 0;
	const char *t, *prev = NULL;
	size_t tl, prevl = 0;
	bool sent = false, backlog = false;

	if (!np_tok_next(l, ll, &i, &t, &tl))
		return false;
	sent = np_tok_eq(t, tl, "Sent");
	backlog = np_tok_eq(t, tl, "backlog");
	if (!sent && !backlog)
		return false;
	while (np_tok_next(l, ll, &i, &t, &tl)) {
		/* "(dropped" "0," "overlimits" "0" "requeues" "0)" */
		while (tl && (t[0] == '(')) {
			t++;
			tl--;
		}
		while (tl && (t[tl - 1] == ',' || t[tl - 1] == ')'))
			tl--;
		if (sent && prev) {
			uint64_t x;

			if (np_tok_eq(t, tl, "bytes") && np_tok_u64(prev, prevl, &x))
				q->bytes = x;
			else if (np_tok_eq(t, tl, "pkt") && np_tok_u64(prev, prevl, &x))
				q->packets = x;
			else if (np_tok_eq(prev, prevl, "dropped") && np_tok_u64(t, tl, &x))
				q->drops = x;
			else if (np_tok_eq(prev, prevl, "overlimits") && np_tok_u64(t, tl, &x))
				q->overlimits = x;
			else if (np_tok_eq(prev, prevl, "requeues") && np_tok_u64(t, tl, &x))
				q->requeues = x;
			else if (np_tok_eq(t, tl, "bytes") || np_tok_eq(t, tl, "pkt"))
				(*bad)++;
		} else if (backlog && !prev) {
			if (!tc_size(t, tl, &q->backlog))
				(*bad)++;
		} else if (backlog && prevl && prev[prevl - 1] == 'b' && tl > 1 && t[tl - 1] == 'p') {
			uint64_t x;

			if (np_tok_u64(t, tl - 1, &x))
				q->qlen = x;
			else
				(*bad)++;
		}
		prev = t;
		prevl = tl;
	}
	return true;
}

int np_parse_tc_qdisc(const char *buf, size_t len, const char *ifname, struct np_rtnl *r)
{
	size_t pos = 0, ll;
	const char *l;
	struct np_qdisc *cur = NULL;
	unsigned bad = 0, any = 0;

	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_qdisc q;
		int e;

		if (ll >= 6 && memcmp(l, "qdisc ", 6) == 0) {
			cur = NULL;
			any++;
			e = qdisc_line(l, ll, ifname, &q);
			if (e == -EINVAL)
				bad++;
			if (e)
				continue;
			if (r->nqdisc >= MAX_QDISCS)
				return -E2BIG;
			/* Room doubles at each power of two (the capacity is implied by nqdisc):
			 * one more each time copied the array per qdisc line. */
			if ((r->nqdisc & (r->nqdisc - 1)) == 0) {
				cur = realloc(r->qdiscs, (r->nqdisc ? r->nqdisc * 2 : 1) *
					      sizeof(*r->qdiscs));
				if (!cur)
					return -ENOMEM;
				r->qdiscs = cur;
			}
			cur = &r->qdiscs[r->nqdisc++];
			*cur = q;
			continue;
		}
		if (cur)
			stats_line(l, ll, cur, &bad);
	}
	if (!any)
		return len ? -EINVAL : -ENODATA;
	return bad ? -EBADMSG : 0;
}
