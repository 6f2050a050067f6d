// SPDX-License-Identifier: GPL-2.0-only
/* /proc/softirqs: a "CPUn" header, then one decimal row per softirq; we keep NET_RX and NET_TX. */
#include "parse.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Next token of l[0..ll) from *i; false at the end of the line. */
static bool next_tok(const char *l, size_t ll, size_t *i, const char **t, size_t *tl)
{
	while (*i < ll && is_blank(l[*i]))
		(*i)++;
	if (*i == ll)
		return false;
	*t = l + *i;
	while (*i < ll && !is_blank(l[*i]))
		(*i)++;
	*tl = (size_t)(l + *i - *t);
	return true;
}

static bool dec_u64(const char *t, size_t tl, uint64_t *v)
{
	uint64_t x = 0;

	if (!tl)
		return false;
	for (size_t i = 0; i < tl; i++) {
		if (t[i] < '0' || t[i] > '9')
			return false;
		if (x > (UINT64_MAX - (uint64_t)(t[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(t[i] - '0');
	}
	*v = x;
	return true;
}

static bool next_line(const char *buf, size_t len, size_t *pos, const char **l, size_t *ll)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*l = buf + *pos;
	nl = memchr(*l, '\n', len - *pos);
	*ll = nl ? (size_t)(nl - *l) : len - *pos;
	*pos += *ll + (nl ? 1 : 0);
	return true;
}

static int parse_header(const char *l, size_t ll, struct np_softirqs *out)
{
	const char *t;
	size_t tl, i = 0, n = 0;

	while (next_tok(l, ll, &i, &t, &tl))
		n++;
	if (!n || n > NP_MAX_CPUS)
		return -EINVAL;
	out->cpu = calloc(n, sizeof(*out->cpu));
	out->net_rx = calloc(n, sizeof(*out->net_rx));
	out->net_tx = calloc(n, sizeof(*out->net_tx));
	if (!out->cpu || !out->net_rx || !out->net_tx)
		return -ENOMEM;
	for (i = 0, n = 0; next_tok(l, ll, &i, &t, &tl); n++) {
		uint64_t cpu;

		if (tl < 4 || memcmp(t, "CPU", 3) || !dec_u64(t + 3, tl - 3, &cpu) ||
		    cpu >= NP_MAX_CPUS)
			return -EINVAL;
		out->cpu[n] = (int)cpu;
	}
	out->n = n;
	return 0;
}

/* A row must have exactly one value per header column: a short row is a truncated file. */
static int parse_counts(const char *l, size_t ll, size_t i, size_t n, uint64_t *v)
{
	const char *t;
	size_t tl, k = 0;

	while (next_tok(l, ll, &i, &t, &tl)) {
		if (k == n || !dec_u64(t, tl, &v[k]))
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

	while (next_line(buf, len, &pos, &l, &ll)) {
		size_t i = 0;

		if (!next_tok(l, ll, &i, &t, &tl))
			continue;
		if (!have_header) {
			err = parse_header(l, ll, out);
			if (err)
				return err;
			have_header = true;
		} else if (tl == 7 && !memcmp(t, "NET_RX:", 7)) {
			if (have_rx)
				return -EINVAL;
			err = parse_counts(l, ll, i, out->n, out->net_rx);
			if (err)
				return err;
			have_rx = true;
		} else if (tl == 7 && !memcmp(t, "NET_TX:", 7)) {
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
