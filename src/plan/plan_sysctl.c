// SPDX-License-Identifier: GPL-2.0-only
/* The plan's sysctls of the receive path: buffers from the BDP, socket memory in pages from
 * RAM, the backlog and budget, and the TCP behaviour a profile wants. */
#include "plan_priv.h"
#include "raise.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* The kernel's tcp_rmem[2] default (6 MiB): buffers above it were raised on purpose. */
#define TCP_RMEM_DEFAULT_MAX 6291456
/* A socket buffer limit is an int in the kernel; 1 GiB is 2 x BDP for 10 Gbit/s at 400 ms. */
#define BUF_CEILING (1LL << 30)

/* A sysctl line for key, its current value from the snapshot (NULL when the key was not read:
 * nothing is planned for a key this kernel may not have). */
static struct np_plan_line *sysctl_line(struct np_plan *p, const struct np_snapshot *s,
					enum np_stage st, enum np_sysctl_id id)
{
	const struct np_sysctl *e = np_sysctl_find(s, id);
	struct np_plan_line *l;

	if (!e || e->err)
		return NULL;
	l = np_plan_add(p, NP_PLAN_SYSCTL, st, np_sysctl_def(id)->key);
	if (!l)
		return NULL;
	snprintf(l->current, sizeof(l->current), "%s", e->raw);
	/* The host's value (a child namespace shows some read-only): set in the host's file. */
	l->host_wide = np_sysctl_def(id)->owner == NP_SYSCTL_OWNER_HOST;
	return l;
}

static int64_t num(const struct np_snapshot *s, enum np_sysctl_id id, bool *ok)
{
	return np_sysctl_int(s, id, 0, ok);
}

static void path_text(char *dst, size_t size, const struct np_plan *p)
{
	char b1[32], b2[32];

	np_plan_cat(dst, size, "BDP %s × %g ms = %s (bandwidth: %s; RTT: %s%s)",
		    np_fmt_bps(p->bw_bps, b1, sizeof(b1)), p->rtt_ms,
		    np_fmt_bytes(p->bdp, b2, sizeof(b2)), p->bw_source, p->rtt_source,
		    p->rtt_assumed ? ", pass --rtt for the real path" : "");
}

/* tcp_rmem / tcp_wmem max: 2 x BDP (sizing.h); *planned gets the max in force afterwards. */
static void tcp_buf(struct np_plan *p, const struct np_snapshot *s, bool recv, int64_t *planned)
{
	enum np_sysctl_id key = recv ? NP_SYSCTL_TCP_RMEM : NP_SYSCTL_TCP_WMEM;
	const char *kname = np_sysctl_def(key)->key;
	const char *check = recv ? "socket.tcp-rmem-bdp" : "socket.tcp-wmem-bdp";
	int64_t v[3], need;
	struct np_plan_line *l;
	char b1[32], b2[32];

	*planned = -1;
	if (!np_sysctl_vec(s, key, 3, v) || isnan(p->bdp))
		return;
	*planned = v[2];
	need = np_size_tcp_buf_max(p->bdp);
	if (need > BUF_CEILING)
		need = BUF_CEILING;
	if (v[2] >= need && v[2] <= INT_MAX) {
		/* Far above what the path needs and above the default: someone's insurance. */
		if (v[2] >= 4 * need && v[2] > TCP_RMEM_DEFAULT_MAX) {
			l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_SOCKET, kname);
			if (!l)
				return;
			snprintf(l->current, sizeof(l->current), "%lld %lld %lld", (long long)v[0],
				 (long long)v[1], (long long)v[2]);
			PLAN_CAT(l->why, "Kept: %s[2] = %s is %.0f× what this path needs (2 × BDP = "
				 "%s; ", kname + 9, np_fmt_bytes((double)v[2], b1, sizeof(b1)),
				 (double)v[2] / (double)need, np_fmt_bytes((double)need, b2,
									  sizeof(b2)));
			path_text(l->why, sizeof(l->why), p);
			PLAN_CAT(l->why, "). The rest is insurance for longer paths.");
			PLAN_CAT(l->cost, "None until used: autotuning grows only the buffers of "
				 "connections that need it, and tcp_mem caps them all together.");
		}
		return;
	}
	l = sysctl_line(p, s, NP_STAGE_SOCKET, key);
	if (!l)
		return;
	snprintf(l->planned, sizeof(l->planned), "%lld %lld %lld", (long long)v[0],
		 (long long)v[1], (long long)need);
	*planned = need;
	np_plan_checks(l, check, "socket.buffer-limits", NULL);
	if (v[2] > INT_MAX)
		PLAN_CAT(l->why, "The max is past what the kernel holds (2 GiB - 1): the line "
			 "would be rejected. ");
	PLAN_CAT(l->why, "%s max = 2 × BDP: ", recv ? "Receive" : "Send");
	path_text(l->why, sizeof(l->why), p);
	PLAN_CAT(l->why, recv ? ". TCP advertises about half of its receive buffer as window, "
		 "one window per RTT." : ". The send buffer holds every unacknowledged byte plus "
		 "skb overhead.");
	PLAN_CAT(l->moot, "%s", recv ? "Connections on short paths: autotuning never grows "
		 "their buffers this far." : "A host that mostly receives, or sends only nearby.");
	PLAN_CAT(l->cost, "Up to %s per busy connection in the worst case; tcp_mem caps all "
		 "TCP buffers together.", np_fmt_bytes((double)need, b1, sizeof(b1)));
}

