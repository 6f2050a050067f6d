// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/softnet_stat: one row of %08x fields per online CPU, layout told by the width. */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Wider rows than this are not a kernel layout, just garbage we refuse to guess about. */
#define SOFTNET_MAX_COLS 64

/*
 * One line into vals[]; *ncols = 0 for a blank line. The kernel prints 32-bit fields, so more
 * than 8 digits is not softnet_stat.
 */
static int parse_row(const char *l, size_t ll, uint32_t *vals, unsigned *ncols)
{
	const char *t;
	size_t tl, i = 0;
	unsigned n = 0;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		if (n == SOFTNET_MAX_COLS || !np_tok_hex32(t, tl, &vals[n]))
			return -EINVAL;
		n++;
	}
	*ncols = n;
	return 0;
}

/* The next online CPU after prev (-1: the first), or -1 when there is none. */
static int next_cpu(const struct np_cpuset *online, int prev)
{
	for (unsigned c = (unsigned)(prev + 1); c < NP_MAX_CPUS; c++)
		if (np_cpuset_has(online, c))
			return (int)c;
	return -1;
}

static void fill_row(struct np_softnet_row *r, const uint32_t *v, unsigned ncols)
{
	r->processed = v[0];
	r->dropped = v[1];
	r->time_squeeze = v[2];
	r->received_rps = v[9];
	r->flow_limit_count = v[10];
	r->backlog_len = ncols >= 13 ? v[11] : NP_NA;
	r->input_qlen = ncols >= 15 ? v[13] : NP_NA;
	r->process_qlen = ncols >= 15 ? v[14] : NP_NA;
	r->cpu = ncols >= 13 ? (int)v[12] : -1;
}

/* 11: 5.4-5.9; 13: +backlog_len, cpu (5.10); 15: +input/process_qlen (6.4); wider: future. */
static bool known_width(unsigned n)
{
	return n == 11 || n == 13 || n >= 15;
}

static int parse(const char *buf, size_t len, const struct np_cpuset *online,
		 struct np_softnet *out)
{
	uint32_t vals[SOFTNET_MAX_COLS];
	unsigned width = 0;
	const char *l;
	size_t ll, pos = 0, nrows = 0, cap = 0;
	int prev_cpu = -1;

	while (np_line_next(buf, len, &pos, &l, &ll)) {
		unsigned ncols;
		int err;

		err = parse_row(l, ll, vals, &ncols);
		if (err)
			return err;
		if (!ncols)
			continue;
		if (!width) {
			if (!known_width(ncols))
				return -EINVAL;
			width = ncols;
		} else if (ncols != width) {
			return -EINVAL;
		}
		if (nrows == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct np_softnet_row *rows = realloc(out->rows, ncap * sizeof(*rows));

			if (!rows)
				return -ENOMEM;
			out->rows = rows;
			cap = ncap;
		}
		fill_row(&out->rows[nrows], vals, ncols);
		if (ncols >= 13 && vals[12] >= NP_MAX_CPUS)
			return -EINVAL;
		if (ncols == 11) {
			int cpu = online ? next_cpu(online, prev_cpu) : (int)nrows;

			/* More rows than online CPUs: the mapping is unknowable, not guessable. */
			if (cpu < 0 || cpu >= NP_MAX_CPUS)
				return -EINVAL;
			out->rows[nrows].cpu = cpu;
			prev_cpu = cpu;
		}
		nrows++;
	}
	if (!nrows)
		return -EINVAL;
	out->ncols = width;
	out->cpu_from_column = width >= 13;
	out->n = nrows;
	return 0;
}

int np_parse_softnet(const char *buf, size_t len, const struct np_cpuset *online,
		     struct np_softnet *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	if (!buf)
		return -EINVAL;
	err = parse(buf, len, online, out);
	if (err) {
		free(out->rows);
		memset(out, 0, sizeof(*out));
	}
	return err;
}
