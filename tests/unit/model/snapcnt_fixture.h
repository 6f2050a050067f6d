/* SPDX-License-Identifier: GPL-2.0-only */
/* The recorder's counter-frame tests' fixture: snapshots built by hand (two moments of other
 * shapes), field-by-field comparison against the model, and a frame encoded and applied.
 * Include after cmocka.h. */
#ifndef NP_TEST_SNAPCNT_FIXTURE_H
#define NP_TEST_SNAPCNT_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "collect.h"
#include "ctx.h"
#include "root.h"
#include "snapshot_counters.h"

/* ---- snapshots by hand ---- */

static inline void set_src_ok(struct np_snapshot *s)
{
	for (int i = 0; i < NP_SRC__COUNT; i++)
		np_srcp(s, i)->status = NP_SRC_OK;
}

static inline void add_sysctl(struct np_snapshot *s, const char *key, const char *raw)
{
	struct np_sysctl *e = np_sysctl_add(&s->hs->sysctl, key);

	assert_non_null(e);
	assert_int_equal(np_parse_sysctl_value(raw, e), 0);
}

/* The configuration both A and B share: one device, two IRQ lines, two qdiscs. */
static inline void config(struct np_snapshot *s, uint64_t ring)
{
	np_snapshot_init(s);
	set_src_ok(s);
	snprintf(s->ifname, sizeof(s->ifname), "eth0");
	snprintf(s->dev.name, sizeof(s->dev.name), "eth0");
	s->dev.mtu = 1500;
	s->eth.rings.rx = ring;
	add_sysctl(s, "net.core.netdev_max_backlog", "1000");
	add_sysctl(s, "net.netfilter.nf_conntrack_count", "0");
	s->irqs.n = 2;
	s->irqs.lines = calloc(2, sizeof(*s->irqs.lines));
	assert_non_null(s->irqs.lines);
	s->irqs.lines[0].irq = 45;
	s->irqs.lines[1].irq = 46;
	snprintf(s->irqs.lines[0].name, sizeof(s->irqs.lines[0].name), "eth0-rx-0");
	snprintf(s->irqs.lines[1].name, sizeof(s->irqs.lines[1].name), "eth0-rx-1");
	s->rtnl.nqdisc = 2;
	s->rtnl.qdiscs = calloc(2, sizeof(*s->rtnl.qdiscs));
	assert_non_null(s->rtnl.qdiscs);
	snprintf(s->rtnl.qdiscs[0].kind, sizeof(s->rtnl.qdiscs[0].kind), "mq");
	s->rtnl.qdiscs[0].handle = 0x10000;
	s->rtnl.qdiscs[0].parent = 0xffffffff;
	snprintf(s->rtnl.qdiscs[1].kind, sizeof(s->rtnl.qdiscs[1].kind), "fq");
	s->rtnl.qdiscs[1].handle = 0;
	s->rtnl.qdiscs[1].parent = 0x10001;
	s->rtnl.has_stats64 = true;
}

static inline void set_irqs(struct np_snapshot *s, const int *cpus, size_t ncols, uint64_t base)
{
	uint64_t v[8];

	free(s->irqs.col_cpu);
	s->irqs.ncols = ncols;
	s->irqs.col_cpu = malloc(ncols * sizeof(int));
	assert_non_null(s->irqs.col_cpu);
	memcpy(s->irqs.col_cpu, cpus, ncols * sizeof(int));
	for (size_t l = 0; l < s->irqs.n; l++) {
		s->irqs.lines[l].total = 0;
		for (size_t c = 0; c < ncols; c++) {
			/* Line 1 is sparse: one CPU's column only. */
			v[c] = l == 1 && c ? 0 : base + 100 * l + c;
			s->irqs.lines[l].total += v[c];
		}
		assert_int_equal(np_irq_set_counts(&s->irqs.lines[l], v, ncols), 0);
	}
}

static inline void udp_entry(struct np_sock_udp *u, uint32_t inode, uint16_t port, uint64_t drops)
{
	memset(u, 0, sizeof(*u));
	u->id.family = AF_INET6;
	u->id.state = 7;
	u->id.inode = inode;
	u->id.sport = port;
	u->id.saddr[0] = 0x20;
	u->id.saddr[15] = (uint8_t)inode;
	u->id.pid = -1;
	u->drops = drops;
	u->rmem_alloc = 1000 + (uint32_t)drops;
	u->rcvbuf = 212992;
}

