// SPDX-License-Identifier: GPL-2.0-only
/* /proc/net/sockstat: "PROTO: key value key value ..." lines; mem values are pages. */
#include "parse.h"
#include "parse_util.h"

#include <errno.h>
#include <stdbool.h>

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
		if (np_tok_eq(p, pl, map[m].proto) && np_tok_eq(k, kl, map[m].key))
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
	while (np_line_next(buf, len, &pos, &l, &ll)) {
		size_t i = 0;

		if (!np_tok_next(l, ll, &i, &p, &pl))
			continue;
		while (np_tok_next(l, ll, &i, &k, &kl)) {
			uint64_t *f = field(out, p, pl, k, kl), x;

			if (!np_tok_next(l, ll, &i, &v, &vl)) {
				ret = -EBADMSG;
				break;
			}
			if (!f)
				continue;
			if (!np_tok_u64(v, vl, &x)) {
				ret = -EBADMSG;
				continue;
			}
			*f = x;
			found = true;
		}
	}
	return found ? ret : -EINVAL;
}
