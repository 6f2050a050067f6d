// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sockets section from `ss` text where sock_diag cannot be asked (a sosreport, a --root
 * tree with a pasted ss output). sos runs "ss -peaonmi" (sos/report/plugins/networking.py,
 * since sos 3.4, 2017) -> sos_commands/networking/ss_-peaonmi, and per namespace
 * "ip netns exec NS ss -peaonmi" -> ip_netns_exec_NS_ss_-peaonmi (sos 3.4-4.2 beside the
 * host's, sos 4.3+ under namespaces/NS/). Pasted outputs are read under the same directory by
 * the command's sos-style name (ss_-tmi, ss_-tnmi, ss_-uampi...). Each socket goes through the
 * command's fold, as the live dump's do, so the socket checks judge it; the source says it
 * came from ss text and how many sockets lacked what.
 */
#include "collect.h"
#include "parse_ss.h"
#include "sock_diag.h"
#include "sos.h"

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct feed {
	struct np_sockets *k;
	np_sock_fold_fn *fold;
	const struct np_sock_limits *lim;
};

static void feed_one(const struct np_sock_rec *r, void *arg)
{
	struct feed *f = arg;

	f->fold(f->k, r, f->lim);
}

/* Sockets past this are counted, not folded: the text is bounded by NP_READ_MAX already. */
#define SS_MAX_SOCKETS 4000000u

/* One ss file into the section. 0, or -ENOENT when absent or not ss text. */
static int one(const struct np_ctx *ctx, const char *path, uint8_t proto, struct feed *f,
	       struct np_ss_list_stats *sum)
{
	struct np_ss_list_stats st;
	char *buf;
	size_t len;
	int r;

	if (np_read_file(ctx, NP_TOP, path, &buf, &len) != 0)
		return -ENOENT;
	r = np_parse_ss_list(buf, len, proto, SS_MAX_SOCKETS, feed_one, f, &st);
	free(buf);
	if (r != 0)
		return -ENOENT;
	sum->tcp += st.tcp;
	sum->udp += st.udp;
	sum->no_mem += st.no_mem;
	sum->old_mem += st.old_mem;
	sum->no_drops += st.no_drops;
	sum->tcp_no_info += st.tcp_no_info;
	sum->bad += st.bad;
	return 0;
}

/* Under --netns the read is the namespace's copy (core/sos_netns.c): the host's name here. */
static int read_named(const struct np_ctx *ctx, const char *name, uint8_t proto, struct feed *f,
		      struct np_ss_list_stats *sum, char *which, size_t wsize)
{
	char path[128];

	snprintf(path, sizeof(path), "sos_commands/networking/%s", name);
	if (one(ctx, path, proto, f, sum) != 0)
		return -ENOENT;
	snprintf(which, wsize, "%s%s", ctx->sos_netns[0] ? "ip_netns_exec_NS_" : "", name);
	return 0;
}

bool np_sos_sockets(const struct np_ctx *ctx, np_sock_fold_fn *fold, struct np_snapshot *s)
{
	static const char *const tcp[] = { "ss_-tmie", "ss_-tmi", "ss_-tnmi", "ss_-tinm",
					   "ss_-tmei", "ss_-temoi", "ss_-tanmi", NULL };
	static const char *const udp[] = { "ss_-uampi", "ss_-uamp", "ss_-uanmp", "ss_-unmp",
					   "ss_-uam", NULL };
	struct np_sock_limits lim;
	struct feed f = { .k = &s->socks, .fold = fold, .lim = &lim };
	struct np_ss_list_stats sum = { 0 };
	char which[64] = "", w2[24] = "", detail[256];
	bool found;

	if (ctx->live || ctx->tape || !ctx->confined || ctx->top_fd < 0 || !fold)
		return false;
	np_sock_limits_from(s, &lim);
	np_sockets_init(&s->socks);
	s->socks.walk = NP_SOCK_WALK_FULL;
	s->socks.flows_t = s->t;
	found = read_named(ctx, "ss_-peaonmi", 0, &f, &sum, which, sizeof(which)) == 0;
	for (int i = 0; !found && tcp[i]; i++)
		found = read_named(ctx, tcp[i], IPPROTO_TCP, &f, &sum, which, sizeof(which)) == 0;
	for (int i = 0; !strstr(which, "peaonmi") && udp[i]; i++)
		if (read_named(ctx, udp[i], IPPROTO_UDP, &f, &sum, w2, sizeof(w2)) == 0) {
			found = true;
			break;
		}
	if (!found) {
		np_sockets_init(&s->socks);
		return false;
	}
	np_sockets_finish(&s->socks);
	/* The BDP checks quote it beside the RTT they derive from it. */
	snprintf(s->socks.rtt_source, sizeof(s->socks.rtt_source),
		 "from ss text: p90 of %llu TCP sockets' min RTT",
		 (unsigned long long)s->socks.min_rtt_n);
	/* np_src_set() cuts it to the source's detail (long only with absurd counts). */
	snprintf(detail, sizeof(detail),
		 "from ss text %.40s%s%.16s: %" PRIu64 " TCP, %" PRIu64 " UDP; not printed (unknown):"
		 " skmem %" PRIu64 ", drops %" PRIu64 ", tcp_info %" PRIu64, which, w2[0] ? "+" : "",
		 w2, sum.tcp, sum.udp, sum.no_mem, sum.no_drops, sum.tcp_no_info);
	np_src_set(s, NP_SRC_SOCK_DIAG, 0, detail);
	np_srcp(s, NP_SRC_SOCK_DIAG)->status = NP_SRC_PARTIAL;
	return true;
}
