// SPDX-License-Identifier: GPL-2.0-only
/* trace --xdp, the pure part: which drivers XDP disrupts, the attach decision, count folding. */
#include "xdp_attach.h"
#include "xdp_count.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if_link.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * What none -> program does per driver (drivers/net/..., *_xdp_setup and friends; see
 * receive-path.md section 8). Going from no program to a program is the disruptive step on
 * hardware drivers: they need XDP headroom and extra TX rings, so they rebuild rings or reset.
 * Native support matters for the auto mode. The last entry is the unknown driver.
 */
static const struct np_xdp_driver drivers[] = {
	{ "veth", NP_XDP_RISK_NONE, 1,
	  "switches veth to NAPI mode while it stays attached: frames from the peer go through a "
	  "per-queue ring (GRO is turned on, the peer stops using software GSO), so a drop the "
	  "backlog would have counted shows up as a veth ring drop instead; nothing is reset" },
	{ "tun", NP_XDP_RISK_NONE, 1,
	  "changes nothing else on a tun/tap device: the program runs on each frame its reader "
	  "writes; nothing is reset" },
	{ "loopback", NP_XDP_RISK_NONE, 0,
	  "runs in generic mode on loopback, which has no driver rings to reset" },
	{ "dummy", NP_XDP_RISK_NONE, 0,
	  "runs in generic mode on a dummy device, which never receives anything: the counts stay "
	  "at zero" },
	{ "virtio_net", NP_XDP_RISK_DISRUPTS, 1,
	  "makes virtio_net stop receiving on every queue while it reconfigures (incoming traffic "
	  "stalls), and turns the host's receive offloads (guest TSO, LRO) off for as long as the "
	  "program stays attached, so every received byte costs more CPU" },
	{ "mlx5_core", NP_XDP_RISK_DISRUPTS, 1,
	  "makes the mlx5_core driver close and reopen all its channels (every receive and send "
	  "ring): traffic stops while they are rebuilt, and outages of 1 to 10 seconds have been "
	  "reported" },
	{ "i40e", NP_XDP_RISK_DISRUPTS, 1,
	  "makes the i40e driver reset the device (a PF reset): the link goes down for seconds "
	  "and traffic is lost" },
	{ "ixgbe", NP_XDP_RISK_DISRUPTS, 1,
	  "makes the ixgbe driver close and reopen the device: the link goes down (for up to 20 "
	  "seconds in reports) and traffic is lost" },
	{ "igb", NP_XDP_RISK_DISRUPTS, 1,
	  "makes the igb driver close and reopen the device: the link goes down for seconds and "
	  "traffic is lost" },
	{ "igc", NP_XDP_RISK_DISRUPTS, 1,
	  "makes the igc driver close and reopen the device: the link goes down for seconds and "
	  "traffic is lost" },
	/* Upstream e1000e has no native XDP, vendor trees do: try, and fall back. */
	{ "e1000e", NP_XDP_RISK_DISRUPTS, -1,
	  "may make the e1000e driver reset the device: the link can go down for seconds and "
	  "traffic is lost" },
	{ "bnxt_en", NP_XDP_RISK_DISRUPTS, 1,
	  "makes the bnxt_en driver close and reopen the device to re-divide its rings (the "
	  "attach can also fail for lack of rings): traffic stops for seconds" },
	{ "ice", NP_XDP_RISK_DISRUPTS, 1,
	  "makes the ice driver take the interface down and rebuild its rings: the link goes down "
	  "for seconds and traffic is lost" },
	{ "ena", NP_XDP_RISK_DISRUPTS, 1,
	  "makes the ena driver take the device down and up again to rebuild its queues: traffic "
	  "stops for seconds" },
	{ "", NP_XDP_RISK_UNKNOWN, -1,
	  "may make the driver reset the device or rebuild its rings, as most NIC drivers do: the "
	  "link can go down for seconds and traffic is lost (netpath does not know this driver)" },
};

const struct np_xdp_driver *np_xdp_driver_table(size_t *n)
{
	*n = ARRAY_SIZE(drivers);
	return drivers;
}

