// SPDX-License-Identifier: GPL-2.0-only
/*
 * Why, the fix and its cost for each limit of `netpath path` (path_fix.h). The buffer sizes come
 * from sizing.h, as doctor's and plan's do, so the three agree; a proposal is never at or below
 * the value in force (raise.h's rule): the measured BDP understates the path's when a buffer held
 * the rate down, so the size proposed is the sizing rule (2x, rounded up to a MiB) applied to the
 * larger of the measured BDP and the buffer in force, which is always above the latter.
 */
#include "path_fix.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "raise.h"
#include "sizing.h"
#include "npfloor.h"

#define NP_PATH_BUF_CAP (1LL << 40)

const char *np_path_fmt_bps(double bps, char *buf, size_t size)
{
	static const char *const unit[] = { "bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s" };
	int u = 0;

	if (!isfinite(bps)) {
		snprintf(buf, size, "-");
		return buf;
	}
	while (fabs(bps) >= 1000 && u < 4) {
		bps /= 1000;
		u++;
	}
	snprintf(buf, size, bps >= 100 || u == 0 ? "%.0f %s" : "%.3g %s", bps, unit[u]);
	return buf;
}

const char *np_path_fmt_bytes(double bytes, char *buf, size_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	if (!isfinite(bytes)) {
		snprintf(buf, size, "-");
		return buf;
	}
	while (fabs(bytes) >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, size, bytes >= 100 || u == 0 ? "%.0f %s" : "%.3g %s", bytes, unit[u]);
	return buf;
}

/* "80% of the busy time", or what stands in for it on a kernel without the chrono counters. */
static const char *share_text(double share, char *buf, size_t size)
{
	if (isfinite(share))
		snprintf(buf, size, "%.0f%% of the busy time", 100 * share);
	else
		snprintf(buf, size, "(judged by its size: this kernel reports no limited times)");
	return buf;
}

static const char *host_of(const struct np_path_end *e, const char *side)
{
	return e->present && e->host[0] ? e->host : side;
}

/*
 * A buffer limit's fix: tcp_wmem (sender) or tcp_rmem (receiver) raised to the sizing rule's
 * value, keeping the min and default in force, and the core maximum for applications that set
 * the buffer themselves (SO_SNDBUF/SO_RCVBUF are capped by it and turn autotuning off).
 */
static void fix_buffer(const struct np_path_result *r, struct np_path_verdict *v, bool send)
{
	const struct np_path_end *e = send ? &r->sender : &r->receiver;
	const long long *cur = send ? e->tcp_wmem : e->tcp_rmem;
	long long core_cur = send ? e->wmem_max : e->rmem_max;
	const char *name = send ? "tcp_wmem" : "tcp_rmem", *core = send ? "wmem_max" : "rmem_max";
	bool have = e->present && cur[2] > 0;
	double base = isfinite(v->bdp_bytes) ? v->bdp_bytes : 0;
	int64_t want, core_want;
	unsigned streams = r->streams ? r->streams : 1;
	char b1[32], b2[32];
	int n;

	if (have && (double)cur[2] > base)
		base = (double)cur[2];
	/* The peer's numbers are bounded by nothing but their types: keep the sizing's integer
	 * arithmetic far from overflow (1 TiB is past any buffer a kernel would take). */
	if (base > (double)NP_PATH_BUF_CAP)
		base = (double)NP_PATH_BUF_CAP;
	want = np_size_tcp_buf_max(base);
	core_want = np_size_core_max(np_fmin(base, v->bdp_bytes), want);
	n = snprintf(v->fix, sizeof(v->fix), "on %s: sysctl -w net.ipv4.%s=\"%lld %lld %lld\"",
		     host_of(e, send ? "the sender" : "the receiver"), name,
		     have && cur[0] > 0 ? cur[0] : 4096,
		     have && cur[1] > 0 ? cur[1] : (send ? 16384 : 131072), (long long)want);
	if (!have && n > 0 && (size_t)n < sizeof(v->fix))
		n += snprintf(v->fix + n, sizeof(v->fix) - n,
			      "   # %s is not known there: raise its maximum to at least %lld if lower",
			      name, (long long)want);
	if (np_raise_cmp(e->present && core_cur > 0, core_cur, core_want) != NP_RAISE_ALREADY &&
	    n > 0 && (size_t)n < sizeof(v->fix))
		snprintf(v->fix + n, sizeof(v->fix) - n,
			 "; and, only for applications that set %s themselves, sysctl -w net.core.%s=%lld",
			 send ? "SO_SNDBUF" : "SO_RCVBUF", core, (long long)core_want);
	snprintf(v->cost, sizeof(v->cost),
		 "up to %s of kernel memory per stream that fills its buffer (%u stream%s: %s), "
		 "within net.ipv4.tcp_mem; autotuning grows only the buffers that need it",
		 np_path_fmt_bytes((double)want, b1, sizeof(b1)), streams, streams == 1 ? "" : "s",
		 np_path_fmt_bytes((double)want * streams, b2, sizeof(b2)));
}