/* rmem_max / wmem_max: the SO_RCVBUF / SO_SNDBUF ceiling (socket.rmem-max's rule: the BDP or
 * the TCP max in force, whichever is larger; the send side by the same rule with tcp_wmem). */
static void core_max(struct np_plan *p, const struct np_snapshot *s, bool recv, int64_t tcp_max)
{
	enum np_sysctl_id key = recv ? NP_SYSCTL_RMEM_MAX : NP_SYSCTL_WMEM_MAX;
	int64_t target, cur;
	struct np_plan_line *l;
	char b1[32];
	bool ok;

	if (tcp_max < 0 && isnan(p->bdp))
		return;
	target = np_size_core_max(p->bdp, tcp_max < 0 ? 0 : tcp_max);
	cur = num(s, key, &ok);
	/* Unknown or already there: a plan line needs the value in force (the checks' rule). */
	if (np_raise_cmp(ok, cur, target) != NP_RAISE_UP)
		return;
	l = sysctl_line(p, s, NP_STAGE_SOCKET, key);
	if (!l)
		return;
	snprintf(l->planned, sizeof(l->planned), "%lld", (long long)target);
	np_plan_checks(l, "socket.rmem-max", recv ? "socket.udp-rcvbuf" : NULL, NULL);
	PLAN_CAT(l->why, "The ceiling of %s: the BDP or %s[2], whichever is larger, so an "
		 "application that sizes its own buffer (%s) can get what autotuning would give. "
		 "It does not limit TCP autotuning.", recv ? "SO_RCVBUF" : "SO_SNDBUF",
		 recv ? "tcp_rmem" : "tcp_wmem", recv ? "UDP receivers, transfer tools" :
		 "UDP senders, transfer tools");
	PLAN_CAT(l->moot, "Applications that leave SO_%s alone (most TCP services).",
		 recv ? "RCVBUF" : "SNDBUF");
	PLAN_CAT(l->cost, "Nothing is allocated until a socket asks; then any unprivileged socket "
		 "may queue up to 2 × %s.", np_fmt_bytes((double)target, b1, sizeof(b1)));
}

/* tcp_mem / udp_mem: the kernel's default for this RAM when the values are wrong (pages!);
 * else, when buffers grow, what the total allows. */
