// SPDX-License-Identifier: GPL-2.0-only
/* The sizing rules behind doctor's remedies and `netpath plan` (sizing.h). */
#include "sizing.h"

#include <math.h>

#include "check_util.h"

int64_t np_size_round_mib(double bytes)
{
	int64_t mib = (int64_t)((bytes + (1 << 20) - 1) / (1 << 20));

	return (mib < 1 ? 1 : mib) << 20;
}

int64_t np_size_tcp_buf_max(double bdp_bytes)
{
	return np_size_round_mib(2.0 * bdp_bytes);
}

int64_t np_size_core_max(double bdp_bytes, int64_t tcp_max)
{
	int64_t target = (int64_t)(isnan(bdp_bytes) ? 0 : bdp_bytes);

	if (tcp_max > target)
		target = tcp_max;
	return np_size_round_mib((double)target);
}

uint64_t np_size_backlog(const struct np_snapshot *s, int64_t cur)
{
	uint64_t floor = np_has(s->dev.speed_mbps) && s->dev.speed_mbps >= 10000 ? 16384 : 4096;
	uint64_t v = cur > 0 ? (uint64_t)cur * 2 : floor;

	return v < floor ? floor : v;
}

double np_size_backlog_truesize(const struct np_snapshot *s)
{
	/* An skb of a 1500-byte frame has a truesize of ~2.3 KiB; bigger with jumbo frames. */
	if (np_has(s->dev.mtu) && s->dev.mtu > 1500)
		return (double)s->dev.mtu + 1024;
	return 2304;
}

void np_size_mem_pages(double ram, double page, int div, int64_t out[3])
{
	double lim = ram / page / div;

	if (lim < 128)
		lim = 128;
	out[0] = (int64_t)(lim / 4 * 3);
	out[1] = (int64_t)lim;
	out[2] = out[0] * 2;
}

void np_size_mem_judge(const int64_t v[3], double page, double ram, int eff,
		       struct np_mem_judgement *j)
{
	/* Someone typed bytes: as pages the value is larger than the machine. */
	j->too_big = !isnan(ram) && (double)v[2] * page > ram;
	/* Or a value far below anything the kernel would pick (its default is ~9% of RAM). */
	if (!isnan(ram))
		j->too_small = (double)v[eff] * page < ram / 100.0;
	else
		j->too_small = v[eff] < 4096;
	j->disorder = !(v[0] <= v[1] && v[1] <= v[2]);
}

int64_t np_size_budget(int64_t cur)
{
	return cur * 2;
}

uint64_t np_size_rx_ring(uint64_t rx, uint64_t rx_max, bool critical)
{
	uint64_t target = rx * 4;

	if (!rx || target > rx_max || critical)
		target = rx_max;
	return target;
}

unsigned np_size_local_cpus(const struct np_snapshot *s, unsigned ncpu)
{
	struct np_cpuset t = s->dev.local_cpus;
	unsigned n;

	if (!s->dev.has_local_cpus || !np_cpuset_count(&s->hs->host.online))
		return ncpu;
	for (size_t i = 0; i < NP_MAX_CPUS / 64; i++)
		t.w[i] &= s->hs->host.online.w[i];
	n = np_cpuset_count(&t);
	return n ? n : ncpu;
}

uint64_t np_size_rx_channels(const struct np_snapshot *s, uint64_t hwmax, unsigned ncpu)
{
	unsigned nlocal = np_size_local_cpus(s, ncpu);

	return hwmax < nlocal ? hwmax : nlocal;
}
