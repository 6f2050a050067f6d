/* SPDX-License-Identifier: GPL-2.0-only */
/* The watch frame tests' fixture: a synthetic pair of snapshots 2 s apart (a virtio_net-like
 * device with IRQs, qstats and drops), reports with given findings, and the frame rendered as
 * text and JSON. */
#ifndef NP_TEST_WATCH_FIXTURE_H
#define NP_TEST_WATCH_FIXTURE_H

#include "synth.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "funnel.h"
#include "render_watch.h"
#include "../fits_width.h"

struct pair {
	struct np_snapshot prev, cur;
	struct np_options opt;
	struct np_analysis a;
	struct np_report rep;
	struct np_funnel fn;
};

static inline void add_irq(struct np_snapshot *s, unsigned irq, const char *name, uint64_t c0, uint64_t c1)
{
	struct np_interrupts *t = &s->irqs;
	struct np_irq_line *l;

	if (!t->col_cpu) {
		t->ncols = 2;
		t->col_cpu = calloc(2, sizeof(int));
		assert_non_null(t->col_cpu);
		t->col_cpu[0] = 0;
		t->col_cpu[1] = 1;
	}
	t->lines = realloc(t->lines, (t->n + 1) * sizeof(*t->lines));
	assert_non_null(t->lines);
	l = &t->lines[t->n++];
	memset(l, 0, sizeof(*l));
	l->irq = irq;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->role = NP_IRQ_RX;
	l->count = calloc(2, sizeof(*l->count));	/* dense */
	assert_non_null(l->count);
	l->ncount = 2;
	l->count[0] = c0;
	l->count[1] = c1;
	l->total = c0 + c1;
}

static inline void add_qstat(struct np_snapshot *s, int queue, uint64_t packets)
{
	struct np_ethtool *e = &s->eth;

	e->qstats = realloc(e->qstats, (e->nqstats + 1) * sizeof(*e->qstats));
	assert_non_null(e->qstats);
	e->qstats[e->nqstats++] = (struct np_qstat){ queue, packets, NP_NA, NP_NA, NP_NA, NP_NA,
						      NP_NA, NP_NA, NP_NA };
}

/* A virtio_net-like device over 2 s: 1000 pkt/s in, 10/s missed at the NIC, CPU 0 dropping
 * 5/s from its backlog, CPU 1's 32-bit processed counter wrapping, packets per queue from
 * qstats and drops from the driver's rxN_drops, two IRQ lines, one UDP socket dropping. */
static inline void state(struct np_snapshot *s, double t, int k)
{
	synth_init(s, t);
	synth_softnet(s, 2);
	s->dev.stats.rx_packets = 1000 + 2000 * (uint64_t)k;
	s->dev.stats.rx_crc_errors = s->dev.stats.rx_frame_errors = 0;
	s->dev.stats.rx_length_errors = s->dev.stats.rx_fifo_errors = 0;
	s->dev.stats.rx_over_errors = 0;
	s->dev.stats.rx_missed_errors = 20 * (uint64_t)k;
	s->hs->softnet.rows[0].processed = 100 + 2000 * (uint64_t)k;
	s->hs->softnet.rows[0].dropped = 10 * (uint64_t)k;
	s->hs->softnet.rows[1].processed = k ? 0x10 : 0xfffffff0;	/* one wrap: +32 */
	s->hs->softnet.rows[1].time_squeeze = 4 + 4 * (uint64_t)k;
	s->hs->softnet.rows[1].received_rps = 0;
	snprintf(s->eth.driver, sizeof(s->eth.driver), "virtio_net");
	add_qstat(s, 0, 500 + 2000 * (uint64_t)k);
	add_qstat(s, 1, 7);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx0_drops", 6 * (uint64_t)k), 0);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx_drops", 6 * (uint64_t)k), 0);
	assert_int_equal(np_counters_set(&s->eth.drv_stats, "rx1_drops", 0), 0);
	add_irq(s, 30, "virtio2-input.0", 100 + 400 * (uint64_t)k, 5);
	add_irq(s, 31, "virtio2-output.0", 0, 10 + 20 * (uint64_t)k);
	s->socks.udp_total = 3;
	s->socks.udp.n = 1;
	s->socks.udp.total = 1;
	s->socks.udp.e[0].id.family = AF_INET;
	s->socks.udp.e[0].id.sport = 5353;
	s->socks.udp.e[0].id.inode = 4242;
	s->socks.udp.e[0].drops = 100 + 200 * (uint64_t)k;
}

static inline void pair_init(struct pair *p)
{
	memset(p, 0, sizeof(*p));
	state(&p->prev, 10, 0);
	state(&p->cur, 12, 1);
	p->opt = (struct np_options){ .interval = 2, .rtt_ms = NAN, .bandwidth_bps = NAN };
	p->a = (struct np_analysis){ .prev = &p->prev, .cur = &p->cur, .dt = 2, .opt = &p->opt };
	np_analysis_derive(&p->a);
	np_funnel_build(&p->a, &p->fn);
}

static inline void pair_free(struct pair *p)
{
	np_snapshot_free(&p->prev);
	np_snapshot_free(&p->cur);
	np_report_free(&p->rep);
}

/* A report holding findings of the given checks and severities (ids NULL-terminated). */
static inline void report(struct np_report *r, const char *const *ids, const enum np_severity *sev)
{
	size_t n = 0;

	np_report_free(r);
	memset(r, 0, sizeof(*r));
	while (ids[n])
		n++;
	for (size_t i = 0; i < n; i++) {
		char sum[NP_SUMMARY_SIZE];
		struct np_finding f = { .check = np_check_find(ids[i]), .severity = sev[i],
					.summary = sum, .detail = "", .remedy = "" };

		assert_non_null(f.check);
		snprintf(sum, sizeof(sum), "summary of %s", ids[i]);
		assert_int_equal(np_report_add(r, &f), 0);
	}
}

/* A memory stream into *buf. buf and len are the caller's statics: GCC 12 takes the stream's
 * pointer to a local buffer for a dangling one. */
static inline FILE *mem_open(char **buf, size_t *len)
{
	FILE *out;

	*buf = NULL;
	*len = 0;
	out = open_memstream(buf, len);
	assert_non_null(out);
	return out;
}

static inline char *render_text(const struct np_watch_frame *f)
{
	static char *buf;
	static size_t len;
	FILE *out = mem_open(&buf, &len);

	np_render_watch_text(out, f, 60);
	fclose(out);
	np_assert_fits(buf, 60);
	free(buf);
	/* The assertions were written for whole lines: no limit. */
	out = mem_open(&buf, &len);
	np_render_watch_text(out, f, 0);
	fclose(out);
	return buf;
}

static inline char *render_json(const struct np_watch_frame *f)
{
	static char *buf;
	static size_t len;
	FILE *out = mem_open(&buf, &len);

	np_render_watch_json(out, f);
	fclose(out);
	return buf;
}

static inline void assert_contains(const char *hay, const char *needle)
{
	/* hay is a memory stream's buffer: GCC cannot see that it is set. */
	if (!hay || !strstr(hay, needle)) {
		fprintf(stderr, "missing: [%s]\nin:\n%s\n", needle, hay ? hay : "(nothing)");
		fail();
	}
}

#endif