static void mem_pages(struct np_plan *p, const struct np_snapshot *s, bool tcp, int64_t bufmax)
{
	enum np_sysctl_id key = tcp ? NP_SYSCTL_TCP_MEM : NP_SYSCTL_UDP_MEM;
	const char *kname = np_sysctl_def(key)->key;
	double page = np_has(s->hs->mem.page_size) && s->hs->mem.page_size ?
		      (double)s->hs->mem.page_size : 4096.0;
	double ram = np_has(s->hs->mem.mem_total) && s->hs->mem.mem_total ?
		     (double)s->hs->mem.mem_total : NAN;
	struct np_mem_judgement j;
	struct np_plan_line *l;
	int64_t v[3], want[3];
	char b1[32], b2[32];

	if (!np_sysctl_vec(s, key, 3, v))
		return;
	np_size_mem_judge(v, page, ram, tcp ? 2 : 0, &j);
	if ((j.too_big || j.too_small || j.disorder) && !isnan(ram)) {
		l = sysctl_line(p, s, NP_STAGE_SOCKET, key);
		if (!l)
			return;
		np_size_mem_pages(ram, page, tcp ? 16 : 8, want);
		snprintf(l->planned, sizeof(l->planned), "%lld %lld %lld", (long long)want[0],
			 (long long)want[1], (long long)want[2]);
		np_plan_checks(l, tcp ? "socket.tcp-mem" : "socket.udp-mem", NULL, NULL);
		PLAN_CAT(l->why, "%s is in pages of %.0f bytes: %s. This is the kernel's own "
			 "default for %s of RAM (RAM / %d pages at pressure).", kname + 9, page,
			 j.too_big ? "the current max is larger than the RAM, as if typed in "
			 "bytes" : j.too_small ? "the current limit is tiny for this RAM" :
			 "the current values are not increasing",
			 np_fmt_bytes(ram, b1, sizeof(b1)), tcp ? 16 : 8);
		PLAN_CAT(l->cost, "Up to %s of unswappable kernel memory for socket buffers.",
			 np_fmt_bytes((double)want[2] * page, b2, sizeof(b2)));
		return;
	}
	if (!tcp || bufmax <= TCP_RMEM_DEFAULT_MAX)
		return;
	l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_SOCKET, kname);
	if (!l)
		return;
	snprintf(l->current, sizeof(l->current), "%lld %lld %lld", (long long)v[0],
		 (long long)v[1], (long long)v[2]);
	PLAN_CAT(l->why, "Kept: tcp_mem[2] = %lld pages × %.0f B = %s caps all TCP buffers "
		 "together: about %.0f connections at the full %s at once. The kernel sized it "
		 "from RAM; raise it only if many connections must run at full window together.",
		 (long long)v[2], page, np_fmt_bytes((double)v[2] * page, b1, sizeof(b1)),
		 (double)v[2] * page / (double)bufmax,
		 np_fmt_bytes((double)bufmax, b2, sizeof(b2)));
}

/* netdev_max_backlog: what the link needs (softnet's rule), not a number from a blog. */
static void backlog(struct np_plan *p, const struct np_snapshot *s, const struct np_report *rep)
{
	bool ok, drops = np_plan_flagged(rep, "softnet.backlog-drops", NP_SEV_INFO);
	int64_t cur = num(s, NP_SYSCTL_NETDEV_MAX_BACKLOG, &ok);
	uint64_t want, floor;
	struct np_plan_line *l;
	char b1[32];

	if (!ok)
		return;
	want = np_size_backlog(s, cur);
	floor = np_size_backlog(s, 0);
	if (!drops && !np_plan_flagged(rep, "softnet.max-backlog", NP_SEV_INFO)) {
		if ((uint64_t)cur >= 4 * floor) {
			l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_SOFTNET,
					"net.core.netdev_max_backlog");
			if (!l)
				return;
			snprintf(l->current, sizeof(l->current), "%lld", (long long)cur);
			PLAN_CAT(l->why, "Kept: %lld is more than this link needs (%llu): a full "
				 "queue holds ~%.0f ms of packets at ~1 us each, so it adds latency "
				 "before the same loss when a CPU is overloaded.", (long long)cur,
				 (unsigned long long)floor, (double)cur / 1000.0);
		}
		return;
	}
	if (np_raise_cmp(true, cur, (int64_t)want) != NP_RAISE_UP)
		return;
	l = sysctl_line(p, s, NP_STAGE_SOFTNET, NP_SYSCTL_NETDEV_MAX_BACKLOG);
	if (!l)
		return;
	snprintf(l->planned, sizeof(l->planned), "%llu", (unsigned long long)want);
	np_plan_checks(l, "softnet.backlog-drops", "softnet.max-backlog", NULL);
	PLAN_CAT(l->why, "%s: double it, at least %llu %s. Not 250000 as tuning "
		 "guides copy: that is ~250 ms of queue per CPU at ~1 us a packet, latency that "
		 "hides an overloaded CPU instead of curing it.",
		 drops ? "Backlog drops were counted" : "1000 packets arrive in ~1.2 ms at 10 "
		 "Gbit/s", (unsigned long long)floor,
		 !np_has(s->dev.speed_mbps) || !s->dev.speed_mbps ? "(the link speed is not known)" :
		 s->dev.speed_mbps >= 10000 ? "on this 10G+ link" : "on this sub-10G link");
	PLAN_CAT(l->moot, "NIC traffic without RPS never passes this queue (only RPS, veth, "
		 "loopback, tunnels and other netif_rx() users do).");
	PLAN_CAT(l->cost, "Memory only while a queue is full, up to %s per CPU; queueing delay "
		 "of up to ~%.1f ms.", np_fmt_bytes((double)want * np_size_backlog_truesize(s), b1,
						  sizeof(b1)), (double)want / 1000.0);
	if (drops)
		PLAN_CAT(l->moot, " If the drops sit on one or two CPUs, spreading the work (more "
			 "RSS queues, RPS) is the cure; a longer queue only delays the loss.");
}