/* A: 3 CPUs (0, 1, 3), 3 queues listed out of order, every section. */
static inline void build_a(struct np_snapshot *s)
{
	static const int cpus[] = { 0, 1, 3 };
	static const int queues[] = { 2, 0, 1 };

	config(s, 1024);
	s->hs->softnet.n = 3;
	s->hs->softnet.rows = calloc(3, sizeof(*s->hs->softnet.rows));
	s->hs->softirqs.n = 3;
	s->hs->softirqs.cpu = calloc(3, sizeof(int));
	s->hs->softirqs.net_rx = calloc(3, sizeof(uint64_t));
	s->hs->softirqs.net_tx = calloc(3, sizeof(uint64_t));
	s->eth.nqstats = 3;
	s->eth.qstats = calloc(3, sizeof(*s->eth.qstats));
	assert_non_null(s->hs->softnet.rows);
	assert_non_null(s->hs->softirqs.net_tx);
	assert_non_null(s->eth.qstats);
	for (int i = 0; i < 3; i++) {
		struct np_softnet_row *r = &s->hs->softnet.rows[i];
		struct np_qstat *q = &s->eth.qstats[i];

		*r = (struct np_softnet_row){ cpus[i], 1000u + i, 10u + i, 5u + i, 7u, 3u,
					      i == 2 ? NP_NA : 4u, NP_NA, NP_NA };
		s->hs->softirqs.cpu[i] = cpus[i];
		s->hs->softirqs.net_rx[i] = 500u + i;
		s->hs->softirqs.net_tx[i] = 50u + i;
		*q = (struct np_qstat){ queues[i], 100u + i, 6400u + i, 1, 2u + i, 3, 4,
					NP_NA, 0 };
	}
	assert_int_equal(np_counters_set(&s->hs->mib, "TcpExtListenOverflows", 17), 0);
	assert_int_equal(np_counters_set(&s->hs->mib, "UdpRcvbufErrors", 4242), 0);
	assert_int_equal(np_counters_set(&s->hs->mib, "IpExtInOctets", NP_NA), 0);
	np_counters_sort(&s->hs->mib);
	assert_int_equal(np_counters_set(&s->hs->conntrack, "drop", 9), 0);
	assert_int_equal(np_counters_set(&s->hs->conntrack, "entries", 300), 0);
	np_counters_sort(&s->hs->conntrack);
	s->hs->sockstat = (struct np_sockstat){ 10, 4, 1, 2, 5, 33, 3, 12, 0, NP_NA };
	s->hs->mem.mem_total = 8ull << 30;
	s->hs->mem.mem_available = 3ull << 30;
	assert_int_equal(np_parse_sysctl_value("299", &s->hs->sysctl.e[1]), 0);
	for (size_t i = 0; i < np_link_stats_nfields; i++) {
		*np_link_stats_at(&s->dev.stats, i) = 1000 + i;
		*np_link_stats_at(&s->rtnl.stats64, i) = i == 3 ? NP_NA : 2000 + i;
	}
	s->dev.carrier_changes = 4;
	s->dev.carrier_up = 2;
	s->dev.carrier_down = 2;
	set_irqs(s, cpus, 3, 7000);
	assert_int_equal(np_counters_set(&s->eth.std_stats, "eth-mac.FrameCheckSequenceErrors", 3), 0);
	np_counters_sort(&s->eth.std_stats);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx_queue_0_drops", 11), 0);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "port.rx/dropped", 12), 0);
	np_counters_sort(&s->eth.drv_stats);
	for (int i = 0; i < 2; i++) {
		struct np_qdisc *q = &s->rtnl.qdiscs[i];

		q->bytes = 9000u + i;
		q->packets = 90u + i;
		q->drops = 9u + i;
		q->overlimits = q->requeues = 1;
		q->backlog = q->qlen = 0;
	}
	s->eth.pause.tx_frames = 77;
	s->eth.pause.rx_frames = 88;
	s->pcie.aer_correctable = 1;
	s->pcie.aer_nonfatal = 0;
	s->pcie.aer_fatal = NP_NA;
	s->socks.tcp_total = 40;
	s->socks.udp_total = 6;
	s->socks.udp_drops = 300;
	s->socks.udp_with_drops = 2;
	s->socks.listeners = 3;
	s->socks.listen_drops = 5;
	s->socks.tcp_state[1] = 30;
	s->socks.tcp_state[10] = 3;
	s->socks.udp.n = 2;
	s->socks.udp.total = 2;
	udp_entry(&s->socks.udp.e[0], 4001, 5000, 200);
	udp_entry(&s->socks.udp.e[1], 4002, 5001, 100);
	s->socks.listen.n = 1;
	s->socks.listen.total = 1;
	s->socks.listen.e[0].id = (struct np_sock_id){ .family = AF_INET, .state = 10,
						       .sport = 80, .inode = 5001, .pid = -1 };
	s->socks.listen.e[0].id.saddr[0] = 10;
	s->socks.listen.e[0].queued = 128;
	s->socks.listen.e[0].limit = 128;
	s->socks.listen.e[0].drops = 5;
}

