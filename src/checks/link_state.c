// SPDX-License-Identifier: GPL-2.0-only
/* Stage "link": a device that is down carries nothing, whatever else looks healthy. */
#include "check.h"
#include "check_util.h"
#include "nic_view.h"
#include "stack.h"

#include <string.h>

/* The RFC 2863 state: sysfs operstate, else rtnetlink's IFLA_OPERSTATE. "" when neither. */
static const char *operstate(const struct np_snapshot *s)
{
	if (s->dev.operstate[0])
		return s->dev.operstate;
	if (np_src_ok(s, NP_SRC_RTNL_LINK) && s->rtnl.operstate[0])
		return s->rtnl.operstate;
	return "";
}

static bool state_is(const char *st, const char *name)
{
	return strcmp(st, name) == 0;
}

/* A virtual device's carrier is not a cable's: each kind takes it from something else, and
 * that is where to look. NULL for a physical (or unknown) device. */
static const char *virtual_no_carrier(enum np_dev_kind k)
{
	switch (k) {
	case NP_KIND_VETH:
		return "without carrier: a veth has carrier only while its peer is up, so the peer "
		       "is down (or went with its namespace)";
	case NP_KIND_TUN:
		return "without carrier: a TUN/TAP device has carrier only while a process holds it "
		       "open (a VM, a VPN client), and none does";
	case NP_KIND_BRIDGE:
		return "without carrier: a bridge has carrier only while one of its ports is up "
		       "(or it has no port)";
	case NP_KIND_BOND:
	case NP_KIND_TEAM:
		return "without carrier: no member has link";
	case NP_KIND_VLAN:
	case NP_KIND_MACVLAN:
	case NP_KIND_IPVLAN:
		return "without carrier: its lower device has none";
	case NP_KIND_VXLAN:
	case NP_KIND_GENEVE:
	case NP_KIND_OTHER:
		return "without carrier: what this virtual device takes its state from is down";
	default:
		return NULL;
	}
}

/* What to run for a device without carrier, by kind. */
static void no_carrier_remedy(struct np_finding *f, enum np_dev_kind k, const char *dev)
{
	switch (k) {
	case NP_KIND_VETH:
		np_remedy(f, "ip -d link show dev %s   # the peer: '@ifN' and link-netns name it",
			  dev);
		np_remedy(f, "ip link set dev PEER up   # in the peer's namespace (ip -n NS link "
			     "set ...)");
		return;
	case NP_KIND_TUN:
		np_remedy(f, "ip -d link show dev %s   # tun/tap, its owner and group", dev);
		np_remedy(f, "Start (or restart) the process that owns it: the VM or the VPN "
			     "client.");
		return;
	case NP_KIND_BRIDGE:
	case NP_KIND_BOND:
	case NP_KIND_TEAM:
	case NP_KIND_VLAN:
	case NP_KIND_MACVLAN:
	case NP_KIND_IPVLAN:
		np_remedy(f, "ip -d link show dev %s; ip link show master %s   # the devices it "
			     "takes its state from", dev, dev);
		return;
	default:
		np_remedy(f, "ip -d link show dev %s   # what it is bound to", dev);
		return;
	}
}

static void run_down(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	const struct np_netdev *d = &s->dev;
	const char *st = operstate(s), *why, *vwhy = NULL;
	enum np_severity sev = NP_SEV_CRITICAL;
	struct np_finding *f;

	if (!st[0]) {
		np_skip(r, "operstate of %s %s", d->name,
			s->captured ? "not in this capture" : "not readable");
		return;
	}
	/* "unknown" is what devices without carrier reporting say (lo, tun, some virtual ones):
	 * only a carrier file that reads 0 says more. */
	if (state_is(st, "up") || (state_is(st, "unknown") && d->carrier != 0))
		return;
	if (d->admin_up == 0) {
		sev = NP_SEV_WARNING;
		why = "administratively down (ip link set ... down)";
	} else if (d->master[0]) {
		/* A bond member or bridge port: the others carry on, with less capacity. */
		sev = NP_SEV_WARNING;
		why = "a member of its master without link: the others carry the traffic, with "
		      "less capacity and no redundancy";
	} else if (state_is(st, "lowerlayerdown")) {
		why = "down because a device beneath it is down (a bond without active members, "
		      "a VLAN whose parent is down)";
	} else if (state_is(st, "dormant")) {
		why = "dormant: up but waiting for an external event (802.1X authentication, a "
		      "bond's backup role)";
	} else if (state_is(st, "notpresent")) {
		why = "not present (a removed component)";
	} else if (state_is(st, "testing")) {
		why = "in test mode";
	} else if (!(why = vwhy = virtual_no_carrier(np_dev_kind_of(s)))) {
		why = "without carrier: no link partner, or a cable, optic or switch port fault";
	}
	f = np_emit(r, sev, "%s is %s: it receives nothing", d->name, st);
	if (!f)
		return;
	np_ev_text(f, "operstate", "%s", st);
	if (d->master[0])
		np_ev_text(f, "master", "%s", d->master);
	if (d->carrier >= 0)
		np_ev_value(f, "carrier", "", (double)d->carrier);
	if (d->admin_up >= 0)
		np_ev_text(f, "admin_state", "%s", d->admin_up ? "up" : "down");
	if (np_has(d->carrier_down))
		np_ev_value(f, "carrier_down_count", "events", (double)d->carrier_down);
	np_detail(f, "%s is %s. Every other verdict about it describes a link that carries no "
		     "traffic now.", d->name, why);
	if (d->admin_up == 0) {
		np_remedy(f, "ip link set dev %s up   # if it was not taken down on purpose",
			  d->name);
		np_remedy(f, "Cost: none beyond what the interface then carries.");
		return;
	}
	if (vwhy) {
		no_carrier_remedy(f, np_dev_kind_of(s), d->name);
		return;
	}
	np_remedy(f, "ethtool %s | grep -E 'Link detected|Speed'   # the PHY's view", d->name);
	np_remedy(f, "ip -d link show dev %s   # its master/lower devices and their state",
		  d->name);
	np_remedy(f, "Check the cable or optic and the switch port (its state, errdisable, "
		     "speed and autonegotiation settings).");
}

