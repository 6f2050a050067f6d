// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/net/softnet_stat: one row of %08x fields per online CPU, the layout told by the width.
 * The kernel only ever appended columns (net/core/dev.c, later net-procfs.c, softnet_seq_show):
 *    9  2.6.32-2.6.34: processed dropped time_squeeze 0 0 0 0 0 (was fastroute) cpu_collision
 *   10  2.6.35-3.10:   + received_rps       (RHEL/CentOS 6 backported it to 2.6.32; RHEL 7)
 *   11  3.11-5.9:      + flow_limit_count   (cpu_collision printed as 0 since about 4.8)
 *   13  5.10-6.3:      + softnet_backlog_len, CPU index (rows name their CPU; RHEL 8.5+ too)
 *   15  6.4+:          + input_qlen, process_qlen
 * Rows before 5.10 are the online CPUs in order: row N is not CPU N when some are offline.
 * Wider rows are taken as a future layout that keeps these meanings.
 */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Wider rows than this are not a kernel layout, just garbage we refuse to guess about. */
#define SOFTNET_MAX_COLS 64

/*
 * One line into vals[]; *ncols = 0 for a blank line. The kernel prints 32-bit fields, so more
 * than 8 digits is not softnet_stat.
 */
/* Control bytes of a damaged file must not reach the terminal through the report. */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static int parse_row(const char *l, size_t ll, size_t row, uint32_t *vals, unsigned *ncols,
		     char *why, size_t whysz)
{
	const char *t;
	size_t tl, i = 0;
	unsigned n = 0;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		if (n == SOFTNET_MAX_COLS) {
			snprintf(why, whysz, "row %zu has more than %d fields", row, SOFTNET_MAX_COLS);
			return -EINVAL;
		}
		if (!np_tok_hex32(t, tl, &vals[n])) {
			snprintf(why, whysz, "row %zu, field %u is not a 32-bit hex number ('%.*s')",
				 row, n + 1, (int)(tl > 12 ? 12 : tl), t);
			printable(why);
			return -EINVAL;
		}
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
	r->received_rps = ncols >= 10 ? v[9] : NP_NA;
	r->flow_limit_count = ncols >= 11 ? v[10] : NP_NA;
	r->backlog_len = ncols >= 13 ? v[11] : NP_NA;
	r->input_qlen = ncols >= 15 ? v[13] : NP_NA;
	r->process_qlen = ncols >= 15 ? v[14] : NP_NA;
	r->cpu = ncols >= 13 ? (int)v[12] : -1;
}

/* The kernels that print a width (see the top of this file); NULL: no kernel's layout. */
static const char *layout_of(unsigned n)
{
	switch (n) {
	case 9:
		return "9 columns (kernels 2.6.32-2.6.34)";
	case 10:
		return "10 columns (kernels 2.6.35-3.10, RHEL 6)";
	case 11:
		return "11 columns (kernels 3.11-5.9)";
	case 13:
		return "13 columns (kernels 5.10-6.3)";
	case 15:
		return "15 columns (kernels 6.4 and later)";
	default:
		return n > 15 ? "more than 15 columns (a newer kernel)" : NULL;
	}
}

static int parse(const char *buf, size_t len, const struct np_cpuset *online,
		 struct np_softnet *out, char *why, size_t whysz)
{
	uint32_t vals[SOFTNET_MAX_COLS];
	unsigned width = 0;
	const char *l;
	size_t ll, pos = 0, nrows = 0, cap = 0;
	int prev_cpu = -1;

	while (np_line_next(buf, len, &pos, &l, &ll)) {
		unsigned ncols;
		int err;

		err = parse_row(l, ll, nrows + 1, vals, &ncols, why, whysz);
		if (err)
			return err;
		if (!ncols)
			continue;
		if (!width) {
			if (!layout_of(ncols)) {
				snprintf(why, whysz, "%u fields per row: no kernel prints that layout "
					 "(9, 10, 11, 13 or 15+)", ncols);
				return -EINVAL;
			}
			width = ncols;
		} else if (ncols != width) {
			snprintf(why, whysz, "row %zu has %u fields, row 1 has %u", nrows + 1, ncols,
				 width);
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
		if (ncols >= 13 && vals[12] >= NP_MAX_CPUS) {
			snprintf(why, whysz, "row %zu names CPU %u, beyond %d", nrows + 1, vals[12],
				 NP_MAX_CPUS - 1);
			return -EINVAL;
		}
		if (ncols < 13) {
			int cpu = online ? next_cpu(online, prev_cpu) : (int)nrows;

			/* More rows than online CPUs: the mapping is unknowable, not guessable. */
			if (cpu < 0 || cpu >= NP_MAX_CPUS) {
				snprintf(why, whysz, "more rows (%zu) than online CPUs", nrows + 1);
				return -EINVAL;
			}
			out->rows[nrows].cpu = cpu;
			prev_cpu = cpu;
		}
		nrows++;
	}
	if (!nrows) {
		snprintf(why, whysz, "no rows");
		return -EINVAL;
	}
	out->ncols = width;
	out->layout = layout_of(width);
	out->cpu_from_column = width >= 13;
	out->n = nrows;
	return 0;
}

int np_parse_softnet(const char *buf, size_t len, const struct np_cpuset *online,
		     struct np_softnet *out)
{
	char why[sizeof(out->error)] = "";
	int err;

	memset(out, 0, sizeof(*out));
	if (!buf)
		return -EINVAL;
	err = parse(buf, len, online, out, why, sizeof(why));
	if (err) {
		free(out->rows);
		memset(out, 0, sizeof(*out));
		memcpy(out->error, why, sizeof(out->error));
	}
	return err;
}
