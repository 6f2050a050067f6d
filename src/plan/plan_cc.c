// SPDX-License-Identifier: GPL-2.0-only
/* The plan's send side: congestion control (bbr where the path is long), fq pacing, the
 * modules they need and the qdisc of the live interface. */
#include "plan_priv.h"

#include "nic_view.h"

#include <stdio.h>
#include <string.h>

/* The root qdisc attached to the interface (rtnetlink), NULL when not read (a tree). */
static const struct np_qdisc *root_qdisc(const struct np_snapshot *s)
{
	return np_src_ok(s, NP_SRC_RTNL_QDISC) ? np_nv_qdisc_root(s) : NULL;
}

/* Does the attached egress tree pace? fq at the root, or fq on every leaf of mq. noqueue
 * (veth, tunnels) has nothing to pace in: the device beneath decides. */
static bool attached_paced(const struct np_snapshot *s, const struct np_qdisc *root)
{
	bool leaves = false;

	if (!strcmp(root->kind, "fq") || !strcmp(root->kind, "noqueue"))
		return true;
	if (!np_nv_qdisc_multiq(root))
		return false;
	for (size_t i = 0; i < s->rtnl.nqdisc; i++) {
		const struct np_qdisc *q = &s->rtnl.qdiscs[i];

		if (!np_nv_qdisc_below(root, q))
			continue;
		leaves = true;
		if (strcmp(q->kind, "fq"))
			return false;
	}
	return leaves;
}

/* Root qdiscs that are only a default, safe to replace by fq: FIFOs, fq_codel, mq's tree. */
static bool replaceable(const char *kind)
{
	static const char *const defaults[] = { "pfifo_fast", "pfifo", "bfifo", "fq_codel", "mq",
						"codel", "sfq" };

	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (!strcmp(kind, defaults[i]))
			return true;
	return false;
}

static struct np_plan_line *set_str(struct np_plan *p, const struct np_snapshot *s,
				    enum np_sysctl_id id, const char *want)
{
	const struct np_sysctl *e = np_sysctl_find(s, id);
	struct np_plan_line *l;

	if (!e || e->err || !strcmp(e->raw, want))
		return NULL;
	l = np_plan_add(p, NP_PLAN_SYSCTL, NP_STAGE_CONGESTION, np_sysctl_def(id)->key);
	if (!l)
		return NULL;
	snprintf(l->current, sizeof(l->current), "%s", e->raw);
	snprintf(l->planned, sizeof(l->planned), "%s", want);
	l->host_wide = np_sysctl_def(id)->owner == NP_SYSCTL_OWNER_HOST;
	return l;
}

/* modules-load.d for a module the kernel has as a file, or may have (unknown). */
static void module_line(struct np_plan *p, const char *mod, enum np_kmod_state st,
			const char *what)
{
	struct np_plan_line *l = np_plan_add(p, NP_PLAN_MODULE, NP_STAGE_CONGESTION, mod);

	if (!l)
		return;
	snprintf(l->current, sizeof(l->current), "%s", np_kmod_state_name(st));
	snprintf(l->planned, sizeof(l->planned), "load at boot");
	snprintf(l->command, sizeof(l->command), "modprobe %s", mod);
	np_plan_checks(l, "congestion.cc", NULL, NULL);
	if (st == NP_KMOD_UNKNOWN)
		PLAN_CAT(l->why, "%s, loaded at boot before systemd-sysctl applies the line that "
			 "names it. Whether this kernel ships it could not be read (%s): the module "
			 "must exist, so `modprobe %s` must succeed before the sysctl line is "
			 "installed.", what, p->kmods.from, mod);
	else
		PLAN_CAT(l->why, "%s is a module of this kernel (%s): loaded at boot, before "
			 "systemd-sysctl applies the line that names it.", what, p->kmods.from);
	PLAN_CAT(l->cost, "A few KiB of kernel memory.");
}

static bool want_bbr(const struct np_plan *p, const char *cc)
{
	if (!strcmp(cc, "reno"))
		return true;
	if (strcmp(cc, "cubic"))
		return false;	/* bbr already, or something chosen on purpose */
	return p->rtt_ms >= NP_CC_LONG_RTT_MS;
}