/* Congestion: bbr with fq on a long RTT (sizing.h's NP_CC_LONG_RTT_MS) when not already. */
static void fix_congestion(const struct np_path_result *r, struct np_path_verdict *v)
{
	const struct np_path_end *e = &r->sender;
	const char *host = host_of(e, "the sender");
	bool bbr = e->present && !strcmp(e->cc, "bbr");
	bool fq = e->present && !strcmp(e->qdisc, "fq");

	if (isfinite(v->min_rtt_ms) && v->min_rtt_ms >= NP_CC_LONG_RTT_MS && !(bbr && fq)) {
		snprintf(v->fix, sizeof(v->fix),
			 "on %s: modprobe sch_fq && tc qdisc replace dev %s root fq && "
			 "modprobe tcp_bbr && sysctl -w net.ipv4.tcp_congestion_control=bbr   "
			 "# fq must be available (modprobe sch_fq); without it bbr paces inside TCP "
			 "(4.13+), at some CPU cost",
			 host, e->present && e->ifname[0] ? e->ifname : "IFACE");
		snprintf(v->cost, sizeof(v->cost),
			 "bbr keeps its rate through random loss: more retransmissions, and it can "
			 "take more than its share from %s flows on a shared bottleneck; fq adds "
			 "per-flow queues on the device",
			 e->present && e->cc[0] ? e->cc : "loss-based");
		return;
	}
	snprintf(v->fix, sizeof(v->fix),
		 "no setting on these hosts: the loss is on the path (%s%s); find the hop that "
		 "drops (its interface counters, netpath doctor on it)",
		 bbr ? "bbr already runs" : "the RTT is short for bbr to help",
		 bbr && !fq ? ", and fq would pace it better" : "");
	snprintf(v->cost, sizeof(v->cost), "none on these hosts");
}

