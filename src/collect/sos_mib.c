// SPDX-License-Identifier: GPL-2.0-only
/*
 * MIB counters from command text when a --root tree or sosreport has no proc/net/snmp.
 * sos (sos/report/plugins/networking.py) runs "nstat -zas" -> sos_commands/networking/nstat_-zas
 * and "netstat -s" -> netstat_-s (every version since 3.0; 4.9.2+ also "netstat -s -6" ->
 * netstat_-s_-6), per namespace under namespaces/<ns>/ip_netns_exec_<ns>_.... It also copies
 * /proc/net/, which wins when present: this only fills what the copied /proc lacks. nstat is
 * preferred (exact names, zeros kept); netstat -s is what older reports and pasted evidence have.
 */
#include "collect.h"
#include "parse.h"
#include "sos.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool from_nstat(const struct np_ctx *ctx, struct np_snapshot *s)
{
	static const char *const nstat[] = { "sos_commands/networking/nstat_-zas",
					     "sos_commands/networking/nstat_-az", NULL };
	const char *which;
	char *buf, detail[96];
	size_t len;
	int r;

	r = np_sos_read_first(ctx, nstat, &buf, &len, &which);
	if (r != 0)
		return false;
	r = np_parse_nstat_text(buf, len, &s->hs->mib);
	free(buf);
	if (r != 0 && r != -EBADMSG)
		return false;
	snprintf(detail, sizeof(detail), "from sosreport %s (no proc/net/snmp)",
		 strrchr(which, '/') + 1);
	np_src_set(s, NP_SRC_SNMP, 0, detail);
	if (np_srcp(s, NP_SRC_NETSTAT)->status == NP_SRC_ABSENT)
		np_src_set(s, NP_SRC_NETSTAT, 0, detail);
	return true;
}

/* One netstat -s text into the table: only names the table lacks (a copied proc/net/netstat or
 * snmp6 stays the better evidence). The sections it held, 0 when none. */
static unsigned netstat_file(const struct np_ctx *ctx, const char *path, struct np_counters *mib)
{
	struct np_counters t = { 0 };
	unsigned sections = 0;
	char *buf;
	size_t len;

	if (np_read_file(ctx, NP_TOP, path, &buf, &len) != 0)
		return 0;
	if (np_parse_netstat_s(buf, len, &t, &sections) != 0)
		sections = 0;
	free(buf);
	for (size_t i = 0; sections && i < t.n; i++)
		if (np_counters_get(mib, t.e[i].name) == NP_NA &&
		    np_counters_append(mib, t.e[i].name, t.e[i].value))
			break;
	np_counters_free(&t);
	return sections;
}

static void from_netstat(const struct np_ctx *ctx, struct np_snapshot *s)
{
	static const char v4[] = "sos_commands/networking/netstat_-s";
	static const char v6[] = "sos_commands/networking/netstat_-s_-6";
	const char *detail = "from sosreport netstat_-s (no proc/net/snmp; netstat -s leaves out "
			     "most zero counters)";
	unsigned sections = netstat_file(ctx, v4, &s->hs->mib);

	if (!sections)
		return;
	netstat_file(ctx, v6, &s->hs->mib);
	/* A "netstat -su" paste has Udp but no TcpExt: that half stays absent. */
	if (sections & NP_NETSTAT_S_SNMP)
		np_src_set(s, NP_SRC_SNMP, 0, detail);
	if ((sections & NP_NETSTAT_S_EXT) && np_srcp(s, NP_SRC_NETSTAT)->status == NP_SRC_ABSENT)
		np_src_set(s, NP_SRC_NETSTAT, 0, detail);
}

void np_sos_mib_fallback(const struct np_ctx *ctx, struct np_snapshot *s)
{
	if (!ctx->confined || ctx->top_fd < 0 || np_srcp(s, NP_SRC_SNMP)->status != NP_SRC_ABSENT)
		return;
	if (!from_nstat(ctx, s))
		from_netstat(ctx, s);
}
