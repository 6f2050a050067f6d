// SPDX-License-Identifier: GPL-2.0-only
/*
 * A snapshot's counters into named u64 (snapshot_counters.h); the names are documented in
 * doc/netpath-record-format.md, "Counter names". Apply is in snapshot_counters_apply.c, the
 * tables both sides share in snapshot_counters_priv.h.
 */
#include "snapshot_counters.h"
#include "snapshot_counters_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F(type, field, name) { name, offsetof(type, field) }

const struct np_snapcnt_field np_snapcnt_softnet[] = {
	F(struct np_softnet_row, processed, "proc"),
	F(struct np_softnet_row, dropped, "drop"),
	F(struct np_softnet_row, time_squeeze, "squeeze"),
	F(struct np_softnet_row, received_rps, "rps"),
	F(struct np_softnet_row, flow_limit_count, "flow_limit"),
	F(struct np_softnet_row, backlog_len, "backlog"),
	F(struct np_softnet_row, input_qlen, "input_qlen"),
	F(struct np_softnet_row, process_qlen, "process_qlen"),
	{ NULL, 0 },
};

const struct np_snapcnt_field np_snapcnt_sockstat[] = {
	F(struct np_sockstat, sockets_used, "sockets_used"),
	F(struct np_sockstat, tcp_inuse, "tcp_inuse"),
	F(struct np_sockstat, tcp_orphan, "tcp_orphan"),
	F(struct np_sockstat, tcp_tw, "tcp_tw"),
	F(struct np_sockstat, tcp_alloc, "tcp_alloc"),
	F(struct np_sockstat, tcp_mem, "tcp_mem"),
	F(struct np_sockstat, udp_inuse, "udp_inuse"),
	F(struct np_sockstat, udp_mem, "udp_mem"),
	F(struct np_sockstat, frag_inuse, "frag_inuse"),
	F(struct np_sockstat, frag_memory, "frag_memory"),
	{ NULL, 0 },
};

const struct np_snapcnt_field np_snapcnt_mem[] = {
	F(struct np_meminfo, mem_total, "total"),
	F(struct np_meminfo, mem_available, "available"),
	{ NULL, 0 },
};

const struct np_snapcnt_field np_snapcnt_carrier[] = {
	F(struct np_netdev, carrier_changes, "changes"),
	F(struct np_netdev, carrier_up, "up"),
	F(struct np_netdev, carrier_down, "down"),
	{ NULL, 0 },
};

const struct np_snapcnt_field np_snapcnt_qstat[] = {
	F(struct np_qstat, rx_packets, "rx_packets"),
	F(struct np_qstat, rx_bytes, "rx_bytes"),
	F(struct np_qstat, rx_alloc_fail, "rx_alloc_fail"),
	F(struct np_qstat, rx_hw_drops, "rx_hw_drops"),
	F(struct np_qstat, rx_hw_drop_overruns, "rx_hw_drop_overruns"),
	F(struct np_qstat, rx_hw_drop_ratelimits, "rx_hw_drop_ratelimits"),
	F(struct np_qstat, rx_csum_none, "rx_csum_none"),
	F(struct np_qstat, rx_csum_bad, "rx_csum_bad"),
	{ NULL, 0 },
};

const struct np_snapcnt_field np_snapcnt_qdisc[] = {
	F(struct np_qdisc, bytes, "bytes"),
	F(struct np_qdisc, packets, "packets"),
	F(struct np_qdisc, drops, "drops"),
	F(struct np_qdisc, overlimits, "overlimits"),
	F(struct np_qdisc, requeues, "requeues"),
	F(struct np_qdisc, backlog, "backlog"),
	F(struct np_qdisc, qlen, "qlen"),
	{ NULL, 0 },
};

const struct np_snapcnt_field np_snapcnt_pause[] = {
	F(struct np_pause, tx_frames, "tx"),
	F(struct np_pause, rx_frames, "rx"),
	{ NULL, 0 },
};

const struct np_snapcnt_field np_snapcnt_aer[] = {
	F(struct np_pcie, aer_correctable, "cor"),
	F(struct np_pcie, aer_nonfatal, "nonfatal"),
	F(struct np_pcie, aer_fatal, "fatal"),
	{ NULL, 0 },
};

/* The socket summary's population and drop counts (the flow lists, RTT histograms, congestion
 * control rows and the classifications that go with them are not counters: the config tape). */
