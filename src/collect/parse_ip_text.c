// SPDX-License-Identifier: GPL-2.0-only
/*
 * `ip -s -d link` text (and `ip -s -s -d link`, `ip -s link`, `ip link`, `ip -d address`): one
 * interface's block. Tested against iproute2 6.1 (Debian 12: "RX:  bytes packets errors dropped
 * missed mcast", "parentbus virtio"), the pre-5.x layout insights-core records ("RX: bytes
 * packets errors dropped overrun mcast", OVS/vxlan/geneve/bond slaves, "gre0@NONE"), bond and
 * team/bridge_slave detail lines, and the -s -s "RX errors:" / "TX errors:" rows. Columns are
 * matched by their header names, so a renamed or added column is skipped, not misread.
 */
#include "sos_text.h"
#include "parse_util.h"
#include "text_util.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* Header words of the stats rows -> struct np_link_stats fields. */
struct col {
	const char *name;
	size_t off;
};

#define F(x) offsetof(struct np_link_stats, x)
static const struct col rx_cols[] = {
	{ "bytes", F(rx_bytes) }, { "packets", F(rx_packets) }, { "errors", F(rx_errors) },
	{ "dropped", F(rx_dropped) }, { "missed", F(rx_missed_errors) },
	{ "overrun", F(rx_over_errors) }, { "mcast", F(multicast) },
	{ "compressed", F(rx_compressed) }, { "nohandler", F(rx_nohandler) },
	{ "otherhost", F(rx_otherhost_dropped) },
};
static const struct col rx_err_cols[] = {
	{ "length", F(rx_length_errors) }, { "crc", F(rx_crc_errors) },
	{ "frame", F(rx_frame_errors) }, { "fifo", F(rx_fifo_errors) },
	{ "missed", F(rx_missed_errors) }, { "overrun", F(rx_over_errors) },
};
static const struct col tx_cols[] = {
	{ "bytes", F(tx_bytes) }, { "packets", F(tx_packets) }, { "errors", F(tx_errors) },
	{ "dropped", F(tx_dropped) }, { "carrier", F(tx_carrier_errors) },
	{ "collsns", F(collisions) }, { "compressed", F(tx_compressed) },
};
static const struct col tx_err_cols[] = {
	{ "aborted", F(tx_aborted_errors) }, { "fifo", F(tx_fifo_errors) },
	{ "window", F(tx_window_errors) }, { "heartbeat", F(tx_heartbeat_errors) },
	{ "heartbt", F(tx_heartbeat_errors) },
};
#undef F

/* "4: eth0@if5: <BROADCAST,...> mtu 1500 ..." is a block's first line: starts with digits. */
static bool block_start(const char *l, size_t ll, int *idx)
{
	size_t i = 0;
	int v = 0;

	while (i < ll && l[i] >= '0' && l[i] <= '9') {
		if (v > 100000000)
			return false;
		v = v * 10 + (l[i++] - '0');
	}
	if (!i || i + 1 >= ll || l[i] != ':' || l[i + 1] != ' ')
		return false;
	*idx = v;
	return true;
}

/* The name field of a first line: "eth0", "vlan10@eth0", "gre0@NONE"; *rest after its ':'. */
static bool block_name(const char *l, size_t ll, struct np_slice *name, struct np_slice *parent,
		       size_t *rest)
{
	const char *p = memchr(l, ':', ll);
	const char *s, *e, *at;

	if (!p)
		return false;
	s = p + 1;
	while (s < l + ll && *s == ' ')
		s++;
	e = s;
	/* A name holds no blank; ": " ends it (a name may not contain ':' either). */
	while (e < l + ll && *e != ':' && *e != ' ')
		e++;
	if (e >= l + ll || *e != ':' || e == s)
		return false;
	at = memchr(s, '@', (size_t)(e - s));
	if (at == s)
		return false;	/* "@lo": no name */
	*name = (struct np_slice){ s, at ? (size_t)(at - s) : (size_t)(e - s) };
	*parent = at ? (struct np_slice){ at + 1, (size_t)(e - at - 1) } : (struct np_slice){ s, 0 };
	*rest = (size_t)(e + 1 - l);
	return true;
}