void np_path_explain(const struct np_path_result *r, struct np_path_verdict *v, double rate,
		     double sndbuf, double snd_wnd)
{
	char br[32], bb[32], bx[32], cpu[16], sh[64];
	const struct np_path_end *e;
	const char *side;

	np_path_fmt_bps(rate, br, sizeof(br));
	np_path_fmt_bytes(v->bdp_bytes, bb, sizeof(bb));
	switch (v->limited_by) {
	case NP_LIMIT_SENDER_BUFFER:
		snprintf(v->why, sizeof(v->why),
			 "The sender's buffer was full %s; its %s send buffer "
			 "holds about what %s at %.1f ms needs (BDP %s), so it set the rate.",
			 share_text(v->share_sndbuf, sh, sizeof(sh)),
			 np_path_fmt_bytes(sndbuf, bx, sizeof(bx)), br, v->min_rtt_ms, bb);
		fix_buffer(r, v, true);
		break;
	case NP_LIMIT_RECEIVER_WINDOW:
		snprintf(v->why, sizeof(v->why),
			 "The receiver's window was full %s; it offered %s "
			 "against a BDP of %s (%s at %.1f ms), so it set the rate.",
			 share_text(v->share_rwnd, sh, sizeof(sh)), np_path_fmt_bytes(snd_wnd, bx, sizeof(bx)), bb, br,
			 v->min_rtt_ms);
		fix_buffer(r, v, false);
		break;
	case NP_LIMIT_CONGESTION:
		snprintf(v->why, sizeof(v->why),
			 "%.2f%% of the segments were retransmitted while the RTT stayed near its "
			 "minimum (%.1f against %.1f ms, no queue): losses on the path, not a full "
			 "bottleneck, set the rate of %s.",
			 100 * v->loss_rate, v->rtt_ms, v->min_rtt_ms,
			 r->sender.present && r->sender.cc[0] ? r->sender.cc : "congestion control");
		fix_congestion(r, v);
		break;
	case NP_LIMIT_POLICER:
		snprintf(v->why, sizeof(v->why),
			 "UDP steps: the delivered rate stayed at about %s while the offered rate "
			 "rose, losing the rest: a policer or a rate limit drops above it.",
			 np_path_fmt_bps(v->policer_bps, bx, sizeof(bx)));
		snprintf(v->fix, sizeof(v->fix),
			 "no setting on these hosts raises it; pace below it to avoid its bursts of "
			 "loss (tc qdisc replace dev %s root fq maxrate %.0fkbit on the sender), or "
			 "ask its owner for more",
			 r->sender.present && r->sender.ifname[0] ? r->sender.ifname : "IFACE",
			 v->policer_bps / 1000 * 0.95);
		snprintf(v->cost, sizeof(v->cost), "pacing caps every flow of that device at the rate");
		break;
	case NP_LIMIT_SENDER_CPU:
	case NP_LIMIT_RECEIVER_CPU:
		e = v->limited_by == NP_LIMIT_SENDER_CPU ? &r->sender : &r->receiver;
		side = v->limited_by == NP_LIMIT_SENDER_CPU ? "sender" : "receiver";
		snprintf(cpu, sizeof(cpu), "%.0f%%", 100 * e->softirq_busiest_share);
		snprintf(v->why, sizeof(v->why),
			 "One CPU of the %s spent %s of the test in interrupts and softirq: the "
			 "packet processing of the transfer ran out of CPU there.",
			 side, cpu);
		snprintf(v->fix, sizeof(v->fix),
			 "on %s: spread the work over more CPUs (RSS queues, RPS, IRQ affinity): see "
			 "its irq and softnet findings below and `netpath plan` there",
			 host_of(e, side));
		snprintf(v->cost, sizeof(v->cost), "more CPUs take interrupts and softirq work");
		break;
	case NP_LIMIT_NIC:
		snprintf(v->why, sizeof(v->why),
			 "The receiver dropped %.0f packets of its own during the test (NIC, softnet "
			 "or socket; its findings below say where) against %.2f%% of segments "
			 "retransmitted: the losses were local.",
			 isfinite(r->receiver.rx_drops) ? r->receiver.rx_drops : 0,
			 isfinite(v->loss_rate) ? 100 * v->loss_rate : 0);
		snprintf(v->fix, sizeof(v->fix),
			 "on %s: apply the remedies of its nic and softnet findings below (ring, "
			 "backlog, budget); `netpath plan` there writes them",
			 host_of(&r->receiver, "the receiver"));
		snprintf(v->cost, sizeof(v->cost), "memory for larger rings and backlogs");
		break;
	case NP_LIMIT_APPLICATION:
		snprintf(v->why, sizeof(v->why),
			 "%.0f%% of the samples were app-limited: the sending program did not keep "
			 "data queued, so neither the hosts' network settings nor the path set %s.",
			 100 * v->share_app_limited, br);
		snprintf(v->fix, sizeof(v->fix),
			 "none in the network: the sender's application (or its CPU) is the limit; "
			 "try --streams");
		snprintf(v->cost, sizeof(v->cost), "none");
		break;
	case NP_LIMIT_BOTTLENECK:
		snprintf(v->why, sizeof(v->why),
			 "No local limit: buffers and window were not full, %.2f%% loss, RTT %.1f ms "
			 "(min %.1f): the path delivers about %s.",
			 isfinite(v->loss_rate) ? 100 * v->loss_rate : 0, v->rtt_ms, v->min_rtt_ms, br);
		snprintf(v->fix, sizeof(v->fix),
			 "none on these hosts: %s is the path's rate (a faster link or a higher rate "
			 "limit upstream)", br);
		snprintf(v->cost, sizeof(v->cost), "none");
		break;
	default:
		break;
	}
}
