// SPDX-License-Identifier: GPL-2.0-only
/* Synthetic snapshots for check tests. */
#include "synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void synth_init(struct np_snapshot *s, double t)
{
	np_snapshot_init(s);
	s->t = t;
	for (int i = 0; i < NP_SRC__COUNT; i++)
		np_srcp(s, i)->status = NP_SRC_OK;
	snprintf(s->ifname, sizeof(s->ifname), "eth0");
	snprintf(s->dev.name, sizeof(s->dev.name), "eth0");
	s->hs->host.ncpu_online = 0;
	s->hs->mem.page_size = 4096;
	s->hs->mem.mem_total = 16ull << 30;
}

void synth_sysctl(struct np_snapshot *s, const char *key, const char *text)
{
	struct np_sysctl *e = (struct np_sysctl *)np_sysctl_find_key(s, key);
	size_t n = strlen(key);

	/* Only a key the collector reads (the registry's, or the device's rp_filter): a test that
	 * adds any other by hand would pass while the real run never has it. */
	if (np_sysctl_id_of(key) < 0 &&
	    !(strncmp(key, "net.ipv4.conf.", 14) == 0 && n > 24 &&
	      strcmp(key + n - 10, ".rp_filter") == 0))
		fail_msg("%s is not in the sysctl registry: the collector never reads it", key);

	if (!e)	/* the device's own key goes where the collector puts it */
		e = np_sysctl_add(np_sysctl_id_of(key) < 0 ? &s->dev_sysctl : &s->hs->sysctl, key);
	assert_non_null(e);
	assert_int_equal(np_parse_sysctl_value(text, e), 0);
	e->err = 0;
}

void synth_mib(struct np_snapshot *s, const char *name, uint64_t value)
{
	assert_int_equal(np_counters_set(&s->hs->mib, name, value), 0);
}

void synth_softnet(struct np_snapshot *s, size_t ncpu)
{
	free(s->hs->softnet.rows);
	s->hs->softnet.rows = calloc(ncpu, sizeof(*s->hs->softnet.rows));
	assert_non_null(s->hs->softnet.rows);
	s->hs->softnet.n = ncpu;
	s->hs->softnet.ncols = 13;
	s->hs->softnet.cpu_from_column = true;
	np_cpuset_zero(&s->hs->host.online);
	for (size_t i = 0; i < ncpu; i++) {
		s->hs->softnet.rows[i].cpu = (int)i;
		s->hs->softnet.rows[i].backlog_len = 0;
		s->hs->softnet.rows[i].input_qlen = NP_NA;
		s->hs->softnet.rows[i].process_qlen = NP_NA;
		np_cpuset_set(&s->hs->host.online, (unsigned)i);
	}
	s->hs->host.ncpu_online = (unsigned)ncpu;
}

static bool only_id(const struct np_check *c, void *arg)
{
	return strcmp(c->id, (const char *)arg) == 0;
}

void synth_run(struct synth_run *run, const char *id, const struct np_snapshot *prev,
	       const struct np_snapshot *cur, double rtt_ms, double bw_bps)
{
	synth_run_ovr(run, id, prev, cur, rtt_ms, bw_bps, NULL);
}

void synth_run_ovr(struct synth_run *run, const char *id, const struct np_snapshot *prev,
		   const struct np_snapshot *cur, double rtt_ms, double bw_bps,
		   const struct np_overrides *ovr)
{
	memset(run, 0, sizeof(*run));
	run->a.ovr = ovr;
	assert_non_null(np_check_find(id));
	run->opt.interval = prev ? cur->t - prev->t : 0;
	run->opt.rtt_ms = rtt_ms;
	run->opt.bandwidth_bps = bw_bps;
	run->a.prev = prev;
	run->a.cur = cur;
	run->a.dt = prev ? cur->t - prev->t : 0;
	run->a.opt = &run->opt;
	np_analysis_derive(&run->a);
	assert_int_equal(np_analyze(&run->a, &run->r, only_id, (void *)id), 0);
}

void synth_run_free(struct synth_run *run)
{
	np_report_free(&run->r);
}

enum np_severity synth_worst(const struct synth_run *run)
{
	return np_report_worst(&run->r);
}

const struct np_finding *synth_first(const struct synth_run *run)
{
	assert_true(run->r.n > 0);
	return &run->r.f[0];
}

int synth_has_ev(const struct np_finding *f, const char *key)
{
	for (size_t i = 0; i < f->nev; i++)
		if (strcmp(f->ev[i].key, key) == 0)
			return 1;
	return 0;
}

enum np_check_state synth_state(const struct synth_run *run)
{
	for (size_t i = 0; i < run->r.nres; i++)
		if (run->r.res[i].state != NP_CHECK_NOT_RUN)
			return run->r.res[i].state;
	return NP_CHECK_NOT_RUN;
}