const struct np_snapcnt_field np_snapcnt_socks[] = {
	F(struct np_sockets, tcp_total, "tcp"),
	F(struct np_sockets, tcp_v4, "tcp_v4"),
	F(struct np_sockets, tcp_v6, "tcp_v6"),
	F(struct np_sockets, udp_total, "udp"),
	F(struct np_sockets, udp_v4, "udp_v4"),
	F(struct np_sockets, udp_v6, "udp_v6"),
	F(struct np_sockets, udp_drops, "udp_drops"),
	F(struct np_sockets, udp_with_drops, "udp_with_drops"),
	F(struct np_sockets, listeners, "listeners"),
	F(struct np_sockets, listen_full, "listen_full"),
	F(struct np_sockets, listen_near, "listen_near"),
	F(struct np_sockets, listen_drops, "listen_drops"),
	F(struct np_sockets, listen_v6, "listen_v6"),
	F(struct np_sockets, no_info, "no_info"),
	{ NULL, 0 },
};

void np_named_counters_init(struct np_named_counters *c)
{
	memset(c, 0, sizeof(*c));
}

void np_named_counters_free(struct np_named_counters *c)
{
	free(c->v);
	free(c->names);
	np_named_counters_init(c);
}

void np_named_counters_reset(struct np_named_counters *c)
{
	c->n = 0;
	c->names_len = 0;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t ncap = *cap ? *cap : first;
	void *np;

	while (ncap < need)
		ncap *= 2;
	if (ncap == *cap)
		return 0;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

int np_named_counters_add(struct np_named_counters *c, uint64_t v, const char *fmt, ...)
{
	char name[NP_SNAPCNT_NAME_MAX];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(name))
		return -ENAMETOOLONG;
	if (grow((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v), 64) ||
	    grow((void **)&c->names, &c->names_cap, c->names_len + (size_t)len + 1, 1, 1024))
		return -ENOMEM;
	c->v[c->n++] = v;
	memcpy(c->names + c->names_len, name, (size_t)len + 1);
	c->names_len += (size_t)len + 1;
	return 0;
}

/* Append one whose name is a, b and c (c may be NULL) run together: the encoder's path, without
 * a printf per name (a frame of a 64-CPU host has thousands). */
static int put(struct np_named_counters *o, uint64_t v, const char *a, const char *b,
	       const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = c ? strlen(c) : 0, len = la + lb + lc;
	char *p;

	if (len >= NP_SNAPCNT_NAME_MAX)
		return 0;	/* left out, never the frame */
	if (grow((void **)&o->v, &o->cap, o->n + 1, sizeof(*o->v), 64) ||
	    grow((void **)&o->names, &o->names_cap, o->names_len + len + 1, 1, 1024))
		return -ENOMEM;
	o->v[o->n++] = v;
	p = o->names + o->names_len;
	memcpy(p, a, la);
	memcpy(p + la, b, lb);
	if (lc)
		memcpy(p + la + lb, c, lc);
	p[len] = '\0';
	o->names_len += len + 1;
	return 0;
}

#define PUT(...) do { if ((err = put(__VA_ARGS__))) return err; } while (0)

/* A name too long to store is left out (never the frame): only -ENOMEM stops. */
static int add_ok(int err)
{
	return err == -ENOMEM ? err : 0;
}

#define ADD(...) do { if ((err = add_ok(np_named_counters_add(__VA_ARGS__)))) return err; } while (0)

static int add_fields(struct np_named_counters *o, const struct np_snapcnt_field *t,
		      const void *base, const char *prefix)
{
	int err;

	for (; t->name; t++)
		PUT(o, np_snapcnt_field_get(base, t), prefix, t->name, NULL);
	return 0;
}

static int add_table(struct np_named_counters *o, const struct np_counters *t,
		     const char *prefix)
{
	int err;

	for (size_t i = 0; i < t->n; i++)
		PUT(o, t->e[i].value, prefix, t->e[i].name, NULL);
	return 0;
}

/* A section's marker, "n/SECTION" (host) or "IF/n/SECTION", the count of its rows, written
 * when its source was read: a section read but empty (a device without IRQ lines, a driver
 * without statistics) is not a section the frame lacks. */
static int mark(struct np_named_counters *o, const struct np_snapshot *s, enum np_source id,
		const char *pre, const char *sec, size_t count)
{
	if (!np_src_ok(s, id))
		return 0;
	return put(o, count, pre, "n/", sec);
}

