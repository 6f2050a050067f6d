// SPDX-License-Identifier: GPL-2.0-only
/* /proc/softirqs: a "CPUn" header, then one decimal row per softirq; we keep NET_RX and NET_TX. */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int parse_header(const char *l, size_t ll, struct np_softirqs *out)
{
	size_t n = np_tok_count(l, ll, 0);

	if (!n || n > NP_MAX_CPUS)
		return -EINVAL;
	out->cpu = calloc(n, sizeof(*out->cpu));
	out->net_rx = calloc(n, sizeof(*out->net_rx));
	out->net_tx = calloc(n, sizeof(*out->net_tx));
	if (!out->cpu || !out->net_rx || !out->net_tx)
		return -ENOMEM;
	if (!np_line_cpus(l, ll, out->cpu))
		return -EINVAL;
	out->n = n;
	return 0;
}

/* A row must have exactly one value per header column: a short row is a truncated file. */
static int parse_counts(const char *l, size_t ll, size_t i, size_t n, uint64_t *v)
{
	const char *t;
	size_t tl, k = 0;

	while (np_tok_next(l, ll, &i, &t, &tl)) {
		if (k == n || !np_tok_u64(t, tl, &v[k]))
			return -EINVAL;
		k++;
	}
	return k == n ? 0 : -EINVAL;
}

static int parse(const char *buf, size_t len, struct np_softirqs *out)
{
	const char *l, *t;
	size_t ll, tl, pos = 0;
	bool have_header = false, have_rx = false, have_tx = false;
	int err;

	while (np_line_next(buf, len, &pos, &l, &ll)) {
		size_t i = 0;

		if (!np_tok_next(l, ll, &i, &t, &tl))
			continue;
		if (!have_header) {
			err = parse_header(l, ll, out);
			if (err)
				return err;
			have_header = true;
		} else if (np_tok_eq(t, tl, "NET_RX:")) {
			if (have_rx)
				return -EINVAL;
			err = parse_counts(l, ll, i, out->n, out->net_rx);
			if (err)
				return err;
			have_rx = true;
		} else if (np_tok_eq(t, tl, "NET_TX:")) {
			if (have_tx)
				return -EINVAL;
			err = parse_counts(l, ll, i, out->n, out->net_tx);
			if (err)
				return err;
			have_tx = true;
		}
	}
	return have_rx && have_tx ? 0 : -EINVAL;
}

int np_parse_softirqs(const char *buf, size_t len, struct np_softirqs *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	if (!buf)
		return -EINVAL;
	err = parse(buf, len, out);
	if (err) {
		free(out->cpu);
		free(out->net_rx);
		free(out->net_tx);
		memset(out, 0, sizeof(*out));
	}
	return err;
}