const struct np_check np_check_link_down = {
	.id = "link.down",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "Interface down (no carrier, or a lower device down)",
	.looks_at = "operstate, carrier and flags (IFF_UP) of the interface in sysfs, else "
		    "IFLA_OPERSTATE from rtnetlink",
	.why = "A device that is down receives nothing: the first thing to know in an incident, "
	       "and a page in monitoring (critical; a warning for a bond member or bridge port, "
	       "whose siblings carry on, and for a device set down on purpose). 'unknown' is "
	       "normal for devices that do not report carrier (loopback, tun) and is not flagged "
	       "unless carrier reads 0.",
	.fix = "Administratively down: ip link set dev IF up. No carrier: the cable, optic or "
	       "switch port; for a virtual device what it takes its carrier from (a veth's peer, "
	       "a TAP's owning process, a bridge's ports). Lower layer down: the bond members or "
	       "VLAN parent beneath.",
	.related = "ip link, ethtool IF (Link detected), /sys/class/net/IF/carrier",
	.warn = NAN, .crit = NAN, .thr_unit = NULL,
	.run = run_down,
};

/*
 * A device that received nothing during the sample: every rate check passed because there was
 * nothing to count, which is not the same as healthy. Said as info, so that "OK" over an idle
 * window is read for what it is (an incident between bursts, the wrong interface).
 */
static void run_idle(const struct np_analysis *a, struct np_report *r)
{
	const struct np_snapshot *s = a->cur;
	struct np_counter_view pkts = NP_NV_LINK(a, rx_packets, NULL);
	struct np_finding *f;

	if (!pkts.present) {
		np_skip(r, "rx_packets not reported");
		return;
	}
	if (!pkts.sampled || a->dt <= 0) {
		np_not_applicable(r, "needs an interval (doctor -i SEC)");
		return;
	}
	if (pkts.delta)
		return;
	f = np_emit(r, NP_SEV_INFO, "%s received no packet in the %.1f s sample: the rate "
		    "checks had no traffic to judge", s->dev.name, a->dt);
	if (!f)
		return;
	np_ev_counter(f, "rx_packets", "packets", &pkts);
	np_detail(f, "Counters that did not move passed their checks only because nothing "
		     "arrived. If the problem comes in bursts, judge a window with traffic in it "
		     "(a longer --interval, netpath watch, or a flight recording), or check that "
		     "%s is the interface the traffic uses (ip route get ADDRESS).", s->dev.name);
	np_remedy(f, "netpath doctor -i 10 %s   # a longer sample", s->dev.name);
	np_remedy(f, "ip route get ADDRESS   # the interface traffic to ADDRESS leaves by");
}

const struct np_check np_check_link_idle = {
	.id = "link.idle",
	.stage = NP_STAGE_LINK,
	.scope = NP_SCOPE_INTERFACE,
	.title = "No traffic during the sample",
	.looks_at = "rx_packets over the interval (rtnetlink stats64, else sysfs statistics)",
	.why = "A rate check over a window without traffic passes for want of anything to count: "
	       "an idle window is said, so that its OK is not read as a healthy path.",
	.fix = "Sample while the traffic flows (a longer --interval, netpath watch), or pick the "
	       "interface it uses (ip route get ADDRESS).",
	.related = "rx_packets, netpath watch",
	.warn = NAN, .crit = NAN, .thr_unit = NULL,
	.run = run_idle,
};