int np_snapcnt_host(const struct np_snapshot *s, struct np_named_counters *out)
{
	char p[32];
	int err;

	if ((err = mark(out, s, NP_SRC_SOFTNET, "", "sn", s->hs->softnet.n)) ||
	    (err = mark(out, s, NP_SRC_SOFTIRQS, "", "si", s->hs->softirqs.n)) ||
	    (err = mark(out, s, np_src_ok(s, NP_SRC_SNMP) ? NP_SRC_SNMP : NP_SRC_NETSTAT, "",
			"mib", s->hs->mib.n)) ||
	    (err = mark(out, s, NP_SRC_CONNTRACK, "", "ct", s->hs->conntrack.n)))
		return err;
	for (size_t i = 0; i < s->hs->softnet.n; i++) {
		snprintf(p, sizeof(p), "sn/%d/", s->hs->softnet.rows[i].cpu);
		if ((err = add_fields(out, np_snapcnt_softnet, &s->hs->softnet.rows[i], p)))
			return err;
	}
	for (size_t i = 0; i < s->hs->softirqs.n; i++) {
		snprintf(p, sizeof(p), "si/%d/", s->hs->softirqs.cpu[i]);
		if (s->hs->softirqs.net_rx)
			PUT(out, s->hs->softirqs.net_rx[i], p, "rx", NULL);
		if (s->hs->softirqs.net_tx)
			PUT(out, s->hs->softirqs.net_tx[i], p, "tx", NULL);
	}
	for (size_t i = 0; i < s->hs->sysctl.n; i++) {
		const struct np_sysctl *e = &s->hs->sysctl.e[i];

		if (strcmp(e->key, NP_SNAPCNT_SYSCTL_GAUGE) == 0 && !e->err && e->nvals >= 1 &&
		    e->v[0] >= 0)
			ADD(out, (uint64_t)e->v[0], "sysctl/%s", e->key);
	}
	if ((err = add_table(out, &s->hs->mib, "mib/")) ||
	    (err = add_table(out, &s->hs->conntrack, "ct/")) ||
	    (err = add_fields(out, np_snapcnt_sockstat, &s->hs->sockstat, "ss/")) ||
	    (err = add_fields(out, np_snapcnt_mem, &s->hs->mem, "mem/")))
		return err;
	return 0;
}

const char *np_snapcnt_devname(const struct np_snapshot *s)
{
	return s->dev.name[0] ? s->dev.name : s->ifname;
}

static int add_link_stats(struct np_named_counters *o, const char *ifn, const char *grp,
			  const struct np_link_stats *st)
{
	char p[IF_NAMESIZE + 8];
	int err;

	snprintf(p, sizeof(p), "%s/%s/", ifn, grp);
	for (size_t i = 0; i < np_link_stats_nfields; i++)
		PUT(o, *np_link_stats_at((struct np_link_stats *)st, i), p,
		    np_link_stats_fields[i].name, NULL);
	return 0;
}

static int add_irqs(struct np_named_counters *o, const char *ifn, const struct np_interrupts *t)
{
	char (*cpu)[12], p[IF_NAMESIZE + 32];	/* "IF/irq/4294967295/" */
	uint32_t *cnt;
	int err = 0;

	if (!t->ncols)
		return 0;
	/* The columns first, even without a line: they are the online CPUs, too (cpus.c). */
	for (size_t c = 0; c < t->ncols; c++) {
		snprintf(p, sizeof(p), "%d", (int)c);
		PUT(o, t->col_cpu[c] >= 0 ? (uint64_t)t->col_cpu[c] : NP_NA, ifn, "/irq/col/", p);
	}
	if (!t->n)
		return 0;
	cnt = malloc(t->ncols * sizeof(*cnt));
	cpu = malloc(t->ncols * sizeof(*cpu));
	if (!cnt || !cpu) {
		free(cnt);
		free(cpu);
		return -ENOMEM;
	}
	for (size_t c = 0; c < t->ncols; c++)
		snprintf(cpu[c], sizeof(cpu[c]), "%d", t->col_cpu[c]);
	for (size_t i = 0; i < t->n && !err; i++) {
		snprintf(p, sizeof(p), "%s/irq/%u/", ifn, t->lines[i].irq);
		err = put(o, t->lines[i].total, p, "total", NULL);
		np_irq_counts(&t->lines[i], cnt, t->ncols);
		/* Every column, zeros too: the frame's CPU ids are the columns apply rebuilds. */
		for (size_t c = 0; c < t->ncols && !err; c++)
			if (t->col_cpu[c] >= 0)
				err = put(o, cnt[c], p, cpu[c], NULL);
	}
	free(cnt);
	free(cpu);
	return err;
}

/* The address as two u64 (bytes in order: memcpy, read back the same way on this host). */
static void addr_words(const uint8_t *a, uint64_t w[2])
{
	memcpy(w, a, 16);
}

