// SPDX-License-Identifier: GPL-2.0-only
/* doctor over a device stack: one run per device, folded into one report (doctor_stack.h). */
#include "socket_fold.h"
#include "doctor_stack.h"
#include "strjoin.h"

#include <dirent.h>
#include <net/if.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "report_merge.h"

/*
 * A tunnel's underlay: the device it was created on (vxlan "dev X", IFLA_VXLAN_LINK), else
 * the device of the default route, which is where its encapsulated packets leave in most
 * setups (a remote reached by another route would leave elsewhere: said in the stack).
 */
static int underlay_of(const struct np_ctx *ctx, const struct np_snapshot *s,
		       char name[IF_NAMESIZE])
{
	if (s->rtnl.underlay && ctx->live && if_indextoname((unsigned)s->rtnl.underlay, name))
		return 0;
	if (np_default_iface(ctx, name, IF_NAMESIZE) == 0 && strcmp(name, s->ifname))
		return 0;
	return -1;
}

/* The edge upper -> idx, once. */
static void link_lower(struct np_stack *st, int upper, int idx)
{
	struct np_stack_dev *u;

	if (upper < 0 || idx < 0 || upper == idx)
		return;
	u = &st->dev[upper];
	for (unsigned k = 0; k < u->nlower; k++)
		if (u->lower[k] == idx)
			return;
	if (u->nlower < NP_STACK_MAX)
		u->lower[u->nlower++] = (unsigned char)idx;
}

/* Add a device (and, recursively, what lies beneath it) unless it is there already; either
 * way it is linked beneath upper. Returns its index, -1 when the stack is full. */
static int add_device(struct np_dev_runs *dr, const struct np_ctx *ctx, const char *name,
		      int upper, enum np_dev_role role, int depth)
{
	struct np_stack_dev *sd;
	struct np_dev_run *r;
	int found = np_stack_find(&dr->stack, name);
	size_t idx;

	if (found >= 0) {
		link_lower(&dr->stack, upper, found);
		return found;
	}
	if (dr->n == NP_STACK_MAX) {
		dr->stack.truncated = true;
		return -1;
	}
	idx = dr->n++;
	_Static_assert(offsetof(struct np_dev_run, cur) ==
		       offsetof(struct np_dev_run, prev) + sizeof(struct np_snapshot) &&
		       offsetof(struct np_dev_run, cur) + sizeof(struct np_snapshot) ==
		       sizeof(struct np_dev_run), "prev and cur lie together, at the end");
	r = &dr->run[idx];
	/* All but the two snapshots: np_collect() initialises prev, and cur stays untouched
	 * unless a second sample is taken (have_cur). Clearing them too touched 47 KB per
	 * device, a dozen page faults of a one-sample run. */
	memset(r, 0, offsetof(struct np_dev_run, prev));
	np_strjoin(r->name, sizeof(r->name), name);
	/* Only the primary's run judges sockets: the others need not walk them, nor read the
	 * host-wide sources again (the primary's read fills the sample's host snapshot). */
	if (idx == 0)
		np_collect_sample(ctx, name, np_socket_fold, &r->prev, dr->hprev);
	else
		np_collect_device(ctx, name, &r->prev, dr->hprev);
	r->have_prev = true;

	sd = &dr->stack.dev[dr->stack.n++];
	memset(sd, 0, sizeof(*sd));
	np_strjoin(sd->name, sizeof(sd->name), name);
	sd->kind = np_dev_kind_of(&r->prev);
	sd->upper = upper;
	np_strjoin(sd->driver, sizeof(sd->driver), np_snapshot_driver(&r->prev));
	if (sd->kind == NP_KIND_VETH) {
		sd->peer_ifindex = r->prev.rtnl.link;
		sd->peer_other_netns = r->prev.rtnl.link_other_netns;
		sd->peer_nsid = r->prev.rtnl.link_netnsid;
		memcpy(sd->peer_name, r->prev.rtnl.peer_name, sizeof(sd->peer_name));
	}
	/* A device beneath another is judged on its hardware when physical; a virtual one in
	 * the middle (a bond under a VLAN) keeps what belongs to it. */
	if (upper >= 0)
		role = sd->kind == NP_KIND_PHYSICAL || sd->kind == NP_KIND_UNKNOWN ?
		       NP_ROLE_LOWER : NP_ROLE_MIDDLE;
	r->role = role;
	sd->judged_hw = role == NP_ROLE_LOWER ||
			((role == NP_ROLE_PRIMARY || role == NP_ROLE_TOP) &&
			 sd->kind == NP_KIND_PHYSICAL);
	link_lower(&dr->stack, upper, (int)idx);
	if (depth <= 0)
		return (int)idx;
	/* A tunnel without lower_* links (live, always): its underlay. */
	if ((sd->kind == NP_KIND_VXLAN || sd->kind == NP_KIND_GENEVE) && !r->prev.dev.n_lower) {
		char under[IF_NAMESIZE];

		if (underlay_of(ctx, &dr->run[idx].prev, under) == 0) {
			dr->stack.dev[idx].underlay_by_route = !dr->run[idx].prev.rtnl.underlay;
			add_device(dr, ctx, under, (int)idx, NP_ROLE_LOWER, depth - 1);
		}
	}
	for (size_t i = 0; i < r->prev.dev.n_lower; i++) {
		char low[IF_NAMESIZE];

		/* dr->run may not move, but copy the name: add_device() writes new runs. */
		np_strjoin(low, sizeof(low), dr->run[idx].prev.dev.lower[i]);
		add_device(dr, ctx, low, (int)idx, NP_ROLE_LOWER, depth - 1);
	}
	return (int)idx;
}

