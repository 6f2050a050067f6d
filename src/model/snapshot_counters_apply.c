// SPDX-License-Identifier: GPL-2.0-only
/*
 * A frame's named counters into a snapshot (snapshot_counters.h). First every counter the
 * frame may carry is cleared (NP_NA, or an empty array), then the frame's names fill them in:
 * whatever the frame lacks is thereby absent, never a value of the configuration's moment.
 * Names are checked strictly (decimal ids within bounds, known fields); the rest is ignored.
 */
#include "snapshot_counters.h"
#include "snapshot_counters_priv.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sections whose absence from the frame marks their source absent. */
enum { SEC_SOFTNET = 1, SEC_SOFTIRQS = 2, SEC_MIB = 4, SEC_CT = 8, SEC_SOCKSTAT = 16,
       SEC_MEM = 32, SEC_L64 = 64, SEC_IRQ = 128, SEC_ES = 256, SEC_DS = 512,
       SEC_QSTATS = 1024, SEC_SOCKS = 2048 };

struct st {
	struct np_snapshot *s;
	unsigned seen;
	int32_t *cpu_row;	/* CPU id -> softnet row + 1 */
	int32_t *cpu_si;	/* CPU id -> softirqs entry + 1 */
	int32_t *queue_ix;	/* queue id -> qstats entry + 1 */
	size_t cap_rows, cap_si[3], cap_q;
	struct np_snapcnt_irq irq;
	/* The socket lists as the configuration had them: who each socket is. */
	struct np_snapcnt_sock_ids old;
};

static bool set_field(void *base, const struct np_snapcnt_field *t, const char *name, uint64_t v)
{
	for (; t->name; t++)
		if (strcmp(t->name, name) == 0) {
			np_snapcnt_field_set(base, t, v);
			return true;
		}
	return false;
}