static int add_sock_lists(struct np_named_counters *o, const char *ifn,
			  const struct np_sockets *k)
{
	uint64_t w[2];
	int err;

	ADD(o, k->udp.total, "%s/sk/u/total", ifn);
	for (uint32_t i = 0; i < k->udp.n && i < NP_SOCK_TOP; i++) {
		const struct np_sock_udp *u = &k->udp.e[i];
		char p[64];

		snprintf(p, sizeof(p), "%s/sk/u/%u:%u/", ifn, u->id.inode, u->id.sport);
		addr_words(u->id.saddr, w);
		PUT(o, u->drops, p, "drops", NULL);
		PUT(o, u->rmem_alloc, p, "rmem", NULL);
		PUT(o, u->rcvbuf, p, "rcvbuf", NULL);
		PUT(o, u->id.family, p, "af", NULL);
		PUT(o, w[0], p, "a0", NULL);
		PUT(o, w[1], p, "a1", NULL);
	}
	ADD(o, k->listen.total, "%s/sk/l/total", ifn);
	for (uint32_t i = 0; i < k->listen.n && i < NP_SOCK_TOP; i++) {
		const struct np_sock_listener *l = &k->listen.e[i];
		char p[64];

		snprintf(p, sizeof(p), "%s/sk/l/%u:%u/", ifn, l->id.inode, l->id.sport);
		addr_words(l->id.saddr, w);
		PUT(o, l->drops, p, "drops", NULL);
		PUT(o, l->queued, p, "queued", NULL);
		PUT(o, l->limit, p, "limit", NULL);
		PUT(o, l->id.family, p, "af", NULL);
		PUT(o, w[0], p, "a0", NULL);
		PUT(o, w[1], p, "a1", NULL);
	}
	return 0;
}

static int add_socks(struct np_named_counters *o, const char *ifn, const struct np_snapshot *s)
{
	char p[IF_NAMESIZE + 8];
	int err;

	/* A summary nobody collected (--root, sock_diag failed) is no counter at all. */
	if (!np_src_ok(s, NP_SRC_SOCK_DIAG))
		return 0;
	snprintf(p, sizeof(p), "%s/sk/", ifn);
	if ((err = add_fields(o, np_snapcnt_socks, &s->socks, p)))
		return err;
	for (int i = 0; i < NP_SOCK_TCP_STATES; i++)
		ADD(o, s->socks.tcp_state[i], "%s/sk/st/%d", ifn, i);
	return add_sock_lists(o, ifn, &s->socks);
}

int np_snapcnt_dev(const struct np_snapshot *s, struct np_named_counters *out)
{
	const char *ifn = np_snapcnt_devname(s);
	char p[IF_NAMESIZE + 48];	/* "IF/qd/ffffffff:ffffffff/" */
	int err;

	if (!ifn[0])
		return 0;
	snprintf(p, sizeof(p), "%s/", ifn);
	if ((err = mark(out, s, NP_SRC_INTERRUPTS, p, "irq", s->irqs.n)) ||
	    (err = mark(out, s, NP_SRC_ETHTOOL_STATS, p, "es", s->eth.std_stats.n)) ||
	    (err = mark(out, s, NP_SRC_DRIVER_STATS, p, "ds", s->eth.drv_stats.n)) ||
	    (err = mark(out, s, NP_SRC_QSTATS, p, "q", s->eth.nqstats)))
		return err;
	if ((err = add_link_stats(out, ifn, "ls", &s->dev.stats)))
		return err;
	if (s->rtnl.has_stats64 && (err = add_link_stats(out, ifn, "l64", &s->rtnl.stats64)))
		return err;
	snprintf(p, sizeof(p), "%s/car/", ifn);
	if ((err = add_fields(out, np_snapcnt_carrier, &s->dev, p)) ||
	    (err = add_irqs(out, ifn, &s->irqs)))
		return err;
	snprintf(p, sizeof(p), "%s/es/", ifn);
	if ((err = add_table(out, &s->eth.std_stats, p)))
		return err;
	snprintf(p, sizeof(p), "%s/ds/", ifn);
	if ((err = add_table(out, &s->eth.drv_stats, p)))
		return err;
	for (size_t i = 0; i < s->eth.nqstats; i++) {
		snprintf(p, sizeof(p), "%s/q/%d/", ifn, s->eth.qstats[i].queue);
		if (s->eth.qstats[i].queue >= 0 &&
		    (err = add_fields(out, np_snapcnt_qstat, &s->eth.qstats[i], p)))
			return err;
	}
	for (size_t i = 0; i < s->rtnl.nqdisc; i++) {
		const struct np_qdisc *q = &s->rtnl.qdiscs[i];

		snprintf(p, sizeof(p), "%s/qd/%x:%x/", ifn, q->handle, q->parent);
		if ((err = add_fields(out, np_snapcnt_qdisc, q, p)))
			return err;
	}
	snprintf(p, sizeof(p), "%s/pause/", ifn);
	if ((err = add_fields(out, np_snapcnt_pause, &s->eth.pause, p)))
		return err;
	snprintf(p, sizeof(p), "%s/aer/", ifn);
	if ((err = add_fields(out, np_snapcnt_aer, &s->pcie, p)))
		return err;
	return add_socks(out, ifn, s);
}