/* B: the same configuration but a bigger ring, 2 CPUs, 1 queue, other values, stale extras. */
static inline void build_b(struct np_snapshot *s)
{
	static const int cpus[] = { 0, 1 };

	config(s, 4096);
	s->hs->softnet.n = 2;
	s->hs->softnet.rows = calloc(2, sizeof(*s->hs->softnet.rows));
	assert_non_null(s->hs->softnet.rows);
	for (int i = 0; i < 2; i++)
		s->hs->softnet.rows[i] = (struct np_softnet_row){ i, 1, 1, 1, 1, 1, 1, 1, 1 };
	s->eth.nqstats = 1;
	s->eth.qstats = calloc(1, sizeof(*s->eth.qstats));
	assert_non_null(s->eth.qstats);
	s->eth.qstats[0] = (struct np_qstat){ 5, 1, 1, 1, 1, 1, 1, 1, 1 };
	assert_int_equal(np_counters_set(&s->hs->mib, "TcpExtStale", 1), 0);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "stale", 1), 0);
	set_irqs(s, cpus, 2, 1);
	s->socks.udp.n = 1;
	s->socks.udp.total = 1;
	udp_entry(&s->socks.udp.e[0], 999, 53, 1);
	s->dev.stats.rx_dropped = 1;
}

/* ---- the comparison: every counter, by the model's own fields ---- */

static inline void eq_table(const struct np_counters *a, const struct np_counters *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		assert_true(np_counters_get(b, a->e[i].name) == a->e[i].value);
}

static inline void eq_link(const struct np_link_stats *a, const struct np_link_stats *b)
{
	for (size_t i = 0; i < np_link_stats_nfields; i++)
		assert_true(*np_link_stats_at((struct np_link_stats *)a, i) ==
			    *np_link_stats_at((struct np_link_stats *)b, i));
}

static inline void eq_id(const struct np_sock_id *a, const struct np_sock_id *b)
{
	assert_int_equal(a->family, b->family);
	assert_int_equal(a->inode, b->inode);
	assert_int_equal(a->sport, b->sport);
	assert_memory_equal(a->saddr, b->saddr, 16);
}

static inline void eq_socks(const struct np_sockets *a, const struct np_sockets *b)
{
#define EQ(f) assert_true(a->f == b->f)
	EQ(tcp_total); EQ(tcp_v4); EQ(tcp_v6); EQ(udp_total); EQ(udp_v4); EQ(udp_v6);
	EQ(udp_drops); EQ(udp_with_drops); EQ(listeners); EQ(listen_full); EQ(listen_near);
	EQ(listen_drops); EQ(listen_v6); EQ(no_info);
	for (int i = 0; i < NP_SOCK_TCP_STATES; i++)
		EQ(tcp_state[i]);
	EQ(udp.n); EQ(udp.total); EQ(listen.n); EQ(listen.total);
	for (uint32_t i = 0; i < a->udp.n; i++) {
		eq_id(&a->udp.e[i].id, &b->udp.e[i].id);
		EQ(udp.e[i].drops); EQ(udp.e[i].rmem_alloc); EQ(udp.e[i].rcvbuf);
	}
	for (uint32_t i = 0; i < a->listen.n; i++) {
		eq_id(&a->listen.e[i].id, &b->listen.e[i].id);
		EQ(listen.e[i].drops); EQ(listen.e[i].queued); EQ(listen.e[i].limit);
	}
#undef EQ
}

static inline uint64_t gauge(const struct np_snapshot *s)
{
	const struct np_sysctl *e = np_sysctl_find_key(s, "net.netfilter.nf_conntrack_count");

	return e && !e->err && e->nvals ? (uint64_t)e->v[0] : NP_NA;
}