const struct np_xdp_driver *np_xdp_driver_lookup(const char *driver)
{
	for (size_t i = 0; driver && driver[0] && i + 1 < ARRAY_SIZE(drivers); i++)
		if (!strcmp(drivers[i].name, driver))
			return &drivers[i];
	return &drivers[ARRAY_SIZE(drivers) - 1];
}

const char *np_xdp_mode_name(enum np_xdp_mode m)
{
	switch (m) {
	case NP_XDP_MODE_NATIVE: return "native";
	case NP_XDP_MODE_GENERIC: return "generic";
	default: return "auto";
	}
}

int np_xdp_mode_parse(const char *s, enum np_xdp_mode *m)
{
	static const enum np_xdp_mode all[] = {
		NP_XDP_MODE_AUTO, NP_XDP_MODE_NATIVE, NP_XDP_MODE_GENERIC,
	};

	for (size_t i = 0; s && i < ARRAY_SIZE(all); i++)
		if (!strcmp(s, np_xdp_mode_name(all[i]))) {
			*m = all[i];
			return 0;
		}
	return -EINVAL;
}

const char *np_xdp_mode_explain(enum np_xdp_mode m)
{
	if (m == NP_XDP_MODE_NATIVE)
		return "native mode: the counter runs in the driver's receive poll, before any skb "
		       "exists, and sees every frame that reached the rx ring (not those the NIC "
		       "dropped before the ring: see the nic stage)";
	if (m == NP_XDP_MODE_GENERIC)
		return "generic mode: the counter runs in the stack after GRO and RPS, on skbs "
		       "(one merged skb counts once, and the kernel linearizes each one for the "
		       "program, which costs CPU); frames lost in the driver never reach it";
	return "auto: native mode when the driver has it, else generic";
}

/* Append to a bounded message; a cut message stays terminated. */
static void addf(char *buf, size_t size, const char *fmt, ...)
{
	size_t used = strnlen(buf, size);
	va_list ap;

	if (used + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, size - used, fmt, ap);
	va_end(ap);
}

/* What generic mode changes: the kernel turns LRO and hardware GRO off when the first generic
 * program attaches (generic_xdp_install) and never turns them back on; with both already off
 * it does not call the driver at all. */
enum generic_cost { GEN_NOTHING, GEN_OFFLOADS_OFF, GEN_UNKNOWN };

static enum generic_cost generic_cost(const struct np_xdp_plan_in *in,
				      const struct np_xdp_driver *d)
{
	if (in->lro == 1 || in->gro_hw == 1)
		return GEN_OFFLOADS_OFF;
	/* Software devices have neither offload, whatever ethtool could tell. */
	if (d->risk == NP_XDP_RISK_NONE)
		return GEN_NOTHING;
	/* An unknown driver may be an upper device (bond, team) whose LRO change reaches the
	 * devices below it: no promise there. */
	if (d->risk == NP_XDP_RISK_DISRUPTS && in->lro == 0 && in->gro_hw == 0)
		return GEN_NOTHING;
	return GEN_UNKNOWN;
}

static void generic_words(char *buf, size_t size, const struct np_xdp_plan_in *in,
			  const struct np_xdp_driver *d, enum generic_cost c)
{
	const char *drv = in->driver && in->driver[0] ? in->driver : "its driver";
	bool both = in->lro == 1 && in->gro_hw == 1;

	if (c == GEN_OFFLOADS_OFF)
		addf(buf, size, "attaching an XDP program in generic mode turns %s%s%s off on %s, "
		     "which makes %s reconfigure the device (a ring or device reset on many "
		     "drivers), and the kernel does not turn %s back on when it is detached "
		     "(ethtool -K %s%s%s restores %s)",
		     in->lro == 1 ? "LRO" : "", both ? " and " : "",
		     in->gro_hw == 1 ? "hardware GRO" : "", in->ifname, drv, both ? "them" : "it",
		     in->ifname, in->lro == 1 ? " lro on" : "",
		     in->gro_hw == 1 ? " rx-gro-hw on" : "", both ? "them" : "it");
	else if (c == GEN_UNKNOWN)
		addf(buf, size, "attaching an XDP program in generic mode turns LRO and hardware "
		     "GRO off on %s if they are on (netpath could not tell), which %s",
		     in->ifname, d->effect);
	else if (d->risk != NP_XDP_RISK_NONE)
		addf(buf, size, "generic mode leaves %s alone (LRO and hardware GRO are already "
		     "off, so the kernel does not call %s), but every packet costs CPU while the "
		     "program is attached", in->ifname, drv);
	else if (d->native == 0)
		addf(buf, size, "attaching an XDP program to %s %s", in->ifname, d->effect);
}

