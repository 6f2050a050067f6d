// SPDX-License-Identifier: GPL-2.0-only
/*
 * MIB counters from command text when a --root tree or sosreport has no proc/net/snmp.
 * sos (sos/report/plugins/networking.py) runs "nstat -zas" -> sos_commands/networking/nstat_-zas
 * and "netstat -s" -> netstat_-s (per namespace under namespaces/<ns>/ip_netns_exec_<ns>_...);
 * it runs "ss -peaonmi", never "ss -s". It also copies /proc/net/, which wins when present:
 * this only fills what the copied /proc lacks.
 */
#include "collect.h"
#include "parse.h"
#include "sos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void np_sos_mib_fallback(const struct np_ctx *ctx, struct np_snapshot *s)
{
	static const char *const nstat[] = { "sos_commands/networking/nstat_-zas",
					     "sos_commands/networking/nstat_-az", NULL };
	const char *which;
	char *buf, detail[96];
	size_t len;
	int r;

	if (!ctx->confined || ctx->top_fd < 0 || np_srcp(s, NP_SRC_SNMP)->status != NP_SRC_ABSENT)
		return;
	r = np_sos_read_first(ctx, nstat, &buf, &len, &which);
	if (r != 0)
		return;
	r = np_parse_nstat_text(buf, len, &s->hs->mib);
	free(buf);
	if (r != 0 && r != -EBADMSG)
		return;
	snprintf(detail, sizeof(detail), "from sosreport %s (no proc/net/snmp)",
		 strrchr(which, '/') + 1);
	np_src_set(s, NP_SRC_SNMP, 0, detail);
	if (np_srcp(s, NP_SRC_NETSTAT)->status == NP_SRC_ABSENT)
		np_src_set(s, NP_SRC_NETSTAT, 0, detail);
}