static void flags(struct np_slice f, struct np_ip_link *o)
{
	size_t i = 0;

	o->admin_up = 0;
	o->carrier = 0;
	while (i < f.n) {
		size_t j = i;

		while (j < f.n && f.p[j] != ',')
			j++;
		struct np_slice w = { f.p + i, j - i };

		if (np_slice_eq(w, "UP"))
			o->admin_up = 1;
		else if (np_slice_eq(w, "LOWER_UP"))
			o->carrier = 1;
		i = j + 1;
	}
}

static void first_line(const char *l, size_t ll, size_t i, struct np_ip_link *o, unsigned *bad)
{
	const char *t, *lt = NULL;
	size_t tl, ltl = 0;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		struct np_slice v = { t, tl };

		if (tl >= 2 && t[0] == '<' && t[tl - 1] == '>')
			flags((struct np_slice){ t + 1, tl - 2 }, o);
		else if (np_slice_eq(v, "xdp") || np_slice_eq(v, "xdpdrv"))
			o->xdp = 1;
		else if (np_slice_eq(v, "xdpgeneric"))
			o->xdp = 2;
		else if (np_slice_eq(v, "xdpoffload"))
			o->xdp = 3;
		else if (np_slice_eq(v, "xdpmulti"))
			o->xdp = 4;
		if (lt) {
			struct np_slice key = { lt, ltl };

			if (np_slice_eq(key, "mtu") && np_slice_u64(v, &o->mtu) <= 0)
				(*bad)++;
			else if (np_slice_eq(key, "qlen") && np_slice_u64(v, &o->qlen) <= 0)
				(*bad)++;
			else if (np_slice_eq(key, "qdisc"))
				np_slice_copy(o->qdisc, sizeof(o->qdisc), v);
			else if (np_slice_eq(key, "master"))
				np_slice_copy(o->master, sizeof(o->master), v);
			else if (np_slice_eq(key, "state")) {
				np_slice_copy(o->operstate, sizeof(o->operstate), v);
				for (char *c = o->operstate; *c; c++)
					if (*c >= 'A' && *c <= 'Z')
						*c = (char)(*c - 'A' + 'a');
			}
		}
		lt = t;
		ltl = tl;
	}
}

/* "RX:  bytes packets ..." or "RX errors: length crc ...": the header of a stats row. */
static const struct col *stats_header(const char *l, size_t ll, size_t *i, size_t *ncols)
{
	struct np_slice s = np_trim((struct np_slice){ l, ll });
	const char *t;
	size_t tl;

	*i = (size_t)(s.p - l);
	if (!np_tok_next(l, ll, i, &t, &tl))
		return NULL;
	if (np_tok_eq(t, tl, "RX:") || np_tok_eq(t, tl, "TX:")) {
		*ncols = t[0] == 'R' ? sizeof(rx_cols) / sizeof(rx_cols[0])
				     : sizeof(tx_cols) / sizeof(tx_cols[0]);
		return t[0] == 'R' ? rx_cols : tx_cols;
	}
	if ((np_tok_eq(t, tl, "RX") || np_tok_eq(t, tl, "TX")) && np_tok_next(l, ll, i, &t, &tl) &&
	    np_tok_eq(t, tl, "errors:")) {
		bool rx = s.p[0] == 'R';

		*ncols = rx ? sizeof(rx_err_cols) / sizeof(rx_err_cols[0])
			    : sizeof(tx_err_cols) / sizeof(tx_err_cols[0]);
		return rx ? rx_err_cols : tx_err_cols;
	}
	return NULL;
}

/* The values row under a header: column k of the header takes token k. */
static bool stats_values(const char *hl, size_t hll, size_t hi, const struct col *cols,
			 size_t ncols, const char *vl, size_t vll, struct np_link_stats *st,
			 uint64_t *transns, unsigned *bad)
{
	const char *h, *v;
	size_t htl, vtl, vi = 0, n = 0;

	while (np_tok_next(hl, hll, &hi, &h, &htl)) {
		uint64_t x;

		if (!np_tok_next(vl, vll, &vi, &v, &vtl)) {
			(*bad)++;
			return n > 0;
		}
		if (!np_tok_u64(v, vtl, &x)) {
			(*bad)++;
			return n > 0;
		}
		n++;
		/* iproute2 -s -s: IFLA_CARRIER_CHANGES, which is not a link statistic */
		if (cols == tx_err_cols && np_tok_eq(h, htl, "transns"))
			*transns = x;
		for (size_t c = 0; c < ncols; c++)
			if (np_tok_eq(h, htl, cols[c].name)) {
				memcpy((char *)st + cols[c].off, &x, sizeof(x));
				break;
			}
	}
	return n > 0;
}