static void native_words(char *buf, size_t size, const struct np_xdp_plan_in *in,
			 const struct np_xdp_driver *d)
{
	if (d->risk == NP_XDP_RISK_UNKNOWN && in->driver && in->driver[0])
		addf(buf, size, "attaching an XDP program to %s (driver %s) %s", in->ifname,
		     in->driver, d->effect);
	else if (d->risk == NP_XDP_RISK_UNKNOWN)
		addf(buf, size, "attaching an XDP program to %s (whose driver could not be read) "
		     "%s", in->ifname, d->effect);
	else
		addf(buf, size, "attaching an XDP program to %s %s", in->ifname, d->effect);
}

static int refuse(struct np_xdp_plan *out, const struct np_xdp_plan_in *in, int err,
		  const char *hint)
{
	char why[sizeof(out->msg)];

	snprintf(why, sizeof(why), "%s", out->msg);
	out->msg[0] = '\0';
	addf(out->msg, sizeof(out->msg), "refusing to attach XDP to %s: %s. %s", in->ifname, why,
	     hint);
	out->allowed = false;
	return err;
}

#define HINT_ACCEPT "Pass --xdp-accept-reset to accept that, or run trace without --xdp (its " \
		    "tracepoints change nothing)"
#define HINT_GENERIC "Pass --xdp-accept-reset to accept that; or --xdp-mode generic, which " \
		     "leaves the driver alone here (LRO and hardware GRO are off) but costs CPU " \
		     "for every packet; or run trace without --xdp (its tracepoints change nothing)"

int np_xdp_plan(const struct np_xdp_plan_in *in, struct np_xdp_plan *out)
{
	const struct np_xdp_driver *d = np_xdp_driver_lookup(in->driver);
	enum generic_cost gc = generic_cost(in, d);
	bool native_ok = d->risk == NP_XDP_RISK_NONE || in->accept_reset;
	bool generic_ok = gc == GEN_NOTHING || in->accept_reset;

	memset(out, 0, sizeof(*out));
	out->fallback = NP_XDP_MODE_AUTO;
	if (in->mode == NP_XDP_MODE_NATIVE && d->native == 0) {
		snprintf(out->msg, sizeof(out->msg), "%s has no native XDP on %s",
			 d->name[0] ? d->name : "the driver", in->ifname);
		return refuse(out, in, -EOPNOTSUPP, "Use --xdp-mode generic (or auto)");
	}
	if (in->mode == NP_XDP_MODE_GENERIC || (in->mode == NP_XDP_MODE_AUTO && d->native == 0)) {
		out->first = NP_XDP_MODE_GENERIC;
		generic_words(out->msg, sizeof(out->msg), in, d, gc);
		if (!generic_ok)
			return refuse(out, in, -ECANCELED, HINT_ACCEPT);
		out->acknowledged = gc != GEN_NOTHING;
		out->allowed = true;
		return 0;
	}
	out->first = NP_XDP_MODE_NATIVE;
	native_words(out->msg, sizeof(out->msg), in, d);
	if (!native_ok)
		return refuse(out, in, -ECANCELED, in->mode == NP_XDP_MODE_AUTO &&
			      gc == GEN_NOTHING ? HINT_GENERIC : HINT_ACCEPT);
	/* Auto falls back to generic when a driver of unknown abilities has no native XDP. */
	if (in->mode == NP_XDP_MODE_AUTO && d->native == -1 && generic_ok) {
		out->fallback = NP_XDP_MODE_GENERIC;
		out->acknowledged = gc != GEN_NOTHING;
		if (gc != GEN_NOTHING) {
			addf(out->msg, sizeof(out->msg), "; and if it has no native XDP, ");
			generic_words(out->msg, sizeof(out->msg), in, d, gc);
		}
	}
	out->acknowledged |= d->risk != NP_XDP_RISK_NONE;
	out->allowed = true;
	return 0;
}

