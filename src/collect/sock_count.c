// SPDX-License-Identifier: GPL-2.0-only
/*
 * How many TCP sockets this namespace has hashed: sockstat's "TCP: inuse" and sockstat6's
 * "TCP6: inuse" (both per namespace). The kernel counts a socket there when it enters the
 * listening or the established hash (every state but TIME_WAIT, which is counted as "tw"), so
 * when the sum equals the listeners a listeners walk found, the namespace has no other TCP
 * socket to judge and the walk of the host-wide established hash can be skipped (watch).
 */
#include "collect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int np_parse_tcp_inuse(const char *buf, const char *proto, uint64_t *out)
{
	size_t pl = strlen(proto);

	for (const char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		unsigned long long v;
		char *end;

		if (strncmp(l, proto, pl) != 0 || strncmp(l + pl, " inuse ", 7) != 0)
			continue;
		v = strtoull(l + pl + 7, &end, 10);
		if (end == l + pl + 7 || (*end != ' ' && *end != '\n' && *end != '\0'))
			return -EBADMSG;
		*out = v;
		return 0;
	}
	return -ENOENT;
}

int np_collect_tcp_inuse(const struct np_ctx *ctx, uint64_t *inuse)
{
	static const struct { const char *file, *proto; } src[] = {
		{ "net/sockstat", "TCP:" }, { "net/sockstat6", "TCP6:" },
	};
	uint64_t sum = 0;

	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
		uint64_t v = 0;
		char *buf;
		size_t len;
		int r = np_read_file(ctx, NP_PROC, src[i].file, &buf, &len);

		/* No sockstat6: IPv6 is off (ipv6.disable=1), so there is no IPv6 socket. */
		if (r == -ENOENT && i == 1)
			continue;
		if (r < 0)
			return r;
		r = np_parse_tcp_inuse(buf, src[i].proto, &v);
		free(buf);
		if (r < 0)
			return r;
		sum += v;
	}
	*inuse = sum;
	return 0;
}