void np_plan_cc_lines(struct np_plan *p, const struct np_analysis *a,
		      const struct np_report *rep)
{
	const struct np_snapshot *s = a->cur;
	const char *cc = np_sysctl_str(s, NP_SYSCTL_TCP_CONGESTION_CONTROL);
	const char *avail = np_sysctl_str(s, NP_SYSCTL_TCP_AVAILABLE_CONGESTION_CONTROL);
	const char *dq = np_sysctl_str(s, NP_SYSCTL_DEFAULT_QDISC);
	bool loaded = avail && np_word_in(avail, "bbr");
	enum np_kmod_state bbr = loaded ? NP_KMOD_BUILTIN : p->kmods.tcp_bbr;
	bool bbr_planned = false, need_dq, need_tc;
	const struct np_qdisc *root;
	struct np_plan_line *l;

	(void)rep;
	if (cc && want_bbr(p, cc)) {
		if (bbr == NP_KMOD_ABSENT) {
			l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_CONGESTION,
					"net.ipv4.tcp_congestion_control");
			if (l) {
				snprintf(l->current, sizeof(l->current), "%s", cc);
				PLAN_CAT(l->why, "This kernel (%s) has no tcp_bbr, built in or as a "
					 "module (%s): %s stays, with fq pacing below as the "
					 "nearest help on a long path.", p->kmods.release,
					 p->kmods.from, cc);
			}
		} else {
			if (!loaded && bbr != NP_KMOD_BUILTIN)
				module_line(p, "tcp_bbr", bbr, "tcp_bbr");
			l = set_str(p, s, NP_SYSCTL_TCP_CONGESTION_CONTROL, "bbr");
			if (l) {
				bbr_planned = true;
				np_plan_checks(l, "congestion.cc", "congestion.cc-in-use", NULL);
				PLAN_CAT(l->why, "At %g ms %s treats every loss as congestion and "
					 "takes many RTTs to refill; bbr models bandwidth and RTT "
					 "and keeps a long path with some loss full.", p->rtt_ms, cc);
				PLAN_CAT(l->moot, "Clean short paths, where bbr and cubic barely "
					 "differ; connections that choose their own "
					 "(TCP_CONGESTION).");
				PLAN_CAT(l->cost, "New connections only. bbr can take more than its "
					 "share from cubic flows on shared bottlenecks.");
			}
		}
	} else if (cc && !strcmp(cc, "cubic") && p->profile == NP_PROFILE_LAN) {
		l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_CONGESTION,
				"net.ipv4.tcp_congestion_control");
		if (l) {
			snprintf(l->current, sizeof(l->current), "%s", cc);
			PLAN_CAT(l->why, "Kept: on a clean LAN at %g ms bbr and cubic barely differ.",
				 p->rtt_ms);
		}
	}
	/* Pacing: bbr's partner, and what smooths bursts on a long path. */
	p->pace = bbr_planned || (cc && !strcmp(cc, "bbr")) || p->rtt_ms >= NP_CC_LONG_RTT_MS;
	root = root_qdisc(s);
	need_dq = dq && strcmp(dq, "fq");
	/* The attached qdisc when it was read; a tree has only default_qdisc to go by. */
	need_tc = root ? !attached_paced(s, root) : need_dq;
	if (!p->pace || (!need_dq && !need_tc))
		return;
	if (p->kmods.sch_fq == NP_KMOD_MODULE || p->kmods.sch_fq == NP_KMOD_UNKNOWN)
		module_line(p, "sch_fq", p->kmods.sch_fq, "sch_fq (the fq qdisc)");
	l = need_dq ? set_str(p, s, NP_SYSCTL_DEFAULT_QDISC, "fq") : NULL;
	if (l) {
		np_plan_checks(l, "congestion.pacing", "congestion.bbr-without-fq", NULL);
		PLAN_CAT(l->why, "fq paces each flow and isolates flows from each other; %s.",
			 bbr_planned || (cc && !strcmp(cc, "bbr")) ? "bbr paces through it "
			 "cheaply (EDT) instead of a timer per socket" : "on a long path with "
			 "shallow-buffered hops, unpaced bursts cause loss");
		PLAN_CAT(l->moot, "Applies to qdiscs created after it is set (at boot, or when a "
			 "device is re-created): the tc line below does the live interface now.");
		PLAN_CAT(l->cost, "A little CPU per packet for flow classification.");
	}
}

void np_plan_qdisc_line(struct np_plan *p, const struct np_analysis *a)
{
	const struct np_snapshot *s = a->cur;
	const char *dq = np_sysctl_str(s, NP_SYSCTL_DEFAULT_QDISC);
	const struct np_qdisc *root = root_qdisc(s);
	const char *ifn = s->dev.name;
	struct np_plan_line *l;

	if (!p->pace)
		return;
	/* The attached qdisc when it was read; a tree has only default_qdisc to go by. */
	if (root ? attached_paced(s, root) : (!dq || !strcmp(dq, "fq")))
		return;
	if (root && !replaceable(root->kind)) {
		/* A shaper or scheduler someone configured: its job is not ours to undo. */
		l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_CONGESTION, "root qdisc");
		if (l) {
			snprintf(l->current, sizeof(l->current), "%s", root->kind);
			PLAN_CAT(l->why, "Kept: %s's root qdisc is %s, configured on purpose; "
				 "replacing it with fq would remove what it does. For pacing, put fq "
				 "beneath it (tc qdisc add dev %s parent MAJOR:MINOR fq) or let TCP "
				 "pace itself (bbr does, at some CPU cost).", ifn, root->kind, ifn);
		}
		return;
	}
	l = np_plan_add(p, NP_PLAN_QDISC, NP_STAGE_CONGESTION, ifn);
	if (!l)
		return;
	snprintf(l->current, sizeof(l->current), "%s", root ? root->kind : dq);
	snprintf(l->planned, sizeof(l->planned), "fq");
	snprintf(l->command, sizeof(l->command), "tc qdisc replace dev %s root fq", ifn);
	np_plan_checks(l, "congestion.pacing", "congestion.bbr-without-fq", NULL);
	PLAN_CAT(l->why, "Now, without a reboot: one fq for all TX queues. %s",
		 dq ? "At boot default_qdisc gives each TX queue of mq its own fq, which persists "
		 "the change." : "default_qdisc is the host's (not in this namespace): persist "
		 "this with the host's default_qdisc, or run it when the namespace's device is "
		 "created.");
	PLAN_CAT(l->cost, "Replacing the root qdisc drops the packets queued in it; a custom "
		 "qdisc tree on %s is replaced too.", ifn);
}