/* netdev_budget(_usecs): doubled when the softirq ran out of them during the sample. */
static void budget(struct np_plan *p, const struct np_snapshot *s, const struct np_report *rep)
{
	static const enum np_sysctl_id keys[] = { NP_SYSCTL_NETDEV_BUDGET,
						  NP_SYSCTL_NETDEV_BUDGET_USECS };

	if (!np_plan_flagged(rep, "softnet.time-squeeze", NP_SEV_WARNING))
		return;
	for (size_t i = 0; i < 2; i++) {
		bool ok;
		int64_t cur = num(s, keys[i], &ok);
		struct np_plan_line *l;

		if (np_raise_cmp(ok, cur, np_size_budget(cur)) != NP_RAISE_UP ||
		    !(l = sysctl_line(p, s, NP_STAGE_SOFTNET, keys[i])))
			continue;
		snprintf(l->planned, sizeof(l->planned), "%lld", (long long)np_size_budget(cur));
		np_plan_checks(l, "softnet.time-squeeze", NULL, NULL);
		PLAN_CAT(l->why, "The receive softirq ran out of its %s while packets waited "
			 "(time_squeeze during the sample): double it.",
			 i == 0 ? "packet budget" : "time budget");
		PLAN_CAT(l->moot, "CPUs that are simply saturated: a longer run moves the wait "
			 "elsewhere; spread the work instead.");
		PLAN_CAT(l->cost, "Longer softirq runs: applications on those CPUs wait up to "
			 "twice as long between runs.");
	}
}

/* A 0/1 style setting: key to want when the rule holds. */
static struct np_plan_line *flag(struct np_plan *p, const struct np_snapshot *s,
				 enum np_stage st, enum np_sysctl_id key, int64_t want, bool when)
{
	bool ok;
	int64_t cur = num(s, key, &ok);
	struct np_plan_line *l;

	if (!ok || !when || cur == want)
		return NULL;
	l = sysctl_line(p, s, st, key);
	if (l)
		snprintf(l->planned, sizeof(l->planned), "%lld", (long long)want);
	return l;
}

static void tcp_behaviour(struct np_plan *p, const struct np_snapshot *s)
{
	bool jumbo = np_has(s->dev.mtu) && s->dev.mtu > 1500;
	bool busy = p->profile == NP_PROFILE_BUSY_SERVER;
	bool far = p->rtt_ms >= NP_CC_LONG_RTT_MS;
	bool ok;
	int64_t ka = num(s, NP_SYSCTL_TCP_KEEPALIVE_TIME, &ok);
	struct np_plan_line *l;

	l = flag(p, s, NP_STAGE_SOCKET, NP_SYSCTL_TCP_MODERATE_RCVBUF, 1, true);
	if (l) {
		np_plan_checks(l, "socket.rcvbuf-autotuning", NULL, NULL);
		PLAN_CAT(l->why, "Receive autotuning back on: without it every connection keeps "
			 "tcp_rmem[1] and tcp_rmem[2] is never reached.");
		PLAN_CAT(l->cost, "Busy connections grow their buffers (memory), bounded by "
			 "tcp_mem.");
	}
	l = flag(p, s, NP_STAGE_CONGESTION, NP_SYSCTL_TCP_MTU_PROBING, 1, jumbo || far);
	if (l) {
		np_plan_checks(l, "congestion.mtu-probing", NULL, NULL);
		PLAN_CAT(l->why, "Recover from PMTU black holes (%s): TCP retries with smaller "
			 "segments instead of hanging after the handshake.",
			 jumbo ? "jumbo frames" : "a long multi-hop path");
		PLAN_CAT(l->moot, "Paths where ICMP 'fragmentation needed' always gets through.");
		PLAN_CAT(l->cost, "None on healthy paths: mode 1 probes only after a black hole "
			 "is seen.");
	}
	l = flag(p, s, NP_STAGE_CONGESTION, NP_SYSCTL_TCP_SLOW_START_AFTER_IDLE, 0,
		 p->rtt_ms >= NP_SSAI_RTT_MS);
	if (l) {
		np_plan_checks(l, "congestion.slow-start-after-idle", NULL, NULL);
		PLAN_CAT(l->why, "At %g ms an idle connection (HTTP/2, RPC, replication) restarts "
			 "from 10 segments and needs several RTTs to get back up to speed.",
			 p->rtt_ms);
		PLAN_CAT(l->moot, "Continuous bulk transfers; LAN paths, where a restart costs "
			 "microseconds.");
		PLAN_CAT(l->cost, "After idling, a connection may send its old window at once into "
			 "a path that changed; fq pacing softens the burst.");
	}
	if (ok && ka >= NP_KEEPALIVE_LATE_S &&
	    (busy || p->profile == NP_PROFILE_LONG_HAUL) &&
	    (l = sysctl_line(p, s, NP_STAGE_CONGESTION, NP_SYSCTL_TCP_KEEPALIVE_TIME))) {
		snprintf(l->planned, sizeof(l->planned), "%d", NP_KEEPALIVE_PLAN_S);
		np_plan_checks(l, "congestion.keepalive", NULL, NULL);
		PLAN_CAT(l->why, "NAT gateways, load balancers and firewalls forget idle flows "
			 "after 5-60 minutes; probes every 10 minutes keep them and find dead "
			 "peers.");
		PLAN_CAT(l->moot, "Sockets without SO_KEEPALIVE, and applications that set "
			 "TCP_KEEPIDLE themselves.");
		PLAN_CAT(l->cost, "One small probe per idle keepalive connection every 10 "
			 "minutes.");
	}
	l = flag(p, s, NP_STAGE_SOCKET, NP_SYSCTL_SOMAXCONN, 4096,
		 busy && num(s, NP_SYSCTL_SOMAXCONN, &ok) < 4096);
	if (l) {
		np_plan_checks(l, "socket.listen-overflow", NULL, NULL);
		PLAN_CAT(l->why, "The cap of every listen() backlog: bursts of new connections "
			 "overflow a short accept queue.");
		PLAN_CAT(l->moot, "Services that pass a small backlog to listen(): the smaller "
			 "value wins.");
		PLAN_CAT(l->cost, "A little memory per queued connection.");
	}
}