void np_runs_discover(struct np_dev_runs *dr, const struct np_ctx *ctx,
		      const char *const *tops, size_t ntops)
{
	/* Runs are cleared as add_device() takes them: clearing all NP_STACK_MAX of them (two
	 * snapshots each) here cost a third of a small host's run in memset. */
	dr->n = 0;
	/* Not the 6 KB of entries: add_device() clears each one it takes. */
	dr->stack.n = 0;
	dr->stack.truncated = false;
	/* The host snapshots are left as they are (zero, or emptied by np_runs_free): collecting
	 * into one empties it first, and the second is touched only by a second sample. */
	dr->hprev = &dr->hsnap0;
	dr->hcur = &dr->hsnap1;
	for (size_t t = 0; t < ntops; t++)
		add_device(dr, ctx, tops[t], -1, t ? NP_ROLE_TOP : NP_ROLE_PRIMARY, 4);
	for (size_t i = 0; i < dr->n; i++)
		dr->run[i].has_physical_lowers = np_stack_hw_beneath(&dr->stack, i);
}

void np_runs_collect_again(struct np_dev_runs *dr, const struct np_ctx *ctx)
{
	for (size_t i = 0; i < dr->n; i++) {
		if (i == 0)
			np_collect_sample(ctx, dr->run[i].name, np_socket_fold, &dr->run[i].cur,
					  dr->hcur);
		else
			np_collect_device(ctx, dr->run[i].name, &dr->run[i].cur, dr->hcur);
		dr->run[i].have_cur = true;
	}
}

/* Every run's analysis first: a bond's checks read its members' (np_analysis.lower). */
static void prepare(struct np_dev_runs *dr, double dt, const struct np_options *opt,
		    const struct np_overrides *ovr)
{
	for (size_t i = 0; i < dr->n; i++) {
		struct np_dev_run *r = &dr->run[i];

		memset(&r->a, 0, sizeof(r->a));
		r->a.prev = r->have_cur ? &r->prev : NULL;
		r->a.cur = r->have_cur ? &r->cur : &r->prev;
		r->a.dt = r->have_cur ? dt : 0;
		r->a.opt = opt;
		r->a.ovr = ovr;
		np_analysis_derive(&r->a);
		r->nlower = 0;
		for (unsigned k = 0; k < dr->stack.dev[i].nlower; k++)
			r->lower[r->nlower++] = &dr->run[dr->stack.dev[i].lower[k]].a;
		r->a.lower = r->lower;
		r->a.nlower = r->nlower;
	}
}

