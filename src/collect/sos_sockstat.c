// SPDX-License-Identifier: GPL-2.0-only
/*
 * Socket counts from `ss -s` text where a --root tree or sosreport has no proc/net/sockstat.
 * sos 4.9.2+ (sos/report/plugins/networking.py, 2024) runs "ss -s" -> sos_commands/networking/
 * ss_-s; older reports have only "ss -peaonmi" (a socket list, not read here). ss prints no
 * memory pages: the source is partial, and the tcp_mem/udp_mem checks say so.
 */
#include "collect.h"
#include "parse.h"
#include "sos.h"

#include <errno.h>
#include <stdlib.h>

void np_sos_sockstat_fallback(const struct np_ctx *ctx, struct np_snapshot *s)
{
	struct np_sockstat st;
	char *buf;
	size_t len;
	int r;

	if (!ctx->confined || ctx->top_fd < 0 ||
	    np_srcp(s, NP_SRC_SOCKSTAT)->status != NP_SRC_ABSENT)
		return;
	if (np_read_file(ctx, NP_TOP, "sos_commands/networking/ss_-s", &buf, &len) != 0)
		return;
	r = np_parse_ss_s(buf, len, &st);
	free(buf);
	if (r != 0 && r != -EBADMSG)
		return;
	s->hs->sockstat = st;
	np_src_set(s, NP_SRC_SOCKSTAT, 0,
		   "from sosreport ss_-s (no proc/net/sockstat; ss prints no memory pages)");
	np_srcp(s, NP_SRC_SOCKSTAT)->status = NP_SRC_PARTIAL;
}
