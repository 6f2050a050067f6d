// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/sockstat: "PROTO: key value key value ..." lines; mem values are pages. */
#include "parse.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

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

static bool tok_is(const char *t, size_t tl, const char *s)
{
	return tl == strlen(s) && !memcmp(t, s, tl);
}

/* Where "proto key" goes in the struct, or NULL for what we do not keep (RAW, UDPLITE, ...). */
static uint64_t *field(struct np_sockstat *st, const char *p, size_t pl, const char *k, size_t kl)
{
	static const struct {
		const char *proto, *key;
		size_t off;
	} map[] = {
		{ "sockets:", "used", offsetof(struct np_sockstat, sockets_used) },
		{ "TCP:", "inuse", offsetof(struct np_sockstat, tcp_inuse) },
		{ "TCP:", "orphan", offsetof(struct np_sockstat, tcp_orphan) },
		{ "TCP:", "tw", offsetof(struct np_sockstat, tcp_tw) },
		{ "TCP:", "alloc", offsetof(struct np_sockstat, tcp_alloc) },
		{ "TCP:", "mem", offsetof(struct np_sockstat, tcp_mem) },
		{ "UDP:", "inuse", offsetof(struct np_sockstat, udp_inuse) },
		{ "UDP:", "mem", offsetof(struct np_sockstat, udp_mem) },
		{ "FRAG:", "inuse", offsetof(struct np_sockstat, frag_inuse) },
		{ "FRAG:", "memory", offsetof(struct np_sockstat, frag_memory) },
	};

	for (size_t m = 0; m < sizeof(map) / sizeof(map[0]); m++)
		if (tok_is(p, pl, map[m].proto) && tok_is(k, kl, map[m].key))
			return (uint64_t *)(void *)((char *)st + map[m].off);
	return NULL;
}

/*
 * Fields not in the file stay NP_NA. A bad value or a key without its value makes the result
 * -EBADMSG but keeps the good fields; -EINVAL when no known field was found at all.
 */
int np_parse_sockstat(const char *buf, size_t len, struct np_sockstat *out)
{
	const char *l, *p, *k, *v;
	size_t ll, pl, kl, vl, pos = 0;
	bool found = false;
	int ret = 0;

	*out = (struct np_sockstat){ NP_NA, NP_NA, NP_NA, NP_NA, NP_NA, NP_NA,
				     NP_NA, NP_NA, NP_NA, NP_NA };
	if (!buf)
		return -EINVAL;
	while (next_line(buf, len, &pos, &l, &ll)) {
		size_t i = 0;

		if (!next_tok(l, ll, &i, &p, &pl))
			continue;
		while (next_tok(l, ll, &i, &k, &kl)) {
			uint64_t *f = field(out, p, pl, k, kl), x;

			if (!next_tok(l, ll, &i, &v, &vl)) {
				ret = -EBADMSG;
				break;
			}
			if (!f)
				continue;
			if (!dec_u64(v, vl, &x)) {
				ret = -EBADMSG;
				continue;
			}
			*f = x;
			found = true;
		}
	}
	return found ? ret : -EINVAL;
}
