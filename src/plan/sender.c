// SPDX-License-Identifier: GPL-2.0-only
/* The sender-side table (sender.h). */
#include "sender.h"

#include <string.h>

#include "nic_view.h"

static int64_t num(const struct np_snapshot *s, enum np_sysctl_id id, int idx)
{
	bool ok;
	int64_t v = np_sysctl_int(s, id, idx, &ok);

	return ok ? v : -1;
}

/* Built in beats loaded (a built-in bbr is always in the available list); a module is loaded
 * once the list has it. */
static const char *bbr_state(const struct np_snapshot *s, const struct np_kmods *km)
{
	const char *avail = np_sysctl_str(s, NP_SYSCTL_TCP_AVAILABLE_CONGESTION_CONTROL);
	enum np_kmod_state st = km ? km->tcp_bbr : NP_KMOD_UNKNOWN;

	if (st == NP_KMOD_BUILTIN)
		return "built-in";
	if (avail && np_word_in(avail, "bbr"))
		return "loaded";
	if (st == NP_KMOD_MODULE)
		return "module";
	if (st == NP_KMOD_ABSENT)
		return "absent";
	/* Not in the list of a kernel whose modules could not be looked up. */
	return avail ? "not-loaded" : "unknown";
}

/* An empty file (a damaged or truncated tree) says nothing: not read, like a missing one. */
static const char *text_of(const char *v)
{
	return v && v[0] ? v : NULL;
}

void np_sender_build(const struct np_analysis *a, const struct np_kmods *km, struct np_sender *out)
{
	const struct np_snapshot *s = a->cur;
	const struct np_qdisc *root;

	memset(out, 0, sizeof(*out));
	out->cc = text_of(np_sysctl_str(s, NP_SYSCTL_TCP_CONGESTION_CONTROL));
	out->cc_live_known = np_src_ok(s, NP_SRC_SOCK_DIAG);
	/* The named rows, then the "other" row past them; most sockets first. */
	for (uint32_t i = 0; out->cc_live_known && i <= NP_SOCK_MAX_CC && out->ncc_live < 8; i++) {
		const struct np_sock_cc *c = &s->socks.cc[i];
		size_t j;

		if ((i >= s->socks.ncc && i != NP_SOCK_MAX_CC) || !c->sockets)
			continue;
		for (j = out->ncc_live; j > 0 && out->cc_live[j - 1].sockets < c->sockets; j--)
			out->cc_live[j] = out->cc_live[j - 1];
		out->cc_live[j].name = c->name[0] ? c->name : "other";
		out->cc_live[j].sockets = c->sockets;
		out->ncc_live++;
	}
	out->default_qdisc = text_of(np_sysctl_str(s, NP_SYSCTL_DEFAULT_QDISC));
	root = np_src_ok(s, NP_SRC_RTNL_QDISC) ? np_nv_qdisc_root(s) : NULL;
	out->qdisc = root ? text_of(root->kind) : NULL;
	out->rmem_max = num(s, NP_SYSCTL_RMEM_MAX, 0);
	out->wmem_max = num(s, NP_SYSCTL_WMEM_MAX, 0);
	out->tcp_rmem_max = num(s, NP_SYSCTL_TCP_RMEM, 2);
	out->tcp_wmem_max = num(s, NP_SYSCTL_TCP_WMEM, 2);
	out->mtu_probing = num(s, NP_SYSCTL_TCP_MTU_PROBING, 0);
	out->bbr = bbr_state(s, km);
	out->bw_bps = a->bw_bps;
	out->rtt_ms = a->rtt_ms;
	out->bw_source = a->bw_source;
	out->rtt_source = a->rtt_source;
	out->bdp = np_bdp_bytes(a->bw_bps, a->rtt_ms);
}