int np_runs_analyze(struct np_dev_runs *dr, double dt, const struct np_options *opt,
		    const struct np_overrides *ovr, np_check_filter user, void *user_arg)
{
	int first_hw = -1;

	prepare(dr, dt, opt, ovr);
	for (size_t i = 0; i < dr->n && first_hw < 0; i++)
		if (dr->stack.dev[i].judged_hw)
			first_hw = (int)i;
	for (size_t i = 0; i < dr->n; i++) {
		struct np_dev_run *r = &dr->run[i];
		struct np_role_filter rf = {
			.role = r->role, .has_physical_lowers = r->has_physical_lowers,
			.first_hw = (int)i == first_hw, .user = user, .user_arg = user_arg,
		};

		if (np_analyze(&r->a, &r->rep, np_role_want, &rf) < 0)
			return -1;
		np_coverage_build(&r->a, &r->rep, &r->cov);
	}
	for (size_t i = 1; i < dr->n; i++) {
		if (np_report_merge(&dr->run[0].rep, &dr->run[i].rep) < 0)
			return -1;
		np_coverage_merge(&dr->run[0].cov, &dr->run[i].cov);
	}
	return 0;
}

void np_runs_advance(struct np_dev_runs *dr)
{
	struct np_host_snap *h;
	bool moved = false;

	for (size_t i = 0; i < dr->n; i++) {
		struct np_dev_run *r = &dr->run[i];
		struct np_snapshot t;

		np_report_free(&r->rep);
		if (!r->have_cur)
			continue;
		/* Device snapshots of a sample point at its host snapshots, never into
		 * themselves: swapping them by value keeps every pointer right. */
		t = r->prev;
		r->prev = r->cur;
		r->cur = t;
		if (r->have_prev)
			np_snapshot_free(&r->cur);
		r->have_prev = true;
		r->have_cur = false;
		moved = true;
	}
	if (!moved)
		return;
	h = dr->hprev;
	dr->hprev = dr->hcur;
	dr->hcur = h;
	np_host_snap_free(dr->hcur);
}

/* Every lower device of a in b (a bond's members, a bridge's ports), in any order. */
static bool lowers_within(const struct np_netdev *a, const struct np_netdev *b)
{
	for (size_t i = 0; i < a->n_lower; i++) {
		size_t k = 0;

		while (k < b->n_lower && strcmp(a->lower[i], b->lower[k]))
			k++;
		if (k == b->n_lower)
			return false;
	}
	return true;
}

int np_runs_same_devices(const struct np_dev_runs *dr)
{
	for (size_t i = 0; i < dr->n; i++) {
		const struct np_dev_run *r = &dr->run[i];

		if (!r->have_prev || !r->have_cur || !np_has(r->cur.dev.ifindex) ||
		    r->cur.dev.ifindex != r->prev.dev.ifindex)
			return -1;
		/* A member joined or left: the stack beneath is another one. */
		if (r->cur.dev.n_lower != r->prev.dev.n_lower ||
		    !lowers_within(&r->cur.dev, &r->prev.dev))
			return -1;
	}
	return 0;
}

void np_runs_free(struct np_dev_runs *dr)
{
	bool any_cur = false;

	for (size_t i = 0; i < dr->n; i++) {
		struct np_dev_run *r = &dr->run[i];

		np_report_free(&r->rep);
		/* Collecting into them again initialises them first (collect.c). */
		if (r->have_prev)
			np_snapshot_release(&r->prev);
		if (r->have_cur)
			np_snapshot_release(&r->cur);
		any_cur |= r->have_cur;
		r->have_prev = r->have_cur = false;
	}
	/* hcur holds something only while a run has a second snapshot (np_runs_advance empties
	 * it): a one-sample run never touches its page. */
	if (dr->hprev)
		np_host_snap_free(dr->hprev);
	if (dr->hcur && any_cur)
		np_host_snap_free(dr->hcur);
	dr->n = 0;
}