/* A detail line of -d: "    bond mode ...", "    vxlan id 0 ...", "    bridge_slave ...". The
 * first one whose first word is not a slave's, an address or a property names the kind. */
static void detail_line(const char *l, size_t ll, struct np_ip_link *o, bool *kind_done)
{
	static const char *const not_kind[] = {
		"addrgenmode", "altname", "alias", "prop", "promiscuity", "link-netnsid",
		"link-netns", "inet", "inet6", "valid_lft", "vf", "prog/xdp", "prog/xdpgeneric",
		"prog/xdpdrv", "prog/xdpoffload", "RX:", "TX:", "RX", "TX", "cache",
	};
	size_t i = 0;
	const char *t;
	size_t tl;

	if (!np_tok_next(l, ll, &i, &t, &tl))
		return;
	if (np_tok_eq(t, tl, "vf")) {
		o->nvf++;
		return;
	}
	if (*kind_done || (tl > 5 && memcmp(t, "link/", 5) == 0))
		return;
	if (tl > 6 && memcmp(t + tl - 6, "_slave", 6) == 0)
		return;
	for (size_t k = 0; k < sizeof(not_kind) / sizeof(not_kind[0]); k++)
		if (np_tok_eq(t, tl, not_kind[k])) {
			*kind_done = true;
			return;
		}
	/* A kind is a lowercase word ("ifb", "vxlan", "openvswitch", "ip6gre"). */
	for (size_t k = 0; k < tl; k++)
		if (!((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= '0' && t[k] <= '9') || t[k] == '_'))
			return;
	np_slice_copy(o->kind, sizeof(o->kind), (struct np_slice){ t, tl });
	*kind_done = true;
}

int np_parse_ip_link(const char *buf, size_t len, const char *ifname, struct np_ip_link *out)
{
	size_t pos = 0, ll, rest;
	const char *l;
	bool in = false, seen_link = false, kind_done = false, any_block = false;
	unsigned bad = 0;

	memset(out, 0, sizeof(*out));
	out->mtu = out->qlen = out->carrier_changes = NP_NA;
	out->admin_up = out->carrier = -1;
	np_link_stats_init(&out->stats);
	if (!ifname || !ifname[0])
		return -EINVAL;
	len = np_text_len(buf, len);
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		struct np_slice name, parent;
		const struct col *cols;
		size_t hi, ncols;
		int idx;

		if (block_start(l, ll, &idx)) {
			any_block = true;
			if (in)
				break;	/* the interface's block ended */
			if (!block_name(l, ll, &name, &parent, &rest) || !np_slice_eq(name, ifname))
				continue;
			in = true;
			out->ifindex = idx;
			np_slice_copy(out->name, sizeof(out->name), name);
			if (parent.n && !np_slice_eq(parent, "NONE"))
				np_slice_copy(out->parent, sizeof(out->parent), parent);
			first_line(l, ll, rest, out, &bad);
			continue;
		}
		if (!in)
			continue;
		cols = stats_header(l, ll, &hi, &ncols);
		if (cols) {
			const char *vl;
			size_t vll;

			if (!np_line_next(buf, len, &pos, &vl, &vll)) {
				bad++;
				break;
			}
			if (stats_values(l, ll, hi, cols, ncols, vl, vll, &out->stats,
					 &out->carrier_changes, &bad))
				out->has_stats = true;
			kind_done = true;
			continue;
		}
		if (!seen_link) {
			size_t i = 0;
			const char *t;
			size_t tl;

			if (np_tok_next(l, ll, &i, &t, &tl) && tl > 5 && memcmp(t, "link/", 5) == 0) {
				seen_link = true;
				continue;
			}
		}
		detail_line(l, ll, out, &kind_done);
	}
	if (!in)
		return any_block ? -ENOENT : len ? -EINVAL : -ENODATA;
	return bad ? -EBADMSG : 0;
}