int np_xdp_check_existing(const char *ifname, int attached, uint32_t prog_id, char *msg,
			  size_t len)
{
	const char *mode;

	switch (attached) {
	case XDP_ATTACHED_NONE:
		if (len)
			msg[0] = '\0';
		return 0;
	case XDP_ATTACHED_DRV: mode = "native mode"; break;
	case XDP_ATTACHED_SKB: mode = "generic mode"; break;
	case XDP_ATTACHED_HW: mode = "offloaded to the NIC"; break;
	case XDP_ATTACHED_MULTI: mode = "in several modes"; break;
	case -1:
		snprintf(msg, len, "refusing to attach XDP to %s: the kernel did not say whether "
			 "an XDP program is already attached there (no IFLA_XDP), and netpath "
			 "never risks replacing one", ifname);
		return -ENODATA;
	default: mode = "an unknown mode"; break;
	}
	snprintf(msg, len, "%s already has an XDP program attached (program id %u, %s): netpath "
		 "never replaces or detaches another program and left it untouched; run trace "
		 "without --xdp (`bpftool prog show id %u` tells whose it is)", ifname, prog_id,
		 mode, prog_id);
	return -EEXIST;
}

void np_xdp_counts_free(struct np_xdp_counts *c)
{
	free(c->per_queue);
	free(c->per_cpu);
	free(c->cells);
	np_xdp_sources_free(&c->sources);
	memset(c, 0, sizeof(*c));
}

int np_xdp_counts_fold(const struct np_xdp_slot *vals, size_t nslots, const int *cpu_ids,
		       size_t ncpu, struct np_xdp_counts *out)
{
	size_t nq = 0, nc = 0, ncell = 0;

	memset(out, 0, sizeof(*out));
	if ((!vals && nslots && ncpu) || (!cpu_ids && ncpu))
		return -EINVAL;
	for (size_t s = 0; s < nslots; s++) {
		bool any = false;

		for (size_t i = 0; i < ncpu; i++)
			if (vals[s * ncpu + i].packets) {
				any = true;
				ncell++;
			}
		nq += any;
	}
	for (size_t i = 0; i < ncpu; i++)
		for (size_t s = 0; s < nslots; s++)
			if (vals[s * ncpu + i].packets) {
				nc++;
				break;
			}
	out->per_queue = calloc(nq ? nq : 1, sizeof(*out->per_queue));
	out->per_cpu = calloc(nc ? nc : 1, sizeof(*out->per_cpu));
	out->cells = calloc(ncell ? ncell : 1, sizeof(*out->cells));
	if (!out->per_queue || !out->per_cpu || !out->cells) {
		np_xdp_counts_free(out);
		return -ENOMEM;
	}
	for (size_t s = 0; s < nslots; s++) {
		struct np_xdp_cell q = { .cpu = -1, .queue = (int)s };

		for (size_t i = 0; i < ncpu; i++) {
			const struct np_xdp_slot *v = &vals[s * ncpu + i];

			if (!v->packets)
				continue;
			q.packets += v->packets;
			q.bytes += v->bytes;
			out->cells[out->ncell++] = (struct np_xdp_cell){
				.cpu = cpu_ids[i], .queue = (int)s,
				.packets = v->packets, .bytes = v->bytes };
		}
		if (q.packets)
			out->per_queue[out->nqueue++] = q;
		out->packets += q.packets;
		out->bytes += q.bytes;
	}
	for (size_t i = 0; i < ncpu; i++) {
		struct np_xdp_cell c = { .cpu = cpu_ids[i], .queue = -1 };

		for (size_t s = 0; s < nslots; s++) {
			c.packets += vals[s * ncpu + i].packets;
			c.bytes += vals[s * ncpu + i].bytes;
		}
		if (c.packets)
			out->per_cpu[out->ncpu++] = c;
	}
	return 0;
}