static const struct np_snapcnt_field *field_of(const struct np_snapcnt_field *t, const char *name)
{
	for (; t->name; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

static void clear_fields(void *base, const struct np_snapcnt_field *t)
{
	for (; t->name; t++)
		np_snapcnt_field_set(base, t, NP_NA);
}

static const char *skip(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(name, prefix, n) == 0 ? name + n : NULL;
}

/* Grow an array of elem-sized entries to hold need (need is bounded by the caller's ids). */
static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 8;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

static int32_t *id_map(int32_t **m, size_t n)
{
	if (!*m)
		*m = calloc(n, sizeof(**m));
	return *m;
}

static int softnet(struct st *t, const char *r, uint64_t v)
{
	struct np_softnet *sn = &t->s->hs->softnet;
	const struct np_snapcnt_field *f;
	unsigned long long cpu;
	int32_t *m;

	if (!np_snapcnt_parse_id(&r, NP_MAX_CPUS - 1, '/', &cpu) || !(f = field_of(np_snapcnt_softnet, r)))
		return 0;
	if (!(m = id_map(&t->cpu_row, NP_MAX_CPUS)))
		return -ENOMEM;
	if (!m[cpu]) {
		if (grow((void **)&sn->rows, &t->cap_rows, sn->n + 1, sizeof(*sn->rows)))
			return -ENOMEM;
		sn->rows[sn->n].cpu = (int)cpu;
		clear_fields(&sn->rows[sn->n], np_snapcnt_softnet);
		m[cpu] = (int32_t)++sn->n;
	}
	t->seen |= SEC_SOFTNET;
	np_snapcnt_field_set(&sn->rows[m[cpu] - 1], f, v);
	return 0;
}

static int softirqs(struct st *t, const char *r, uint64_t v)
{
	struct np_softirqs *si = &t->s->hs->softirqs;
	unsigned long long cpu;
	size_t i;
	int32_t *m;

	if (!np_snapcnt_parse_id(&r, NP_MAX_CPUS - 1, '/', &cpu) || (strcmp(r, "rx") && strcmp(r, "tx")))
		return 0;
	if (!(m = id_map(&t->cpu_si, NP_MAX_CPUS)))
		return -ENOMEM;
	if (!m[cpu]) {
		if (grow((void **)&si->cpu, &t->cap_si[0], si->n + 1, sizeof(*si->cpu)) ||
		    grow((void **)&si->net_rx, &t->cap_si[1], si->n + 1, sizeof(uint64_t)) ||
		    grow((void **)&si->net_tx, &t->cap_si[2], si->n + 1, sizeof(uint64_t)))
			return -ENOMEM;
		si->cpu[si->n] = (int)cpu;
		si->net_rx[si->n] = si->net_tx[si->n] = NP_NA;
		m[cpu] = (int32_t)++si->n;
	}
	t->seen |= SEC_SOFTIRQS;
	i = (size_t)m[cpu] - 1;
	if (r[0] == 'r')
		si->net_rx[i] = v;
	else
		si->net_tx[i] = v;
	return 0;
}

/* A counter table's name: non-empty, fits; slash_ok for driver names (MIB names have none). */
static int table(struct np_counters *c, const char *name, uint64_t v, bool slash_ok)
{
	if (!name[0] || strlen(name) >= NP_COUNTER_NAME_MAX || (!slash_ok && strchr(name, '/')))
		return 0;
	return np_counters_set(c, name, v) ? -ENOMEM : 0;
}

/* The sysctl that is a gauge (the table's entry is configuration: only its value moves). */
static struct np_sysctl *gauge_entry(struct np_snapshot *s)
{
	for (size_t i = 0; i < s->hs->sysctl.n; i++)
		if (strcmp(s->hs->sysctl.e[i].key, NP_SNAPCNT_SYSCTL_GAUGE) == 0)
			return &s->hs->sysctl.e[i];
	return NULL;
}

static int gauge_sysctl(struct np_snapshot *s, const char *key, uint64_t v)
{
	struct np_sysctl *e;

	if (strcmp(key, NP_SNAPCNT_SYSCTL_GAUGE) || v > INT64_MAX || !(e = gauge_entry(s)))
		return 0;
	snprintf(e->raw, sizeof(e->raw), "%llu", (unsigned long long)v);
	e->nvals = 1;
	e->v[0] = (int64_t)v;
	e->err = 0;
	return 0;
}

/* A section's marker (snapshot_counters.c): the section was read, even if empty. */
static unsigned marker(const char *sec, bool dev)
{
	static const struct { const char *name; unsigned sec; bool dev; } m[] = {
		{ "sn", SEC_SOFTNET, false }, { "si", SEC_SOFTIRQS, false },
		{ "mib", SEC_MIB, false }, { "ct", SEC_CT, false }, { "irq", SEC_IRQ, true },
		{ "es", SEC_ES, true }, { "ds", SEC_DS, true }, { "q", SEC_QSTATS, true },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i].dev == dev && strcmp(m[i].name, sec) == 0)
			return m[i].sec;
	return 0;
}

static int host(struct st *t, const char *name, uint64_t v)
{
	struct np_snapshot *s = t->s;
	const char *r;

	if ((r = skip(name, "n/"))) {
		t->seen |= marker(r, false);
		return 0;
	}
	if ((r = skip(name, "sn/")))
		return softnet(t, r, v);
	if ((r = skip(name, "si/")))
		return softirqs(t, r, v);
	if ((r = skip(name, "mib/"))) {
		t->seen |= SEC_MIB;
		return table(&s->hs->mib, r, v, false);
	}
	if ((r = skip(name, "ct/"))) {
		t->seen |= SEC_CT;
		return table(&s->hs->conntrack, r, v, false);
	}
	if ((r = skip(name, "sysctl/")))
		return gauge_sysctl(s, r, v);
	if ((r = skip(name, "ss/")) && set_field(&s->hs->sockstat, np_snapcnt_sockstat, r, v))
		t->seen |= SEC_SOCKSTAT;
	else if ((r = skip(name, "mem/")) && set_field(&s->hs->mem, np_snapcnt_mem, r, v))
		t->seen |= SEC_MEM;
	return 0;
}

static bool link_stat(struct np_link_stats *st, const char *name, uint64_t v)
{
	for (size_t i = 0; i < np_link_stats_nfields; i++)
		if (strcmp(np_link_stats_fields[i].name, name) == 0) {
			*np_link_stats_at(st, i) = v;
			return true;
		}
	return false;
}

static int qstat(struct st *t, const char *r, uint64_t v)
{
	struct np_ethtool *e = &t->s->eth;
	const struct np_snapcnt_field *f;
	unsigned long long q;
	int32_t *m;

	if (!np_snapcnt_parse_id(&r, NP_SNAPCNT_MAX_QUEUES - 1, '/', &q) || !(f = field_of(np_snapcnt_qstat, r)))
		return 0;
	if (!(m = id_map(&t->queue_ix, NP_SNAPCNT_MAX_QUEUES)))
		return -ENOMEM;
	if (!m[q]) {
		if (grow((void **)&e->qstats, &t->cap_q, e->nqstats + 1, sizeof(*e->qstats)))
			return -ENOMEM;
		e->qstats[e->nqstats].queue = (int)q;
		clear_fields(&e->qstats[e->nqstats], np_snapcnt_qstat);
		m[q] = (int32_t)++e->nqstats;
	}
	t->seen |= SEC_QSTATS;
	np_snapcnt_field_set(&e->qstats[m[q] - 1], f, v);
	return 0;
}

static void qdisc(struct np_rtnl *rt, const char *r, uint64_t v)
{
	unsigned handle, parent;
	int used = 0;

	if (sscanf(r, "%8x:%8x/%n", &handle, &parent, &used) != 2 || !used)
		return;
	for (size_t i = 0; i < rt->nqdisc; i++)
		if (rt->qdiscs[i].handle == handle && rt->qdiscs[i].parent == parent) {
			set_field(&rt->qdiscs[i], np_snapcnt_qdisc, r + used, v);
			return;
		}
}

/* A device group's handler's result: its error, else 1 (the name was the device's). */
static int group(int err)
{
	return err < 0 ? err : 1;
}

/* 1 when the name's group is a device group (even if the rest was not understood). */
static int dev(struct st *t, const char *name, uint64_t v)
{
	struct np_snapshot *s = t->s;
	const char *r;

	if ((r = skip(name, "n/")))
		t->seen |= marker(r, true);
	else if ((r = skip(name, "ls/")))
		link_stat(&s->dev.stats, r, v);
	else if ((r = skip(name, "l64/"))) {
		if (link_stat(&s->rtnl.stats64, r, v))
			t->seen |= SEC_L64;
	} else if ((r = skip(name, "car/")))
		set_field(&s->dev, np_snapcnt_carrier, r, v);
	else if ((r = skip(name, "irq/"))) {
		t->seen |= SEC_IRQ;
		return group(np_snapcnt_irq_name(&t->irq, &s->irqs, r, v));
	} else if ((r = skip(name, "es/"))) {
		t->seen |= SEC_ES;
		return group(table(&s->eth.std_stats, r, v, true));
	} else if ((r = skip(name, "ds/"))) {
		t->seen |= SEC_DS;
		return group(table(&s->eth.drv_stats, r, v, true));
	} else if ((r = skip(name, "q/")))
		return group(qstat(t, r, v));
	else if ((r = skip(name, "qd/")))
		qdisc(&s->rtnl, r, v);
	else if ((r = skip(name, "pause/")))
		set_field(&s->eth.pause, np_snapcnt_pause, r, v);
	else if ((r = skip(name, "aer/")))
		set_field(&s->pcie, np_snapcnt_aer, r, v);
	else if ((r = skip(name, "sk/"))) {
		t->seen |= SEC_SOCKS;
		return group(np_snapcnt_apply_sock(&s->socks, &t->old, r, v));
	} else
		return 0;
	return 1;
}

/* Everything the frame may carry, cleared: what it lacks stays absent. */
static void clear_host(struct np_snapshot *s)
{
	struct np_sysctl *g;

	s->hs->softnet.n = 0;
	free(s->hs->softirqs.cpu);
	free(s->hs->softirqs.net_rx);
	free(s->hs->softirqs.net_tx);
	s->hs->softirqs = (struct np_softirqs){ 0 };
	np_counters_free(&s->hs->mib);
	np_counters_free(&s->hs->conntrack);
	clear_fields(&s->hs->sockstat, np_snapcnt_sockstat);
	clear_fields(&s->hs->mem, np_snapcnt_mem);
	if ((g = gauge_entry(s))) {
		g->raw[0] = '\0';
		g->nvals = 0;
		g->err = ENODATA;
	}
}

static void clear_dev(struct np_snapshot *s)
{
	np_link_stats_init(&s->dev.stats);
	np_link_stats_init(&s->rtnl.stats64);
	clear_fields(&s->dev, np_snapcnt_carrier);
	for (size_t i = 0; i < s->irqs.n; i++) {
		np_irq_set_counts(&s->irqs.lines[i], NULL, 0);
		s->irqs.lines[i].total = NP_NA;
	}
	s->irqs.ncols = 0;
	np_counters_free(&s->eth.std_stats);
	np_counters_free(&s->eth.drv_stats);
	s->eth.nqstats = 0;
	for (size_t i = 0; i < s->rtnl.nqdisc; i++)
		clear_fields(&s->rtnl.qdiscs[i], np_snapcnt_qdisc);
	clear_fields(&s->eth.pause, np_snapcnt_pause);
	clear_fields(&s->pcie, np_snapcnt_aer);
	s->socks.udp.n = s->socks.listen.n = 0;
	s->socks.udp.total = s->socks.listen.total = NP_NA;
	clear_fields(&s->socks, np_snapcnt_socks);
	for (int i = 0; i < NP_SOCK_TCP_STATES; i++)
		s->socks.tcp_state[i] = NP_NA;
}

static void mark_absent(struct np_snapshot *s, unsigned seen, unsigned sec, enum np_source id)
{
	struct np_src *src;

	if ((seen & sec) || !np_src_ok(s, id))
		return;
	src = np_srcp(s, id);
	src->status = NP_SRC_ABSENT;
	src->err = 0;
	snprintf(src->detail, sizeof(src->detail), "not in the recorded frame");
}

static void finish(struct np_snapshot *s, unsigned seen, bool do_host, bool do_dev)
{
	if (do_host) {
		np_counters_sort(&s->hs->mib);
		np_counters_sort(&s->hs->conntrack);
		mark_absent(s, seen, SEC_SOFTNET, NP_SRC_SOFTNET);
		mark_absent(s, seen, SEC_SOFTIRQS, NP_SRC_SOFTIRQS);
		mark_absent(s, seen, SEC_MIB, NP_SRC_SNMP);
		mark_absent(s, seen, SEC_MIB, NP_SRC_NETSTAT);
		mark_absent(s, seen, SEC_CT, NP_SRC_CONNTRACK);
		mark_absent(s, seen, SEC_SOCKSTAT, NP_SRC_SOCKSTAT);
		mark_absent(s, seen, SEC_MEM, NP_SRC_MEMINFO);
	}
	if (!do_dev)
		return;
	np_counters_sort(&s->eth.std_stats);
	np_counters_sort(&s->eth.drv_stats);
	if (!(seen & SEC_L64))
		s->rtnl.has_stats64 = false;
	mark_absent(s, seen, SEC_IRQ, NP_SRC_INTERRUPTS);
	mark_absent(s, seen, SEC_ES, NP_SRC_ETHTOOL_STATS);
	mark_absent(s, seen, SEC_DS, NP_SRC_DRIVER_STATS);
	mark_absent(s, seen, SEC_QSTATS, NP_SRC_QSTATS);
	mark_absent(s, seen, SEC_SOCKS, NP_SRC_SOCK_DIAG);
}

static int apply(struct np_snapshot *s, const char *const *names, const uint64_t *v, size_t n,
		 bool do_host)
{
	const char *ifn = np_snapcnt_devname(s);
	char prefix[IF_NAMESIZE + 1];
	bool do_dev = ifn[0] != '\0';
	struct st t = { .s = s };
	size_t plen = 0;
	int err = 0;

	for (uint32_t i = 0; i < s->socks.udp.n && i < NP_SOCK_TOP; i++)
		t.old.udp[t.old.nudp++] = s->socks.udp.e[i].id;
	for (uint32_t i = 0; i < s->socks.listen.n && i < NP_SOCK_TOP; i++)
		t.old.listen[t.old.nlisten++] = s->socks.listen.e[i].id;
	/* The arrays apply rebuilds start anew (their capacity is not kept anywhere). */
	if (do_host) {
		clear_host(s);
		t.cap_rows = 0;
		free(s->hs->softnet.rows);
		s->hs->softnet.rows = NULL;
	}
	if (do_dev) {
		plen = (size_t)snprintf(prefix, sizeof(prefix), "%s/", ifn);
		clear_dev(s);
		free(s->irqs.col_cpu);
		s->irqs.col_cpu = NULL;
		free(s->eth.qstats);
		s->eth.qstats = NULL;
	}
	for (size_t i = 0; i < n && !err; i++) {
		int r = 0;

		if (!names[i])
			continue;
		if (do_dev && strncmp(names[i], prefix, plen) == 0)
			r = dev(&t, names[i] + plen, v[i]);
		if (r == 0 && do_host)
			r = host(&t, names[i], v[i]);
		if (r < 0)
			err = r;
	}
	if (!err && do_dev)
		err = np_snapcnt_irq_finish(&t.irq, &s->irqs);
	finish(s, t.seen, do_host, do_dev);
	free(t.cpu_row);
	free(t.cpu_si);
	free(t.queue_ix);
	np_snapcnt_irq_free(&t.irq);
	return err;
}

int np_snapcnt_apply(struct np_snapshot *s, const char *const *names, const uint64_t *v,
		     size_t n)
{
	return apply(s, names, v, n, true);
}

int np_snapcnt_apply_dev(struct np_snapshot *s, const char *const *names, const uint64_t *v,
			 size_t n)
{
	return apply(s, names, v, n, false);
}
