// SPDX-License-Identifier: GPL-2.0-only
/*
 * How many TCP sockets this namespace has hashed: sockstat's "TCP: inuse" and sockstat6's
 * "TCP6: inuse" (both per namespace). The kernel counts a socket there when it enters the
 * listening or the established hash (every state but TIME_WAIT, which is counted as "tw"), so
 * when the sum equals the listeners a listeners walk found, the namespace has no other TCP
 * socket to judge and the walk of the host-wide established hash can be skipped (watch).
 */
#include "collect.h"
#include "parse.h"

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

/* One file's TCP line: "inuse" and, from sockstat (not sockstat6), "tw". */
static int read_tcp(const struct np_ctx *ctx, const char *file, const char *proto,
		    uint64_t *inuse, uint64_t *tw)
{
	struct np_sockstat st;
	size_t len;
	char *buf;
	int r = np_read_file(ctx, NP_PROC, file, &buf, &len);

	if (r < 0)
		return r;
	if (tw) {
		memset(&st, 0xff, sizeof(st));	/* NP_NA: a field the file lacks */
		r = np_parse_sockstat(buf, len, &st);
		*inuse = st.tcp_inuse;
		*tw = st.tcp_tw;
		if (r >= 0 && (!np_has(st.tcp_inuse) || !np_has(st.tcp_tw)))
			r = -EBADMSG;
	} else {
		r = np_parse_tcp_inuse(buf, proto, inuse);
	}
	free(buf);
	return r < 0 ? r : 0;
}

int np_collect_tcp_inuse(const struct np_ctx *ctx, uint64_t *inuse, uint64_t *tw)
{
	uint64_t v4 = 0, v6 = 0, t = 0;
	/* sockstat6 first: a connection that moves from ESTABLISHED to TIME_WAIT between the two
	 * reads is then counted in one of them (inuse6 before, tw after), never in neither. */
	int r = read_tcp(ctx, "net/sockstat6", "TCP6:", &v6, NULL);

	/* No sockstat6: IPv6 is off (ipv6.disable=1), so there is no IPv6 socket. */
	if (r < 0 && r != -ENOENT)
		return r;
	r = read_tcp(ctx, "net/sockstat", "TCP:", &v4, tw ? &t : NULL);
	if (r < 0)
		return r;
	*inuse = v4 + v6;
	if (tw)
		*tw = t;
	return 0;
}