static inline void eq_counters(const struct np_snapshot *a, const struct np_snapshot *b)
{
#define EQ(f) assert_true(a->f == b->f)
	EQ(hs->softnet.n);
	for (size_t i = 0; i < a->hs->softnet.n; i++) {
		EQ(hs->softnet.rows[i].cpu); EQ(hs->softnet.rows[i].processed); EQ(hs->softnet.rows[i].dropped);
		EQ(hs->softnet.rows[i].time_squeeze); EQ(hs->softnet.rows[i].received_rps);
		EQ(hs->softnet.rows[i].flow_limit_count); EQ(hs->softnet.rows[i].backlog_len);
		EQ(hs->softnet.rows[i].input_qlen); EQ(hs->softnet.rows[i].process_qlen);
	}
	EQ(hs->softirqs.n);
	for (size_t i = 0; i < a->hs->softirqs.n; i++) {
		EQ(hs->softirqs.cpu[i]); EQ(hs->softirqs.net_rx[i]); EQ(hs->softirqs.net_tx[i]);
	}
	eq_table(&a->hs->mib, &b->hs->mib);
	eq_table(&a->hs->conntrack, &b->hs->conntrack);
	EQ(hs->sockstat.sockets_used); EQ(hs->sockstat.tcp_inuse); EQ(hs->sockstat.tcp_orphan);
	EQ(hs->sockstat.tcp_tw); EQ(hs->sockstat.tcp_alloc); EQ(hs->sockstat.tcp_mem);
	EQ(hs->sockstat.udp_inuse); EQ(hs->sockstat.udp_mem); EQ(hs->sockstat.frag_inuse);
	EQ(hs->sockstat.frag_memory);
	EQ(hs->mem.mem_total); EQ(hs->mem.mem_available);
	assert_true(gauge(a) == gauge(b));
	eq_link(&a->dev.stats, &b->dev.stats);
	EQ(rtnl.has_stats64);
	if (a->rtnl.has_stats64)
		eq_link(&a->rtnl.stats64, &b->rtnl.stats64);
	EQ(dev.carrier_changes); EQ(dev.carrier_up); EQ(dev.carrier_down);
	EQ(irqs.ncols); EQ(irqs.n);
	for (size_t c = 0; c < a->irqs.ncols; c++)
		EQ(irqs.col_cpu[c]);
	for (size_t l = 0; l < a->irqs.n; l++) {
		EQ(irqs.lines[l].irq); EQ(irqs.lines[l].total);
		for (size_t c = 0; c < a->irqs.ncols; c++)
			assert_int_equal(np_irq_count(&a->irqs.lines[l], c),
					 np_irq_count(&b->irqs.lines[l], c));
	}
	eq_table(&a->eth.std_stats, &b->eth.std_stats);
	eq_table(&a->eth.drv_stats, &b->eth.drv_stats);
	EQ(eth.nqstats);
	for (size_t i = 0; i < a->eth.nqstats; i++) {
		EQ(eth.qstats[i].queue); EQ(eth.qstats[i].rx_packets); EQ(eth.qstats[i].rx_bytes);
		EQ(eth.qstats[i].rx_alloc_fail); EQ(eth.qstats[i].rx_hw_drops);
		EQ(eth.qstats[i].rx_hw_drop_overruns); EQ(eth.qstats[i].rx_hw_drop_ratelimits);
		EQ(eth.qstats[i].rx_csum_none); EQ(eth.qstats[i].rx_csum_bad);
	}
	EQ(rtnl.nqdisc);
	for (size_t i = 0; i < a->rtnl.nqdisc; i++) {
		EQ(rtnl.qdiscs[i].bytes); EQ(rtnl.qdiscs[i].packets); EQ(rtnl.qdiscs[i].drops);
		EQ(rtnl.qdiscs[i].overlimits); EQ(rtnl.qdiscs[i].requeues);
		EQ(rtnl.qdiscs[i].backlog); EQ(rtnl.qdiscs[i].qlen);
	}
	EQ(eth.pause.tx_frames); EQ(eth.pause.rx_frames);
	EQ(pcie.aer_correctable); EQ(pcie.aer_nonfatal); EQ(pcie.aer_fatal);
	if (np_src_ok(a, NP_SRC_SOCK_DIAG))
		eq_socks(&a->socks, &b->socks);
#undef EQ
}

/* ---- frames ---- */

struct frame {
	struct np_named_counters c;
	const char **names;
};

static inline void encode(const struct np_snapshot *s, struct frame *f)
{
	const char *p;

	np_named_counters_init(&f->c);
	assert_int_equal(np_snapcnt_host(s, &f->c), 0);
	assert_int_equal(np_snapcnt_dev(s, &f->c), 0);
	f->names = calloc(f->c.n + 1, sizeof(*f->names));
	assert_non_null(f->names);
	p = f->c.names;
	for (size_t i = 0; i < f->c.n; i++) {
		assert_true(p < f->c.names + f->c.names_len);
		f->names[i] = p;
		p += strlen(p) + 1;
	}
	assert_true(p == f->c.names + f->c.names_len);
}

static inline void frame_free(struct frame *f)
{
	free(f->names);
	np_named_counters_free(&f->c);
}

static inline void apply(struct np_snapshot *s, const struct frame *f)
{
	assert_int_equal(np_snapcnt_apply(s, f->names, f->c.v, f->c.n), 0);
}

/* ---- tests ---- */

#endif