/* The settings a plan sizes but that this data does not hold (a sosreport without sysctl -a, a
 * tree copied without /proc/sys): said in one note, so that an empty plan never reads as
 * "nothing to change" when nothing could be judged. */
static void unread(struct np_plan *p, const struct np_snapshot *s)
{
	static const enum np_sysctl_id sized[] = {
		NP_SYSCTL_NETDEV_MAX_BACKLOG, NP_SYSCTL_NETDEV_BUDGET, NP_SYSCTL_TCP_RMEM,
		NP_SYSCTL_TCP_WMEM, NP_SYSCTL_RMEM_MAX, NP_SYSCTL_WMEM_MAX, NP_SYSCTL_TCP_MEM,
		NP_SYSCTL_UDP_MEM, NP_SYSCTL_TCP_CONGESTION_CONTROL,
	};
	struct np_plan_line *l = NULL;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(sized) / sizeof(*sized); i++) {
		const struct np_sysctl *e = np_sysctl_find(s, sized[i]);

		if (e && !e->err)
			continue;
		if (!l && !(l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_SOCKET, NP_PLAN_UNREAD)))
			return;
		PLAN_CAT(l->why, "%s%s", n++ ? ", " : "Not planned: ", np_sysctl_def(sized[i])->key);
	}
	if (l)
		PLAN_CAT(l->why, " could not be read from this data, and a plan needs the value in "
			 "force. Plan on the host itself, or on a capture or sosreport that holds "
			 "them (sysctl -a).");
}

void np_plan_sysctl_lines(struct np_plan *p, const struct np_analysis *a,
			  const struct np_report *rep)
{
	const struct np_snapshot *s = a->cur;
	int64_t rmem2, wmem2;

	backlog(p, s, rep);
	budget(p, s, rep);
	tcp_buf(p, s, true, &rmem2);
	tcp_buf(p, s, false, &wmem2);
	core_max(p, s, true, rmem2);
	core_max(p, s, false, wmem2);
	mem_pages(p, s, true, rmem2 > wmem2 ? rmem2 : wmem2);
	mem_pages(p, s, false, 0);
	if (isnan(p->bdp)) {
		struct np_plan_line *l = np_plan_add(p, NP_PLAN_NOTE, NP_STAGE_SOCKET,
						     "socket buffers");

		if (l)
			PLAN_CAT(l->why, "Not sized: no bandwidth is known (no --bandwidth, and %s "
				 "reports no link speed).", s->dev.name);
	}
	tcp_behaviour(p, s);
	unread(p, s);
}
